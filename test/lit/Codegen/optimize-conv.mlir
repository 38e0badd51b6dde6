// RUN: tgc-opt %s --split-input-file --tgc-optimize | FileCheck %s
// RUN: tgc-opt %s --split-input-file --tgc-optimize="thread-tasks=2" | FileCheck %s --check-prefix=THREADS
// The heuristic on shapes that the plain matmul rules miss: convolutions,
// constant weights, the axis split across threads.

// The first convolution of an image net: 3 input channels read with stride
// 2 along the output columns. A vector of every other element is two
// contiguous loads and a permute (tgc-devectorize), so the columns become
// the lanes, their stores whole vectors, and the output channels the
// register tile: each permuted vector feeds 16 FMAs. (Along the output
// channels, with packed weights and one scattered store per 27 vector
// FMAs, MobileNetV2's first convolution ran 1.5x slower.)
// CHECK-LABEL: func @strided_conv_few_channels(
//       CHECK:   opts = ["UPCAST(1,16)", "UPCAST(0,16)"]
func.func @strided_conv_few_channels(%x: tensor<3x33xf32>) -> tensor<32x16xf32> {
  %w = tgc.const dense<[[[0.0, 1.0, 2.0], [3.0, 4.0, 0.0], [1.0, 2.0, 3.0]], [[4.0, 0.0, 1.0], [2.0, 3.0, 4.0], [0.0, 1.0, 2.0]], [[3.0, 4.0, 0.0], [1.0, 2.0, 3.0], [4.0, 0.0, 1.0]], [[2.0, 3.0, 4.0], [0.0, 1.0, 2.0], [3.0, 4.0, 0.0]], [[1.0, 2.0, 3.0], [4.0, 0.0, 1.0], [2.0, 3.0, 4.0]], [[0.0, 1.0, 2.0], [3.0, 4.0, 0.0], [1.0, 2.0, 3.0]], [[4.0, 0.0, 1.0], [2.0, 3.0, 4.0], [0.0, 1.0, 2.0]], [[3.0, 4.0, 0.0], [1.0, 2.0, 3.0], [4.0, 0.0, 1.0]], [[2.0, 3.0, 4.0], [0.0, 1.0, 2.0], [3.0, 4.0, 0.0]], [[1.0, 2.0, 3.0], [4.0, 0.0, 1.0], [2.0, 3.0, 4.0]], [[0.0, 1.0, 2.0], [3.0, 4.0, 0.0], [1.0, 2.0, 3.0]], [[4.0, 0.0, 1.0], [2.0, 3.0, 4.0], [0.0, 1.0, 2.0]], [[3.0, 4.0, 0.0], [1.0, 2.0, 3.0], [4.0, 0.0, 1.0]], [[2.0, 3.0, 4.0], [0.0, 1.0, 2.0], [3.0, 4.0, 0.0]], [[1.0, 2.0, 3.0], [4.0, 0.0, 1.0], [2.0, 3.0, 4.0]], [[0.0, 1.0, 2.0], [3.0, 4.0, 0.0], [1.0, 2.0, 3.0]], [[4.0, 0.0, 1.0], [2.0, 3.0, 4.0], [0.0, 1.0, 2.0]], [[3.0, 4.0, 0.0], [1.0, 2.0, 3.0], [4.0, 0.0, 1.0]], [[2.0, 3.0, 4.0], [0.0, 1.0, 2.0], [3.0, 4.0, 0.0]], [[1.0, 2.0, 3.0], [4.0, 0.0, 1.0], [2.0, 3.0, 4.0]], [[0.0, 1.0, 2.0], [3.0, 4.0, 0.0], [1.0, 2.0, 3.0]], [[4.0, 0.0, 1.0], [2.0, 3.0, 4.0], [0.0, 1.0, 2.0]], [[3.0, 4.0, 0.0], [1.0, 2.0, 3.0], [4.0, 0.0, 1.0]], [[2.0, 3.0, 4.0], [0.0, 1.0, 2.0], [3.0, 4.0, 0.0]], [[1.0, 2.0, 3.0], [4.0, 0.0, 1.0], [2.0, 3.0, 4.0]], [[0.0, 1.0, 2.0], [3.0, 4.0, 0.0], [1.0, 2.0, 3.0]], [[4.0, 0.0, 1.0], [2.0, 3.0, 4.0], [0.0, 1.0, 2.0]], [[3.0, 4.0, 0.0], [1.0, 2.0, 3.0], [4.0, 0.0, 1.0]], [[2.0, 3.0, 4.0], [0.0, 1.0, 2.0], [3.0, 4.0, 0.0]], [[1.0, 2.0, 3.0], [4.0, 0.0, 1.0], [2.0, 3.0, 4.0]], [[0.0, 1.0, 2.0], [3.0, 4.0, 0.0], [1.0, 2.0, 3.0]], [[4.0, 0.0, 1.0], [2.0, 3.0, 4.0], [0.0, 1.0, 2.0]]]> : tensor<32x3x3xf32>
  %k = tgc.kernel "r_32_16_3_3" (%w, %x) : (tensor<32x3x3xf32>, tensor<3x33xf32>) -> tensor<32x16xf32> {
  ^bb0(%pw: !tgc.ptr<f32>, %px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c2 = tgc.const 2 : index
    %c3 = tgc.const 3 : index
    %c9 = tgc.const 9 : index
    %c16 = tgc.const 16 : index
    %c33 = tgc.const 33 : index
    %co = tgc.range 32 global id 0
    %ox = tgc.range 16 global id 1
    %ci = tgc.range 3 reduce id 2
    %kx = tgc.range 3 reduce id 3
    %x2 = tgc.mul %ox, %c2 : index
    %xk = tgc.add %x2, %kx : index
    %xc = tgc.mul %ci, %c33 : index
    %xa = tgc.add %xc, %xk : index
    %p = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %p : !tgc.ptr<f32> -> f32
    %w9 = tgc.mul %co, %c9 : index
    %w3 = tgc.mul %ci, %c3 : index
    %wc = tgc.add %w9, %w3 : index
    %wa = tgc.add %wc, %kx : index
    %q = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %kx
    tgc.end %ci
    %s = tgc.reduce add %m over %ci, %kx : f32
    %o16 = tgc.mul %co, %c16 : index
    %oa = tgc.add %o16, %ox : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %ox
    tgc.end %co
    tgc.sink
  }
  return %k : tensor<32x16xf32>
}

// -----

// A 1x1 convolution summed over the image (a global average pool fused
// into it): the output channels are the lanes; the pixels, a reduction
// around the channel sum, become the register tile, unrolled so that each
// weight vector feeds 7 accumulators instead of one.
// CHECK-LABEL: func @pooled_pointwise_conv(
//       CHECK:   opts = ["PACK(0,32,0)", "UPCAST(0,16)", "UPCAST(0,2)", "UNROLL(1,7)"]
//       CHECK:     tgc.range 7 unroll id
func.func @pooled_pointwise_conv(%x: tensor<8x7xf32>) -> tensor<64xf32> {
  %w = tgc.const dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0], [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0], [2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0], [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0], [2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0], [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0], [2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0], [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0], [2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0], [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0], [2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0], [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0], [2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0], [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0], [2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0], [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0], [2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0], [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0], [2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0], [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0], [2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0], [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0], [2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0], [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0], [2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0], [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0]]> : tensor<64x8xf32>
  %k = tgc.kernel "r_64_7_8" (%w, %x) : (tensor<64x8xf32>, tensor<8x7xf32>) -> tensor<64xf32> {
  ^bb0(%pw: !tgc.ptr<f32>, %px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c7 = tgc.const 7 : index
    %c8 = tgc.const 8 : index
    %zero = tgc.const 0.0 : f32
    %co = tgc.range 64 global id 0
    %pix = tgc.range 7 reduce id 1
    %ci = tgc.range 8 reduce id 2
    %xc = tgc.mul %ci, %c7 : index
    %xa = tgc.add %xc, %pix : index
    %p = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %p : !tgc.ptr<f32> -> f32
    %wc = tgc.mul %co, %c8 : index
    %wa = tgc.add %wc, %ci : index
    %q = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %ci
    %s = tgc.reduce add %m over %ci : f32
    %r = tgc.max %s, %zero : f32
    tgc.end %pix
    %t = tgc.reduce add %r over %pix : f32
    %o = tgc.index %out[%co] : !tgc.ptr<f32>
    tgc.store %o, %t : !tgc.ptr<f32>, f32
    tgc.end %co
    tgc.sink
  }
  return %k : tensor<64xf32>
}

