// RUN: tgc-opt %s --split-input-file --tgc-gpu-dims | FileCheck %s

// An output axis split by LOCAL: the outer part is the block index, the
// inner one the thread index; both loops disappear.
// CHECK-LABEL: tgc.kernel "local"
//       CHECK:   %[[G:.*]] = tgc.special "gidx0" 2
//  CHECK-NEXT:   %[[L:.*]] = tgc.special "lidx0" 4
//   CHECK-NOT:   tgc.range
//       CHECK:   %[[GG:.*]] = tgc.mul %[[G]], %{{.*}} : index
//  CHECK-NEXT:   %[[I:.*]] = tgc.add %[[GG]], %[[L]] : index
//       CHECK:   tgc.store
//   CHECK-NOT:   tgc.end
//       CHECK:   tgc.sink
module {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %0 = tgc.kernel "local"(%x) {arena_offset = array<i64: -1>} : (tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c4 = tgc.const 4 : index
      %g = tgc.range 2 global id 0
      %gg = tgc.mul %g, %c4 : index
      %l = tgc.range 4 local id 1
      %i = tgc.add %gg, %l : index
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %n = tgc.neg %v : f32
      %q = tgc.index %out[%i] : !tgc.ptr<f32>
      tgc.store %q, %n : !tgc.ptr<f32>, f32
      tgc.end %l
      tgc.end %g
      tgc.sink
    }
    return %0 : tensor<8xf32>
  }
}

// -----

// Four output axes: the innermost is x, the two outermost share z, each
// read back with a division and a remainder.
// CHECK-LABEL: tgc.kernel "four"
//   CHECK-DAG:   %[[X:.*]] = tgc.special "gidx0" 5
//   CHECK-DAG:   %[[Y:.*]] = tgc.special "gidx1" 4
//   CHECK-DAG:   %[[Z:.*]] = tgc.special "gidx2" 6
//   CHECK-DAG:   %[[C3:.*]] = tgc.const 3 : index
//   CHECK-DAG:   %[[R1:.*]] = tgc.mod %[[Z]], %[[C3]] : index
//   CHECK-DAG:   %[[R0:.*]] = tgc.idiv %[[Z]], %[[C3]] : index
//   CHECK-NOT:   tgc.range
//       CHECK:   tgc.mul %[[R0]]
//       CHECK:   tgc.mul %[[R1]]
//       CHECK:   tgc.mul %[[Y]]
//       CHECK:   tgc.add %{{.*}}, %[[X]] : index
module {
  func.func @main(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
    %0 = tgc.kernel "four"(%x) {arena_offset = array<i64: -1>} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c60 = tgc.const 60 : index
      %c20 = tgc.const 20 : index
      %c5 = tgc.const 5 : index
      %r0 = tgc.range 2 global id 0
      %r1 = tgc.range 3 global id 1
      %r2 = tgc.range 4 global id 2
      %r3 = tgc.range 5 global id 3
      %a = tgc.mul %r0, %c60 : index
      %b = tgc.mul %r1, %c20 : index
      %c = tgc.mul %r2, %c5 : index
      %ab = tgc.add %a, %b : index
      %abc = tgc.add %ab, %c : index
      %i = tgc.add %abc, %r3 : index
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %q = tgc.index %out[%i] : !tgc.ptr<f32>
      tgc.store %q, %v : !tgc.ptr<f32>, f32
      tgc.end %r3
      tgc.end %r2
      tgc.end %r1
      tgc.end %r0
      tgc.sink
    }
    return %0 : tensor<2x3x4x5xf32>
  }
}

// -----

// 70000 blocks do not fit along y (65535): the axis moves into x.
// CHECK-LABEL: tgc.kernel "tall"
//       CHECK:   %[[X:.*]] = tgc.special "gidx0" 140000
//   CHECK-NOT:   tgc.special
//   CHECK-DAG:   tgc.mod %[[X]], %{{.*}} : index
//   CHECK-DAG:   tgc.idiv %[[X]], %{{.*}} : index
module {
  func.func @main(%x: tensor<70000x2xf32>) -> tensor<70000x2xf32> {
    %0 = tgc.kernel "tall"(%x) {arena_offset = array<i64: -1>} : (tensor<70000x2xf32>) -> tensor<70000x2xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c2 = tgc.const 2 : index
      %r0 = tgc.range 70000 global id 0
      %r1 = tgc.range 2 global id 1
      %a = tgc.mul %r0, %c2 : index
      %i = tgc.add %a, %r1 : index
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %q = tgc.index %out[%i] : !tgc.ptr<f32>
      tgc.store %q, %v : !tgc.ptr<f32>, f32
      tgc.end %r1
      tgc.end %r0
      tgc.sink
    }
    return %0 : tensor<70000x2xf32>
  }
}

