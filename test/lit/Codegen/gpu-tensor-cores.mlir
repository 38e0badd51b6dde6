// RUN: tgc-opt %s --split-input-file --tgc-gpu-optimize="tensor-core-tile=16" | FileCheck %s
// RUN: tgc-opt %s --split-input-file --tgc-gpu-optimize="tensor-core-tile=8" | FileCheck %s --check-prefix=METAL
// RUN: tgc-opt %s --split-input-file --tgc-gpu-optimize | FileCheck %s --check-prefix=NOTC
// RUN: not tgc-opt %s --split-input-file --tgc-gpu-optimize="actions=TC(0,1,2,16)" 2>&1 | FileCheck %s --check-prefix=NOUNIT
// RUN: tgc-opt %s --split-input-file --tgc-gpu-optimize="tensor-core-tile=16" --tgc-linearize --tgc-gpu-dims | FileCheck %s --check-prefix=DIMS
// RUN: not tgc-opt %s --split-input-file --tgc-optimize="actions=TC(0,1,2,16)" 2>&1 | FileCheck %s --check-prefix=CPU
// The TC action (TensorCores.h): a matmul or convolution on tensor cores,
// one warp of 32 threads per tile of the output, chosen by the GPU
// heuristic where the target has tensor cores (tensor-core-tile).

