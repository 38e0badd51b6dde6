// The bundled models decompose completely: no tgc.onnx_node is left, and
// only graph-level primitives remain.
// RUN: tgc-translate --import-onnx %models/mlp/model.onnx | tgc-opt --tgc-decompose | FileCheck %s --check-prefix=MLP
// RUN: tgc-translate --import-onnx %models/cnn/model.onnx | tgc-opt --tgc-decompose | FileCheck %s --check-prefix=CNN
// RUN: tgc-translate --import-onnx %models/resblock/model.onnx | tgc-opt --tgc-decompose="winograd=never conv-layout=nchw" | FileCheck %s --check-prefix=RES
// RUN: tgc-translate --import-onnx %models/resblock/model.onnx | tgc-opt --tgc-decompose="conv-layout=nchw" | FileCheck %s --check-prefix=WINO
// RUN: tgc-translate --import-onnx %models/resblock/model.onnx | tgc-opt --tgc-decompose | FileCheck %s --check-prefix=LAST
// RUN: tgc-translate --import-onnx %models/transformer/model.onnx | tgc-opt --tgc-decompose | FileCheck %s --check-prefix=TRF

// MLP-LABEL: func.func @main(
// MLP-NOT: tgc.onnx_node
// MLP-COUNT-3: tgc.reduce_axis add
// MLP-NOT: tgc.onnx_node
// MLP: return %{{.*}} : tensor<1x10xf32>

// Two convolutions, each a sum over (cin, kh, kw); two 2x2 max pools.
// CNN-LABEL: func.func @main(
// CNN-NOT: tgc.onnx_node
// CNN: tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<1x1x8x28x28x1x3x3xf32>
// CNN: tgc.reduce_axis max %{{.*}} [4, 5] : tensor<1x8x14x14x2x2xf32>
// CNN: tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<1x1x16x14x14x8x3x3xf32>
// CNN: tgc.reduce_axis max %{{.*}} [4, 5] : tensor<1x16x7x7x2x2xf32>
// CNN-NOT: tgc.onnx_node
// CNN: return

// RES-LABEL: func.func @main(
// RES-NOT: tgc.onnx_node
// RES-COUNT-2: tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<1x1x64x56x56x64x3x3xf32>
// RES-NOT: tgc.onnx_node
// RES: return

// By default both 3x3 convolutions (64 channels, 14x14 tiles of 4x4) go
// through Winograd F(4x4, 3x3): the padded input realized, 36 products of
// the tile elements summed over the 64 input channels, the output transform
// realized as [N, K, tH, 4, tW, 4] (the image in memory) NCHW.
// WINO-LABEL: func.func @main(
// WINO-NOT: tgc.onnx_node
// WINO: tgc.const dense_resource<conv1.weight_winograd> : tensor<36x64x64xf32>
// WINO: tgc.contiguous %{{.*}} : tensor<1x64x58x58xf32>
// WINO: tgc.reduce_axis add %{{.*}} [5] : tensor<36x1x64x14x14x64xf32>
// WINO: tgc.contiguous %{{.*}} : tensor<1x64x14x4x14x4xf32>
// WINO: tgc.reduce_axis add %{{.*}} [5] : tensor<36x1x64x14x14x64xf32>
// WINO-NOT: tgc.onnx_node
// WINO: return

// auto computes the block channels last (dense 3x3 convolutions of 64
// channels, nothing joined): the input is read as [N, H, W, C], the
// products are [36, N, tH, tW, K], the output transform is realized as
// [N, tH, 4, tW, 4, K], and the NCHW image is a permute of it.
// LAST-LABEL: func.func @main(
// LAST-NOT: tgc.onnx_node
// LAST: tgc.const dense_resource<conv1.weight_winograd> : tensor<36x64x64xf32>
// LAST: tgc.permute %arg0 [0, 2, 3, 1] : tensor<1x64x56x56xf32> -> tensor<1x56x56x64xf32>
// LAST: tgc.contiguous %{{.*}} : tensor<1x58x58x64xf32>
// LAST: tgc.reduce_axis add %{{.*}} [5] : tensor<36x1x14x14x64x64xf32>
// LAST: tgc.contiguous %{{.*}} : tensor<1x14x4x14x4x64xf32>
// LAST: tgc.permute %{{.*}} [0, 3, 1, 2] : tensor<1x56x56x64xf32> -> tensor<1x64x56x56xf32>
// LAST: tgc.reduce_axis add %{{.*}} [5] : tensor<36x1x14x14x64x64xf32>
// LAST-NOT: tgc.onnx_node
// LAST: return

// Attention: QK^T, softmax, AV; the GELU's erf; two layer norms.
// TRF-LABEL: func.func @main(
// TRF-NOT: tgc.onnx_node
// TRF: tgc.reduce_axis add %{{.*}} [3] : tensor<4x128x128x64xf32> -> tensor<4x128x128x1xf32>
// TRF: tgc.reduce_axis max %{{.*}} [2] : tensor<4x128x128xf32> -> tensor<4x128x1xf32>
// TRF: tgc.reduce_axis add %{{.*}} [3] : tensor<4x128x64x128xf32> -> tensor<4x128x64x1xf32>
// TRF: tgc.const dense<-3.920000e+00> : tensor<1x128x1024xf32>
// TRF: tgc.fdiv %{{.*}} : tensor<1x128x1024xf32>
// TRF-NOT: tgc.onnx_node
// TRF: return %{{.*}} : tensor<1x128x256xf32>
