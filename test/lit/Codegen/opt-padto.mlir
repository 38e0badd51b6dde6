// PADTO: an axis of awkward length runs to a multiple of the amount, and
// every buffer access that moves with it is gated by the old bound. A load
// gated by that alone is marked `padding` (what it reads past the bound is
// never stored); a store, or a load gated by the model already, is not.
// RUN: tgc-opt %s --tgc-optimize="actions=PADTO(0,8)" | FileCheck %s
// RUN: not tgc-opt %s --tgc-optimize="actions=PADTO(1,4)" 2>&1 | FileCheck %s --check-prefix=REDUCE
// RUN: not tgc-opt %s --tgc-optimize="actions=PADTO(0,7)" 2>&1 | FileCheck %s --check-prefix=MULTIPLE

// CHECK-LABEL: func @row_sum(
//       CHECK:   {opts = ["PADTO(0,8)"], useful_share = 8.750000e-01 : f64}
//       CHECK:   %[[I:.*]] = tgc.range 8 global id 0
//  CHECK-NEXT:   %[[C7:.*]] = tgc.const 7 : index
//  CHECK-NEXT:   %[[V:.*]] = tgc.cmplt %[[I]], %[[C7]] : index
//       CHECK:   tgc.index %{{.*}}[%{{.*}}], %[[V]] padding : <f32>
//       CHECK:   tgc.index %{{.*}}[%[[I]]], %[[V]] : <f32>
//  CHECK-NEXT:   tgc.store
// REDUCE: cannot apply PADTO(1,4): only output axes are padded
// MULTIPLE: cannot apply PADTO(0,7): the axis is a multiple of the amount already
func.func @row_sum(%x: tensor<7x4xf32>) -> tensor<7xf32> {
  %k = tgc.kernel "r_7_4" (%x) : (tensor<7x4xf32>) -> tensor<7xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c4 = tgc.const 4 : index
    %i = tgc.range 7 global id 0
    %k = tgc.range 4 reduce id 1
    %row = tgc.mul %i, %c4 : index
    %a = tgc.add %row, %k : index
    %p = tgc.index %in[%a] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    tgc.end %k
    %s = tgc.reduce add %v over %k : f32
    %o = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<7xf32>
}

// A load the model gates (a pad of the row past its 6 elements) keeps the
// conjunction of both gates, unmarked: it must read its `else` value.
// CHECK-LABEL: func @shifted_row_sum(
//       CHECK:   %[[V:.*]] = tgc.cmplt %{{.*}}, %{{.*}} : index
//       CHECK:   %[[BOTH:.*]] = tgc.and %{{.*}}, %[[V]] : i1
//       CHECK:   tgc.index %{{.*}}[%{{.*}}], %[[BOTH]] : <f32>
func.func @shifted_row_sum(%x: tensor<7x4xf32>) -> tensor<7xf32> {
  %k = tgc.kernel "r_7_4" (%x) : (tensor<7x4xf32>) -> tensor<7xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c4 = tgc.const 4 : index
    %c6 = tgc.const 6 : index
    %i = tgc.range 7 global id 0
    %k = tgc.range 4 reduce id 1
    %row = tgc.mul %i, %c4 : index
    %a = tgc.add %row, %k : index
    %inside = tgc.cmplt %i, %c6 : index
    %p = tgc.index %in[%a], %inside : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    tgc.end %k
    %s = tgc.reduce add %v over %k : f32
    %o = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<7xf32>
}
