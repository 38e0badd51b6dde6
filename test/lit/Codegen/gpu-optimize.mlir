// RUN: tgc-opt %s --tgc-gpu-optimize | FileCheck %s
// RUN: tgc-opt %s --tgc-gpu-optimize="max-threads=64" | FileCheck %s --check-prefix=SMALL
// RUN: tgc-opt %s --tgc-gpu-optimize="heuristic=false" | FileCheck %s --check-prefix=NOOPT
// RUN: tgc-opt %s --tgc-gpu-optimize="actions=LOCAL(0,2)" | FileCheck %s --check-prefix=LISTED
// RUN: not tgc-opt %s --tgc-gpu-optimize="actions=THREAD(0,2)" 2>&1 | FileCheck %s --check-prefix=THREAD
// RUN: not tgc-opt %s --tgc-gpu-optimize="actions=ROLL(2,1)" 2>&1 | FileCheck %s --check-prefix=ROLL
// The GPU heuristic: workgroups of up to 256 threads (max-threads).

// A matmul with 256 outputs and a short reduction: no GROUP; the columns
// become 32 threads of a workgroup, the rows 8 more (256 in all).
// CHECK-LABEL: func @matmul(
//       CHECK:   opts = ["LOCAL(1,32)", "LOCAL(0,8)"]
//       CHECK:     tgc.range 8 local
//       CHECK:     tgc.range 32 local
// With 64 threads: 32 columns, 2 rows.
// SMALL-LABEL: func @matmul(
//       SMALL:   opts = ["LOCAL(1,32)", "LOCAL(0,2)"]
// NOOPT-LABEL: func @matmul(
//   NOOPT-NOT:   opts
// NOOPT-LABEL: func @row_sum(
// Listed actions replace the heuristic.
// LISTED-LABEL: func @matmul(
//       LISTED:   opts = ["LOCAL(0,2)"]
// THREAD: error: tgc-gpu-optimize: THREAD(0,2) is a CPU action
// ROLL: error: tgc-gpu-optimize: ROLL(2,1) is a CPU action
func.func @matmul(%a: tensor<8x4xf32>, %b: tensor<4x32xf32>) -> tensor<8x32xf32> {
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

// A row sum of 4 rows of 1024: too few outputs for a GPU, so 256 threads
// split each row (GROUP) and the 4 rows are 4 blocks; no thread is left
// for a LOCAL.
// CHECK-LABEL: func @row_sum(
//       CHECK:   opts = ["GROUP(1,256)"]
//       CHECK:     tgc.range 4 global id 0
//       CHECK:     tgc.range 4 reduce id 1
//       CHECK:     tgc.range 256 group_reduce id 2
// With 64 threads: a group of 64.
// SMALL-LABEL: func @row_sum(
//       SMALL:   opts = ["GROUP(1,64)"]
func.func @row_sum(%a: tensor<4x1024xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "r_4_1024" (%a) : (tensor<4x1024xf32>) -> tensor<4xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c1024 = tgc.const 1024 : index
    %i = tgc.range 4 global id 0
    %k = tgc.range 1024 reduce id 1
    %ai = tgc.mul %i, %c1024 : index
    %ak = tgc.add %ai, %k : index
    %p = tgc.index %pa[%ak] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    tgc.end %k
    %s = tgc.reduce add %x over %k : f32
    %o = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// An elementwise kernel of 100 elements: no power of two above 4 divides
// 100, so the axis is padded to 128, one workgroup, the accesses of the 28
// extra threads gated off.
// CHECK-LABEL: func @odd(
//       CHECK:   opts = ["PADTO(0,32)", "LOCAL(0,128)"]
//       CHECK:     %[[L:.*]] = tgc.range 128 local id 0
//       CHECK:     %[[C:.*]] = tgc.const 100 : index
//       CHECK:     %[[IN:.*]] = tgc.cmplt %[[L]], %[[C]] : index
//       CHECK:     tgc.index %{{.*}}[%[[L]]], %[[IN]] : <f32>
func.func @odd(%a: tensor<100xf32>) -> tensor<100xf32> {
  %k = tgc.kernel "E_100" (%a) : (tensor<100xf32>) -> tensor<100xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %i = tgc.range 100 global id 0
    %p = tgc.index %pa[%i] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %y = tgc.neg %x : f32
    %o = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %o, %y : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<100xf32>
}

// Negative: a kernel that records actions already is left alone.
// CHECK-LABEL: func @done(
//       CHECK:   opts = ["LOCAL(0,2)"]
//       CHECK:     tgc.range 2 local id 0
//   CHECK-NOT:     LOCAL
func.func @done(%a: tensor<2xf32>) -> tensor<2xf32> {
  %k = tgc.kernel "E_2" (%a) {opts = ["LOCAL(0,2)"]} : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %i = tgc.range 2 local id 0
    %p = tgc.index %pa[%i] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %o = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %o, %x : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<2xf32>
}
