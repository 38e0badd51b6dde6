// RUN: tgc-opt %s --tgc-linearize | FileCheck %s
// Ops move to the innermost loop they depend on; reduces become
// accumulators.

// A row max needed by every column runs once per row, before the column
// loop; the row offset is computed once per row too.
// CHECK-LABEL: func @hoist_reduce(
//       CHECK:     %[[I:.*]] = tgc.range 4 global id 0
//       CHECK:     %[[ROW:.*]] = tgc.mul %[[I]], %{{.*}} : index
//       CHECK:     %[[ACC:.*]] = tgc.define_reg 1 : <f32, reg>
//       CHECK:     %[[SLOT:.*]] = tgc.index %[[ACC]][%{{.*}}] : <f32, reg>
//       CHECK:     %[[NEGINF:.*]] = tgc.const 0xFF800000 : f32
//       CHECK:     tgc.store %[[SLOT]], %[[NEGINF]]
//       CHECK:     %[[K:.*]] = tgc.range 8 reduce id 2
//       CHECK:     %[[X:.*]] = tgc.load
//       CHECK:     %[[OLD:.*]] = tgc.load %[[SLOT]]
//       CHECK:     %[[NEW:.*]] = tgc.max %[[OLD]], %[[X]] : f32
//       CHECK:     tgc.store %[[SLOT]], %[[NEW]]
//       CHECK:     tgc.end %[[K]]
//       CHECK:     %[[M:.*]] = tgc.load %[[SLOT]]
//       CHECK:     %[[J:.*]] = tgc.range 8 global id 1
//       CHECK:     tgc.sub %{{.*}}, %[[M]] : f32
//       CHECK:     tgc.end %[[J]]
//       CHECK:     tgc.end %[[I]]
func.func @hoist_reduce(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c8 = tgc.const 8 : index
    %i = tgc.range 4 global id 0
    %j = tgc.range 8 global id 1
    %row = tgc.mul %i, %c8 : index
    %a = tgc.add %row, %j : index
    %p = tgc.index %in[%a] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %r = tgc.range 8 reduce id 2
    %row2 = tgc.mul %i, %c8 : index
    %b = tgc.add %row2, %r : index
    %q = tgc.index %in[%b] : !tgc.ptr<f32>
    %w = tgc.load %q : !tgc.ptr<f32> -> f32
    tgc.end %r
    %m = tgc.reduce max %w over %r : f32
    %d = tgc.sub %v, %m : f32
    %o = tgc.index %out[%a] : !tgc.ptr<f32>
    tgc.store %o, %d : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<4x8xf32>
}

// A sum over two axes nests its loops; an add accumulator starts at 0. A
// value that does not depend on the reduce loops stays outside them.
// CHECK-LABEL: func @two_axis_sum(
//       CHECK:     %[[S:.*]] = tgc.load %{{.*}} : <f32> -> f32
//       CHECK:     %[[ACC:.*]] = tgc.define_reg 1
//       CHECK:     %[[SLOT:.*]] = tgc.index %[[ACC]]
//       CHECK:     %[[ZERO:.*]] = tgc.const 0.000000e+00 : f32
//       CHECK:     tgc.store %[[SLOT]], %[[ZERO]] : <f32, reg>, f32
//       CHECK:     %[[A:.*]] = tgc.range 3 reduce id 0
//       CHECK:     %[[B:.*]] = tgc.range 5 reduce id 1
//       CHECK:     %[[OLD:.*]] = tgc.load %[[SLOT]]
//       CHECK:     tgc.add %[[OLD]], %[[S]] : f32
//       CHECK:     tgc.end %[[B]]
//       CHECK:     tgc.end %[[A]]
func.func @two_axis_sum(%x: tensor<1xf32>) -> tensor<1xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<1xf32>) -> tensor<1xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %a = tgc.range 3 reduce id 0
    %b = tgc.range 5 reduce id 1
    %p = tgc.index %in[%c0] : !tgc.ptr<f32>
    %s = tgc.load %p : !tgc.ptr<f32> -> f32
    tgc.end %b
    tgc.end %a
    %sum = tgc.reduce add %s over %a, %b : f32
    %o = tgc.index %out[%c0] : !tgc.ptr<f32>
    tgc.store %o, %sum : !tgc.ptr<f32>, f32
    tgc.sink
  }
  return %k : tensor<1xf32>
}

