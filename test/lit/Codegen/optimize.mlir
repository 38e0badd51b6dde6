// RUN: tgc-opt %s --tgc-optimize | FileCheck %s
// RUN: tgc-opt %s --tgc-optimize="upcast=1" | FileCheck %s --check-prefix=NOOPT

// A matmul gets a register tile: the rows (b does not depend on them) by 4
// and the columns (a does not depend on them) by up to 16.
// CHECK-LABEL: func @upcast_matmul(
//       CHECK:   opts = ["UPCAST(0,4)", "UPCAST(1,16)"]
//       CHECK:     %[[I:.*]] = tgc.range 2 global id 0
//       CHECK:     %[[IU:.*]] = tgc.range 4 upcast id 3
//       CHECK:     %[[IS:.*]] = tgc.mul %[[I]], %{{.*}} : index
//       CHECK:     %[[ROW:.*]] = tgc.add %[[IS]], %[[IU]] : index
//       CHECK:     %[[J:.*]] = tgc.range 2 global id 1
//       CHECK:     %[[JU:.*]] = tgc.range 16 upcast id 4
//       CHECK:     tgc.range 4 reduce id 2
//       CHECK:     tgc.end %[[JU]]
//  CHECK-NEXT:     tgc.end %[[J]]
//  CHECK-NEXT:     tgc.end %[[IU]]
//  CHECK-NEXT:     tgc.end %[[I]]
// NOOPT-LABEL: func @upcast_matmul(
//   NOOPT-NOT:   opts
//       NOOPT:     tgc.range 8 global id 0
func.func @upcast_matmul(%a: tensor<8x4xf32>, %b: tensor<4x32xf32>) -> tensor<8x32xf32> {
  %k = tgc.kernel "r_8_32_4" (%a, %b) : (tensor<8x4xf32>, tensor<4x32xf32>) -> tensor<8x32xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c4 = tgc.const 4 : index
    %c32 = tgc.const 32 : index
    %i = tgc.range 8 global id 0
    %j = tgc.range 32 global id 1
    %k = tgc.range 4 reduce id 2
    %ai = tgc.mul %i, %c4 : index
    %ak = tgc.add %ai, %k : index
    %p = tgc.index %pa[%ak] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %bk = tgc.mul %k, %c32 : index
    %bj = tgc.add %bk, %j : index
    %q = tgc.index %pb[%bj] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %oi = tgc.mul %i, %c32 : index
    %oj = tgc.add %oi, %j : index
    %o = tgc.index %out[%oj] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<8x32xf32>
}

// A row sum reads a different element for every output: nothing to reuse,
// nothing upcast.
// CHECK-LABEL: func @not_row_sum(
//   CHECK-NOT:   opts
//       CHECK:     tgc.range 16 global id 0
func.func @not_row_sum(%x: tensor<16x8xf32>) -> tensor<16xf32> {
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

// Elementwise kernels are left alone.
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

// An axis of prime length is not split.
// CHECK-LABEL: func @not_prime_length(
//   CHECK-NOT:   opts
//       CHECK:     tgc.range 7 global id 0
func.func @not_prime_length(%x: tensor<8xf32>) -> tensor<7xf32> {
  %k = tgc.kernel "r_7_8" (%x) : (tensor<8xf32>) -> tensor<7xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %i = tgc.range 7 global id 0
    %k = tgc.range 8 reduce id 1
    %p = tgc.index %in[%k] : !tgc.ptr<f32>
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