// -----

// GROUP(1,16) with LOCAL(0,2): 16 threads (x) share each row sum; each
// writes its partial to shared memory at its linear index and the 16
// partials of a row combine as a tree: in each step the lower half of the
// live threads (g < 8, 4, 2, 1) adds the partial half a step above its own,
// with a barrier after each; then every thread reads the row's slot, and
// thread g == 0 of the group stores.
// CHECK-LABEL: tgc.kernel "group"
//   CHECK-DAG:   %[[C1:.*]] = tgc.const 1 : index
//   CHECK-DAG:   %[[C8:.*]] = tgc.const 8 : index
//       CHECK:   %[[SMEM:.*]] = tgc.define_local 32 : <f32, local>
//       CHECK:   %[[G:.*]] = tgc.special "gidx0" 2
//       CHECK:   %[[GR:.*]] = tgc.special "lidx0" 16
//       CHECK:   %[[L:.*]] = tgc.special "lidx1" 2
//       CHECK:   %[[ACC:.*]] = tgc.index %{{.*}}[%{{.*}}] : <f32, reg>
//       CHECK:   tgc.range 4 reduce id 1
//       CHECK:   tgc.end
//       CHECK:   %[[BASE:.*]] = tgc.mul %[[L]], %{{.*}} : index
//  CHECK-NEXT:   %[[PART:.*]] = tgc.load %[[ACC]] : <f32, reg> -> f32
//  CHECK-NEXT:   %[[MINE:.*]] = tgc.add %[[BASE]], %[[GR]] : index
//  CHECK-NEXT:   %[[SLOT:.*]] = tgc.index %[[SMEM]][%[[MINE]]] : <f32, local>
//  CHECK-NEXT:   tgc.store %[[SLOT]], %[[PART]] : <f32, local>, f32
//  CHECK-NEXT:   tgc.barrier
//  CHECK-NEXT:   %[[LOW:.*]] = tgc.cmplt %[[GR]], %[[C8]] : index
//  CHECK-NEXT:   %[[UP:.*]] = tgc.add %[[GR]], %[[C8]] : index
//  CHECK-NEXT:   %[[UPI:.*]] = tgc.add %[[BASE]], %[[UP]] : index
//  CHECK-NEXT:   %[[TP:.*]] = tgc.index %[[SMEM]][%[[UPI]]], %[[LOW]] : <f32, local>
//  CHECK-NEXT:   %[[THEIRS:.*]] = tgc.load %[[TP]] : <f32, local> -> f32
//  CHECK-NEXT:   %[[OP:.*]] = tgc.index %[[SMEM]][%[[MINE]]] : <f32, local>
//  CHECK-NEXT:   %[[OWN:.*]] = tgc.load %[[OP]] : <f32, local> -> f32
//  CHECK-NEXT:   %[[SUM:.*]] = tgc.add %[[OWN]], %[[THEIRS]] : f32
//  CHECK-NEXT:   %[[SP:.*]] = tgc.index %[[SMEM]][%[[MINE]]], %[[LOW]] : <f32, local>
//  CHECK-NEXT:   tgc.store %[[SP]], %[[SUM]] : <f32, local>, f32
//  CHECK-NEXT:   tgc.barrier
//       CHECK:   tgc.barrier
//       CHECK:   tgc.barrier
//       CHECK:   tgc.cmplt %[[GR]], %[[C1]] : index
//       CHECK:   tgc.barrier
//  CHECK-NEXT:   %[[TOP:.*]] = tgc.index %[[SMEM]][%[[BASE]]] : <f32, local>
//  CHECK-NEXT:   %[[TOTAL:.*]] = tgc.load %[[TOP]] : <f32, local> -> f32
//  CHECK-NEXT:   tgc.store %[[ACC]], %[[TOTAL]] : <f32, reg>, f32
//  CHECK-NEXT:   %[[R:.*]] = tgc.load %[[ACC]] : <f32, reg> -> f32
//  CHECK-NEXT:   %[[FIRST:.*]] = tgc.cmpeq %[[GR]], %{{.*}} : index
//  CHECK-NEXT:   %[[OUT:.*]] = tgc.index %{{.*}}[%{{.*}}], %[[FIRST]] : <f32>
//  CHECK-NEXT:   tgc.store %[[OUT]], %[[R]] : <f32>, f32
//   CHECK-NOT:   tgc.barrier
module {
  func.func @main(%x: tensor<4x64xf32>) -> tensor<4x1xf32> {
    %0 = tgc.kernel "group"(%x) {arena_offset = array<i64: -1>} : (tensor<4x64xf32>) -> tensor<4x1xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c16 = tgc.const 16 : index
      %c2 = tgc.const 2 : index
      %c64 = tgc.const 64 : index
      %g = tgc.range 2 global id 0
      %gg = tgc.mul %g, %c2 : index
      %l = tgc.range 2 local id 2
      %row = tgc.add %gg, %l : index
      %base = tgc.mul %row, %c64 : index
      %acc = tgc.define_reg 1 : !tgc.ptr<f32, reg>
      %c0 = tgc.const 0 : index
      %slot = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
      %zero = tgc.const 0.0 : f32
      tgc.store %slot, %zero : !tgc.ptr<f32, reg>, f32
      %r = tgc.range 4 reduce id 1
      %rr = tgc.mul %r, %c16 : index
      %gr = tgc.range 16 group_reduce id 3
      %k = tgc.add %rr, %gr : index
      %i = tgc.add %base, %k : index
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %old = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
      %new = tgc.add %old, %v : f32
      tgc.store %slot, %new : !tgc.ptr<f32, reg>, f32
      tgc.end %gr
      tgc.end %r
      %sum = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
      %q = tgc.index %out[%row] : !tgc.ptr<f32>
      tgc.store %q, %sum : !tgc.ptr<f32>, f32
      tgc.end %l
      tgc.end %g
      tgc.sink
    }
    return %0 : tensor<4x1xf32>
  }
}