// A 40x48 matmul over K = 20, plus a bias and a ReLU. Tiles of 16: 3 x 3
// warps (the last row of tiles half padding); 3 steps of 8 along K, the
// last half padding. The threads stage the A tile (16 x 8: 4 elements
// each) and the B tile (8 x 16) into workgroup memory with the loads' own
// index expressions, gated where M or K run past the end; barrier; wmma;
// barrier. Then the accumulator goes to workgroup memory and each thread
// runs the bias, the ReLU and the store for its 8 elements of the tile.
// CHECK-LABEL: func @matmul_bias_relu(
//       CHECK:   opts = ["TC(0,1,2,16)"]
//       CHECK:   %[[TM:.*]] = tgc.range 3 global id 0
//       CHECK:   %[[TN:.*]] = tgc.range 3 global id 1
//       CHECK:   %[[LANE:.*]] = tgc.range 32 local id 3
//   CHECK-DAG:   %[[SA:.*]] = tgc.define_local 128 : <f32, local>
//   CHECK-DAG:   %[[SB:.*]] = tgc.define_local 128 : <f32, local>
//   CHECK-DAG:   %[[SC:.*]] = tgc.define_local 256 : <f32, local>
//   CHECK-DAG:   %[[ACC:.*]] = tgc.define_acc 16, 16 : <f32, reg>
//       CHECK:   %[[KT:.*]] = tgc.range 3 reduce id 2
// The A tile: rows of M (gated: 40 is no multiple of 16), columns of K
// (gated: 20 is no multiple of 8).
//       CHECK:     tgc.range 4 reduce id 4
//       CHECK:     tgc.cmplt %{{.*}}, %{{.*}} : index
//       CHECK:     tgc.and
//       CHECK:     %[[PA:.*]] = tgc.index %arg3[%{{.*}}], %{{.*}} : <f32>
//       CHECK:     %[[VA:.*]] = tgc.load %[[PA]] else %{{.*}} : <f32> -> f32
//       CHECK:     tgc.store %{{.*}}, %[[VA]] : <f32, local>, f32
//       CHECK:     tgc.end
// The B tile: rows of K (gated), columns of N (48: no gate).
//       CHECK:     tgc.range 4 reduce id 5
//       CHECK:     %[[PB:.*]] = tgc.index %arg4[%{{.*}}], %{{.*}} : <f32>
//       CHECK:     tgc.load %[[PB]] else
//       CHECK:     tgc.end
//       CHECK:     tgc.barrier
//  CHECK-NEXT:     tgc.wmma %[[ACC]], %[[SA]], %[[SB]] k 8 : <f32, reg>, <f32, local>
//  CHECK-NEXT:     tgc.barrier
//  CHECK-NEXT:   tgc.end %[[KT]]
//  CHECK-NEXT:   tgc.store_acc %[[SC]], %[[ACC]]
//  CHECK-NEXT:   tgc.barrier
// The tail: 8 elements a thread, rows past 40 skipped.
//       CHECK:   tgc.range 8 reduce id 6
//       CHECK:   tgc.if
//       CHECK:   tgc.load %{{.*}} : <f32, local> -> f32
//       CHECK:   tgc.index %arg5
//       CHECK:   tgc.add
//       CHECK:   tgc.max
//       CHECK:   tgc.store %{{.*}} : <f32>, f32
//       CHECK:   tgc.endif
//   CHECK-NOT:   tgc.reduce
// Metal's simdgroup matrices: tiles of 8, 5 x 6 of them, 2 elements a
// thread in each staged tile.
// METAL-LABEL: func @matmul_bias_relu(
//       METAL:   opts = ["TC(0,1,2,8)"]
//       METAL:   tgc.range 5 global id 0
//       METAL:   tgc.range 6 global id 1
//       METAL:   tgc.define_acc 8, 8
//       METAL:   tgc.range 2 reduce id 4
// Without tensor cores, the plain GPU heuristic.
// NOTC-LABEL: func @matmul_bias_relu(
//       NOTC:   opts = ["LOCAL(1,16)"
// A TC action that the target cannot run is an error.
// NOUNIT: TC(0,1,2,16) needs tiles of 16; this target's tensor cores take none
// CPU: tgc-optimize: TC is a GPU action (a CPU has no tensor cores)
// tgc-linearize leaves the TC kernel as it is; after tgc-gpu-dims the tiles
// are the grid, the warp the block.
// DIMS-LABEL: func @matmul_bias_relu(
//   DIMS-DAG:   tgc.special "gidx0" 3
//   DIMS-DAG:   tgc.special "gidx1" 3
//   DIMS-DAG:   tgc.special "lidx0" 32
//       DIMS:   tgc.wmma
func.func @matmul_bias_relu(%a: tensor<40x20xf32>, %b: tensor<20x48xf32>, %bias: tensor<48xf32>) -> tensor<40x48xf32> {
  %k = tgc.kernel "r_40_48_20" (%a, %b, %bias) : (tensor<40x20xf32>, tensor<20x48xf32>, tensor<48xf32>) -> tensor<40x48xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %pbias: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c20 = tgc.const 20 : index
    %c48 = tgc.const 48 : index
    %zero = tgc.const 0.0 : f32
    %i = tgc.range 40 global id 0
    %j = tgc.range 48 global id 1
    %k = tgc.range 20 reduce id 2
    %ai = tgc.mul %i, %c20 : index
    %ak = tgc.add %ai, %k : index
    %p = tgc.index %pa[%ak] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %bk = tgc.mul %k, %c48 : index
    %bj = tgc.add %bk, %j : index
    %q = tgc.index %pb[%bj] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %pbj = tgc.index %pbias[%j] : !tgc.ptr<f32>
    %bv = tgc.load %pbj : !tgc.ptr<f32> -> f32
    %t = tgc.add %s, %bv : f32
    %r = tgc.max %t, %zero : f32
    %oi = tgc.mul %i, %c48 : index
    %oj = tgc.add %oi, %j : index
    %o = tgc.index %out[%oj] : !tgc.ptr<f32>
    tgc.store %o, %r : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<40x48xf32>
}

// -----

