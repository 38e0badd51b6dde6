// RUN: tgc-opt %s --tgc-optimize | FileCheck %s
// RUN: tgc-opt %s --tgc-optimize="vector-bytes=32 vector-registers=16" | FileCheck %s --check-prefix=AVX2
// RUN: tgc-opt %s --tgc-optimize="thread-tasks=4" | FileCheck %s --check-prefix=THREADS
// RUN: tgc-opt %s --tgc-optimize="heuristic=false" | FileCheck %s --check-prefix=NOOPT
// RUN: tgc-opt %s --tgc-optimize="thread-tasks=8" | FileCheck %s --check-prefix=THREADS8
// RUN: tgc-opt %s --tgc-optimize="vector-bytes=32 vector-registers=16 thread-tasks=8" | FileCheck %s --check-prefix=AVX2-THREADS8
// The heuristic for an AVX-512 CPU (the default: 64-byte vectors, 32
// registers) and an AVX2 one.

// A matmul: the columns (contiguous in b and in the output, a does not
// move along them) become vector lanes, two vectors per row; the rows
// (b does not move along them) a register tile of 16 / 2 accumulators.
// CHECK-LABEL: func @upcast_matmul(
//       CHECK:   opts = ["UPCAST(1,16)", "UPCAST(1,2)", "UPCAST(0,8)"]
//       CHECK:     %[[I:.*]] = tgc.range 8 upcast id 0
//       CHECK:     %[[J:.*]] = tgc.range 2 upcast id 1
//       CHECK:     %[[JU:.*]] = tgc.range 16 upcast id 3
//       CHECK:     tgc.range 4 reduce id 2
//       CHECK:     tgc.end %[[JU]]
//  CHECK-NEXT:     tgc.end %[[J]]
//  CHECK-NEXT:     tgc.end %[[I]]
// With 32-byte vectors and 16 registers: 8 lanes, 8 / 2 rows.
// AVX2-LABEL: func @upcast_matmul(
//       AVX2:   opts = ["UPCAST(1,8)", "UPCAST(1,2)", "UPCAST(0,4)"]
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