// -----

// GROUPTOP on a max over a group of 6, not a power of two: the group axis
// is the outer part of the reduction; the tree folds 6 partials to 3 (g < 3
// takes g + 3), 3 to 2 (g < 1 takes g + 2) and 2 to 1 (g < 1 takes g + 1).
// CHECK-LABEL: tgc.kernel "grouptop"
//   CHECK-DAG:   %[[C1:.*]] = tgc.const 1 : index
//   CHECK-DAG:   %[[C2:.*]] = tgc.const 2 : index
//   CHECK-DAG:   %[[C3:.*]] = tgc.const 3 : index
//       CHECK:   tgc.define_local 6 : <f32, local>
//       CHECK:   %[[GR:.*]] = tgc.special "lidx0" 6
//       CHECK:   tgc.range 8 reduce id 1
//       CHECK:   tgc.max
//       CHECK:   tgc.barrier
//  CHECK-NEXT:   tgc.cmplt %[[GR]], %[[C3]] : index
//  CHECK-NEXT:   tgc.add %[[GR]], %[[C3]] : index
//       CHECK:   tgc.max
//       CHECK:   tgc.barrier
//  CHECK-NEXT:   tgc.cmplt %[[GR]], %[[C1]] : index
//  CHECK-NEXT:   tgc.add %[[GR]], %[[C2]] : index
//       CHECK:   tgc.max
//       CHECK:   tgc.barrier
//  CHECK-NEXT:   tgc.cmplt %[[GR]], %[[C1]] : index
//  CHECK-NEXT:   tgc.add %[[GR]], %[[C1]] : index
//       CHECK:   tgc.max
//       CHECK:   tgc.barrier
//   CHECK-NOT:   tgc.barrier
//       CHECK:   tgc.cmpeq %[[GR]]
module {
  func.func @main(%x: tensor<4x48xf32>) -> tensor<4x1xf32> {
    %0 = tgc.kernel "grouptop"(%x) {arena_offset = array<i64: -1>} : (tensor<4x48xf32>) -> tensor<4x1xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c8 = tgc.const 8 : index
      %c48 = tgc.const 48 : index
      %g = tgc.range 4 global id 0
      %base = tgc.mul %g, %c48 : index
      %acc = tgc.define_reg 1 : !tgc.ptr<f32, reg>
      %c0 = tgc.const 0 : index
      %slot = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
      %ninf = tgc.const 0xFF800000 : f32
      tgc.store %slot, %ninf : !tgc.ptr<f32, reg>, f32
      %gr = tgc.range 6 group_reduce id 2
      %top = tgc.mul %gr, %c8 : index
      %r = tgc.range 8 reduce id 1
      %k = tgc.add %top, %r : index
      %i = tgc.add %base, %k : index
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %old = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
      %new = tgc.max %old, %v : f32
      tgc.store %slot, %new : !tgc.ptr<f32, reg>, f32
      tgc.end %r
      tgc.end %gr
      %m = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
      %q = tgc.index %out[%g] : !tgc.ptr<f32>
      tgc.store %q, %m : !tgc.ptr<f32>, f32
      tgc.end %g
      tgc.sink
    }
    return %0 : tensor<4x1xf32>
  }
}

// -----

