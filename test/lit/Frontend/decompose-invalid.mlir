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

// -----

func.func @fmod_zero(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{node (Mod): floating-point Mod needs fmod = 1}}
  %0 = tgc.onnx_node "Mod"(%a, %b) {opset = 13 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @quantize_scale_shape(%x: tensor<2x3xf32>, %s: tensor<2xf32>) -> tensor<2x3xui8> {
  // expected-error @+1 {{node (QuantizeLinear): a scale or zero point must be a scalar or hold one value per slice of axis 1 (3), not 'tensor<2xf32>'}}
  %0 = tgc.onnx_node "QuantizeLinear"(%x, %s) {opset = 13 : i64} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// -----

func.func @window_runtime_size(%n: tensor<si32>) -> tensor<4xf32> {
  // expected-error @+1 {{node (HannWindow): needs a constant size that matches the result 'tensor<4xf32>'}}
  %0 = tgc.onnx_node "HannWindow"(%n) {opset = 17 : i64} : (tensor<si32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @momentum_mode(%r: tensor<f32>, %t: tensor<si64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  // expected-error @+1 {{node (Momentum): needs alpha, beta and mode standard or nesterov}}
  %0:2 = tgc.onnx_node "Momentum"(%r, %t, %x, %g, %v) {domain = "ai.onnx.preview.training", opset = 1 : i64, attrs = {alpha = 0.9 : f32, beta = 0.1 : f32, mode = "heavy"}} : (tensor<f32>, tensor<si64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

func.func @rnn_weight_shape(%x: tensor<2x1x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x1x4xf32> {
  // expected-error @+1 {{node (RNN): W has type 'tensor<1x5x3xf32>' where the input and hidden_size 4 need the shape [1, 4, 3]}}
  %0:2 = tgc.onnx_node "RNN"(%x, %w, %r) {opset = 14 : i64, attrs = {hidden_size = 4 : i64}} : (tensor<2x1x3xf32>, tensor<1x5x3xf32>, tensor<1x4x4xf32>) -> (tensor<2x1x1x4xf32>, tensor<1x1x4xf32>)
  return %0#1 : tensor<1x1x4xf32>
}

// -----

func.func @rnn_activation(%x: tensor<2x1x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x1x4xf32> {
  // expected-error @+1 {{node (RNN): activation 'Gelu' is not supported}}
  %0:2 = tgc.onnx_node "RNN"(%x, %w, %r) {opset = 14 : i64, attrs = {hidden_size = 4 : i64, activations = ["Gelu"]}} : (tensor<2x1x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<2x1x1x4xf32>, tensor<1x1x4xf32>)
  return %0#1 : tensor<1x1x4xf32>
}

// -----

func.func @einsum_terms(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{node (Einsum): equation 'ij,j->i' has 2 terms for 1 operands}}
  %0 = tgc.onnx_node "Einsum"(%a) {opset = 12 : i64, attrs = {equation = "ij,j->i"}} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @det_too_big(%a: tensor<6x6xf32>) -> tensor<f32> {
  // expected-error @+1 {{node (Det): determinants of 6x6 matrices are not supported (at most 5x5)}}
  %0 = tgc.onnx_node "Det"(%a) {opset = 11 : i64} : (tensor<6x6xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @topk_runtime_k(%x: tensor<3x4xf32>, %k: tensor<1xsi64>) -> tensor<3x2xf32> {
  // expected-error @+1 {{node (TopK): input 1 (K) must be a constant integer tensor}}
  %0:2 = tgc.onnx_node "TopK"(%x, %k) {opset = 11 : i64} : (tensor<3x4xf32>, tensor<1xsi64>) -> (tensor<3x2xf32>, tensor<3x2xsi64>)
  return %0#0 : tensor<3x2xf32>
}

// -----

func.func @scatter_reduction(%d: tensor<4x3xf32>, %i: tensor<2x1xsi64>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{node (ScatterND): reduction 'avg' is not supported}}
  %0 = tgc.onnx_node "ScatterND"(%d, %i, %u) {opset = 16 : i64, attrs = {reduction = "avg"}} : (tensor<4x3xf32>, tensor<2x1xsi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @gridsample_mode(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{node (GridSample): mode 'area' is not supported}}
  %0 = tgc.onnx_node "GridSample"(%x, %g) {opset = 16 : i64, attrs = {mode = "area"}} : (tensor<1x1x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @dropout_random(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tgc.const dense<0.5> : tensor<f32>
  %t = tgc.const dense<true> : tensor<i1>
  // expected-error @+1 {{node (Dropout): training mode with a ratio other than a constant 0 draws random numbers, which is not supported}}
  %0 = tgc.onnx_node "Dropout"(%x, %r, %t) {opset = 13 : i64} : (tensor<4xf32>, tensor<f32>, tensor<i1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @tfidf_mode(%x: tensor<6xsi32>) -> tensor<3xf32> {
  // expected-error @+1 {{node (TfIdfVectorizer): needs ngram_counts, ngram_indexes, pool_int64s, 1 <= min_gram_length <= max_gram_length and mode TF, IDF or TFIDF}}
  %0 = tgc.onnx_node "TfIdfVectorizer"(%x) {opset = 9 : i64, attrs = {max_gram_length = 2 : i64, min_gram_length = 1 : i64, mode = "BM25", ngram_counts = array<i64: 0, 2>, ngram_indexes = array<i64: 0, 1, 2>, pool_int64s = array<i64: 5, 6, 5, 6>}} : (tensor<6xsi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @dft_axis(%x: tensor<1x4x1xf32>) -> tensor<1x4x2xf32> {
  // expected-error @+1 {{node (DFT): axis -1 is the real/imaginary dim}}
  %0 = tgc.onnx_node "DFT"(%x) {opset = 17 : i64, attrs = {axis = -1 : i64}} : (tensor<1x4x1xf32>) -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}
