// RUN: tgc-opt %s --tgc-sink-broadcasts | FileCheck %s
// A broadcast of a loaded scalar (and the load, when only the broadcast
// reads it) moves to just before its first user: a register tile's rows
// one at a time.

// Two rows of a tile: each row's load and broadcast sit right before the
// multiply-add that reads them, not both ahead of the first.
// CHECK-LABEL: func @tile_rows(
//       CHECK:   tgc.range 16 reduce id 0
//       CHECK:   %[[W:.*]] = tgc.load %{{.*}} : <f32> -> vector<8xf32>
//       CHECK:   %[[OLD0:.*]] = tgc.load %{{.*}} : <f32, reg> -> vector<8xf32>
//  CHECK-NEXT:   %[[A0:.*]] = tgc.load %{{.*}} : <f32> -> f32
//  CHECK-NEXT:   %[[B0:.*]] = tgc.vectorize %[[A0]], %[[A0]]
//  CHECK-NEXT:   tgc.mulacc %[[B0]], %[[W]], %[[OLD0]]
//  CHECK-NEXT:   tgc.store
//  CHECK-NEXT:   %[[OLD1:.*]] = tgc.load %{{.*}} : <f32, reg> -> vector<8xf32>
//  CHECK-NEXT:   %[[A1:.*]] = tgc.load %{{.*}} : <f32> -> f32
//  CHECK-NEXT:   %[[B1:.*]] = tgc.vectorize %[[A1]], %[[A1]]
//  CHECK-NEXT:   tgc.mulacc %[[B1]], %[[W]], %[[OLD1]]
func.func @tile_rows(%a: tensor<32xf32>, %w: tensor<128xf32>) -> tensor<16xf32> {
  %k = tgc.kernel "r_2_8_16" (%a, %w) : (tensor<32xf32>, tensor<128xf32>) -> tensor<16xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %c8 = tgc.const 8 : index
    %c16 = tgc.const 16 : index
    %zero = tgc.const dense<0.0> : vector<8xf32>
    %acc0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %acc1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s0 = tgc.index %acc0[%c0] : !tgc.ptr<f32, reg>
    %s1 = tgc.index %acc1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    tgc.store %s1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %r = tgc.range 16 reduce id 0
    %i1 = tgc.add %r, %c16 : index
    %p0 = tgc.index %pa[%r] : !tgc.ptr<f32>
    %p1 = tgc.index %pa[%i1] : !tgc.ptr<f32>
    %a0 = tgc.load %p0 : !tgc.ptr<f32> -> f32
    %b0 = tgc.vectorize %a0, %a0, %a0, %a0, %a0, %a0, %a0, %a0 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %a1 = tgc.load %p1 : !tgc.ptr<f32> -> f32
    %b1 = tgc.vectorize %a1, %a1, %a1, %a1, %a1, %a1, %a1, %a1 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %wi = tgc.mul %r, %c8 : index
    %pw0 = tgc.index %pw[%wi] : !tgc.ptr<f32>
    %wv = tgc.load %pw0 : !tgc.ptr<f32> -> vector<8xf32>
    %old0 = tgc.load %s0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new0 = tgc.mulacc %b0, %wv, %old0 : vector<8xf32>
    tgc.store %s0, %new0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old1 = tgc.load %s1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new1 = tgc.mulacc %b1, %wv, %old1 : vector<8xf32>
    tgc.store %s1, %new1 : !tgc.ptr<f32, reg>, vector<8xf32>
    tgc.end %r
    %v0 = tgc.load %s0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %out, %v0 : !tgc.ptr<f32>, vector<8xf32>
    %o1 = tgc.index %out[%c8] : !tgc.ptr<f32>
    %v1 = tgc.load %s1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o1, %v1 : !tgc.ptr<f32>, vector<8xf32>
    tgc.sink
  }
  return %k : tensor<16xf32>
}

// What stays: a load past a store to a buffer (it may read what the store
// writes); a broadcast read inside a loop that starts after it (the loop
// would recompute it); a load another op reads too (only its broadcast
// moves).
// CHECK-LABEL: func @stays(
//       CHECK:   %[[X:.*]] = tgc.load %{{.*}} : <f32> -> f32
//  CHECK-NEXT:   %[[BX:.*]] = tgc.vectorize %[[X]], %[[X]], %[[X]], %[[X]]
//  CHECK-NEXT:   tgc.store %{{.*}} : <f32>, f32
//       CHECK:   %[[Y:.*]] = tgc.load %{{.*}} : <f32> -> f32
//  CHECK-NEXT:   %[[BY:.*]] = tgc.vectorize %[[Y]], %[[Y]], %[[Y]], %[[Y]]
//       CHECK:   %[[Z:.*]] = tgc.load %{{.*}} : <f32> -> f32
//  CHECK-NEXT:   %[[ZS:.*]] = tgc.add %[[Z]], %[[Z]] : f32
//  CHECK-NEXT:   %[[BZ:.*]] = tgc.vectorize %[[Z]], %[[Z]], %[[Z]], %[[Z]]
//  CHECK-NEXT:   tgc.add %[[BZ]], %[[BX]]
//       CHECK:   %[[R:.*]] = tgc.range 2 loop id 1
//       CHECK:   tgc.store %{{.*}}, %[[BY]]
//  CHECK-NEXT:   tgc.end %[[R]]
func.func @stays(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %k:2 = tgc.kernel "E_8" (%a) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%pa: !tgc.ptr<f32>, %out: !tgc.ptr<f32>, %out2: !tgc.ptr<f32>):
    %c1 = tgc.const 1 : index
    %c2 = tgc.const 2 : index
    %c4 = tgc.const 4 : index
    %one = tgc.const 1.0 : f32
    %x = tgc.load %pa : !tgc.ptr<f32> -> f32
    %bx = tgc.vectorize %x, %x, %x, %x : (f32, f32, f32, f32) -> vector<4xf32>
    tgc.store %out2, %one : !tgc.ptr<f32>, f32
    %py = tgc.index %pa[%c1] : !tgc.ptr<f32>
    %y = tgc.load %py : !tgc.ptr<f32> -> f32
    %by = tgc.vectorize %y, %y, %y, %y : (f32, f32, f32, f32) -> vector<4xf32>
    %pz = tgc.index %pa[%c2] : !tgc.ptr<f32>
    %z = tgc.load %pz : !tgc.ptr<f32> -> f32
    %bz = tgc.vectorize %z, %z, %z, %z : (f32, f32, f32, f32) -> vector<4xf32>
    %zs = tgc.add %z, %z : f32
    %sum = tgc.add %bz, %bx : vector<4xf32>
    tgc.store %out, %sum : !tgc.ptr<f32>, vector<4xf32>
    %pz2 = tgc.index %out2[%c1] : !tgc.ptr<f32>
    tgc.store %pz2, %zs : !tgc.ptr<f32>, f32
    %r = tgc.range 2 loop id 1
    %i = tgc.mul %r, %c4 : index
    %o = tgc.index %out2[%i] : !tgc.ptr<f32>
    tgc.store %o, %by : !tgc.ptr<f32>, vector<4xf32>
    tgc.end %r
    tgc.sink
  }
  return %k#0, %k#1 : tensor<8xf32>, tensor<8xf32>
}