// A row sum reads a different element for every output, and the rows are
// not contiguous in memory: the reduce axis becomes vector lanes, summed
// once at the end; nothing to reuse, no register tile. Of 8 elements, 4
// lanes: 2 steps and 3 adds to combine them beat 1 step and 7 adds.
// CHECK-LABEL: func @row_sum(
//       CHECK:   opts = ["UNROLL(1,4)"]
//       CHECK:     tgc.range 16 global id 0
//       CHECK:     tgc.range 2 reduce id 1
//       CHECK:     tgc.range 4 unroll id 2
func.func @row_sum(%x: tensor<16x8xf32>) -> tensor<16xf32> {
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

// A long row sum is a chain of dependent adds per row (256 in 16 lanes:
// 16 of them, 4 cycles each): 8 rows side by side overlap their chains.
// CHECK-LABEL: func @row_sum_long(
//       CHECK:   opts = ["UNROLL(1,16)", "UPCAST(0,8)"]
//       CHECK:     tgc.range 2 global id 0
//       CHECK:     tgc.range 8 upcast id 3
//       CHECK:     tgc.range 16 reduce id
//       CHECK:     tgc.range 16 unroll id
func.func @row_sum_long(%x: tensor<16x256xf32>) -> tensor<16xf32> {
  %k = tgc.kernel "r_16_256" (%x) : (tensor<16x256xf32>) -> tensor<16xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c256 = tgc.const 256 : index
    %i = tgc.range 16 global id 0
    %k = tgc.range 256 reduce id 1
    %row = tgc.mul %i, %c256 : index
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

// An output axis of prime length cannot be split, but whole it is a
// register tile of 7 accumulators that share each vector load.
// CHECK-LABEL: func @prime_length(
//       CHECK:   opts = ["UNROLL(1,4)", "UPCAST(0,7)"]
//       CHECK:     tgc.range 7 upcast id 0
func.func @prime_length(%x: tensor<8xf32>) -> tensor<7xf32> {
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

// A matrix-vector product with the weights as [out, in] (Gemm transB): the
// reduce axis is contiguous in both inputs and becomes vector lanes (8 of
// its 64: 8 steps and 7 adds rather than 4 steps and 15 adds); the
// outputs, along which x does not move, a tile of 16 accumulators.
// CHECK-LABEL: func @gemv(
//       CHECK:   opts = ["UNROLL(1,8)", "UPCAST(0,16)"]
// Small kernels are not split across threads.
// THREADS-LABEL: func @gemv(
//   THREADS-NOT:   THREAD
//       THREADS:   return

// Big enough to be worth a thread pool: the outermost axis left after the
// register tile is split into 4 tasks.
// THREADS-LABEL: func @big_matmul(
//       THREADS:   opts = ["UPCAST(1,16)", "UPCAST(1,2)", "UPCAST(0,8)", "THREAD(0,4)"]
//       THREADS:     tgc.range 4 thread id 6
//       THREADS:     tgc.range 2 global id 0
// Without thread-tasks, no THREAD.
// CHECK-LABEL: func @big_matmul(
//       CHECK:   opts = ["UPCAST(1,16)", "UPCAST(1,2)", "UPCAST(0,8)"]
func.func @gemv(%xin: tensor<1x64xf32>, %w: tensor<32x64xf32>) -> tensor<1x32xf32> {
  %k = tgc.kernel "r_1_32_64" (%xin, %w) : (tensor<1x64xf32>, tensor<32x64xf32>) -> tensor<1x32xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c64 = tgc.const 64 : index
    %n = tgc.range 32 global id 0
    %k = tgc.range 64 reduce id 1
    %p = tgc.index %px[%k] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %wn = tgc.mul %n, %c64 : index
    %wk = tgc.add %wn, %k : index
    %q = tgc.index %pw[%wk] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %o = tgc.index %out[%n] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %n
    tgc.sink
  }
  return %k : tensor<1x32xf32>
}
func.func @big_matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %k = tgc.kernel "r_64_64_64" (%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c64 = tgc.const 64 : index
    %i = tgc.range 64 global id 0
    %j = tgc.range 64 global id 1
    %k = tgc.range 64 reduce id 2
    %ai = tgc.mul %i, %c64 : index
    %ak = tgc.add %ai, %k : index
    %p = tgc.index %pa[%ak] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %bk = tgc.mul %k, %c64 : index
    %bj = tgc.add %bk, %j : index
    %q = tgc.index %pb[%bj] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %oi = tgc.mul %i, %c64 : index
    %oj = tgc.add %oi, %j : index
    %o = tgc.index %out[%oj] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<64x64xf32>
}

// A normalization: each row's sum of squares, then the row scaled by it
// (and by a weight per column). The columns become vector lanes for the
// update, but no load of the reduction moves along them: the reduce axis
// is vectorized too (UNROLL), or the sum stays a chain of scalar adds.
// Threads split the rows: split by columns, every task would sum every
// row again.
// CHECK-LABEL: func @normalize_rows(
//       CHECK:   opts = ["UPCAST(1,16)", "UNROLL(2,16)"]
// THREADS-LABEL: func @normalize_rows(
//       THREADS:   opts = ["UPCAST(1,16)", "UNROLL(2,16)", "THREAD(0,4)"]
func.func @normalize_rows(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %g = tgc.const dense<2.0> : tensor<256xf32>
  %k = tgc.kernel "r_64_256_256" (%g, %x) : (tensor<256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32> {
  ^bb0(%gamma: !tgc.ptr<f32>, %in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c256 = tgc.const 256 : index
    %n = tgc.const 2.560000e+02 : f32
    %i = tgc.range 64 global id 0
    %j = tgc.range 256 global id 1
    %row = tgc.mul %i, %c256 : index
    %k = tgc.range 256 reduce id 2
    %a = tgc.add %row, %k : index
    %p = tgc.index %in[%a] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %sq = tgc.mul %v, %v : f32
    tgc.end %k
    %s = tgc.reduce add %sq over %k : f32
    %mean = tgc.fdiv %s, %n : f32
    %root = tgc.sqrt %mean : f32
    %scale = tgc.recip %root : f32
    %b = tgc.add %row, %j : index
    %q = tgc.index %in[%b] : !tgc.ptr<f32>
    %x0 = tgc.load %q : !tgc.ptr<f32> -> f32
    %gp = tgc.index %gamma[%j] : !tgc.ptr<f32>
    %gv = tgc.load %gp : !tgc.ptr<f32> -> f32
    %xs = tgc.mul %x0, %scale : f32
    %y = tgc.mul %xs, %gv : f32
    %o = tgc.index %out[%b] : !tgc.ptr<f32>
    tgc.store %o, %y : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<64x256xf32>
}

// A matrix-vector product with constant weights as [in, out] (MatMul): the
// outputs are contiguous in the weights and become vector lanes, but no
// axis reuses a loaded weight vector (one row of x): four vectors of the
// outputs accumulate side by side, so that their FMAs overlap instead of
// each waiting for the one before.
// CHECK-LABEL: func @matvec_weights(
//       CHECK:   opts = ["UPCAST(0,16)", "UPCAST(0,4)"]
func.func @matvec_weights(%xin: tensor<1x64xf32>) -> tensor<1x128xf32> {
  %w = tgc.const dense<0.5> : tensor<64x128xf32>
  %k = tgc.kernel "r_1_128_64" (%w, %xin) : (tensor<64x128xf32>, tensor<1x64xf32>) -> tensor<1x128xf32> {
  ^bb0(%pw: !tgc.ptr<f32>, %px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c128 = tgc.const 128 : index
    %n = tgc.range 128 global id 0
    %k = tgc.range 64 reduce id 1
    %p = tgc.index %px[%k] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %wk = tgc.mul %k, %c128 : index
    %wn = tgc.add %wk, %n : index
    %q = tgc.index %pw[%wn] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %o = tgc.index %out[%n] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %n
    tgc.sink
  }
  return %k : tensor<1x128xf32>
}

// A classifier's 1000 outputs (as ResNet-18's; weights [in, out] here,
// whose outputs are contiguous without a PACK): 125 vectors of 8 have no
// divisor up to 4, so 5 of them accumulate side by side rather than one.
//  AVX2-LABEL: func @matvec_1000_outputs(
//        AVX2:   opts = ["UPCAST(0,8)", "UPCAST(0,5)"]
func.func @matvec_1000_outputs(%xin: tensor<1x512xf32>) -> tensor<1x1000xf32> {
  %w = tgc.const dense<0.5> : tensor<512x1000xf32>
  %k = tgc.kernel "r_1_1000_512" (%w, %xin) : (tensor<512x1000xf32>, tensor<1x512xf32>) -> tensor<1x1000xf32> {
  ^bb0(%pw: !tgc.ptr<f32>, %px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c1000 = tgc.const 1000 : index
    %n = tgc.range 1000 global id 0
    %k = tgc.range 512 reduce id 1
    %p = tgc.index %px[%k] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %wk = tgc.mul %k, %c1000 : index
    %wn = tgc.add %wk, %n : index
    %q = tgc.index %pw[%wn] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %o = tgc.index %out[%n] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %n
    tgc.sink
  }
  return %k : tensor<1x1000xf32>
}

// The same classifier as ONNX's Gemm holds it, weights [out, in]: its
// 1000 outputs have no divisor of 16, so the lanes sum the 512 inputs.
// Its 2 MB weight, each element read once, streams from memory one row
// at a time, not 10 rows side by side (streamsWeightOnce).
// CHECK-LABEL: func @matvec_streamed_rows(
//       CHECK:   opts = ["UNROLL(1,16)"]
func.func @matvec_streamed_rows(%xin: tensor<1x512xf32>) -> tensor<1x1000xf32> {
  %w = tgc.const dense<0.5> : tensor<1000x512xf32>
  %k = tgc.kernel "r_1_1000_512" (%w, %xin) : (tensor<1000x512xf32>, tensor<1x512xf32>) -> tensor<1x1000xf32> {
  ^bb0(%pw: !tgc.ptr<f32>, %px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c512 = tgc.const 512 : index
    %n = tgc.range 1000 global id 0
    %k = tgc.range 512 reduce id 1
    %p = tgc.index %px[%k] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %wn = tgc.mul %n, %c512 : index
    %wk = tgc.add %wn, %k : index
    %q = tgc.index %pw[%wk] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %o = tgc.index %out[%n] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %n
    tgc.sink
  }
  return %k : tensor<1x1000xf32>
}

// A 200 KB weight of 100 rows keeps its register tile of 10 rows, which
// share each load of the input vector.
// CHECK-LABEL: func @matvec_cached_rows(
//       CHECK:   opts = ["UNROLL(1,16)", "UPCAST(0,10)"]
func.func @matvec_cached_rows(%xin: tensor<1x512xf32>) -> tensor<1x100xf32> {
  %w = tgc.const dense<0.5> : tensor<100x512xf32>
  %k = tgc.kernel "r_1_100_512" (%w, %xin) : (tensor<100x512xf32>, tensor<1x512xf32>) -> tensor<1x100xf32> {
  ^bb0(%pw: !tgc.ptr<f32>, %px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c512 = tgc.const 512 : index
    %n = tgc.range 100 global id 0
    %k = tgc.range 512 reduce id 1
    %p = tgc.index %px[%k] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %wn = tgc.mul %n, %c512 : index
    %wk = tgc.add %wn, %k : index
    %q = tgc.index %pw[%wk] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %o = tgc.index %out[%n] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %n
    tgc.sink
  }
  return %k : tensor<1x100xf32>
}

// A 1x1 convolution projecting to 32 channels (MobileNetV2's): the 784
// pixels are vector lanes, 16 channels a register tile. The channels left
// split into 2 tasks, the pixel blocks into 7: 7, though odd, because with
// 2 tasks a late thread delays the whole kernel and both tasks read all of
// the input.
// THREADS8-LABEL: func @projection_threads(
//       THREADS8:   opts = ["UPCAST(1,16)", "UPCAST(0,16)", "THREAD(1,7)"]
func.func @projection_threads(%x: tensor<64x784xf32>) -> tensor<32x784xf32> {
  %w = tgc.const dense<0.5> : tensor<32x64xf32>
  %k = tgc.kernel "r_32_784_64" (%w, %x) : (tensor<32x64xf32>, tensor<64x784xf32>) -> tensor<32x784xf32> {
  ^bb0(%pw: !tgc.ptr<f32>, %px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c64 = tgc.const 64 : index
    %c784 = tgc.const 784 : index
    %c = tgc.range 32 global id 0
    %p = tgc.range 784 global id 1
    %k = tgc.range 64 reduce id 2
    %wc = tgc.mul %c, %c64 : index
    %wk = tgc.add %wc, %k : index
    %q = tgc.index %pw[%wk] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %xk = tgc.mul %k, %c784 : index
    %xp = tgc.add %xk, %p : index
    %r = tgc.index %px[%xp] : !tgc.ptr<f32>
    %v = tgc.load %r : !tgc.ptr<f32> -> f32
    %m = tgc.mul %y, %v : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %oc = tgc.mul %c, %c784 : index
    %op = tgc.add %oc, %p : index
    %o = tgc.index %out[%op] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %p
    tgc.end %c
    tgc.sink
  }
  return %k : tensor<32x784xf32>
}

// A 1x1 convolution over a row of 7 pixels (ResNet's 7x7 stage). With 16
// accumulators (AVX-512) the tile is 2 vectors of output channels by the 7
// pixels. With AVX2's 8, two vectors would leave the pixels no divisor
// up to 4: 2 FMAs per 3 loads. One vector by 7 pixels makes 7 per 8
// (ResNet-18's 7x7 convolutions ran about 3x faster).
// CHECK-LABEL: func @pointwise_conv_row_of_7(
//       CHECK:   opts = ["UPCAST(0,16)", "UPCAST(0,2)", "UPCAST(1,7)"]
// AVX2-LABEL: func @pointwise_conv_row_of_7(
//       AVX2:   opts = ["UPCAST(0,8)", "UPCAST(1,7)"]
func.func @pointwise_conv_row_of_7(%x: tensor<64x7xf32>) -> tensor<32x7xf32> {
  %w = tgc.const dense<0.5> : tensor<64x32xf32>
  %k = tgc.kernel "r_32_7_64" (%x, %w) : (tensor<64x7xf32>, tensor<64x32xf32>) -> tensor<32x7xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c7 = tgc.const 7 : index
    %c32 = tgc.const 32 : index
    %co = tgc.range 32 global id 0
    %p = tgc.range 7 global id 1
    %ci = tgc.range 64 reduce id 2
    %xc = tgc.mul %ci, %c7 : index
    %xa = tgc.add %xc, %p : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %wc = tgc.mul %ci, %c32 : index
    %wa = tgc.add %wc, %co : index
    %wp = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %wp : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %ci
    %s = tgc.reduce add %m over %ci : f32
    %oc = tgc.mul %co, %c7 : index
    %oa = tgc.add %oc, %p : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %p
    tgc.end %co
    tgc.sink
  }
  return %k : tensor<32x7xf32>
}

// The same at 7x7, its 49 pixels one axis: AVX2's two vectors by 4
// pixels padded to 52 (a sixteenth idle) make 8 FMAs per 6 loads.
// CHECK-LABEL: func @pointwise_conv_7x7(
//       CHECK:   opts = ["UPCAST(0,16)", "UPCAST(0,2)", "UPCAST(1,7)"]
// AVX2-LABEL: func @pointwise_conv_7x7(
//       AVX2:   opts = ["UPCAST(0,8)", "UPCAST(0,2)", "PADTO(1,4)", "UPCAST(1,4)"]
func.func @pointwise_conv_7x7(%x: tensor<64x49xf32>) -> tensor<32x49xf32> {
  %w = tgc.const dense<0.5> : tensor<64x32xf32>
  %k = tgc.kernel "r_32_49_64" (%x, %w) : (tensor<64x49xf32>, tensor<64x32xf32>) -> tensor<32x49xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c49 = tgc.const 49 : index
    %c32 = tgc.const 32 : index
    %co = tgc.range 32 global id 0
    %p = tgc.range 49 global id 1
    %ci = tgc.range 64 reduce id 2
    %xc = tgc.mul %ci, %c49 : index
    %xa = tgc.add %xc, %p : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %wc = tgc.mul %ci, %c32 : index
    %wa = tgc.add %wc, %co : index
    %wp = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %wp : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %ci
    %s = tgc.reduce add %m over %ci : f32
    %oc = tgc.mul %co, %c49 : index
    %oa = tgc.add %oc, %p : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %p
    tgc.end %co
    tgc.sink
  }
  return %k : tensor<32x49xf32>
}

// A channels-last 1x1 convolution to 24 channels (MobileNetV2's
// projections in its 56x56 stage, from 96 or 144). No output axis takes
// 16 lanes, and its input channels would, summed lane by lane at the end
// of every output (53 GFLOP/s). Three vectors of 8 by 7 pixels, the weight
// packed along them and each pixel's channel broadcast to the three, ran
// 2.2x faster; two vectors of 16, 8 of their 32 lanes idle (padded, the
// weights zero-padded: sharedPaddedAxis), by 8 pixels, 1.04x faster again
// in the model. AVX2's 8 lanes take the output channels anyway, as three
// vectors by 4 pixels: 12 accumulators, three quarters of its registers
// (1.30x faster than one vector by 8 pixels on Zen 2).
// CHECK-LABEL: func @pointwise_conv_to_24_channels_last(
//       CHECK:   opts = ["PADTO(1,16)", "PACK(1,16,1)", "UPCAST(1,16)", "UPCAST(1,2)", "UPCAST(0,8)"]
// AVX2-LABEL: func @pointwise_conv_to_24_channels_last(
//       AVX2:   opts = ["PACK(1,24,1)", "UPCAST(1,8)", "UPCAST(1,3)", "UPCAST(0,4)"]
func.func @pointwise_conv_to_24_channels_last(%x: tensor<3136x16xf32>) -> tensor<3136x24xf32> {
  %w = tgc.const dense<"0x000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F0000C03F000000000000803E0000003F0000403F0000803F0000A03F"> : tensor<24x16xf32>
  %k = tgc.kernel "r_3136_24_16" (%x, %w) : (tensor<3136x16xf32>, tensor<24x16xf32>) -> tensor<3136x24xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c24 = tgc.const 24 : index
    %c16 = tgc.const 16 : index
    %p = tgc.range 3136 global id 0
    %co = tgc.range 24 global id 1
    %ci = tgc.range 16 reduce id 2
    %xp_ = tgc.mul %p, %c16 : index
    %xa = tgc.add %xp_, %ci : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %wc = tgc.mul %co, %c16 : index
    %wa = tgc.add %wc, %ci : index
    %wp = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %wp : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %ci
    %s = tgc.reduce add %m over %ci : f32
    %op_ = tgc.mul %p, %c24 : index
    %oa = tgc.add %op_, %co : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %co
    tgc.end %p
    tgc.sink
  }
  return %k : tensor<3136x24xf32>
}

// A channels-last 3x3 depthwise convolution: every load moves with the
// vector of channels, and the tile of pixels shares only the weights. Over
// a small input (14x14, 32 KB) the tile takes 7 pixels; over one of more
// than 512 KB (112x112, 1.6 MB), 2: MobileNetV2's depthwise convolutions
// over 600 KB to 4.8 MB ran 1.1-1.5x faster that way, those over 450 KB
// or less no faster.
// CHECK-LABEL: func @depthwise_channels_last_small(
//       CHECK:   opts = ["PACK(2,32,1)", "UPCAST(2,16)", "UPCAST(2,2)", "UPCAST(1,7)"]
func.func @depthwise_channels_last_small(%x: tensor<16x16x32xf32>) -> tensor<14x14x32xf32> {
  %w = tgc.const dense<"0x000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F"> : tensor<32x3x3xf32>
  %k = tgc.kernel "r_14_14_32_3_3" (%x, %w) : (tensor<16x16x32xf32>, tensor<32x3x3xf32>) -> tensor<14x14x32xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c3 = tgc.const 3 : index
    %c9 = tgc.const 9 : index
    %c32 = tgc.const 32 : index
    %cp = tgc.const 16 : index
    %cw = tgc.const 14 : index
    %h = tgc.range 14 global id 0
    %v = tgc.range 14 global id 1
    %c = tgc.range 32 global id 2
    %kh = tgc.range 3 reduce id 3
    %kw = tgc.range 3 reduce id 4
    %ih = tgc.add %h, %kh : index
    %iw = tgc.add %v, %kw : index
    %ir = tgc.mul %ih, %cp : index
    %ip = tgc.add %ir, %iw : index
    %ic = tgc.mul %ip, %c32 : index
    %xa = tgc.add %ic, %c : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %wc = tgc.mul %c, %c9 : index
    %wh = tgc.mul %kh, %c3 : index
    %wk = tgc.add %wc, %wh : index
    %wa = tgc.add %wk, %kw : index
    %wp = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %wp : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %kw
    tgc.end %kh
    %s = tgc.reduce add %m over %kh, %kw : f32
    %or = tgc.mul %h, %cw : index
    %op_ = tgc.add %or, %v : index
    %oc = tgc.mul %op_, %c32 : index
    %oa = tgc.add %oc, %c : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %c
    tgc.end %v
    tgc.end %h
    tgc.sink
  }
  return %k : tensor<14x14x32xf32>
}

// CHECK-LABEL: func @depthwise_channels_last_streamed(
//       CHECK:   opts = ["PACK(2,32,1)", "UPCAST(2,16)", "UPCAST(2,2)", "UPCAST(1,2)"]
func.func @depthwise_channels_last_streamed(%x: tensor<114x114x32xf32>) -> tensor<112x112x32xf32> {
  %w = tgc.const dense<"0x000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F0000A03F0000003F0000903F0000C03E0000803F0000803E0000603F0000003E0000403F000000000000203F"> : tensor<32x3x3xf32>
  %k = tgc.kernel "r_112_112_32_3_3" (%x, %w) : (tensor<114x114x32xf32>, tensor<32x3x3xf32>) -> tensor<112x112x32xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c3 = tgc.const 3 : index
    %c9 = tgc.const 9 : index
    %c32 = tgc.const 32 : index
    %cp = tgc.const 114 : index
    %cw = tgc.const 112 : index
    %h = tgc.range 112 global id 0
    %v = tgc.range 112 global id 1
    %c = tgc.range 32 global id 2
    %kh = tgc.range 3 reduce id 3
    %kw = tgc.range 3 reduce id 4
    %ih = tgc.add %h, %kh : index
    %iw = tgc.add %v, %kw : index
    %ir = tgc.mul %ih, %cp : index
    %ip = tgc.add %ir, %iw : index
    %ic = tgc.mul %ip, %c32 : index
    %xa = tgc.add %ic, %c : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %wc = tgc.mul %c, %c9 : index
    %wh = tgc.mul %kh, %c3 : index
    %wk = tgc.add %wc, %wh : index
    %wa = tgc.add %wk, %kw : index
    %wp = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %wp : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %kw
    tgc.end %kh
    %s = tgc.reduce add %m over %kh, %kw : f32
    %or = tgc.mul %h, %cw : index
    %op_ = tgc.add %or, %v : index
    %oc = tgc.mul %op_, %c32 : index
    %oa = tgc.add %oc, %c : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %c
    tgc.end %v
    tgc.end %h
    tgc.sink
  }
  return %k : tensor<112x112x32xf32>
}

// The same over 56x56 pixels of 144 channels (MobileNetV2's): 1.9 MB of
// input, but a vector's stripe of it (16 of the 144 channels) is 215 KB,
// within a quarter of L2. The tile keeps one vector by 2 pixels and writes
// the 9 taps out: each tap's weight vector is then a register across the
// pixels, which tgc-order-loops runs inside the vectors of channels (1.3-
// 1.7x faster inside the model). Over 112x112 pixels of 32 channels above,
// a stripe of 830 KB, the taps stay loops.
// CHECK-LABEL: func @depthwise_channels_last_stripes(
//       CHECK:   opts = ["PACK(2,16,1)", "UPCAST(2,16)", "UPCAST(1,2)", "UNROLL(3,3)", "UNROLL(4,3)"]
func.func @depthwise_channels_last_stripes(%x: tensor<58x58x144xf32>) -> tensor<56x56x144xf32> {
  %w = tgc.const dense<"0x000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F0000903F0000A03F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F0000803F"> : tensor<144x3x3xf32>
  %k = tgc.kernel "r_56_56_144_3_3" (%x, %w) : (tensor<58x58x144xf32>, tensor<144x3x3xf32>) -> tensor<56x56x144xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c3 = tgc.const 3 : index
    %c9 = tgc.const 9 : index
    %c144 = tgc.const 144 : index
    %cp = tgc.const 58 : index
    %cw = tgc.const 56 : index
    %h = tgc.range 56 global id 0
    %v = tgc.range 56 global id 1
    %c = tgc.range 144 global id 2
    %kh = tgc.range 3 reduce id 3
    %kw = tgc.range 3 reduce id 4
    %ih = tgc.add %h, %kh : index
    %iw = tgc.add %v, %kw : index
    %ir = tgc.mul %ih, %cp : index
    %ip = tgc.add %ir, %iw : index
    %ic = tgc.mul %ip, %c144 : index
    %xa = tgc.add %ic, %c : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %wc = tgc.mul %c, %c9 : index
    %wh = tgc.mul %kh, %c3 : index
    %wk = tgc.add %wc, %wh : index
    %wa = tgc.add %wk, %kw : index
    %wp = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %wp : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %kw
    tgc.end %kh
    %s = tgc.reduce add %m over %kh, %kw : f32
    %or = tgc.mul %h, %cw : index
    %op_ = tgc.add %or, %v : index
    %oc = tgc.mul %op_, %c144 : index
    %oa = tgc.add %oc, %c : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %c
    tgc.end %v
    tgc.end %h
    tgc.sink
  }
  return %k : tensor<56x56x144xf32>
}

// The same over a row of 14 pixels (a 14x14 stage). With 16 accumulators:
// 2 vectors by 7 pixels. With 8, two vectors leave the pixels only 2
// copies (1 FMA per load) and one vector 7 (7 per 8): four vectors by 2
// pixels make 8 per 6 (ResNet-18's stride-2 convolution to 14x14 ran
// 1.27x faster under BEAM that way).
// CHECK-LABEL: func @pointwise_conv_row_of_14(
//       CHECK:   opts = ["UPCAST(0,16)", "UPCAST(0,2)", "UPCAST(1,7)"]
// AVX2-LABEL: func @pointwise_conv_row_of_14(
//       AVX2:   opts = ["UPCAST(0,8)", "UPCAST(0,4)", "UPCAST(1,2)"]
func.func @pointwise_conv_row_of_14(%x: tensor<64x14xf32>) -> tensor<64x14xf32> {
  %w = tgc.const dense<0.5> : tensor<64x64xf32>
  %k = tgc.kernel "r_64_14_64" (%x, %w) : (tensor<64x14xf32>, tensor<64x64xf32>) -> tensor<64x14xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c14 = tgc.const 14 : index
    %c64 = tgc.const 64 : index
    %co = tgc.range 64 global id 0
    %p = tgc.range 14 global id 1
    %ci = tgc.range 64 reduce id 2
    %xc = tgc.mul %ci, %c14 : index
    %xa = tgc.add %xc, %p : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %wc = tgc.mul %ci, %c64 : index
    %wa = tgc.add %wc, %co : index
    %wp = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %wp : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %ci
    %s = tgc.reduce add %m over %ci : f32
    %oc = tgc.mul %co, %c14 : index
    %oa = tgc.add %oc, %p : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %p
    tgc.end %co
    tgc.sink
  }
  return %k : tensor<64x14xf32>
}

// A 1x1 convolution of 116 channels over 196 pixels (ShuffleNetV2's
// 14x14 stage), the pixels the vector lanes. With AVX2 one vector of
// pixels by the 4 channels that divide 116 keeps 4 of the 8 accumulators,
// each FMA waiting on the one before in its chain; two vectors by 4
// channels fill them (PADTO to pairs: 208 pixels, 1.5x faster on Zen 3).
// With tasks to split into, the pairs are padded to 14 (224 pixels): 13
// pairs and 29 blocks of channels are primes. AVX-512 pads the channels
// to 120 instead, 15 accumulators beside one vector.
// CHECK-LABEL: func @pointwise_conv_196_pixels(
//       CHECK:   opts = ["PADTO(1,16)", "UPCAST(1,16)", "PADTO(0,15)", "UPCAST(0,15)"]
// AVX2-LABEL: func @pointwise_conv_196_pixels(
//       AVX2:   opts = ["PADTO(1,16)", "UPCAST(1,8)", "UPCAST(1,2)", "UPCAST(0,4)"]
// AVX2-THREADS8-LABEL: func @pointwise_conv_196_pixels(
//       AVX2-THREADS8:   opts = ["PADTO(1,32)", "UPCAST(1,8)", "UPCAST(1,2)", "UPCAST(0,4)", "THREAD(1,7)"]
func.func @pointwise_conv_196_pixels(%x: tensor<116x196xf32>) -> tensor<116x196xf32> {
  %w = tgc.const dense<0.5> : tensor<116x116xf32>
  %k = tgc.kernel "r_116_196_116" (%x, %w) : (tensor<116x196xf32>, tensor<116x116xf32>) -> tensor<116x196xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c196 = tgc.const 196 : index
    %c116 = tgc.const 116 : index
    %co = tgc.range 116 global id 0
    %p = tgc.range 196 global id 1
    %ci = tgc.range 116 reduce id 2
    %xc = tgc.mul %ci, %c196 : index
    %xa = tgc.add %xc, %p : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %wc = tgc.mul %co, %c116 : index
    %wa = tgc.add %wc, %ci : index
    %wp = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %wp : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %ci
    %s = tgc.reduce add %m over %ci : f32
    %oc = tgc.mul %co, %c196 : index
    %oa = tgc.add %oc, %p : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %p
    tgc.end %co
    tgc.sink
  }
  return %k : tensor<116x196xf32>
}
// The same to 128 channels: one vector by 8 channels fills AVX2's
// accumulators, and the pixels stay single vectors (200 of them); the
// channels split into tasks.
// AVX2-LABEL: func @pointwise_conv_196_pixels_to_128(
//       AVX2:   opts = ["PADTO(1,8)", "UPCAST(1,8)", "UPCAST(0,8)"]
// AVX2-THREADS8-LABEL: func @pointwise_conv_196_pixels_to_128(
//       AVX2-THREADS8:   opts = ["PADTO(1,8)", "UPCAST(1,8)", "UPCAST(0,8)", "THREAD(0,8)"]
func.func @pointwise_conv_196_pixels_to_128(%x: tensor<116x196xf32>) -> tensor<128x196xf32> {
  %w = tgc.const dense<0.5> : tensor<128x116xf32>
  %k = tgc.kernel "r_128_196_116" (%x, %w) : (tensor<116x196xf32>, tensor<128x116xf32>) -> tensor<128x196xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c196 = tgc.const 196 : index
    %c116 = tgc.const 116 : index
    %co = tgc.range 128 global id 0
    %p = tgc.range 196 global id 1
    %ci = tgc.range 116 reduce id 2
    %xc = tgc.mul %ci, %c196 : index
    %xa = tgc.add %xc, %p : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %wc = tgc.mul %co, %c116 : index
    %wa = tgc.add %wc, %ci : index
    %wp = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %wp : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %ci
    %s = tgc.reduce add %m over %ci : f32
    %oc = tgc.mul %co, %c196 : index
    %oa = tgc.add %oc, %p : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %p
    tgc.end %co
    tgc.sink
  }
  return %k : tensor<128x196xf32>
}

// A transpose: the stores run along the rows of the output, the loads
// along its columns (rows of the input 32 floats apart). The loads' axis
// is upcast by a cache line (16 floats), so that each step reads whole
// lines and writes 16 rows; one element of a line a store, the copy ran
// 3.2x slower (attention's K^T, 256 x 128). The stores' axis is upcast by
// the lanes of tgc-transpose-lanes' square tiles, so each of the 16 rows
// takes a vector of consecutive elements: 16 with AVX-512, 8 with AVX2
// (1.4x faster than 4 on Zen 3).
// CHECK-LABEL: func @transpose_by_lines(
//       CHECK:   opts = ["UPCAST(0,16)", "UPCAST(1,16)"]
// AVX2-LABEL: func @transpose_by_lines(
//       AVX2:   opts = ["UPCAST(0,16)", "UPCAST(1,8)"]
func.func @transpose_by_lines(%x: tensor<64x32xf32>) -> tensor<32x64xf32> {
  %k = tgc.kernel "E_32_64" (%x) : (tensor<64x32xf32>) -> tensor<32x64xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c32 = tgc.const 32 : index
    %c64 = tgc.const 64 : index
    %j = tgc.range 32 global id 0
    %i = tgc.range 64 global id 1
    %xi = tgc.mul %i, %c32 : index
    %xa = tgc.add %xi, %j : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %oj = tgc.mul %j, %c64 : index
    %oa = tgc.add %oj, %i : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %a : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.end %j
    tgc.sink
  }
  return %k : tensor<32x64xf32>
}

