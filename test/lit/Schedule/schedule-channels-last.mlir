// RUN: tgc-opt %s --tgc-decompose="conv-layout=nhwc" --tgc-simplify --tgc-schedule | FileCheck %s --check-prefix=NHWC
// RUN: tgc-opt %s --tgc-decompose="conv-layout=nchw" --tgc-simplify --tgc-schedule | FileCheck %s --check-prefix=NCHW
// A 1x1 convolution, then a depthwise one of stride 2 with a pad of 1.
// Channels last, the pad leaves the innermost dim (16 channels) alone, so
// its mask is the same for a vector of channels: it fuses into the
// depthwise convolution, which reads the 1x1 convolution's output under
// it. NCHW, the mask varies along the innermost dim (the row), and the
// padded copy is a kernel of its own.

// NHWC-LABEL: func @separable(
//       NHWC:   %[[A:.*]] = tgc.kernel "r_1_12_12_1_16_1_1_1_16_1_1"
//   NHWC-NOT:   tgc.kernel "E_
//       NHWC:   tgc.kernel "r_1_16_6_6_1_3_3"(%[[A]])
//       NHWC:     tgc.pad %{{.*}} low [0, 1, 1, 0] high [0, 1, 1, 0] : tensor<1x12x12x16xf32> -> tensor<1x14x14x16xf32>

// NCHW-LABEL: func @separable(
//       NCHW:   %[[A:.*]] = tgc.kernel "r_1_1_16_12_12_1_1_1_16_1_1"
//       NCHW:   %[[P:.*]] = tgc.kernel "E_1_16_14_14"(%[[A]])
//       NCHW:   tgc.kernel "r_1_16_6_6_1_3_3"(%[[P]])
func.func @separable(%x: tensor<1x16x12x12xf32>) -> tensor<1x16x6x6xf32> {
  %w = tgc.const dense<0.5> : tensor<16x1x3x3xf32>
  %wp = tgc.const dense<0.25> : tensor<16x16x1x1xf32>
  %a = tgc.onnx_node "Conv"(%x, %wp) {opset = 11 : i64, attrs = {}} : (tensor<1x16x12x12xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x12x12xf32>
  %0 = tgc.onnx_node "Conv"(%a, %w) {opset = 11 : i64, attrs = {group = 16 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}} : (tensor<1x16x12x12xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x6x6xf32>
  return %0 : tensor<1x16x6x6xf32>
}

// A max pool after a channels-last convolution pools channels last too
// (its -inf pad a where over a pad of true): the pad fuses into the pool,
// which reads the convolution's output under it and reduces [N, H, W, C]
// windows. NCHW, the padded copy is a kernel of its own.

// NHWC-LABEL: func @max_pooled(
//       NHWC:   %[[A:.*]] = tgc.kernel "r_1_12_12_1_16_1_1_1_16_1_1"
//   NHWC-NOT:   tgc.kernel "E_
//       NHWC:   tgc.kernel "r_1_16_6_6_3_3"(%[[A]])
//       NHWC:     tgc.pad %{{.*}} low [0, 1, 1, 0] high [0, 1, 1, 0] : tensor<1x12x12x16xf32> -> tensor<1x14x14x16xf32>
//       NHWC:     tgc.where
//       NHWC:     tgc.reduce_axis  max %{{.*}} [4, 5] : tensor<1x6x6x16x3x3xf32> -> tensor<1x6x6x16x1x1xf32>

// NCHW-LABEL: func @max_pooled(
//       NCHW:   %[[A:.*]] = tgc.kernel "r_1_1_16_12_12_1_1_1_16_1_1"
//       NCHW:   %[[P:.*]] = tgc.kernel "E_1_16_14_14"(%[[A]])
//       NCHW:   tgc.kernel "r_1_16_6_6_3_3"(%[[P]])
func.func @max_pooled(%x: tensor<1x16x12x12xf32>) -> tensor<1x16x6x6xf32> {
  %wp = tgc.const dense<0.25> : tensor<16x16x1x1xf32>
  %a = tgc.onnx_node "Conv"(%x, %wp) {opset = 11 : i64, attrs = {}} : (tensor<1x16x12x12xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x12x12xf32>
  %0 = tgc.onnx_node "MaxPool"(%a) {opset = 12 : i64, attrs = {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}} : (tensor<1x16x12x12xf32>) -> tensor<1x16x6x6xf32>
  return %0 : tensor<1x16x6x6xf32>
}
