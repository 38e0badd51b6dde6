// 3x3 convolutions through Winograd F(2x2, 3x3) and F(4x4, 3x3)
// (Winograd.h): which ones tgc-decompose computes that way and with which
// tile (winograd=always, auto, never, 4x4), the weight transform G g Gt
// done at compile time, and the graph the rest becomes.
// RUN: tgc-opt %s --split-input-file --tgc-decompose="winograd=always conv-layout=nchw" | FileCheck %s --check-prefix=ALWAYS
// RUN: tgc-opt %s --split-input-file --tgc-decompose="winograd=4x4 conv-layout=nchw" | FileCheck %s --check-prefix=TILE4
// RUN: tgc-opt %s --split-input-file --tgc-decompose="conv-layout=nchw" | FileCheck %s --check-prefix=AUTO
// RUN: tgc-opt %s --split-input-file --tgc-decompose="winograd=never conv-layout=nchw" | FileCheck %s --check-prefix=NEVER
// RUN: tgc-opt %s --split-input-file --tgc-decompose="vector-registers=16 conv-layout=nchw" | FileCheck %s --check-prefix=FEW
// RUN: tgc-opt %s --split-input-file --tgc-decompose="winograd=always conv-layout=nhwc" | FileCheck %s --check-prefix=LAST
// RUN: not tgc-opt %s --split-input-file --tgc-decompose="winograd=maybe" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: tgc-decompose: winograd must be auto, always, never, 2x2 or 4x4, not 'maybe'

