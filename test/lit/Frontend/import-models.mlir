// The bundled models: signatures, a few nodes, weights as resource blobs.
// RUN: tgc-translate --import-onnx %models/mlp/model.onnx | FileCheck %s --check-prefix=MLP
// RUN: tgc-translate --import-onnx %models/cnn/model.onnx | FileCheck %s --check-prefix=CNN
// RUN: tgc-translate --import-onnx %models/resblock/model.onnx | FileCheck %s --check-prefix=RES
// RUN: tgc-translate --import-onnx %models/transformer/model.onnx | FileCheck %s --check-prefix=TRF
// RUN: tgc-translate --import-onnx %models/transformer/model.onnx | FileCheck %s --check-prefix=FOLD
// RUN: tgc-translate --import-onnx %models/mlp/model.onnx --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: tgc-translate --import-onnx %models/dyncnn/model.onnx --onnx-input-shape=input=2x3x24x40 | FileCheck %s --check-prefix=DYN

// MLP: module attributes {tgc.source = "{{.*}}models/mlp/model.onnx"}
// MLP-LABEL: func.func @main(
// MLP-SAME: %[[X:.*]]: tensor<1x784xf32> {tgc.name = "input"}) -> (tensor<1x10xf32> {tgc.name = "output"})
// MLP-DAG: %[[W0:.*]] = tgc.const dense_resource<net.0.weight> : tensor<512x784xf32>
// MLP-DAG: %[[B0:.*]] = tgc.const dense_resource<net.0.bias> : tensor<512xf32>
// 10 floats stay inline: only more than 64 become a blob.
// MLP-DAG: %[[B4:.*]] = tgc.const dense<[{{.*}}]> : tensor<10xf32>
// MLP: %[[G0:.*]] = tgc.onnx_node "Gemm"(%[[X]], %[[W0]], %[[B0]]) {attrs = {alpha = 1.000000e+00 : f32, beta = 1.000000e+00 : f32, transB = 1 : i64}, opset = 17 : i64} : (tensor<1x784xf32>, tensor<512x784xf32>, tensor<512xf32>) -> tensor<1x512xf32>
// MLP-NEXT: tgc.onnx_node "Relu"(%[[G0]]) {opset = 17 : i64} : (tensor<1x512xf32>) -> tensor<1x512xf32>
// MLP: %[[OUT:.*]] = tgc.onnx_node "Gemm"({{.*}}, %[[B4]])
// MLP-NEXT: return %[[OUT]] : tensor<1x10xf32>
// MLP: dialect_resources
// MLP: net.0.weight: "0x04000000

// CNN-LABEL: func.func @main(
// CNN-SAME: tensor<1x1x28x28xf32> {tgc.name = "input"}) -> (tensor<1x10xf32> {tgc.name = "output"})
// CNN: tgc.onnx_node "Conv"({{.*}}) {attrs = {dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}, opset = 17 : i64} : (tensor<1x1x28x28xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x28x28xf32>
// CNN: tgc.onnx_node "MaxPool"({{.*}}) {attrs = {ceil_mode = 0 : i64, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>}, opset = 17 : i64} : (tensor<1x8x28x28xf32>) -> tensor<1x8x14x14xf32>
// CNN: tgc.onnx_node "Flatten"({{.*}}) {attrs = {axis = 1 : i64}, opset = 17 : i64} : (tensor<1x16x7x7xf32>) -> tensor<1x784xf32>

// RES-LABEL: func.func @main(
// RES-SAME: tensor<1x64x56x56xf32> {tgc.name = "input"}) -> (tensor<1x64x56x56xf32> {tgc.name = "output"})
// RES: tgc.const dense_resource<conv1.weight> : tensor<64x64x3x3xf32>
// RES: tgc.onnx_node "BatchNormalization"({{.*}}) {attrs = {epsilon = 9.99999974E-6 : f32, momentum = 0.899999976 : f32, training_mode = 0 : i64}, opset = 17 : i64} : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
// RES: tgc.onnx_node "Add"(%{{.*}}, %arg0)

// The Shape -> Gather -> Add -> Div -> Mul chain that splits the fused QKV
// projection is folded into constants, so every Slice has a static type.
// TRF-LABEL: func.func @main(
// TRF-SAME: tensor<1x128x256xf32> {tgc.name = "input"}) -> (tensor<1x128x256xf32> {tgc.name = "output"})
// TRF: %[[QKV:.*]] = tgc.onnx_node "Add"
// TRF-SAME: -> tensor<128x1x768xf32>
// TRF-DAG: %[[AXIS:.*]] = tgc.const dense<-1> : tensor<1xsi64>
// TRF-DAG: %[[ZERO:.*]] = tgc.const dense<0> : tensor<1xsi64>
// TRF-DAG: %[[C256:.*]] = tgc.const dense<256> : tensor<1xsi64>
// TRF: tgc.onnx_node "Slice"(%[[QKV]], %[[ZERO]], %[[C256]], %[[AXIS]]) {opset = 17 : i64} : (tensor<128x1x768xf32>, tensor<1xsi64>, tensor<1xsi64>, tensor<1xsi64>) -> tensor<128x1x256xf32>
// TRF: tgc.onnx_node "Softmax"({{.*}}) {attrs = {axis = -1 : i64}, opset = 17 : i64} : (tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
// TRF: tgc.onnx_node "Erf"
// TRF: tgc.onnx_node "LayerNormalization"({{.*}}) {attrs = {axis = -1 : i64, epsilon = 9.99999974E-6 : f32}, opset = 17 : i64} : (tensor<1x128x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<1x128x256xf32>
// TRF-NEXT: return

// FOLD-NOT: "Shape"
// FOLD-NOT: "Gather"
// FOLD: return

// Each op is located at its node's name inside the file.
// LOC: #[[FILE:loc[0-9]*]] = loc("{{.*}}models/mlp/model.onnx":0:0)
// LOC: tgc.onnx_node "Gemm"{{.*}} loc(#[[GEMM:loc[0-9]*]])
// LOC: #[[GEMM]] = loc("/net/net.0/Gemm"(#[[FILE]]))

// dyncnn has a dynamic batch, height and width; bound, its
// x.view(x.size(0), -1) (Shape -> Gather -> Unsqueeze -> Concat -> Reshape)
// folds to a constant shape.
// DYN-LABEL: func.func @main(
// DYN-SAME: tensor<2x3x24x40xf32> {tgc.name = "input"}) -> (tensor<2x10xf32> {tgc.name = "output"})
// DYN-NOT: "Shape"
// DYN-NOT: "Gather"
// DYN-NOT: "Unsqueeze"
// DYN-NOT: "Concat"
// DYN: %[[SHAPE:.*]] = tgc.const dense<[2, -1]> : tensor<2xsi64>
// DYN-NOT: "Shape"
// DYN-NOT: "Gather"
// DYN-NOT: "Concat"
// DYN: tgc.onnx_node "Reshape"(%{{.*}}, %[[SHAPE]]) {{.*}} : (tensor<2x16x1x1xf32>, tensor<2xsi64>) -> tensor<2x16xf32>
// DYN-NOT: "Shape"
// DYN-NOT: "Gather"
// DYN-NOT: "Concat"
// DYN: return