// A grouped reduce inside a reduce loop runs again on every iteration: a
// barrier before the write keeps a fast thread from overwriting partials
// a slow one still reads.
// CHECK-LABEL: tgc.kernel "again"
//       CHECK:   tgc.range 3 reduce id 0
//       CHECK:   tgc.add %{{.*}}, %{{.*}} : f32
//  CHECK-NEXT:   tgc.store %{{.*}} : <f32, reg>, f32
//  CHECK-NEXT:   %[[PART:.*]] = tgc.load %{{.*}} : <f32, reg> -> f32
//  CHECK-NEXT:   tgc.barrier
//       CHECK:   tgc.store %{{.*}}, %[[PART]] : <f32, local>, f32
//  CHECK-NEXT:   tgc.barrier
module {
  func.func @main(%x: tensor<3x16xf32>) -> tensor<1xf32> {
    %0 = tgc.kernel "again"(%x) {arena_offset = array<i64: -1>} : (tensor<3x16xf32>) -> tensor<1xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c0 = tgc.const 0 : index
      %c16 = tgc.const 16 : index
      %zero = tgc.const 0.0 : f32
      %outer = tgc.define_reg 1 : !tgc.ptr<f32, reg>
      %oslot = tgc.index %outer[%c0] : !tgc.ptr<f32, reg>
      tgc.store %oslot, %zero : !tgc.ptr<f32, reg>, f32
      %o = tgc.range 3 reduce id 0
      %row = tgc.mul %o, %c16 : index
      %acc = tgc.define_reg 1 : !tgc.ptr<f32, reg>
      %slot = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
      tgc.store %slot, %zero : !tgc.ptr<f32, reg>, f32
      %gr = tgc.range 16 group_reduce id 1
      %i = tgc.add %row, %gr : index
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %old = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
      %new = tgc.add %old, %v : f32
      tgc.store %slot, %new : !tgc.ptr<f32, reg>, f32
      tgc.end %gr
      %s = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
      %sq = tgc.mul %s, %s : f32
      %oold = tgc.load %oslot : !tgc.ptr<f32, reg> -> f32
      %onew = tgc.add %oold, %sq : f32
      tgc.store %oslot, %onew : !tgc.ptr<f32, reg>, f32
      tgc.end %o
      %t = tgc.load %oslot : !tgc.ptr<f32, reg> -> f32
      %q = tgc.index %out[%c0] : !tgc.ptr<f32>
      tgc.store %q, %t : !tgc.ptr<f32>, f32
      tgc.sink
    }
    return %0 : tensor<1xf32>
  }
}

// -----

// Negative: a kernel with no output axis (a full reduction) has nothing
// to map; its reduce loop stays a loop of the one thread.
// CHECK-LABEL: tgc.kernel "scalar"
//   CHECK-NOT:   tgc.special
//       CHECK:   tgc.range 16 reduce id 0
//       CHECK:   tgc.end
module {
  func.func @main(%x: tensor<16xf32>) -> tensor<1xf32> {
    %0 = tgc.kernel "scalar"(%x) {arena_offset = array<i64: -1>} : (tensor<16xf32>) -> tensor<1xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c0 = tgc.const 0 : index
      %zero = tgc.const 0.0 : f32
      %acc = tgc.define_reg 1 : !tgc.ptr<f32, reg>
      %slot = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
      tgc.store %slot, %zero : !tgc.ptr<f32, reg>, f32
      %r = tgc.range 16 reduce id 0
      %p = tgc.index %in[%r] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %old = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
      %new = tgc.add %old, %v : f32
      tgc.store %slot, %new : !tgc.ptr<f32, reg>, f32
      tgc.end %r
      %s = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
      %q = tgc.index %out[%c0] : !tgc.ptr<f32>
      tgc.store %q, %s : !tgc.ptr<f32>, f32
      tgc.sink
    }
    return %0 : tensor<1xf32>
  }
}

// -----

// Negative: a kernel mapped already (it has specials) is left as it is.
// CHECK-LABEL: tgc.kernel "mapped"
//       CHECK:   tgc.special "gidx0" 4
//  CHECK-NEXT:   tgc.range 2 global id 1
module {
  func.func @main(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
    %0 = tgc.kernel "mapped"(%x) {arena_offset = array<i64: -1>} : (tensor<4x2xf32>) -> tensor<4x2xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %g = tgc.special "gidx0" 4
      %r = tgc.range 2 global id 1
      %c2 = tgc.const 2 : index
      %a = tgc.mul %g, %c2 : index
      %i = tgc.add %a, %r : index
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %q = tgc.index %out[%i] : !tgc.ptr<f32>
      tgc.store %q, %v : !tgc.ptr<f32>, f32
      tgc.end %r
      tgc.sink
    }
    return %0 : tensor<4x2xf32>
  }
}