// -----

// A Gemm with a constant B read along its rows: already contiguous along
// the vector, but a row is 256 bytes apart from the next, so B is packed
// into panels of the 32 columns a tile reads (each panel one run). Eight
// rows of x fill the tile's 16 accumulators with two vectors of B (with
// two rows the tile would take all four, and B need no panels).
// CHECK-LABEL: func @gemm_constant_b_panels(
//       CHECK:   opts = ["PACK(1,32,1)", "UPCAST(1,16)", "UPCAST(1,2)", "UPCAST(0,8)"]
//  CHECK-SAME:   tensor<2x2x32xf32>
func.func @gemm_constant_b_panels(%x: tensor<8x2xf32>) -> tensor<8x64xf32> {
  %w = tgc.const dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0]]> : tensor<2x64xf32>
  %k = tgc.kernel "r_8_64_2" (%x, %w) : (tensor<8x2xf32>, tensor<2x64xf32>) -> tensor<8x64xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c2 = tgc.const 2 : index
    %c64 = tgc.const 64 : index
    %i = tgc.range 8 global id 0
    %j = tgc.range 64 global id 1
    %r = tgc.range 2 reduce id 2
    %xi = tgc.mul %i, %c2 : index
    %xa = tgc.add %xi, %r : index
    %p = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %p : !tgc.ptr<f32> -> f32
    %wr = tgc.mul %r, %c64 : index
    %wa = tgc.add %wr, %j : index
    %q = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %r
    %s = tgc.reduce add %m over %r : f32
    %oi = tgc.mul %i, %c64 : index
    %oa = tgc.add %oi, %j : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<8x64xf32>
}

