// RUN: tgc-opt %s --tgc-decompose -split-input-file -verify-diagnostics
// What the decompositions of the conformance work reject, each with the node,
// the op and what is wrong.

func.func @nll_bad_reduction(%x: tensor<5x3xf32>, %t: tensor<5xsi64>) -> tensor<f32> {
  // expected-error @+1 {{node (NegativeLogLikelihoodLoss): reduction 'max' is not none, sum or mean}}
  %0 = tgc.onnx_node "NegativeLogLikelihoodLoss"(%x, %t) {opset = 13 : i64, attrs = {reduction = "max"}} : (tensor<5x3xf32>, tensor<5xsi64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @nll_target_shape(%x: tensor<5x3x2xf32>, %t: tensor<5x3xsi64>) -> tensor<f32> {
  // expected-error @+1 {{node (NegativeLogLikelihoodLoss): target 'tensor<5x3xsi64>' does not fit input 'tensor<5x3x2xf32>' ([N, C, d...] and [N, d...])}}
  %0 = tgc.onnx_node "NegativeLogLikelihoodLoss"(%x, %t) {opset = 13 : i64} : (tensor<5x3x2xf32>, tensor<5x3xsi64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @sce_weight_shape(%x: tensor<5x3xf32>, %t: tensor<5xsi64>, %w: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{node (SoftmaxCrossEntropyLoss): weight must have one value per class, not 'tensor<4xf32>'}}
  %0 = tgc.onnx_node "SoftmaxCrossEntropyLoss"(%x, %t, %w) {opset = 13 : i64} : (tensor<5x3xf32>, tensor<5xsi64>, tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @resize_scales_and_sizes(%x: tensor<2x3xf32>) -> tensor<4x6xf32> {
  %s = tgc.const dense<[2.0, 2.0]> : tensor<2xf32>
  %z = tgc.const dense<[4, 6]> : tensor<2xsi64>
  // expected-error @+1 {{node (Resize): needs either scales or sizes}}
  %0 = tgc.onnx_node "Resize"(%x, %s, %z) {opset = 13 : i64, input_slots = array<i64: 0, 2, 3>} : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xsi64>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @resize_runtime_scales(%x: tensor<2x3xf32>, %s: tensor<2xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{node (Resize): input 2 (scales) must be a constant}}
  %0 = tgc.onnx_node "Resize"(%x, %s) {opset = 13 : i64, input_slots = array<i64: 0, 2>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @resize_bad_mode(%x: tensor<2x3xf32>) -> tensor<4x6xf32> {
  %s = tgc.const dense<[2.0, 2.0]> : tensor<2xf32>
  // expected-error @+1 {{node (Resize): coordinate_transformation_mode 'corner' is not supported}}
  %0 = tgc.onnx_node "Resize"(%x, %s) {opset = 13 : i64, input_slots = array<i64: 0, 2>, attrs = {coordinate_transformation_mode = "corner"}} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @resize_linear_ints(%x: tensor<2x3xsi32>) -> tensor<4x6xsi32> {
  %s = tgc.const dense<[2.0, 2.0]> : tensor<2xf32>
  // expected-error @+1 {{node (Resize): linear and cubic modes need floating-point data, not 'si32'}}
  %0 = tgc.onnx_node "Resize"(%x, %s) {opset = 13 : i64, input_slots = array<i64: 0, 2>, attrs = {mode = "linear"}} : (tensor<2x3xsi32>, tensor<2xf32>) -> tensor<4x6xsi32>
  return %0 : tensor<4x6xsi32>
}