// With math between the load and the store the copy takes no tiles: runs
// of 4 (Swin's normalized windows stored channels-first ran 7% slower with
// runs of 8).
// CHECK-LABEL: func @transpose_with_math(
//       CHECK:   opts = ["UPCAST(0,16)", "UPCAST(1,4)"]
// AVX2-LABEL: func @transpose_with_math(
//       AVX2:   opts = ["UPCAST(0,16)", "UPCAST(1,4)"]
func.func @transpose_with_math(%x: tensor<64x32xf32>) -> tensor<32x64xf32> {
  %k = tgc.kernel "E_32_64" (%x) : (tensor<64x32xf32>) -> tensor<32x64xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c32 = tgc.const 32 : index
    %c64 = tgc.const 64 : index
    %j = tgc.range 32 global id 0
    %i = tgc.range 64 global id 1
    %xi = tgc.mul %i, %c32 : index
    %xa = tgc.add %xi, %j : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %sq = tgc.mul %a, %a : f32
    %oj = tgc.mul %j, %c64 : index
    %oa = tgc.add %oj, %i : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %sq : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.end %j
    tgc.sink
  }
  return %k : tensor<32x64xf32>
}

// A residual add after the transpose (the ResNet block's last kernel,
// NHWC to NCHW with its shortcut, which is NCHW): the store and the
// shortcut are contiguous along the rows, the transposed input along the
// columns, so runs of 8 along both let the vector take the rows
// (kTransposeMathRun); a line of the columns took those, and every store
// went lane by lane.
// CHECK-LABEL: func @transpose_with_residual(
//       CHECK:   opts = ["UPCAST(0,8)", "UPCAST(1,8)"]
// AVX2-LABEL: func @transpose_with_residual(
//       AVX2:   opts = ["UPCAST(0,8)", "UPCAST(1,8)"]
func.func @transpose_with_residual(%x: tensor<64x32xf32>, %r: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %k = tgc.kernel "E_32_64" (%x, %r) : (tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pr: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c32 = tgc.const 32 : index
    %c64 = tgc.const 64 : index
    %zero = tgc.const 0.0 : f32
    %j = tgc.range 32 global id 0
    %i = tgc.range 64 global id 1
    %xi = tgc.mul %i, %c32 : index
    %xa = tgc.add %xi, %j : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %oj = tgc.mul %j, %c64 : index
    %oa = tgc.add %oj, %i : index
    %rp = tgc.index %pr[%oa] : !tgc.ptr<f32>
    %b = tgc.load %rp : !tgc.ptr<f32> -> f32
    %sum = tgc.add %a, %b : f32
    %relu = tgc.max %sum, %zero : f32
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %relu : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.end %j
    tgc.sink
  }
  return %k : tensor<32x64xf32>
}