// A 1-D convolution with padding 1: 16 output channels, 18 columns, 8 input
// channels and 3 taps. K is the input channels (the taps, 3, fill no step
// of 8, and stay a loop around the steps); M the output channels, whose
// only load is the weight; N the columns (the innermost output axis, so
// neighbouring threads store neighbouring elements), read through the
// input's padding gate, which the staged load keeps and ands with the
// tile's own bounds.
// CHECK-LABEL: func @conv1d(
//       CHECK:   opts = ["TC(0,1,2,16)"]
//       CHECK:   tgc.range 1 global id 0
//       CHECK:   tgc.range 2 global id 1
//       CHECK:   tgc.range 32 local
//       CHECK:   tgc.range 3 reduce id 3
//       CHECK:   tgc.range 1 reduce id 2
//       CHECK:   tgc.index %arg2
//       CHECK:   tgc.and
//       CHECK:   tgc.index %arg3[%{{.*}}], %{{.*}} : <f32>
//       CHECK:   tgc.wmma
// METAL-LABEL: func @conv1d(
//       METAL:   opts = ["TC(0,1,2,8)"]
func.func @conv1d(%w: tensor<16x8x3xf32>, %x: tensor<8x18xf32>) -> tensor<16x18xf32> {
  %k = tgc.kernel "r_16_18_8_3" (%w, %x) : (tensor<16x8x3xf32>, tensor<8x18xf32>) -> tensor<16x18xf32> {
  ^bb0(%pw: !tgc.ptr<f32>, %px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c1 = tgc.const 1 : index
    %c3 = tgc.const 3 : index
    %c18 = tgc.const 18 : index
    %c19 = tgc.const 19 : index
    %c24 = tgc.const 24 : index
    %zero = tgc.const 0.0 : f32
    %co = tgc.range 16 global id 0
    %ox = tgc.range 18 global id 1
    %ci = tgc.range 8 reduce id 2
    %kx = tgc.range 3 reduce id 3
    %xs = tgc.add %ox, %kx : index
    %lo = tgc.cmplt %c1, %xs : index
    %hi = tgc.cmplt %xs, %c19 : index
    %lo0 = tgc.cmpeq %xs, %c1 : index
    %ge = tgc.or %lo, %lo0 : i1
    %in = tgc.and %ge, %hi : i1
    %xc = tgc.mul %ci, %c18 : index
    %xa0 = tgc.add %xc, %xs : index
    %xa = tgc.sub %xa0, %c1 : index
    %p = tgc.index %px[%xa], %in : !tgc.ptr<f32>
    %a = tgc.load %p else %zero : !tgc.ptr<f32> -> f32
    %wo = tgc.mul %co, %c24 : index
    %wi = tgc.mul %ci, %c3 : index
    %wc = tgc.add %wo, %wi : index
    %wa = tgc.add %wc, %kx : index
    %q = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %kx
    tgc.end %ci
    %s = tgc.reduce add %m over %ci, %kx : f32
    %oc = tgc.mul %co, %c18 : index
    %oa = tgc.add %oc, %ox : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %ox
    tgc.end %co
    tgc.sink
  }
  return %k : tensor<16x18xf32>
}

// -----

// Not a sum of products (a max): no TC, the plain heuristic.
// CHECK-LABEL: func @not_tc_max(
//   CHECK-NOT:   TC(
//       CHECK:   opts = ["LOCAL
//   CHECK-NOT:   tgc.wmma
func.func @not_tc_max(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %k = tgc.kernel "r_32_32_32" (%a, %b) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c32 = tgc.const 32 : index
    %i = tgc.range 32 global id 0
    %j = tgc.range 32 global id 1
    %k = tgc.range 32 reduce id 2
    %ai = tgc.mul %i, %c32 : index
    %ak = tgc.add %ai, %k : index
    %p = tgc.index %pa[%ak] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %bk = tgc.mul %k, %c32 : index
    %bj = tgc.add %bk, %j : index
    %q = tgc.index %pb[%bj] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce max %m over %k : f32
    %oi = tgc.mul %i, %c32 : index
    %oj = tgc.add %oi, %j : index
    %o = tgc.index %out[%oj] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<32x32xf32>
}

// -----

// A matrix-vector product (the MLP's layers at batch 1): no M axis, so no
// tile to fill; the plain heuristic groups the reduction.
// CHECK-LABEL: func @not_tc_matvec(
//   CHECK-NOT:   TC(
//       CHECK:   opts = ["GROUP
func.func @not_tc_matvec(%v: tensor<784xf32>, %w: tensor<512x784xf32>) -> tensor<512xf32> {
  %k = tgc.kernel "r_512_784" (%v, %w) : (tensor<784xf32>, tensor<512x784xf32>) -> tensor<512xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c784 = tgc.const 784 : index
    %j = tgc.range 512 global id 0
    %k = tgc.range 784 reduce id 1
    %p = tgc.index %px[%k] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %row = tgc.mul %j, %c784 : index
    %wk = tgc.add %row, %k : index
    %q = tgc.index %pw[%wk] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %o = tgc.index %out[%j] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.sink
  }
  return %k : tensor<512xf32>
}
