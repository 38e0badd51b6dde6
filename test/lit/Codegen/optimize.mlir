// RUN: tgc-opt %s --tgc-optimize | FileCheck %s
// RUN: tgc-opt %s --tgc-optimize="upcast=1" | FileCheck %s --check-prefix=NOOPT

// A reducing kernel gets its innermost output axis upcast by 4.
// CHECK-LABEL: func @upcast_matvec(
//       CHECK:   opts = ["UPCAST(0,4)"]
//       CHECK:     %[[O:.*]] = tgc.range 4 global id 0
//       CHECK:     %[[U:.*]] = tgc.range 4 upcast id 2
//       CHECK:     %[[S:.*]] = tgc.mul %[[O]], %{{.*}} : index
//       CHECK:     %[[I:.*]] = tgc.add %[[S]], %[[U]] : index
//       CHECK:     tgc.range 8 reduce id 1
//       CHECK:     tgc.end %[[U]]
//  CHECK-NEXT:     tgc.end %[[O]]
// NOOPT-LABEL: func @upcast_matvec(
//   NOOPT-NOT:   opts
//       NOOPT:     tgc.range 16 global id 0
func.func @upcast_matvec(%x: tensor<16x8xf32>) -> tensor<16xf32> {
  %k = tgc.kernel "r_16_8" (%x) : (tensor<16x8xf32>) -> tensor<16xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c8 = tgc.const 8 : index
    %i = tgc.range 16 global id 0
    %k = tgc.range 8 reduce id 1
    %row = tgc.mul %i, %c8 : index
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
  return %k : tensor<16xf32>
}

// Elementwise kernels, and axes not a multiple of 4, are left alone.
// CHECK-LABEL: func @not_elementwise(
//   CHECK-NOT:   opts
//       CHECK:     tgc.range 16 global id 0
func.func @not_elementwise(%x: tensor<16xf32>) -> tensor<16xf32> {
  %k = tgc.kernel "E_16" (%x) : (tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %i = tgc.range 16 global id 0
    %p = tgc.index %in[%i] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %o = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %o, %v : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<16xf32>
}

// CHECK-LABEL: func @not_multiple_of_four(
//   CHECK-NOT:   opts
//       CHECK:     tgc.range 10 global id 0
func.func @not_multiple_of_four(%x: tensor<10x8xf32>) -> tensor<10xf32> {
  %k = tgc.kernel "r_10_8" (%x) : (tensor<10x8xf32>) -> tensor<10xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c8 = tgc.const 8 : index
    %i = tgc.range 10 global id 0
    %k = tgc.range 8 reduce id 1
    %row = tgc.mul %i, %c8 : index
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
  return %k : tensor<10xf32>
}
