// RUN: tgc-opt %s --tgc-decompose="conv-layout=nchw" | FileCheck %s
// No matmul or conv primitive: matmul is reshape + expand + mul + a sum over
// the shared axis; conv and pooling windows are views made of movement ops
// (tinygrad's _pool), then mul and reduce_axis.

// CHECK-LABEL: func @matmul_2d(
// CHECK-NEXT: %[[BT:.*]] = tgc.permute %arg1 [1, 0] : tensor<3x4xf32> -> tensor<4x3xf32>
// CHECK-NEXT: %[[A:.*]] = tgc.reshape %arg0 : tensor<2x3xf32> -> tensor<2x1x3xf32>
// CHECK-NEXT: %[[AE:.*]] = tgc.expand %[[A]] : tensor<2x1x3xf32> -> tensor<2x4x3xf32>
// CHECK-NEXT: %[[B:.*]] = tgc.reshape %[[BT]] : tensor<4x3xf32> -> tensor<1x4x3xf32>
// CHECK-NEXT: %[[BE:.*]] = tgc.expand %[[B]] : tensor<1x4x3xf32> -> tensor<2x4x3xf32>
// CHECK-NEXT: %[[P:.*]] = tgc.mul %[[AE]], %[[BE]] : tensor<2x4x3xf32>
// CHECK-NEXT: %[[S:.*]] = tgc.reduce_axis add %[[P]] [2] : tensor<2x4x3xf32> -> tensor<2x4x1xf32>
// CHECK-NEXT: %[[R:.*]] = tgc.reshape %[[S]] : tensor<2x4x1xf32> -> tensor<2x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @matmul_2d(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = tgc.onnx_node "MatMul"(%a, %b) {opset = 13 : i64} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// A 1-D lhs is a row that goes away; batch dims broadcast.
// CHECK-LABEL: func @matmul_vector_batch(
// CHECK-NEXT: %[[BT:.*]] = tgc.permute %arg1 [0, 2, 1] : tensor<5x3x4xf32> -> tensor<5x4x3xf32>
// CHECK-NEXT: %[[A:.*]] = tgc.reshape %arg0 : tensor<3xf32> -> tensor<1x1x1x3xf32>
// CHECK-NEXT: %[[AE:.*]] = tgc.expand %[[A]] : tensor<1x1x1x3xf32> -> tensor<5x1x4x3xf32>
// CHECK-NEXT: %[[B:.*]] = tgc.reshape %[[BT]] : tensor<5x4x3xf32> -> tensor<5x1x4x3xf32>
// CHECK-NEXT: %[[P:.*]] = tgc.mul %[[AE]], %[[B]]
// CHECK-NEXT: %[[S:.*]] = tgc.reduce_axis add %[[P]] [3]
// CHECK-NEXT: tgc.reshape %[[S]] : tensor<5x1x4x1xf32> -> tensor<5x4xf32>
func.func @matmul_vector_batch(%a: tensor<3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x4xf32> {
  %0 = tgc.onnx_node "MatMul"(%a, %b) {opset = 13 : i64} : (tensor<3xf32>, tensor<5x3x4xf32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// transB cancels the matmul's own transpose of B; alpha and beta scale.
// CHECK-LABEL: func @gemm(
// CHECK-NEXT: %[[AT:.*]] = tgc.permute %arg0 [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[A:.*]] = tgc.reshape %[[AT]] : tensor<2x3xf32> -> tensor<2x1x3xf32>
// CHECK-NEXT: tgc.expand %[[A]]
// CHECK-NEXT: %[[B:.*]] = tgc.reshape %arg1 : tensor<4x3xf32> -> tensor<1x4x3xf32>
// CHECK-NEXT: tgc.expand %[[B]]
// CHECK-NEXT: tgc.mul
// CHECK-NEXT: tgc.reduce_axis add
// CHECK-NEXT: %[[ALPHA:.*]] = tgc.const dense<2.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT: %[[AB:.*]] = tgc.reshape
// CHECK-NEXT: %[[Y:.*]] = tgc.mul %[[AB]], %[[ALPHA]]
// CHECK-NEXT: %[[BETA:.*]] = tgc.const dense<5.000000e-01> : tensor<4xf32>
// CHECK-NEXT: %[[C:.*]] = tgc.mul %arg2, %[[BETA]] : tensor<4xf32>
// CHECK-NEXT: %[[CR:.*]] = tgc.reshape %[[C]] : tensor<4xf32> -> tensor<1x4xf32>
// CHECK-NEXT: %[[CE:.*]] = tgc.expand %[[CR]] : tensor<1x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT: tgc.add %[[Y]], %[[CE]]
func.func @gemm(%a: tensor<3x2xf32>, %b: tensor<4x3xf32>, %c: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = tgc.onnx_node "Gemm"(%a, %b, %c) {opset = 13 : i64, attrs = {alpha = 2.0 : f32, beta = 0.5 : f32, transA = 1 : i64, transB = 1 : i64}} : (tensor<3x2xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// 3x3 stride 2 windows overlap: the padded input is repeated 4x per spatial
// dim (reshape, expand, reshape), cut into [tap, row] and strided, so that
// window (o, k) reads x[2o + k]. Then mul with the weight and a sum over
// (cin, kh, kw).
// CHECK-LABEL: func @conv(
// CHECK-NEXT: %[[P:.*]] = tgc.pad %arg0 low [0, 0, 1, 1] high [0, 0, 1, 1] : tensor<1x2x5x5xf32> -> tensor<1x2x7x7xf32>
// CHECK-NEXT: %[[R1:.*]] = tgc.reshape %[[P]] : tensor<1x2x7x7xf32> -> tensor<1x2x1x7x1x7xf32>
// CHECK-NEXT: %[[R2:.*]] = tgc.expand %[[R1]] : tensor<1x2x1x7x1x7xf32> -> tensor<1x2x4x7x4x7xf32>
// CHECK-NEXT: %[[R3:.*]] = tgc.reshape %[[R2]] : tensor<1x2x4x7x4x7xf32> -> tensor<1x2x28x28xf32>
// CHECK-NEXT: %[[S1:.*]] = tgc.shrink %[[R3]] begin [0, 0, 0, 0] end [1, 2, 24, 24] : tensor<1x2x28x28xf32> -> tensor<1x2x24x24xf32>
// CHECK-NEXT: %[[V1:.*]] = tgc.reshape %[[S1]] : tensor<1x2x24x24xf32> -> tensor<1x2x3x8x3x8xf32>
// CHECK-NEXT: %[[S2:.*]] = tgc.shrink %[[V1]] begin [0, 0, 0, 0, 0, 0] end [1, 2, 3, 6, 3, 6]
// CHECK-NEXT: %[[V2:.*]] = tgc.reshape %[[S2]] : tensor<1x2x3x6x3x6xf32> -> tensor<1x2x3x3x2x3x3x2xf32>
// CHECK-NEXT: %[[S3:.*]] = tgc.shrink %[[V2]] begin [0, 0, 0, 0, 0, 0, 0, 0] end [1, 2, 3, 3, 1, 3, 3, 1]
// CHECK-NEXT: %[[W:.*]] = tgc.reshape %[[S3]] : tensor<1x2x3x3x1x3x3x1xf32> -> tensor<1x2x3x3x3x3xf32>
// CHECK-NEXT: tgc.permute %[[W]] [0, 1, 3, 5, 2, 4]
// CHECK: %[[XW:.*]] = tgc.expand %{{.*}} : tensor<1x1x1x3x3x2x3x3xf32> -> tensor<1x1x4x3x3x2x3x3xf32>
// CHECK-NEXT: %[[WR:.*]] = tgc.reshape %arg1 : tensor<4x2x3x3xf32> -> tensor<1x1x4x1x1x2x3x3xf32>
// CHECK-NEXT: %[[WE:.*]] = tgc.expand %[[WR]] : tensor<1x1x4x1x1x2x3x3xf32> -> tensor<1x1x4x3x3x2x3x3xf32>
// CHECK-NEXT: %[[M:.*]] = tgc.mul %[[XW]], %[[WE]]
// CHECK-NEXT: %[[SUM:.*]] = tgc.reduce_axis add %[[M]] [5, 6, 7] : tensor<1x1x4x3x3x2x3x3xf32> -> tensor<1x1x4x3x3x1x1x1xf32>
// CHECK-NEXT: %[[Y:.*]] = tgc.reshape %[[SUM]] : tensor<1x1x4x3x3x1x1x1xf32> -> tensor<1x4x3x3xf32>
// CHECK-NEXT: %[[BR:.*]] = tgc.reshape %arg2 : tensor<4xf32> -> tensor<1x4x1x1xf32>
// CHECK-NEXT: %[[BE:.*]] = tgc.expand %[[BR]]
// CHECK-NEXT: tgc.add %[[Y]], %[[BE]] : tensor<1x4x3x3xf32>
func.func @conv(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x3x3xf32> {
  %0 = tgc.onnx_node "Conv"(%x, %w, %b) {opset = 11 : i64, attrs = {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// Depthwise (groups = channels) 1-D convolution with SAME_UPPER padding.
// CHECK-LABEL: func @conv_depthwise_1d(
// CHECK-NEXT: tgc.pad %arg0 low [0, 0, 1] high [0, 0, 1] : tensor<1x4x8xf32> -> tensor<1x4x10xf32>
// CHECK: %[[WR:.*]] = tgc.reshape %arg1 : tensor<4x1x3xf32> -> tensor<1x4x1x1x1x3xf32>
// CHECK: %[[S:.*]] = tgc.reduce_axis add %{{.*}} [4, 5] : tensor<1x4x1x8x1x3xf32> -> tensor<1x4x1x8x1x1xf32>
// CHECK-NEXT: tgc.reshape %[[S]] : tensor<1x4x1x8x1x1xf32> -> tensor<1x4x8xf32>
func.func @conv_depthwise_1d(%x: tensor<1x4x8xf32>, %w: tensor<4x1x3xf32>) -> tensor<1x4x8xf32> {
  %0 = tgc.onnx_node "Conv"(%x, %w) {opset = 11 : i64, attrs = {group = 4 : i64, auto_pad = "SAME_UPPER"}} : (tensor<1x4x8xf32>, tensor<4x1x3xf32>) -> tensor<1x4x8xf32>
  return %0 : tensor<1x4x8xf32>
}

// Windows that do not overlap are a reshape and a permute: no repeat, no
// padding.
// CHECK-LABEL: func @maxpool_2x2(
// CHECK-NEXT: %[[R:.*]] = tgc.reshape %arg0 : tensor<1x1x4x4xf32> -> tensor<1x1x2x2x2x2xf32>
// CHECK-NEXT: %[[P:.*]] = tgc.permute %[[R]] [0, 1, 2, 4, 3, 5]
// CHECK-NEXT: %[[M:.*]] = tgc.reduce_axis max %[[P]] [4, 5] : tensor<1x1x2x2x2x2xf32> -> tensor<1x1x2x2x1x1xf32>
// CHECK-NEXT: %[[Y:.*]] = tgc.reshape %[[M]] : tensor<1x1x2x2x1x1xf32> -> tensor<1x1x2x2xf32>
// CHECK-NEXT: return %[[Y]]
func.func @maxpool_2x2(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %0 = tgc.onnx_node "MaxPool"(%x) {opset = 12 : i64, attrs = {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// Max pooling pads with -inf: pad zeros, then select -inf outside a padded
// all-true mask.
// CHECK-LABEL: func @maxpool_padded(
// CHECK-NEXT: %[[NINF:.*]] = tgc.const dense<0xFF800000> : tensor<f32>
// CHECK-NEXT: %[[P:.*]] = tgc.pad %arg0 low [0, 0, 1, 1] high [0, 0, 1, 1]
// CHECK-NEXT: %[[ONES:.*]] = tgc.const dense<true> : tensor<1x1x4x4xi1>
// CHECK-NEXT: %[[MASK:.*]] = tgc.pad %[[ONES]] low [0, 0, 1, 1] high [0, 0, 1, 1] : tensor<1x1x4x4xi1> -> tensor<1x1x6x6xi1>
// CHECK-NEXT: %[[R:.*]] = tgc.reshape %[[NINF]] : tensor<f32> -> tensor<1x1x1x1xf32>
// CHECK-NEXT: %[[E:.*]] = tgc.expand %[[R]]
// CHECK-NEXT: tgc.where %[[MASK]], %[[P]], %[[E]] : tensor<1x1x6x6xi1>, tensor<1x1x6x6xf32>
// CHECK: tgc.reduce_axis max %{{.*}} [4, 5] : tensor<1x1x4x4x3x3xf32> -> tensor<1x1x4x4x1x1xf32>
func.func @maxpool_padded(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %0 = tgc.onnx_node "MaxPool"(%x) {opset = 12 : i64, attrs = {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// Without count_include_pad the divisor is the same windowed sum over a
// zero-padded tensor of ones; with it, a constant 9.
// CHECK-LABEL: func @avgpool(
// CHECK: %[[SUM:.*]] = tgc.reduce_axis add %{{.*}} [4, 5] : tensor<1x1x2x2x3x3xf32> -> tensor<1x1x2x2x1x1xf32>
// CHECK-NEXT: %[[ONES:.*]] = tgc.const dense<1.000000e+00> : tensor<1x1x4x4xf32>
// CHECK-NEXT: tgc.pad %[[ONES]] low [0, 0, 1, 1] high [0, 0, 1, 1]
// CHECK: %[[CNT:.*]] = tgc.reduce_axis add %{{.*}} [4, 5] : tensor<1x1x2x2x3x3xf32> -> tensor<1x1x2x2x1x1xf32>
// CHECK-NEXT: %[[A:.*]] = tgc.reshape %[[SUM]]
// CHECK-NEXT: %[[B:.*]] = tgc.reshape %[[CNT]]
// CHECK-NEXT: tgc.fdiv %[[A]], %[[B]] : tensor<1x1x2x2xf32>
// CHECK: %[[NINE:.*]] = tgc.const dense<9.000000e+00> : tensor<1x1x2x2xf32>
// CHECK-NEXT: %[[S2:.*]] = tgc.reshape
// CHECK-NEXT: tgc.fdiv %[[S2]], %[[NINE]]
func.func @avgpool(%x: tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) {
  %0 = tgc.onnx_node "AveragePool"(%x) {opset = 11 : i64, attrs = {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  %1 = tgc.onnx_node "AveragePool"(%x) {opset = 11 : i64, attrs = {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, count_include_pad = 1 : i64}} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %0, %1 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>
}

// ceil_mode: the last window hangs over the end (the result type says how
// far), and the overhang pads with -inf too.
// CHECK-LABEL: func @maxpool_ceil(
// CHECK: tgc.pad %{{.*}} low [0, 0, 0, 0] high [0, 0, 1, 1] : tensor<1x1x4x4xf32> -> tensor<1x1x5x5xf32>
// CHECK: tgc.reduce_axis max %{{.*}} [4, 5] : tensor<1x1x2x2x3x3xf32> -> tensor<1x1x2x2x1x1xf32>
func.func @maxpool_ceil(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %0 = tgc.onnx_node "MaxPool"(%x) {opset = 12 : i64, attrs = {ceil_mode = 1 : i64, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>}} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// CHECK-LABEL: func @global_average_pool(
// CHECK-NEXT: %[[S:.*]] = tgc.reduce_axis add %arg0 [2, 3] : tensor<1x3x4x4xf32> -> tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[N:.*]] = tgc.const dense<1.600000e+01> : tensor<1x3x1x1xf32>
// CHECK-NEXT: tgc.fdiv %[[S]], %[[N]]
func.func @global_average_pool(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32> {
  %0 = tgc.onnx_node "GlobalAveragePool"(%x) {opset = 1 : i64} : (tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// (x - mean) * (scale / sqrt(var + eps)) + bias, parameters per channel.
// CHECK-LABEL: func @batchnorm(
// CHECK-NEXT: %[[EPS:.*]] = tgc.const dense<1.000000e-03> : tensor<3xf32>
// CHECK-NEXT: %[[VE:.*]] = tgc.add %arg4, %[[EPS]] : tensor<3xf32>
// CHECK-NEXT: %[[SD:.*]] = tgc.sqrt %[[VE]]
// CHECK-NEXT: %[[INV:.*]] = tgc.recip %[[SD]]
// CHECK-NEXT: %[[F:.*]] = tgc.mul %arg1, %[[INV]] : tensor<3xf32>
// CHECK-NEXT: %[[MR:.*]] = tgc.reshape %arg3 : tensor<3xf32> -> tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[ME:.*]] = tgc.expand %[[MR]] : tensor<1x3x1x1xf32> -> tensor<2x3x4x4xf32>
// CHECK-NEXT: %[[C:.*]] = tgc.sub %arg0, %[[ME]]
// CHECK-NEXT: %[[FR:.*]] = tgc.reshape %[[F]] : tensor<3xf32> -> tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[FE:.*]] = tgc.expand %[[FR]]
// CHECK-NEXT: %[[Y:.*]] = tgc.mul %[[C]], %[[FE]]
// CHECK-NEXT: %[[BR:.*]] = tgc.reshape %arg2 : tensor<3xf32> -> tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[BE:.*]] = tgc.expand %[[BR]]
// CHECK-NEXT: tgc.add %[[Y]], %[[BE]] : tensor<2x3x4x4xf32>
func.func @batchnorm(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  %0 = tgc.onnx_node "BatchNormalization"(%x, %s, %b, %m, %v) {opset = 15 : i64, attrs = {epsilon = 1.0e-3 : f32, momentum = 0.9 : f32}} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// LayerNormalization with its Mean and InvStdDev outputs.
// CHECK-LABEL: func @layernorm(
// CHECK-NEXT: %[[S:.*]] = tgc.reduce_axis add %arg0 [1] : tensor<2x8xf32> -> tensor<2x1xf32>
// CHECK-NEXT: %[[N:.*]] = tgc.const dense<8.000000e+00> : tensor<2x1xf32>
// CHECK-NEXT: %[[MEAN:.*]] = tgc.fdiv %[[S]], %[[N]]
// CHECK-NEXT: %[[ME:.*]] = tgc.expand %[[MEAN]]
// CHECK-NEXT: %[[D:.*]] = tgc.sub %arg0, %[[ME]]
// CHECK-NEXT: %[[SQ:.*]] = tgc.mul %[[D]], %[[D]]
// CHECK-NEXT: %[[VS:.*]] = tgc.reduce_axis add %[[SQ]] [1]
// CHECK-NEXT: %[[VAR:.*]] = tgc.fdiv %[[VS]], %[[N]]
// CHECK-NEXT: %[[EPS:.*]] = tgc.const dense<9.99999974E-6> : tensor<2x1xf32>
// CHECK-NEXT: %[[VE:.*]] = tgc.add %[[VAR]], %[[EPS]]
// CHECK-NEXT: %[[SD:.*]] = tgc.sqrt %[[VE]]
// CHECK-NEXT: %[[INV:.*]] = tgc.recip %[[SD]]
// CHECK: return %{{.*}}, %[[MEAN]], %[[INV]]
func.func @layernorm(%x: tensor<2x8xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>) {
  %0:3 = tgc.onnx_node "LayerNormalization"(%x, %s, %b) {opset = 17 : i64, attrs = {axis = -1 : i64, epsilon = 1.0e-5 : f32}} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>
}

// Opset 13 normalizes over one axis (default -1); before, the input is
// flattened to 2-D at `axis` (default 1).
// CHECK-LABEL: func @softmax(
// CHECK-NEXT: %[[M:.*]] = tgc.reduce_axis max %arg0 [2] : tensor<2x3x4xf32> -> tensor<2x3x1xf32>
// CHECK-NEXT: %[[ME:.*]] = tgc.expand %[[M]]
// CHECK-NEXT: %[[D:.*]] = tgc.sub %arg0, %[[ME]]
// CHECK: %[[E:.*]] = tgc.exp2
// CHECK-NEXT: %[[S:.*]] = tgc.reduce_axis add %[[E]] [2]
// CHECK-NEXT: %[[R:.*]] = tgc.recip %[[S]] : tensor<2x3x1xf32>
// CHECK-NEXT: %[[RE:.*]] = tgc.expand %[[R]]
// CHECK-NEXT: tgc.mul %[[E]], %[[RE]] : tensor<2x3x4xf32>
// CHECK-NEXT: %[[FLAT:.*]] = tgc.reshape %arg0 : tensor<2x3x4xf32> -> tensor<2x12xf32>
// CHECK-NEXT: tgc.reduce_axis max %[[FLAT]] [1] : tensor<2x12xf32> -> tensor<2x1xf32>
// CHECK: tgc.recip %{{.*}} : tensor<2x1xf32>
// CHECK: %[[F:.*]] = tgc.mul %{{.*}} : tensor<2x12xf32>
// CHECK-NEXT: tgc.reshape %[[F]] : tensor<2x12xf32> -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[LM:.*]] = tgc.reduce_axis max %arg0 [1] : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
// CHECK: tgc.log2
func.func @softmax(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  %0 = tgc.onnx_node "Softmax"(%x) {opset = 13 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %1 = tgc.onnx_node "Softmax"(%x) {opset = 11 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = tgc.onnx_node "LogSoftmax"(%x) {opset = 13 : i64, attrs = {axis = 1 : i64}} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0, %1, %2 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>
}

// A strided ConvTranspose whose kernel is whole strides (4 taps, stride
// 2): one stride-1 convolution with a kernel of k/s taps and s*s times the
// output channels, one per phase of the output, then depth to space. The
// weight's taps are split into (tap, phase), the taps flipped and the
// phases moved next to the output channels; the input padded by a tap
// before and after for the 4 rows of each phase; the 16 phase channels
// realized, interleaved into 8x8 and cropped by the pads to 6x6.
// CHECK-LABEL: func @conv_transpose_k4(
// CHECK-NEXT: %[[WS:.*]] = tgc.reshape %arg1 : tensor<2x4x4x4xf32> -> tensor<1x2x4x2x2x2x2xf32>
// CHECK-NEXT: %[[WF:.*]] = tgc.flip %[[WS]] [3, 5]
// CHECK-NEXT: %[[WT:.*]] = tgc.permute %[[WF]] [0, 2, 4, 6, 1, 3, 5] : tensor<1x2x4x2x2x2x2xf32> -> tensor<1x4x2x2x2x2x2xf32>
// CHECK-NEXT: tgc.pad %arg0 low [0, 0, 1, 1] high [0, 0, 1, 1] : tensor<1x2x3x3xf32> -> tensor<1x2x5x5xf32>
// CHECK: %[[SUM:.*]] = tgc.reduce_axis add %{{.*}} [5, 6, 7] : tensor<1x1x16x4x4x2x2x2xf32>
// CHECK-NEXT: %[[Z:.*]] = tgc.reshape %[[SUM]] : tensor<1x1x16x4x4x1x1x1xf32> -> tensor<1x16x4x4xf32>
// CHECK-NEXT: %[[ZR:.*]] = tgc.contiguous %[[Z]] : tensor<1x16x4x4xf32>
// CHECK-NEXT: %[[BY:.*]] = tgc.reshape %[[ZR]] : tensor<1x16x4x4xf32> -> tensor<1x4x2x2x4x4xf32>
// CHECK-NEXT: %[[IN:.*]] = tgc.permute %[[BY]] [0, 1, 4, 2, 5, 3] : tensor<1x4x2x2x4x4xf32> -> tensor<1x4x4x2x4x2xf32>
// CHECK-NEXT: %[[Y:.*]] = tgc.reshape %[[IN]] : tensor<1x4x4x2x4x2xf32> -> tensor<1x4x8x8xf32>
// CHECK-NEXT: tgc.shrink %[[Y]] begin [0, 0, 1, 1] end [1, 4, 7, 7] : tensor<1x4x8x8xf32> -> tensor<1x4x6x6xf32>
func.func @conv_transpose_k4(%x: tensor<1x2x3x3xf32>, %w: tensor<2x4x4x4xf32>) -> tensor<1x4x6x6xf32> {
  %0 = tgc.onnx_node "ConvTranspose"(%x, %w) {opset = 11 : i64, attrs = {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x2x3x3xf32>, tensor<2x4x4x4xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// 3 taps at stride 2: the phases have 2 and 1 taps per dim, so each is a
// convolution of its own taps (2x2, 2x1, 1x2, 1x1; every second tap,
// flipped), realized, the four stacked, interleaved into 8x8 and cropped
// to 7x7.
// CHECK-LABEL: func @conv_transpose(
// CHECK: tgc.flip %{{.*}} [2, 3] : tensor<4x2x2x2xf32>
// CHECK: %[[P00:.*]] = tgc.contiguous %{{.*}} : tensor<1x4x4x4xf32>
// CHECK: tgc.flip %{{.*}} [2] : tensor<4x2x2x1xf32>
// CHECK: %[[P01:.*]] = tgc.contiguous %{{.*}} : tensor<1x4x4x4xf32>
// CHECK: tgc.flip %{{.*}} [3] : tensor<4x2x1x2xf32>
// CHECK: %[[P10:.*]] = tgc.contiguous %{{.*}} : tensor<1x4x4x4xf32>
// CHECK-NOT: tgc.flip
// CHECK: %[[P11:.*]] = tgc.contiguous %{{.*}} : tensor<1x4x4x4xf32>
// CHECK: tgc.permute %{{.*}} [0, 1, 4, 2, 5, 3] : tensor<1x4x2x2x4x4xf32> -> tensor<1x4x4x2x4x2xf32>
// CHECK: tgc.shrink %{{.*}} begin [0, 0, 0, 0] end [1, 4, 7, 7] : tensor<1x4x8x8xf32> -> tensor<1x4x7x7xf32>
func.func @conv_transpose(%x: tensor<1x2x3x3xf32>, %w: tensor<2x4x3x3xf32>) -> tensor<1x4x7x7xf32> {
  %0 = tgc.onnx_node "ConvTranspose"(%x, %w) {opset = 11 : i64, attrs = {strides = array<i64: 2, 2>}} : (tensor<1x2x3x3xf32>, tensor<2x4x3x3xf32>) -> tensor<1x4x7x7xf32>
  return %0 : tensor<1x4x7x7xf32>
}

// Dilated as well as strided: the input spread out by the stride (a unit
// dim padded with stride-1 zeros, merged, the trailing zeros dropped),
// padded by the kernel's overhang, convolved with the weight's channel dims
// swapped and flipped.
// CHECK-LABEL: func @conv_transpose_dilated(
// CHECK-NEXT: %[[R:.*]] = tgc.reshape %arg0 : tensor<1x2x3x3xf32> -> tensor<1x2x3x1x3xf32>
// CHECK-NEXT: %[[P:.*]] = tgc.pad %[[R]] low [0, 0, 0, 0, 0] high [0, 0, 0, 1, 0]
// CHECK-NEXT: %[[M:.*]] = tgc.reshape %[[P]] : tensor<1x2x3x2x3xf32> -> tensor<1x2x6x3xf32>
// CHECK-NEXT: tgc.shrink %[[M]] begin [0, 0, 0, 0] end [1, 2, 5, 3]
// CHECK: %[[SPREAD:.*]] = tgc.shrink %{{.*}} begin [0, 0, 0, 0] end [1, 2, 5, 5] : tensor<1x2x5x6xf32> -> tensor<1x2x5x5xf32>
// CHECK-NEXT: %[[WG:.*]] = tgc.reshape %arg1 : tensor<2x4x3x3xf32> -> tensor<1x2x4x3x3xf32>
// CHECK-NEXT: %[[WT:.*]] = tgc.permute %[[WG]] [0, 2, 1, 3, 4]
// CHECK-NEXT: %[[WR:.*]] = tgc.reshape %[[WT]] : tensor<1x4x2x3x3xf32> -> tensor<4x2x3x3xf32>
// CHECK-NEXT: %[[WF:.*]] = tgc.flip %[[WR]] [2, 3] : tensor<4x2x3x3xf32>
// CHECK-NEXT: tgc.pad %[[SPREAD]] low [0, 0, 4, 4] high [0, 0, 4, 4] : tensor<1x2x5x5xf32> -> tensor<1x2x13x13xf32>
// CHECK: tgc.reduce_axis add %{{.*}} [5, 6, 7]
// CHECK: tgc.reshape %{{.*}} -> tensor<1x4x9x9xf32>
func.func @conv_transpose_dilated(%x: tensor<1x2x3x3xf32>, %w: tensor<2x4x3x3xf32>) -> tensor<1x4x9x9xf32> {
  %0 = tgc.onnx_node "ConvTranspose"(%x, %w) {opset = 11 : i64, attrs = {strides = array<i64: 2, 2>, dilations = array<i64: 2, 2>}} : (tensor<1x2x3x3xf32>, tensor<2x4x3x3xf32>) -> tensor<1x4x9x9xf32>
  return %0 : tensor<1x4x9x9xf32>
}

// Attention's scores: the keys transposed. The transpose is copied with
// the columns innermost, so the product reads its rhs like a matmul's.
// CHECK-LABEL: func @matmul_transposed_keys(
// CHECK-NEXT: %[[KT:.*]] = tgc.permute %arg1 [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
// CHECK-NEXT: %[[C:.*]] = tgc.contiguous %[[KT]] : tensor<64x32xf32>
// CHECK-NEXT: tgc.permute %[[C]] [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
// CHECK:      tgc.reduce_axis add
func.func @matmul_transposed_keys(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>) -> tensor<16x32xf32> {
  %kt = tgc.onnx_node "Transpose"(%k) {opset = 13 : i64, attrs = {perm = array<i64: 1, 0>}} : (tensor<32x64xf32>) -> tensor<64x32xf32>
  %0 = tgc.onnx_node "MatMul"(%q, %kt) {opset = 13 : i64} : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// No copy for transposed weights (the kernel optimizer packs those), nor
// for a product of fewer than 8 rows, which reads the rhs about as often as
// a copy would.
// CHECK-LABEL: func @matmul_transposed_no_copy(
// CHECK-NOT:  tgc.contiguous
// CHECK:      return
func.func @matmul_transposed_no_copy(%q: tensor<16x64xf32>, %row: tensor<4x64xf32>, %k: tensor<32x64xf32>) -> (tensor<16x32xf32>, tensor<4x32xf32>) {
  %w = tgc.const dense<0.5> : tensor<32x64xf32>
  %wt = tgc.onnx_node "Transpose"(%w) {opset = 13 : i64, attrs = {perm = array<i64: 1, 0>}} : (tensor<32x64xf32>) -> tensor<64x32xf32>
  %0 = tgc.onnx_node "MatMul"(%q, %wt) {opset = 13 : i64} : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  %kt = tgc.onnx_node "Transpose"(%k) {opset = 13 : i64, attrs = {perm = array<i64: 1, 0>}} : (tensor<32x64xf32>) -> tensor<64x32xf32>
  %1 = tgc.onnx_node "MatMul"(%row, %kt) {opset = 13 : i64} : (tensor<4x64xf32>, tensor<64x32xf32>) -> tensor<4x32xf32>
  return %0, %1 : tensor<16x32xf32>, tensor<4x32xf32>
}
