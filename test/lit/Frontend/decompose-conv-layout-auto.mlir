// RUN: tgc-opt %s --split-input-file --tgc-decompose | FileCheck %s
// Which models `conv-layout=auto` computes channels last (Decompose.cpp,
// prefersChannelsLast): every convolution pointwise, grouped with few
// channels per group, a stem of at most 4 channels per group, or dense over
// 64 or more channels; one a grouped spatial convolution, or a dense one
// and no Concat of channels; and the 1x1 work in multiples of 8 output
// channels. Channels last, a convolution's sum comes out as [N, H, W, C],
// and its NCHW result is a permute [0, 3, 1, 2] of that.

// A ResNeXt block: a grouped 3x3 convolution of 4 channels per group
// between 1x1 ones of 16 and 8 channels.
// CHECK-LABEL: func @resnext_block(
//       CHECK:   tgc.permute %{{.*}} [0, 3, 1, 2] : tensor<1x6x6x16xf32> -> tensor<1x16x6x6xf32>
func.func @resnext_block(%x: tensor<1x8x6x6xf32>, %w1: tensor<16x8x1x1xf32>, %wg: tensor<16x4x3x3xf32>, %w2: tensor<8x16x1x1xf32>) -> tensor<1x8x6x6xf32> {
  %0 = tgc.onnx_node "Conv"(%x, %w1) {opset = 11 : i64, attrs = {}} : (tensor<1x8x6x6xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x6x6xf32>
  %1 = tgc.onnx_node "Conv"(%0, %wg) {opset = 11 : i64, attrs = {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x16x6x6xf32>, tensor<16x4x3x3xf32>) -> tensor<1x16x6x6xf32>
  %2 = tgc.onnx_node "Conv"(%1, %w2) {opset = 11 : i64, attrs = {}} : (tensor<1x16x6x6xf32>, tensor<8x16x1x1xf32>) -> tensor<1x8x6x6xf32>
  return %2 : tensor<1x8x6x6xf32>
}

// -----

// A ShuffleNet-like pair: depthwise, then a 1x1 convolution of 12 output
// channels, all the 1x1 work in a count that is not a multiple of 8: NCHW.
// CHECK-LABEL: func @uneven_pointwise(
//   CHECK-NOT:   tgc.permute {{.*}} [0, 3, 1, 2]
//       CHECK:   return
func.func @uneven_pointwise(%x: tensor<1x8x6x6xf32>, %dw: tensor<8x1x3x3xf32>, %pw: tensor<12x8x1x1xf32>) -> tensor<1x12x6x6xf32> {
  %0 = tgc.onnx_node "Conv"(%x, %dw) {opset = 11 : i64, attrs = {group = 8 : i64, pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = tgc.onnx_node "Conv"(%0, %pw) {opset = 11 : i64, attrs = {}} : (tensor<1x8x6x6xf32>, tensor<12x8x1x1xf32>) -> tensor<1x12x6x6xf32>
  return %1 : tensor<1x12x6x6xf32>
}

// -----

// The same with a second 1x1 convolution of 16 channels on a larger image:
// the 12-channel one is a tenth of the 1x1 work or less (8x12x36 against
// 12x16x256 per image), so channels last.
// CHECK-LABEL: func @mostly_even_pointwise(
//       CHECK:   tgc.permute %{{.*}} [0, 3, 1, 2] : tensor<1x6x6x8xf32> -> tensor<1x8x6x6xf32>
func.func @mostly_even_pointwise(%x: tensor<1x8x6x6xf32>, %dw: tensor<8x1x3x3xf32>, %pw: tensor<12x8x1x1xf32>, %y: tensor<1x12x16x16xf32>, %pw2: tensor<16x12x1x1xf32>) -> (tensor<1x12x6x6xf32>, tensor<1x16x16x16xf32>) {
  %0 = tgc.onnx_node "Conv"(%x, %dw) {opset = 11 : i64, attrs = {group = 8 : i64, pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = tgc.onnx_node "Conv"(%0, %pw) {opset = 11 : i64, attrs = {}} : (tensor<1x8x6x6xf32>, tensor<12x8x1x1xf32>) -> tensor<1x12x6x6xf32>
  %2 = tgc.onnx_node "Conv"(%y, %pw2) {opset = 11 : i64, attrs = {}} : (tensor<1x12x16x16xf32>, tensor<16x12x1x1xf32>) -> tensor<1x16x16x16xf32>
  return %1, %2 : tensor<1x12x6x6xf32>, tensor<1x16x16x16xf32>
}

// -----

// Two groups of 65 channels are a dense convolution cut in two: NCHW.
// CHECK-LABEL: func @wide_groups(
//   CHECK-NOT:   tgc.permute {{.*}} [0, 3, 1, 2]
//       CHECK:   return
func.func @wide_groups(%x: tensor<1x130x4x4xf32>, %w: tensor<16x65x3x3xf32>) -> tensor<1x16x4x4xf32> {
  %0 = tgc.onnx_node "Conv"(%x, %w) {opset = 11 : i64, attrs = {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x130x4x4xf32>, tensor<16x65x3x3xf32>) -> tensor<1x16x4x4xf32>
  return %0 : tensor<1x16x4x4xf32>
}

// -----

// A dense 3x3 convolution of fewer than 64 channels keeps the whole model
// NCHW (small convnets), however many grouped ones there are.
// CHECK-LABEL: func @dense_spatial(
//   CHECK-NOT:   tgc.permute {{.*}} [0, 3, 1, 2]
//       CHECK:   return
func.func @dense_spatial(%x: tensor<1x8x6x6xf32>, %wg: tensor<8x2x3x3xf32>, %wd: tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %0 = tgc.onnx_node "Conv"(%x, %wg) {opset = 11 : i64, attrs = {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x8x6x6xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = tgc.onnx_node "Conv"(%0, %wd) {opset = 11 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %1 : tensor<1x8x6x6xf32>
}

// -----

// A ResNet-like stem of 3 channels, then dense 3x3 convolutions of 64
// channels and a 1x1 one: channels last.
// CHECK-LABEL: func @dense_wide(
//       CHECK:   tgc.permute %{{.*}} [0, 3, 1, 2] : tensor<1x6x6x64xf32> -> tensor<1x64x6x6xf32>
func.func @dense_wide(%x: tensor<1x3x6x6xf32>, %ws: tensor<64x3x3x3xf32>, %wd: tensor<64x64x3x3xf32>, %wp: tensor<64x64x1x1xf32>) -> tensor<1x64x6x6xf32> {
  %0 = tgc.onnx_node "Conv"(%x, %ws) {opset = 11 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x3x6x6xf32>, tensor<64x3x3x3xf32>) -> tensor<1x64x6x6xf32>
  %1 = tgc.onnx_node "Conv"(%0, %wd) {opset = 11 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x64x6x6xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x6x6xf32>
  %2 = tgc.onnx_node "Conv"(%1, %wp) {opset = 11 : i64, attrs = {}} : (tensor<1x64x6x6xf32>, tensor<64x64x1x1xf32>) -> tensor<1x64x6x6xf32>
  return %2 : tensor<1x64x6x6xf32>
}

// -----

// The same with its outputs joined along the channels (axis -3 of 4, as
// SqueezeNet, GoogLeNet and DenseNet join theirs): NCHW.
// CHECK-LABEL: func @dense_wide_joined(
//   CHECK-NOT:   tgc.permute {{.*}} [0, 3, 1, 2]
//       CHECK:   return
func.func @dense_wide_joined(%x: tensor<1x64x6x6xf32>, %wd: tensor<64x64x3x3xf32>, %wp: tensor<64x64x1x1xf32>) -> tensor<1x128x6x6xf32> {
  %0 = tgc.onnx_node "Conv"(%x, %wd) {opset = 11 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x64x6x6xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x6x6xf32>
  %1 = tgc.onnx_node "Conv"(%x, %wp) {opset = 11 : i64, attrs = {}} : (tensor<1x64x6x6xf32>, tensor<64x64x1x1xf32>) -> tensor<1x64x6x6xf32>
  %2 = tgc.onnx_node "Concat"(%0, %1) {opset = 11 : i64, attrs = {axis = -3 : i64}} : (tensor<1x64x6x6xf32>, tensor<1x64x6x6xf32>) -> tensor<1x128x6x6xf32>
  return %2 : tensor<1x128x6x6xf32>
}

// -----

// Joined along the rows instead: channels last.
// CHECK-LABEL: func @dense_wide_rows_joined(
//       CHECK:   tgc.permute %{{.*}} [0, 3, 1, 2] : tensor<1x6x6x64xf32> -> tensor<1x64x6x6xf32>
func.func @dense_wide_rows_joined(%x: tensor<1x64x6x6xf32>, %wd: tensor<64x64x3x3xf32>) -> tensor<1x64x12x6xf32> {
  %0 = tgc.onnx_node "Conv"(%x, %wd) {opset = 11 : i64, attrs = {pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x64x6x6xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x6x6xf32>
  %1 = tgc.onnx_node "Concat"(%0, %x) {opset = 11 : i64, attrs = {axis = 2 : i64}} : (tensor<1x64x6x6xf32>, tensor<1x64x6x6xf32>) -> tensor<1x64x12x6xf32>
  return %1 : tensor<1x64x12x6xf32>
}
