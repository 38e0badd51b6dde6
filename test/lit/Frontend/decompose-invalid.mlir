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