// Output rows of 36 take no tile of 16 or 8 lanes: runs of 4, in 4 x 4
// tiles.
// CHECK-LABEL: func @transpose_rows_of_36(
//       CHECK:   opts = ["UPCAST(0,16)", "UPCAST(1,4)"]
// AVX2-LABEL: func @transpose_rows_of_36(
//       AVX2:   opts = ["UPCAST(0,16)", "UPCAST(1,4)"]
func.func @transpose_rows_of_36(%x: tensor<36x32xf32>) -> tensor<32x36xf32> {
  %k = tgc.kernel "E_32_36" (%x) : (tensor<36x32xf32>) -> tensor<32x36xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c32 = tgc.const 32 : index
    %c36 = tgc.const 36 : index
    %j = tgc.range 32 global id 0
    %i = tgc.range 36 global id 1
    %xi = tgc.mul %i, %c32 : index
    %xa = tgc.add %xi, %j : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %oj = tgc.mul %j, %c36 : index
    %oa = tgc.add %oj, %i : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %a : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.end %j
    tgc.sink
  }
  return %k : tensor<32x36xf32>
}

// A channels-first image of 8 channels copied to channels-last: each
// output row is 8 floats, half a line, beside the next, so the loop as it
// is stores one contiguous stream. Its loads' axis upcast by a line (and
// the channels by 4) made each step store 16 rows of 4 a row apart: 2.3x
// slower than no actions for 112x112 pixels, and 2-7x with 3, 4 or 16
// channels. 32 channels take the upcasts.
// CHECK-LABEL: func @short_rows_stay_a_stream(
//       CHECK:   tgc.kernel "E_112_112_8"
//   CHECK-NOT:   UPCAST
//       CHECK:   tgc.kernel "E_112_112_32"
//  CHECK-SAME:   opts = ["UPCAST(0,16)", "UPCAST(1,16)"]
func.func @short_rows_stay_a_stream(%x: tensor<8x112x112xf32>, %y: tensor<32x112x112xf32>) -> (tensor<112x112x8xf32>, tensor<112x112x32xf32>) {
  %k = tgc.kernel "E_112_112_8" (%x) : (tensor<8x112x112xf32>) -> tensor<112x112x8xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c8 = tgc.const 8 : index
    %c12544 = tgc.const 12544 : index
    %p = tgc.range 12544 global id 0
    %c = tgc.range 8 global id 1
    %ic = tgc.mul %c, %c12544 : index
    %i = tgc.add %ic, %p : index
    %xp = tgc.index %px[%i] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %op = tgc.mul %p, %c8 : index
    %o1 = tgc.add %op, %c : index
    %o = tgc.index %out[%o1] : !tgc.ptr<f32>
    tgc.store %o, %a : !tgc.ptr<f32>, f32
    tgc.end %c
    tgc.end %p
    tgc.sink
  }
  %l = tgc.kernel "E_112_112_32" (%y) : (tensor<32x112x112xf32>) -> tensor<112x112x32xf32> {
  ^bb0(%py: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c32 = tgc.const 32 : index
    %c12544 = tgc.const 12544 : index
    %p = tgc.range 12544 global id 0
    %c = tgc.range 32 global id 1
    %ic = tgc.mul %c, %c12544 : index
    %i = tgc.add %ic, %p : index
    %yp = tgc.index %py[%i] : !tgc.ptr<f32>
    %a = tgc.load %yp : !tgc.ptr<f32> -> f32
    %op = tgc.mul %p, %c32 : index
    %o1 = tgc.add %op, %c : index
    %o = tgc.index %out[%o1] : !tgc.ptr<f32>
    tgc.store %o, %a : !tgc.ptr<f32>, f32
    tgc.end %c
    tgc.end %p
    tgc.sink
  }
  return %k, %l : tensor<112x112x8xf32>, tensor<112x112x32xf32>
}