// -----

// Split across threads: rows and columns both make 2 tasks; the columns
// win, as each task then reads only its half of the weights.
// THREADS-LABEL: func @threads_split_weights(
//       THREADS:   opts = ["UPCAST(1,16)", "UPCAST(1,2)", "UPCAST(0,8)", "THREAD(1,2)"]
func.func @threads_split_weights(%x: tensor<16x2048xf32>) -> tensor<16x64xf32> {
  %w = tgc.const dense<0.5> : tensor<2048x64xf32>
  %k = tgc.kernel "r_16_64_2048" (%x, %w) : (tensor<16x2048xf32>, tensor<2048x64xf32>) -> tensor<16x64xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c64 = tgc.const 64 : index
    %c2048 = tgc.const 2048 : index
    %i = tgc.range 16 global id 0
    %j = tgc.range 64 global id 1
    %r = tgc.range 2048 reduce id 2
    %xi = tgc.mul %i, %c2048 : index
    %xa = tgc.add %xi, %r : index
    %p = tgc.index %px[%xa] : !tgc.ptr<f32>
    %a = tgc.load %p : !tgc.ptr<f32> -> f32
    %wr = tgc.mul %r, %c64 : index
    %wa = tgc.add %wr, %j : index
    %q = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %b = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %r
    %s = tgc.reduce add %m over %r : f32
    %oi = tgc.mul %i, %c64 : index
    %oa = tgc.add %oi, %j : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<16x64xf32>
}

// -----