// Identical pure ops in one loop merge; the same op in two reduce loops
// does not (each copy lives in its own loop).
// CHECK-LABEL: func @merge_duplicates(
//       CHECK:     %[[I:.*]] = tgc.range 4 global id 0
//       CHECK:     %[[E:.*]] = tgc.exp2
//   CHECK-NOT:     tgc.exp2
//       CHECK:     tgc.add %[[E]], %[[E]] : f32
func.func @merge_duplicates(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %i = tgc.range 4 global id 0
    %p = tgc.index %in[%i] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %e1 = tgc.exp2 %v : f32
    %p2 = tgc.index %in[%i] : !tgc.ptr<f32>
    %v2 = tgc.load %p2 : !tgc.ptr<f32> -> f32
    %e2 = tgc.exp2 %v2 : f32
    %s = tgc.add %e1, %e2 : f32
    %o = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// An integer max accumulator starts at the smallest value of its type.
// CHECK-LABEL: func @int_max(
//       CHECK:     tgc.const -2147483648 : si32
func.func @int_max(%x: tensor<4xsi32>) -> tensor<1xsi32> {
  %k = tgc.kernel "k" (%x) : (tensor<4xsi32>) -> tensor<1xsi32> {
  ^bb0(%in: !tgc.ptr<si32>, %out: !tgc.ptr<si32>):
    %c0 = tgc.const 0 : index
    %r = tgc.range 4 reduce id 0
    %p = tgc.index %in[%r] : !tgc.ptr<si32>
    %v = tgc.load %p : !tgc.ptr<si32> -> si32
    tgc.end %r
    %m = tgc.reduce max %v over %r : si32
    %o = tgc.index %out[%c0] : !tgc.ptr<si32>
    tgc.store %o, %m : !tgc.ptr<si32>, si32
    tgc.sink
  }
  return %k : tensor<1xsi32>
}

// A reduce of vectors: as many registers as lanes, accessed as one vector,
// initialized with the identity in every lane.
// CHECK-LABEL: func @vector_reduce(
//       CHECK:   %[[ACC:.*]] = tgc.define_reg 4 : <f32, reg>
//  CHECK-NEXT:   %[[C0:.*]] = tgc.const 0 : index
//  CHECK-NEXT:   %[[SLOT:.*]] = tgc.index %[[ACC]][%[[C0]]] : <f32, reg>
//  CHECK-NEXT:   %[[INIT:.*]] = tgc.const dense<0xFF800000> : vector<4xf32>
//  CHECK-NEXT:   tgc.store %[[SLOT]], %[[INIT]] : <f32, reg>, vector<4xf32>
//       CHECK:   %[[OLD:.*]] = tgc.load %[[SLOT]] : <f32, reg> -> vector<4xf32>
//  CHECK-NEXT:   %[[NEW:.*]] = tgc.max %[[OLD]], %{{.*}} : vector<4xf32>
//  CHECK-NEXT:   tgc.store %[[SLOT]], %[[NEW]] : <f32, reg>, vector<4xf32>
func.func @vector_reduce(%x: tensor<8x4xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "r_4_8" (%x) : (tensor<8x4xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c4 = tgc.const 4 : index
    %r = tgc.range 8 reduce id 0
    %a = tgc.mul %r, %c4 : index
    %p = tgc.index %in[%a] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> vector<4xf32>
    tgc.end %r
    %s = tgc.reduce max %v over %r : vector<4xf32>
    tgc.store %out, %s : !tgc.ptr<f32>, vector<4xf32>
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// Unrolled lanes that tgc-expand combined for one accumulator (marked
// folded_lanes) are folded into it one at a time, acc + p0 + p1 + p2, so
// each product can become an FMA into it; the combining adds go. An add
// that is not marked is added as it is.
// CHECK-LABEL: func @folded_lanes(
//       CHECK:     %[[SLOT:.*]] = tgc.index %{{.*}}[%{{.*}}] : <f32, reg>
//       CHECK:     %[[K:.*]] = tgc.range 2 reduce id 0
//       CHECK:     %[[P0:.*]] = tgc.mul %{{.*}}, %{{.*}} : f32
//       CHECK:     %[[P1:.*]] = tgc.mul %{{.*}}, %{{.*}} : f32
//       CHECK:     %[[B:.*]] = tgc.add %{{.*}}, %{{.*}} : f32
//       CHECK:     %[[P2:.*]] = tgc.mul %{{.*}}, %{{.*}} : f32
//  CHECK-NEXT:     %[[OLD:.*]] = tgc.load %[[SLOT]]
//  CHECK-NEXT:     %[[A0:.*]] = tgc.add %[[OLD]], %[[P0]] : f32
//  CHECK-NEXT:     %[[A1:.*]] = tgc.add %[[A0]], %[[P1]] : f32
//  CHECK-NEXT:     %[[A2:.*]] = tgc.add %[[A1]], %[[P2]] : f32
//  CHECK-NEXT:     %[[A3:.*]] = tgc.add %[[A2]], %[[B]] : f32
//  CHECK-NEXT:     tgc.store %[[SLOT]], %[[A3]]
//  CHECK-NEXT:     tgc.end %[[K]]
//   CHECK-NOT:     folded_lanes
//       CHECK:     tgc.sink
func.func @folded_lanes(%x: tensor<8xf32>) -> tensor<1xf32> {
  %k = tgc.kernel "r_2_3" (%x) : (tensor<8xf32>) -> tensor<1xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c1 = tgc.const 1 : index
    %c2 = tgc.const 2 : index
    %c3 = tgc.const 3 : index
    %r = tgc.range 2 reduce id 0
    %i0 = tgc.mul %r, %c3 : index
    %i1 = tgc.add %i0, %c1 : index
    %i2 = tgc.add %i0, %c2 : index
    %p0 = tgc.index %in[%i0] : !tgc.ptr<f32>
    %p1 = tgc.index %in[%i1] : !tgc.ptr<f32>
    %p2 = tgc.index %in[%i2] : !tgc.ptr<f32>
    %v0 = tgc.load %p0 : !tgc.ptr<f32> -> f32
    %v1 = tgc.load %p1 : !tgc.ptr<f32> -> f32
    %v2 = tgc.load %p2 : !tgc.ptr<f32> -> f32
    %m0 = tgc.mul %v0, %v0 : f32
    %m1 = tgc.mul %v1, %v1 : f32
    %m2 = tgc.mul %v2, %v2 : f32
    %b = tgc.add %v0, %v1 : f32
    %s01 = tgc.add %m0, %m1 {folded_lanes} : f32
    %s = tgc.add %s01, %m2 {folded_lanes} : f32
    %t = tgc.add %s, %b {folded_lanes} : f32
    tgc.end %r
    %sum = tgc.reduce add %t over %r : f32
    tgc.store %out, %sum : !tgc.ptr<f32>, f32
    tgc.sink
  }
  return %k : tensor<1xf32>
}