// A channels-last image of 24 channels copied to channels-first with a
// border (ShuffleNetV2's stem output before its max pool): 24 channels are
// no whole line, so the loads' axis is upcast by the largest power of two
// of one that divides it, 8 (0.27 -> 0.09 ms for 112x112 pixels); rows of
// 114 take no run of 4.
// CHECK-LABEL: func @transpose_by_half_lines(
//       CHECK:   opts = ["UPCAST(0,8)"]
func.func @transpose_by_half_lines(%x: tensor<112x112x24xf32>) -> tensor<24x114x114xf32> {
  %k = tgc.kernel "E_24_114_114" (%x) : (tensor<112x112x24xf32>) -> tensor<24x114x114xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %c113 = tgc.const 113 : index
    %c24 = tgc.const 24 : index
    %c114 = tgc.const 114 : index
    %c2688 = tgc.const 2688 : index
    %c12996 = tgc.const 12996 : index
    %m2712 = tgc.const -2712 : index
    %ninf = tgc.const 0xFF800000 : f32
    %c = tgc.range 24 global id 0
    %h = tgc.range 114 global id 1
    %w = tgc.range 114 global id 2
    %h0 = tgc.cmplt %c0, %h : index
    %h1 = tgc.cmplt %h, %c113 : index
    %w0 = tgc.cmplt %c0, %w : index
    %w1 = tgc.cmplt %w, %c113 : index
    %hin = tgc.and %h0, %h1 : i1
    %win = tgc.and %w0, %w1 : i1
    %in = tgc.and %hin, %win : i1
    %ih = tgc.mul %h, %c2688 : index
    %iw = tgc.mul %w, %c24 : index
    %ihw = tgc.add %ih, %iw : index
    %ihwc = tgc.add %ihw, %c : index
    %i = tgc.add %ihwc, %m2712 : index
    %p = tgc.index %px[%i], %in : !tgc.ptr<f32>
    %v = tgc.load %p else %ninf : !tgc.ptr<f32> -> f32
    %oc = tgc.mul %c, %c12996 : index
    %oh = tgc.mul %h, %c114 : index
    %och = tgc.add %oc, %oh : index
    %o1 = tgc.add %och, %w : index
    %o = tgc.index %out[%o1] : !tgc.ptr<f32>
    tgc.store %o, %v : !tgc.ptr<f32>, f32
    tgc.end %w
    tgc.end %h
    tgc.end %c
    tgc.sink
  }
  return %k : tensor<24x114x114xf32>
}

