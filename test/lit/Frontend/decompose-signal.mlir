// RUN: tgc-opt %s --tgc-decompose | FileCheck %s
// DFT as matmuls with constant cosine and sine matrices, MelWeightMatrix
// and TfIdfVectorizer from their constant parameters.

// A real 4-point DFT: re = x C, im = -(x S); quarter turns are exact.
// CHECK-LABEL: func @dft_real(
// CHECK-DAG: %[[C:.*]] = tgc.const dense<{{\[}}[1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00], [1.000000e+00, 0.000000e+00, -1.000000e+00, 0.000000e+00], [1.000000e+00, -1.000000e+00, 1.000000e+00, -1.000000e+00], [1.000000e+00, 0.000000e+00, -1.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
// CHECK-DAG: %[[S:.*]] = tgc.const dense<{{\[}}[0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, 0.000000e+00, -1.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, -1.000000e+00, 0.000000e+00, 1.000000e+00]]> : tensor<4x4xf32>
// CHECK: tgc.permute %[[C]] [1, 0]
// CHECK: tgc.permute %[[S]] [1, 0]
// CHECK: %[[IM:.*]] = tgc.neg %{{.*}} : tensor<1x4xf32>
// CHECK: tgc.pad %{{.*}} low [0, 0, 1] high [0, 0, 0] : tensor<1x4x1xf32> -> tensor<1x4x2xf32>
func.func @dft_real(%x: tensor<1x4x1xf32>) -> tensor<1x4x2xf32> {
  %0 = tgc.onnx_node "DFT"(%x) {opset = 17 : i64} : (tensor<1x4x1xf32>) -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}

// CHECK-LABEL: func @mel(
// CHECK: %[[M:.*]] = tgc.const dense<{{.*}}> : tensor<5x2xf32>
// CHECK-NEXT: return %[[M]]
func.func @mel() -> tensor<5x2xf32> {
  %bins = tgc.const dense<2> : tensor<si32>
  %len = tgc.const dense<8> : tensor<si32>
  %rate = tgc.const dense<8000> : tensor<si32>
  %lo = tgc.const dense<0.0> : tensor<f32>
  %hi = tgc.const dense<4000.0> : tensor<f32>
  %0 = tgc.onnx_node "MelWeightMatrix"(%bins, %len, %rate, %lo, %hi) {opset = 17 : i64} : (tensor<si32>, tensor<si32>, tensor<si32>, tensor<f32>, tensor<f32>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}

// Unigrams [5], [6] and the bigram [5, 6] with up to one skipped token:
// strided views compared with each gram's tokens.
// CHECK-LABEL: func @tfidf(
// CHECK: %[[UNI:.*]] = tgc.const dense<{{\[\[\[}}5, 6]]]> : tensor<1x1x2xsi32>
// CHECK: tgc.shrink %{{.*}} begin [0, 0] end [1, 5] : tensor<1x6xsi32> -> tensor<1x5xsi32>
// CHECK: tgc.shrink %{{.*}} begin [0, 1] end [1, 6] : tensor<1x6xsi32> -> tensor<1x5xsi32>
// CHECK: tgc.shrink %{{.*}} begin [0, 0] end [1, 4] : tensor<1x6xsi32> -> tensor<1x4xsi32>
// CHECK: tgc.shrink %{{.*}} begin [0, 2] end [1, 6] : tensor<1x6xsi32> -> tensor<1x4xsi32>
// CHECK: tgc.const dense<{{\[\[\[}}true, false, false], [false, true, false], [false, false, true]]]> : tensor<1x3x3xi1>
func.func @tfidf(%x: tensor<6xsi32>) -> tensor<3xf32> {
  %0 = tgc.onnx_node "TfIdfVectorizer"(%x) {opset = 9 : i64, attrs = {max_gram_length = 2 : i64, max_skip_count = 1 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0, 2>, ngram_indexes = array<i64: 0, 1, 2>, pool_int64s = array<i64: 5, 6, 5, 6>}} : (tensor<6xsi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// Dropout in training mode with ratio 0 keeps everything.
// CHECK-LABEL: func @dropout_training_zero_ratio(
// CHECK: %[[MASK:.*]] = tgc.const dense<true> : tensor<4xi1>
// CHECK: return %arg0, %[[MASK]]
func.func @dropout_training_zero_ratio(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>) {
  %r = tgc.const dense<0.0> : tensor<f32>
  %t = tgc.const dense<true> : tensor<i1>
  %0:2 = tgc.onnx_node "Dropout"(%x, %r, %t) {opset = 13 : i64} : (tensor<4xf32>, tensor<f32>, tensor<i1>) -> (tensor<4xf32>, tensor<4xi1>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi1>
}
