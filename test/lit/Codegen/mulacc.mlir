// RUN: tgc-opt %s --tgc-mulacc | FileCheck %s
// add(mul(a, b), c) => mulacc(a, b, c) for floats when the product has no
// other use.

// CHECK-LABEL: func @fused(
//       CHECK:   %[[X:.*]] = tgc.load %{{.*}} : <f32> -> vector<4xf32>
//       CHECK:   %[[ACC:.*]] = tgc.load %{{.*}} : <f32, reg> -> vector<4xf32>
//   CHECK-NOT:   tgc.mul
//       CHECK:   %[[F:.*]] = tgc.mulacc %[[X]], %[[X]], %[[ACC]] : vector<4xf32>
//  CHECK-NEXT:   tgc.store %{{.*}}, %[[F]] : <f32, reg>, vector<4xf32>
func.func @fused(%xs: tensor<16xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "r_4_4" (%xs) : (tensor<16xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %c4 = tgc.const 4 : index
    %zero = tgc.const dense<0.0> : vector<4xf32>
    %acc = tgc.define_reg 4 : !tgc.ptr<f32, reg>
    %slot = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
    tgc.store %slot, %zero : !tgc.ptr<f32, reg>, vector<4xf32>
    %r = tgc.range 4 reduce id 0
    %a = tgc.mul %r, %c4 : index
    %p = tgc.index %in[%a] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> vector<4xf32>
    %sq = tgc.mul %x, %x : vector<4xf32>
    %old = tgc.load %slot : !tgc.ptr<f32, reg> -> vector<4xf32>
    %new = tgc.add %old, %sq : vector<4xf32>
    tgc.store %slot, %new : !tgc.ptr<f32, reg>, vector<4xf32>
    tgc.end %r
    %s = tgc.load %slot : !tgc.ptr<f32, reg> -> vector<4xf32>
    tgc.store %out, %s : !tgc.ptr<f32>, vector<4xf32>
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// A product read twice is computed once; integers have no fused form here.
// CHECK-LABEL: func @not_fused(
//   CHECK-NOT:   tgc.mulacc
//       CHECK:   tgc.sink
func.func @not_fused(%xs: tensor<2xf32>, %ys: tensor<2xsi32>) -> (tensor<2xf32>, tensor<1xsi32>) {
  %k:2 = tgc.kernel "E_2" (%xs, %ys) : (tensor<2xf32>, tensor<2xsi32>) -> (tensor<2xf32>, tensor<1xsi32>) {
  ^bb0(%in: !tgc.ptr<f32>, %ints: !tgc.ptr<si32>, %out: !tgc.ptr<f32>, %iout: !tgc.ptr<si32>):
    %c1 = tgc.const 1 : index
    %a = tgc.load %in : !tgc.ptr<f32> -> f32
    %sq = tgc.mul %a, %a : f32
    %b = tgc.add %sq, %a : f32
    tgc.store %out, %b : !tgc.ptr<f32>, f32
    %o1 = tgc.index %out[%c1] : !tgc.ptr<f32>
    tgc.store %o1, %sq : !tgc.ptr<f32>, f32
    %i = tgc.load %ints : !tgc.ptr<si32> -> si32
    %isq = tgc.mul %i, %i : si32
    %isum = tgc.add %isq, %i : si32
    tgc.store %iout, %isum : !tgc.ptr<si32>, si32
    tgc.sink
  }
  return %k#0, %k#1 : tensor<2xf32>, tensor<1xsi32>
}