// A copy of a padded 3x230x230 image (ResNet-18's stem input) splits by
// rows, not along the innermost axis. 230 rows have no even divisor from
// 4 to 8: 5 tasks, not 2 (with 2, the copy ran slower on 2 threads than on
// 1: a late thread delays the whole kernel).
// THREADS8-LABEL: func @padded_image_threads(
//       THREADS8:   opts = ["THREAD(1,5)"]
func.func @padded_image_threads(%x: tensor<3x230x230xf32>) -> tensor<3x230x230xf32> {
  %k = tgc.kernel "E_3_230_230" (%x) : (tensor<3x230x230xf32>) -> tensor<3x230x230xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c230 = tgc.const 230 : index
    %c52900 = tgc.const 52900 : index
    %c = tgc.range 3 global id 0
    %h = tgc.range 230 global id 1
    %w = tgc.range 230 global id 2
    %ic = tgc.mul %c, %c52900 : index
    %ih = tgc.mul %h, %c230 : index
    %ich = tgc.add %ic, %ih : index
    %i = tgc.add %ich, %w : index
    %p = tgc.index %px[%i] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %o = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %o, %v : !tgc.ptr<f32>, f32
    tgc.end %w
    tgc.end %h
    tgc.end %c
    tgc.sink
  }
  return %k : tensor<3x230x230xf32>
}