// A weight of ones: each transformed element is the product of G's row
// sums (1, 1.5, 0.5, 1) for its row and column. The padded input is
// realized, each of the 16 tile elements is 4 strided views combined
// (Bt d B), its channels last ([N, tH, tW, C]), stacked along a new
// first axis; the 16 products are one sum
// over the input channels; the output transform is realized as
// [N, K, tH, 2, tW, 2], which is the image in memory, less any odd row and
// column (none here: a 4x4 output is 2x2 tiles).
// ALWAYS-LABEL: func.func @weight_transform(
//       ALWAYS:   tgc.const dense<{{\[}}{{\[}}[1.000000e+00]], {{\[}}[1.500000e+00]], {{\[}}[5.000000e-01]], {{\[}}[1.000000e+00]], {{\[}}[1.500000e+00]], {{\[}}[2.250000e+00]], {{\[}}[7.500000e-01]], {{\[}}[1.500000e+00]], {{\[}}[5.000000e-01]], {{\[}}[7.500000e-01]], {{\[}}[2.500000e-01]], {{\[}}[5.000000e-01]], {{\[}}[1.000000e+00]], {{\[}}[1.500000e+00]], {{\[}}[5.000000e-01]], {{\[}}[1.000000e+00]]]> : tensor<16x1x1xf32>
//       ALWAYS:   %[[PAD:.*]] = tgc.pad %arg0 low [0, 0, 1, 1] high [0, 0, 1, 1] : tensor<1x1x4x4xf32> -> tensor<1x1x6x6xf32>
//  ALWAYS-NEXT:   tgc.contiguous %[[PAD]] : tensor<1x1x6x6xf32>
//       ALWAYS:   tgc.permute %{{.*}} [0, 2, 3, 1] : tensor<1x1x2x2xf32> -> tensor<1x2x2x1xf32>
//       ALWAYS:   tgc.where {{.*}} : tensor<16x1x2x2x1xi1>, tensor<16x1x2x2x1xf32>
//       ALWAYS:   tgc.reduce_axis add %{{.*}} [5] : tensor<16x1x1x2x2x1xf32> -> tensor<16x1x1x2x2x1xf32>
//       ALWAYS:   %[[IMAGE:.*]] = tgc.contiguous %{{.*}} : tensor<1x1x2x2x2x2xf32>
//       ALWAYS:   tgc.reshape %[[IMAGE]] : tensor<1x1x2x2x2x2xf32> -> tensor<1x1x4x4xf32>
//   ALWAYS-NOT:   tgc.onnx_node
// Channels last: the input is read as [N, H, W, C] and padded so, the
// tile elements need no permute, the products are [16, N, tH, tW, K] (the
// 1 before C is K's place), the output transform is realized as [N, tH, 2,
// tW, 2, K], the image [N, H, W, K], and the NCHW result is a permute of it.
// LAST-LABEL: func.func @weight_transform(
//       LAST:   %[[IN:.*]] = tgc.permute %arg0 [0, 2, 3, 1] : tensor<1x1x4x4xf32> -> tensor<1x4x4x1xf32>
//  LAST-NEXT:   %[[PAD:.*]] = tgc.pad %[[IN]] low [0, 1, 1, 0] high [0, 1, 1, 0] : tensor<1x4x4x1xf32> -> tensor<1x6x6x1xf32>
//  LAST-NEXT:   tgc.contiguous %[[PAD]] : tensor<1x6x6x1xf32>
//   LAST-NOT:   tgc.permute
//       LAST:   tgc.reduce_axis add %{{.*}} [5] : tensor<16x1x2x2x1x1xf32> -> tensor<16x1x2x2x1x1xf32>
//   LAST-NOT:   tgc.permute
//       LAST:   %[[IMAGE:.*]] = tgc.contiguous %{{.*}} : tensor<1x2x2x2x2x1xf32>
//  LAST-NEXT:   %[[FLAT:.*]] = tgc.reshape %[[IMAGE]] : tensor<1x2x2x2x2x1xf32> -> tensor<1x4x4x1xf32>
//  LAST-NEXT:   tgc.permute %[[FLAT]] [0, 3, 1, 2] : tensor<1x4x4x1xf32> -> tensor<1x1x4x4xf32>
// F(4x4, 3x3): G's row sums are 1/4, -1/2, -1/6, 7/24, 1/8 and 1, the
// 36 tile elements are stacked the same way, and the whole 4x4 output is
// one tile.
// TILE4-LABEL: func.func @weight_transform(
//       TILE4:   tgc.const dense<{{\[}}{{\[}}[6.250000e-02]], {{\[}}[-1.250000e-01]], {{\[}}[-0.0416666679]], {{\[}}[0.0729166642]], {{\[}}[3.125000e-02]], {{\[}}[2.500000e-01]], {{\[}}[-1.250000e-01]], {{\[}}[2.500000e-01]], {{\[}}[0.0833333358]], {{\[}}[-0.145833328]], {{\[}}[-6.250000e-02]], {{\[}}[-5.000000e-01]], {{\[}}[-0.0416666679]], {{\[}}[0.0833333358]], {{\[}}[0.027777778]], {{\[}}[-0.0486111119]], {{\[}}[-0.020833334]], {{\[}}[-0.166666672]], {{\[}}[0.0729166642]], {{\[}}[-0.145833328]], {{\[}}[-0.0486111119]], {{\[}}[0.0850694477]], {{\[}}[0.0364583321]], {{\[}}[0.291666657]], {{\[}}[3.125000e-02]], {{\[}}[-6.250000e-02]], {{\[}}[-0.020833334]], {{\[}}[0.0364583321]], {{\[}}[1.562500e-02]], {{\[}}[1.250000e-01]], {{\[}}[2.500000e-01]], {{\[}}[-5.000000e-01]], {{\[}}[-0.166666672]], {{\[}}[0.291666657]], {{\[}}[1.250000e-01]], {{\[}}[1.000000e+00]]]> : tensor<36x1x1xf32>
//       TILE4:   %[[PAD:.*]] = tgc.pad %arg0 low [0, 0, 1, 1] high [0, 0, 1, 1] : tensor<1x1x4x4xf32> -> tensor<1x1x6x6xf32>
//  TILE4-NEXT:   tgc.contiguous %[[PAD]] : tensor<1x1x6x6xf32>
//       TILE4:   tgc.where {{.*}} : tensor<36x1x1x1x1xi1>, tensor<36x1x1x1x1xf32>
//       TILE4:   tgc.reduce_axis add %{{.*}} [5] : tensor<36x1x1x1x1x1xf32> -> tensor<36x1x1x1x1x1xf32>
//       TILE4:   %[[IMAGE:.*]] = tgc.contiguous %{{.*}} : tensor<1x1x1x4x1x4xf32>
//       TILE4:   tgc.reshape %[[IMAGE]] : tensor<1x1x1x4x1x4xf32> -> tensor<1x1x4x4xf32>
// One input channel is too few for auto.
// AUTO-LABEL: func.func @weight_transform(
//   AUTO-NOT:   tensor<16x1x1xf32>
//       AUTO:   tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<1x1x1x4x4x1x3x3xf32>
func.func @weight_transform(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %w = tgc.const dense<[[[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]]]> : tensor<1x1x3x3xf32>
  %0 = tgc.onnx_node "Conv"(%x, %w) {opset = 17 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// Not Winograd's, even when always: stride 2, two groups, a 5x5 kernel,
// dilation 2. Each stays a direct convolution (a sum over channels and
// taps).
// ALWAYS-LABEL: func.func @refused(
//   ALWAYS-NOT:   tgc.contiguous
//       ALWAYS:   tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<1x1x16x4x4x16x3x3xf32>
//       ALWAYS:   tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<1x2x8x8x8x8x3x3xf32>
//       ALWAYS:   tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<1x1x16x8x8x16x5x5xf32>
//       ALWAYS:   tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<1x1x16x6x6x16x3x3xf32>
//   ALWAYS-NOT:   tgc.contiguous
//       ALWAYS:   return
func.func @refused(%x: tensor<1x16x8x8xf32>) -> (tensor<1x16x4x4xf32>, tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>, tensor<1x16x6x6xf32>) {
  %w = tgc.const dense<0.5> : tensor<16x16x3x3xf32>
  %wg = tgc.const dense<0.5> : tensor<16x8x3x3xf32>
  %w5 = tgc.const dense<0.5> : tensor<16x16x5x5xf32>
  %0 = tgc.onnx_node "Conv"(%x, %w) {opset = 17 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x4x4xf32>
  %1 = tgc.onnx_node "Conv"(%x, %wg) {opset = 17 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>, group = 2 : i64}} : (tensor<1x16x8x8xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x8x8xf32>
  %2 = tgc.onnx_node "Conv"(%x, %w5) {opset = 17 : i64, attrs = {pads = array<i64: 2, 2, 2, 2>}} : (tensor<1x16x8x8xf32>, tensor<16x16x5x5xf32>) -> tensor<1x16x8x8xf32>
  %3 = tgc.onnx_node "Conv"(%x, %w) {opset = 17 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 2, 2>}} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x6x6xf32>
  return %0, %1, %2, %3 : tensor<1x16x4x4xf32>, tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>, tensor<1x16x6x6xf32>
}

// -----

// A weight given at run time: always transforms it with graph ops (the 16
// elements of G g Gt, each a sum of the taps' [K, C] slices, stacked like
// the input's); auto does not (it would be transformed on every run).
// ALWAYS-LABEL: func.func @runtime_weight(
//       ALWAYS:   tgc.shrink %arg1 begin [0, 0, 0, 0] end [16, 16, 1, 1] : tensor<16x16x3x3xf32> -> tensor<16x16x1x1xf32>
//       ALWAYS:   tgc.where %{{.*}} : tensor<16x16x16xi1>, tensor<16x16x16xf32>
//       ALWAYS:   tgc.reduce_axis add %{{.*}} [5] : tensor<16x1x16x6x6x16xf32>
// AUTO-LABEL: func.func @runtime_weight(
//   AUTO-NOT:   tgc.contiguous
//       AUTO:   tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<1x1x16x12x12x16x3x3xf32>
func.func @runtime_weight(%x: tensor<1x16x12x12xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<1x16x12x12xf32> {
  %0 = tgc.onnx_node "Conv"(%x, %w) {opset = 17 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x16x12x12xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x12x12xf32>
  return %0 : tensor<1x16x12x12xf32>
}

// -----

// auto's rule: 64 or more input channels, 16 or more output channels,
// and 32 or more 2x2 tiles per image. A 12x12 output has 36 (Winograd),
// 10x10 has 25 (direct), whatever the batch (an image may be computed on
// its own). A 13x13 output is 7x7 tiles whose last row and column of
// outputs are cut off. 4x4 tiles where there are 32 or more of them: a
// 22x22 output has 6x6 (its last 2 rows and columns cut off); 12x12 has 9,
// so it keeps 2x2 tiles, with auto and with always. 32 input channels are
// too few for auto: the products' sums are short for their transforms.
// AUTO-LABEL: func.func @auto_rule(
//       AUTO:   tgc.reduce_axis add %{{.*}} [5] : tensor<16x1x16x6x6x64xf32>
//       AUTO:   tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<4x1x16x10x10x64x3x3xf32>
//       AUTO:   tgc.reduce_axis add %{{.*}} [5] : tensor<16x1x16x7x7x64xf32>
//       AUTO:   %[[ODD:.*]] = tgc.reshape %{{.*}} : tensor<1x16x7x2x7x2xf32> -> tensor<1x16x14x14xf32>
//  AUTO-NEXT:   tgc.shrink %[[ODD]] begin [0, 0, 0, 0] end [1, 16, 13, 13] : tensor<1x16x14x14xf32> -> tensor<1x16x13x13xf32>
//       AUTO:   tgc.reduce_axis add %{{.*}} [5] : tensor<36x1x16x6x6x64xf32>
//       AUTO:   %[[ODD4:.*]] = tgc.reshape %{{.*}} : tensor<1x16x6x4x6x4xf32> -> tensor<1x16x24x24xf32>
//  AUTO-NEXT:   tgc.shrink %[[ODD4]] begin [0, 0, 0, 0] end [1, 16, 22, 22] : tensor<1x16x24x24xf32> -> tensor<1x16x22x22xf32>
//       AUTO:   tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<1x1x16x12x12x32x3x3xf32>
// Channels last, the odd row and column are cut off the [N, H, W, K] image
// before its permute.
// LAST-LABEL: func.func @auto_rule(
//       LAST:   tgc.reduce_axis add %{{.*}} [5] : tensor<16x4x5x5x16x64xf32>
//       LAST:   tgc.reduce_axis add %{{.*}} [5] : tensor<16x1x7x7x16x64xf32>
//       LAST:   %[[ODD:.*]] = tgc.reshape %{{.*}} : tensor<1x7x2x7x2x16xf32> -> tensor<1x14x14x16xf32>
//  LAST-NEXT:   %[[CUT:.*]] = tgc.shrink %[[ODD]] begin [0, 0, 0, 0] end [1, 13, 13, 16] : tensor<1x14x14x16xf32> -> tensor<1x13x13x16xf32>
//  LAST-NEXT:   tgc.permute %[[CUT]] [0, 3, 1, 2] : tensor<1x13x13x16xf32> -> tensor<1x16x13x13xf32>
// ALWAYS-LABEL: func.func @auto_rule(
//       ALWAYS:   tgc.reduce_axis add %{{.*}} [5] : tensor<16x1x16x6x6x64xf32>
//       ALWAYS:   tgc.reduce_axis add %{{.*}} [5] : tensor<16x4x16x5x5x64xf32>
//       ALWAYS:   tgc.reduce_axis add %{{.*}} [5] : tensor<16x1x16x7x7x64xf32>
//       ALWAYS:   tgc.reduce_axis add %{{.*}} [5] : tensor<36x1x16x6x6x64xf32>
//       ALWAYS:   tgc.reduce_axis add %{{.*}} [5] : tensor<16x1x16x6x6x32xf32>
// NEVER-LABEL: func.func @auto_rule(
//   NEVER-NOT:   tgc.contiguous
//       NEVER:   return
func.func @auto_rule(%a: tensor<1x64x12x12xf32>, %b: tensor<4x64x10x10xf32>, %c: tensor<1x64x13x13xf32>, %d: tensor<1x64x22x22xf32>, %e: tensor<1x32x12x12xf32>) -> (tensor<1x16x12x12xf32>, tensor<4x16x10x10xf32>, tensor<1x16x13x13xf32>, tensor<1x16x22x22xf32>, tensor<1x16x12x12xf32>) {
  %w = tgc.const dense<0.5> : tensor<16x64x3x3xf32>
  %w32 = tgc.const dense<0.5> : tensor<16x32x3x3xf32>
  %0 = tgc.onnx_node "Conv"(%a, %w) {opset = 17 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x64x12x12xf32>, tensor<16x64x3x3xf32>) -> tensor<1x16x12x12xf32>
  %1 = tgc.onnx_node "Conv"(%b, %w) {opset = 17 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>}} : (tensor<4x64x10x10xf32>, tensor<16x64x3x3xf32>) -> tensor<4x16x10x10xf32>
  %2 = tgc.onnx_node "Conv"(%c, %w) {opset = 17 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x64x13x13xf32>, tensor<16x64x3x3xf32>) -> tensor<1x16x13x13xf32>
  %3 = tgc.onnx_node "Conv"(%d, %w) {opset = 17 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x64x22x22xf32>, tensor<16x64x3x3xf32>) -> tensor<1x16x22x22xf32>
  %4 = tgc.onnx_node "Conv"(%e, %w32) {opset = 17 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x32x12x12xf32>, tensor<16x32x3x3xf32>) -> tensor<1x16x12x12xf32>
  return %0, %1, %2, %3, %4 : tensor<1x16x12x12xf32>, tensor<4x16x10x10xf32>, tensor<1x16x13x13xf32>, tensor<1x16x22x22xf32>, tensor<1x16x12x12xf32>
}

// -----

// With 16 vector registers (AVX2) auto asks 16 or more 2x2 tiles, not 32:
// a 7x7 output's 16 take Winograd, a 6x6 output's 9 stay direct. With 32
// (the default) both stay direct.
// FEW-LABEL: func.func @few_registers(
//       FEW:   tgc.reduce_axis add %{{.*}} [5] : tensor<16x1x64x4x4x64xf32>
//       FEW:   tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<1x1x64x6x6x64x3x3xf32>
// AUTO-LABEL: func.func @few_registers(
//       AUTO:   tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<1x1x64x7x7x64x3x3xf32>
//       AUTO:   tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<1x1x64x6x6x64x3x3xf32>
func.func @few_registers(%a: tensor<1x64x7x7xf32>, %b: tensor<1x64x6x6xf32>) -> (tensor<1x64x7x7xf32>, tensor<1x64x6x6xf32>) {
  %w = tgc.const dense<0.5> : tensor<64x64x3x3xf32>
  %0 = tgc.onnx_node "Conv"(%a, %w) {opset = 17 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x64x7x7xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x7x7xf32>
  %1 = tgc.onnx_node "Conv"(%b, %w) {opset = 17 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x64x6x6xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x6x6xf32>
  return %0, %1 : tensor<1x64x7x7xf32>, tensor<1x64x6x6xf32>
}