// A depthwise 3x3 convolution whose rows are 14 pixels (a network's 14x14
// stage, its input padded to 16x16): no axis fills 16 lanes, but the
// columns, along which the input and the output are contiguous, fill 14 of
// them; they are padded to one vector (its last two lanes masked). No
// register tile: its rows would share no vector load, only the weights.
// CHECK-LABEL: func @depthwise_row_of_14(
//       CHECK:   opts = ["PADTO(2,16)", "UPCAST(2,16)"]
func.func @depthwise_row_of_14(%x: tensor<2x16x16xf32>) -> tensor<2x14x14xf32> {
  %w = tgc.const dense<[[[0.0, 1.0, 2.0], [1.0, 2.0, 3.0], [2.0, 3.0, 4.0]], [[1.0, 2.0, 3.0], [2.0, 3.0, 4.0], [3.0, 4.0, 0.0]]]> : tensor<2x3x3xf32>
  %k = tgc.kernel "r_2_14_14_3_3" (%w, %x) : (tensor<2x3x3xf32>, tensor<2x16x16xf32>) -> tensor<2x14x14xf32> {
  ^bb0(%pw: !tgc.ptr<f32>, %px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c3 = tgc.const 3 : index
    %c9 = tgc.const 9 : index
    %cs = tgc.const 1 : index
    %ciw = tgc.const 16 : index
    %cimg = tgc.const 256 : index
    %cw = tgc.const 14 : index
    %chw = tgc.const 196 : index
    %zero = tgc.const 0.0 : f32
    %c = tgc.range 2 global id 0
    %oy = tgc.range 14 global id 1
    %ox = tgc.range 14 global id 2
    %ky = tgc.range 3 reduce id 3
    %kx = tgc.range 3 reduce id 4
    %ys = tgc.mul %oy, %cs : index
    %y = tgc.add %ky, %ys : index
    %xs = tgc.mul %ox, %cs : index
    %xx = tgc.add %kx, %xs : index
    %a0 = tgc.mul %c, %cimg : index
    %a1 = tgc.mul %y, %ciw : index
    %a2 = tgc.add %a0, %a1 : index
    %a3 = tgc.add %a2, %xx : index
    %p = tgc.index %px[%a3] : !tgc.ptr<f32>
    %a = tgc.load %p : !tgc.ptr<f32> -> f32
    %w0 = tgc.mul %c, %c9 : index
    %w1 = tgc.mul %ky, %c3 : index
    %w2 = tgc.add %w0, %w1 : index
    %w3 = tgc.add %w2, %kx : index
    %q = tgc.index %pw[%w3] : !tgc.ptr<f32>
    %b = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %kx
    tgc.end %ky
    %s = tgc.reduce add %m over %ky, %kx : f32
    %r = tgc.max %s, %zero : f32
    %o0 = tgc.mul %c, %chw : index
    %o1 = tgc.mul %oy, %cw : index
    %o2 = tgc.add %o0, %o1 : index
    %o3 = tgc.add %o2, %ox : index
    %o = tgc.index %out[%o3] : !tgc.ptr<f32>
    tgc.store %o, %r : !tgc.ptr<f32>, f32
    tgc.end %ox
    tgc.end %oy
    tgc.end %c
    tgc.sink
  }
  return %k : tensor<2x14x14xf32>
}


// -----

// The same tie on a 1x1 convolution from 16 to 64 channels over 8192
// pixels: split by its 4 KiB of weights, each task would read the whole
// 512 KiB input again for every block of output channels, more than an L2
// keeps; split by pixels it rereads its own 256 KiB. The pixels win.
// THREADS-LABEL: func @threads_split_reread_input(
//       THREADS:   opts = [{{.*}}"THREAD(1,2)"]
func.func @threads_split_reread_input(%x: tensor<16x8192xf32>) -> tensor<64x8192xf32> {
  %w = tgc.const dense<0.5> : tensor<64x16xf32>
  %k = tgc.kernel "r_64_8192_16" (%w, %x) : (tensor<64x16xf32>, tensor<16x8192xf32>) -> tensor<64x8192xf32> {
  ^bb0(%pw: !tgc.ptr<f32>, %px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c16 = tgc.const 16 : index
    %c8192 = tgc.const 8192 : index
    %co = tgc.range 64 global id 0
    %p = tgc.range 8192 global id 1
    %ci = tgc.range 16 reduce id 2
    %wc = tgc.mul %co, %c16 : index
    %wa = tgc.add %wc, %ci : index
    %wp = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %a = tgc.load %wp : !tgc.ptr<f32> -> f32
    %xc = tgc.mul %ci, %c8192 : index
    %xa = tgc.add %xc, %p : index
    %xp = tgc.index %px[%xa] : !tgc.ptr<f32>
    %b = tgc.load %xp : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %ci
    %s = tgc.reduce add %m over %ci : f32
    %oc = tgc.mul %co, %c8192 : index
    %oa = tgc.add %oc, %p : index
    %o = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %p
    tgc.end %co
    tgc.sink
  }
  return %k : tensor<64x8192xf32>
}

// -----

// A convolution fused with the 2x2 max pool after it (a small CNN's first
// layer: one input channel, 16 output channels, 14x14 pooled outputs).
// The pooled columns read every other input element and 14 of them pad to
// one vector of 16 with its last lanes masked; the output channels read
// the packed weights as vectors and broadcast the input, so they are the
// lanes, though each of their stores is scattered (BEAM's choice on AVX2,
// 1.9x faster inside the model than the padded columns).
// CHECK-LABEL: func @conv_pool_channels(
//       CHECK:   opts = ["PACK(0,16,0)", "UPCAST(0,16)", "UPCAST(2,14)"]
func.func @conv_pool_channels(%x: tensor<30x30xf32>) -> tensor<16x14x14xf32> {
  %w = tgc.const dense<[[[1.0, -1.0, -1.0], [1.0, 2.0, -1.0], [3.0, -1.0, 0.0]], [[-1.0, 0.0, 3.0], [2.0, -1.0, 1.0], [1.0, 3.0, -1.0]], [[-1.0, 3.0, 3.0], [1.0, 1.0, 1.0], [-1.0, 3.0, 0.0]], [[0.0, 1.0, -1.0], [0.0, 2.0, 0.0], [2.0, 3.0, -1.0]], [[3.0, 3.0, 3.0], [-1.0, 3.0, 1.0], [2.0, 0.0, 0.0]], [[1.0, 3.0, 1.0], [2.0, 3.0, 2.0], [3.0, -1.0, 3.0]], [[-1.0, 2.0, -1.0], [-1.0, 3.0, -1.0], [1.0, 2.0, 0.0]], [[2.0, -1.0, 1.0], [2.0, -1.0, -1.0], [-1.0, 0.0, 1.0]], [[-1.0, 2.0, 2.0], [0.0, 0.0, 3.0], [3.0, 0.0, 2.0]], [[0.0, 3.0, 1.0], [0.0, 2.0, 3.0], [3.0, 0.0, 0.0]], [[-1.0, -1.0, 0.0], [3.0, -1.0, 2.0], [-1.0, 2.0, -1.0]], [[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [-1.0, -1.0, 0.0]], [[1.0, 3.0, 2.0], [-1.0, 2.0, 1.0], [0.0, 2.0, 2.0]], [[2.0, 1.0, 3.0], [3.0, 3.0, -1.0], [3.0, -1.0, -1.0]], [[0.0, -1.0, -1.0], [2.0, 3.0, 1.0], [2.0, 3.0, 2.0]], [[-1.0, 2.0, -1.0], [2.0, 0.0, 3.0], [-1.0, 2.0, 0.0]]]> : tensor<16x3x3xf32>
  %k = tgc.kernel "r_16_14_14_2_2_3_3" (%w, %x) : (tensor<16x3x3xf32>, tensor<30x30xf32>) -> tensor<16x14x14xf32> {
  ^bb0(%pw: !tgc.ptr<f32>, %px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c2 = tgc.const 2 : index
    %c3 = tgc.const 3 : index
    %c9 = tgc.const 9 : index
    %c14 = tgc.const 14 : index
    %c30 = tgc.const 30 : index
    %c196 = tgc.const 196 : index
    %zero = tgc.const 0.0 : f32
    %c = tgc.range 16 global id 0
    %oy = tgc.range 14 global id 1
    %ox = tgc.range 14 global id 2
    %py = tgc.range 2 reduce id 3
    %px2 = tgc.range 2 reduce id 4
    %ky = tgc.range 3 reduce id 5
    %kx = tgc.range 3 reduce id 6
    %y2 = tgc.mul %oy, %c2 : index
    %y1 = tgc.add %ky, %y2 : index
    %y = tgc.add %y1, %py : index
    %x2 = tgc.mul %ox, %c2 : index
    %x1 = tgc.add %kx, %x2 : index
    %xx = tgc.add %x1, %px2 : index
    %yo = tgc.mul %y, %c30 : index
    %xi = tgc.add %yo, %xx : index
    %xp = tgc.index %px[%xi] : !tgc.ptr<f32>
    %xv = tgc.load %xp : !tgc.ptr<f32> -> f32
    %wc = tgc.mul %c, %c9 : index
    %wy = tgc.mul %ky, %c3 : index
    %wcy = tgc.add %wc, %wy : index
    %wi = tgc.add %wcy, %kx : index
    %wp = tgc.index %pw[%wi] : !tgc.ptr<f32>
    %wv = tgc.load %wp : !tgc.ptr<f32> -> f32
    %m = tgc.mul %xv, %wv : f32
    tgc.end %kx
    tgc.end %ky
    %s = tgc.reduce add %m over %ky, %kx : f32
    %r = tgc.max %s, %zero : f32
    tgc.end %px2
    tgc.end %py
    %p = tgc.reduce max %r over %py, %px2 : f32
    %oc = tgc.mul %c, %c196 : index
    %oyy = tgc.mul %oy, %c14 : index
    %ocy = tgc.add %oc, %oyy : index
    %oi = tgc.add %ocy, %ox : index
    %op = tgc.index %out[%oi] : !tgc.ptr<f32>
    tgc.store %op, %p : !tgc.ptr<f32>, f32
    tgc.end %ox
    tgc.end %oy
    tgc.end %c
    tgc.sink
  }
  return %k : tensor<16x14x14xf32>
}