// A channels-last image of 64 channels padded to 58x58 (ResNet-18's, 58 =
// 2 x 29): split 8 ways by channels each task would copy 8 floats, a
// quarter of a cache line, per pixel, so it splits 2 ways by rows.
// THREADS8-LABEL: func @channels_last_copy_threads(
//       THREADS8:   opts = ["THREAD(0,2)"]
func.func @channels_last_copy_threads(%x: tensor<58x58x64xf32>) -> tensor<58x58x64xf32> {
  %k = tgc.kernel "E_58_58_64" (%x) : (tensor<58x58x64xf32>) -> tensor<58x58x64xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c64 = tgc.const 64 : index
    %c3712 = tgc.const 3712 : index
    %h = tgc.range 58 global id 0
    %w = tgc.range 58 global id 1
    %c = tgc.range 64 global id 2
    %ih = tgc.mul %h, %c3712 : index
    %iw = tgc.mul %w, %c64 : index
    %ihw = tgc.add %ih, %iw : index
    %i = tgc.add %ihw, %c : index
    %p = tgc.index %px[%i] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %o = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %o, %v : !tgc.ptr<f32>, f32
    tgc.end %c
    tgc.end %w
    tgc.end %h
    tgc.sink
  }
  return %k : tensor<58x58x64xf32>
}

// 28 rows split into 4 tasks, two per thread, rather than 7 (four and
// three).
// THREADS8-LABEL: func @rows_of_28_threads(
//       THREADS8:   opts = ["THREAD(0,4)"]
func.func @rows_of_28_threads(%x: tensor<28x4800xf32>) -> tensor<28x4800xf32> {
  %k = tgc.kernel "E_28_4800" (%x) : (tensor<28x4800xf32>) -> tensor<28x4800xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c4800 = tgc.const 4800 : index
    %h = tgc.range 28 global id 0
    %w = tgc.range 4800 global id 1
    %ih = tgc.mul %h, %c4800 : index
    %i = tgc.add %ih, %w : index
    %p = tgc.index %px[%i] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %o = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %o, %v : !tgc.ptr<f32>, f32
    tgc.end %w
    tgc.end %h
    tgc.sink
  }
  return %k : tensor<28x4800xf32>
}

// Fewer iterations than the threshold (102400 of 131072) but five accesses
// each, as many as a copy of 256000: split (a Winograd output transform
// reads 36 values per 4x4 tile it writes).
// THREADS8-LABEL: func @many_loads_threads(
//       THREADS8:   opts = ["THREAD(0,8)"]
func.func @many_loads_threads(%a: tensor<64x1600xf32>, %b: tensor<64x1600xf32>, %c: tensor<64x1600xf32>, %d: tensor<64x1600xf32>) -> tensor<64x1600xf32> {
  %k = tgc.kernel "E_64_1600" (%a, %b, %c, %d) : (tensor<64x1600xf32>, tensor<64x1600xf32>, tensor<64x1600xf32>, tensor<64x1600xf32>) -> tensor<64x1600xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %pc: !tgc.ptr<f32>, %pd: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c1600 = tgc.const 1600 : index
    %h = tgc.range 64 global id 0
    %w = tgc.range 1600 global id 1
    %ih = tgc.mul %h, %c1600 : index
    %i = tgc.add %ih, %w : index
    %xa = tgc.index %pa[%i] : !tgc.ptr<f32>
    %va = tgc.load %xa : !tgc.ptr<f32> -> f32
    %xb = tgc.index %pb[%i] : !tgc.ptr<f32>
    %vb = tgc.load %xb : !tgc.ptr<f32> -> f32
    %xc = tgc.index %pc[%i] : !tgc.ptr<f32>
    %vc = tgc.load %xc : !tgc.ptr<f32> -> f32
    %xd = tgc.index %pd[%i] : !tgc.ptr<f32>
    %vd = tgc.load %xd : !tgc.ptr<f32> -> f32
    %ab = tgc.add %va, %vb : f32
    %cd = tgc.add %vc, %vd : f32
    %s = tgc.add %ab, %cd : f32
    %o = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %w
    tgc.end %h
    tgc.sink
  }
  return %k : tensor<64x1600xf32>
}

// The same iterations copied (two accesses each): not split.
// THREADS8-LABEL: func @copy_below_threads(
//   THREADS8-NOT:   THREAD
//       THREADS8:   return
func.func @copy_below_threads(%a: tensor<64x1600xf32>) -> tensor<64x1600xf32> {
  %k = tgc.kernel "E_64_1600" (%a) : (tensor<64x1600xf32>) -> tensor<64x1600xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c1600 = tgc.const 1600 : index
    %h = tgc.range 64 global id 0
    %w = tgc.range 1600 global id 1
    %ih = tgc.mul %h, %c1600 : index
    %i = tgc.add %ih, %w : index
    %xa = tgc.index %pa[%i] : !tgc.ptr<f32>
    %va = tgc.load %xa : !tgc.ptr<f32> -> f32
    %o = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %o, %va : !tgc.ptr<f32>, f32
    tgc.end %w
    tgc.end %h
    tgc.sink
  }
  return %k : tensor<64x1600xf32>
}

// Under half the threshold's iterations (32768), however many accesses
// (five each, 163840; a row read from four buffers): not split.
// THREADS8-LABEL: func @few_iterations_threads(
//   THREADS8-NOT:   THREAD
//       THREADS8:   return
func.func @few_iterations_threads(%a: tensor<32x1024xf32>, %b: tensor<32x1024xf32>, %c: tensor<32x1024xf32>, %d: tensor<32x1024xf32>) -> tensor<32x1024xf32> {
  %k = tgc.kernel "E_32_1024" (%a, %b, %c, %d) : (tensor<32x1024xf32>, tensor<32x1024xf32>, tensor<32x1024xf32>, tensor<32x1024xf32>) -> tensor<32x1024xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %pc: !tgc.ptr<f32>, %pd: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c1024 = tgc.const 1024 : index
    %h = tgc.range 32 global id 0
    %w = tgc.range 1024 global id 1
    %ih = tgc.mul %h, %c1024 : index
    %i = tgc.add %ih, %w : index
    %xa = tgc.index %pa[%i] : !tgc.ptr<f32>
    %va = tgc.load %xa : !tgc.ptr<f32> -> f32
    %xb = tgc.index %pb[%i] : !tgc.ptr<f32>
    %vb = tgc.load %xb : !tgc.ptr<f32> -> f32
    %xc = tgc.index %pc[%i] : !tgc.ptr<f32>
    %vc = tgc.load %xc : !tgc.ptr<f32> -> f32
    %xd = tgc.index %pd[%i] : !tgc.ptr<f32>
    %vd = tgc.load %xd : !tgc.ptr<f32> -> f32
    %ab = tgc.add %va, %vb : f32
    %cd = tgc.add %vc, %vd : f32
    %s = tgc.add %ab, %cd : f32
    %o = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %w
    tgc.end %h
    tgc.sink
  }
  return %k : tensor<32x1024xf32>
}

// A matmul of 23 rows, a prime: no divisor fills the accumulators, so the
// rows are padded to 24 (PADTO, 1 of 24 idle) and tiled by 8, as a
// multiple of 8 rows would be; the rows past 23 are gated off.
// CHECK-LABEL: func @padded_tile_rows(
//       CHECK:   opts = ["UPCAST(1,16)", "UPCAST(1,2)", "PADTO(0,8)", "UPCAST(0,8)"]
//       CHECK:     tgc.range 3 global id 0
//       CHECK:     tgc.cmplt {{.*}} : index
// AVX2-LABEL: func @padded_tile_rows(
//       AVX2:   opts = ["UPCAST(1,8)", "UPCAST(1,2)", "PADTO(0,4)", "UPCAST(0,4)"]

func.func @padded_tile_rows(%a: tensor<23x64xf32>, %b: tensor<64x32xf32>) -> tensor<23x32xf32> {
  %k = tgc.kernel "r_23_32_64" (%a, %b) : (tensor<23x64xf32>, tensor<64x32xf32>) -> tensor<23x32xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c64 = tgc.const 64 : index
    %c32 = tgc.const 32 : index
    %i = tgc.range 23 global id 0
    %j = tgc.range 32 global id 1
    %k = tgc.range 64 reduce id 2
    %ai = tgc.mul %i, %c64 : index
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
  return %k : tensor<23x32xf32>
}

// A row of 27 columns: padded to 32 (5 of 32 lanes idle, under a sixth),
// both vectors upcast, each with a constant count of active lanes.
// CHECK-LABEL: func @padded_row_of_27(
//       CHECK:   opts = ["PADTO(1,16)", "UPCAST(1,16)", "UPCAST(1,2)"
func.func @padded_row_of_27(%a: tensor<8x32xf32>, %b: tensor<32x27xf32>) -> tensor<8x27xf32> {
  %k = tgc.kernel "r_8_27_32" (%a, %b) : (tensor<8x32xf32>, tensor<32x27xf32>) -> tensor<8x27xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c32 = tgc.const 32 : index
    %c27 = tgc.const 27 : index
    %i = tgc.range 8 global id 0
    %j = tgc.range 27 global id 1
    %k = tgc.range 32 reduce id 2
    %ai = tgc.mul %i, %c32 : index
    %ak = tgc.add %ai, %k : index
    %p = tgc.index %pa[%ak] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %bk = tgc.mul %k, %c27 : index
    %bj = tgc.add %bk, %j : index
    %q = tgc.index %pb[%bj] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %oi = tgc.mul %i, %c27 : index
    %oj = tgc.add %oi, %j : index
    %o = tgc.index %out[%oj] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<8x27xf32>
}

// 72 channels of a channels-last depthwise product, every load moving with
// them: 9 whole vectors of 8, not 5 of 16 padded past kMaxPaddedVectors
// with masks counted at run time (MnasNet's ran 5x slower so).
// CHECK-LABEL: func @depthwise_72_channels(
//       CHECK:   opts = ["UPCAST(1,8)"
//   CHECK-NOT:   PADTO
//       CHECK:   return
func.func @depthwise_72_channels(%x: tensor<18x72xf32>, %w: tensor<3x72xf32>) -> tensor<16x72xf32> {
  %k = tgc.kernel "r_16_72_3" (%x, %w) : (tensor<18x72xf32>, tensor<3x72xf32>) -> tensor<16x72xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c72 = tgc.const 72 : index
    %p = tgc.range 16 global id 0
    %c = tgc.range 72 global id 1
    %t = tgc.range 3 reduce id 2
    %ip = tgc.add %p, %t : index
    %ir = tgc.mul %ip, %c72 : index
    %xa = tgc.add %ir, %c : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %wr = tgc.mul %t, %c72 : index
    %wa = tgc.add %wr, %c : index
    %wp = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %wp : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %t
    %s = tgc.reduce add %m over %t : f32
    %or = tgc.mul %p, %c72 : index
    %oa = tgc.add %or, %c : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %c
    tgc.end %p
    tgc.sink
  }
  return %k : tensor<16x72xf32>
}

// A 1x1 convolution to 16 channels stored NCHW over 55x55 pixels (3025,
// SqueezeNet's): the pixels are padded to 190 vectors of 16 in a loop,
// their input loads whole and the weights broadcast, and that beats the
// output channels with the weights packed but every store scattered
// (vectorLoadAxis) because the pixels' score is above 1.
// CHECK-LABEL: func @pointwise_conv_3025_pixels(
//       CHECK:   opts = ["PADTO(1,16)", "UPCAST(1,16)"
func.func @pointwise_conv_3025_pixels(%x: tensor<16x3025xf32>) -> tensor<16x3025xf32> {
  %w = tgc.const dense<"0x000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE0000203F000000BE0000403F00000000000040BF0000003E000020BF0000803E000000BF0000C03E0000C0BE0000003F000080BE"> : tensor<16x16xf32>
  %k = tgc.kernel "r_16_3025_16" (%x, %w) : (tensor<16x3025xf32>, tensor<16x16xf32>) -> tensor<16x3025xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c16 = tgc.const 16 : index
    %cp = tgc.const 3025 : index
    %o = tgc.range 16 global id 0
    %p = tgc.range 3025 global id 1
    %c = tgc.range 16 reduce id 2
    %xr = tgc.mul %c, %cp : index
    %xa = tgc.add %xr, %p : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %xp : !tgc.ptr<f32> -> f32
    %wr = tgc.mul %o, %c16 : index
    %wa = tgc.add %wr, %c : index
    %wp = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %wp : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %c
    %s = tgc.reduce add %m over %c : f32
    %or = tgc.mul %o, %cp : index
    %oa = tgc.add %or, %p : index
    %op_ = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %op_, %s : !tgc.ptr<f32>, f32
    tgc.end %p
    tgc.end %o
    tgc.sink
  }
  return %k : tensor<16x3025xf32>
}
