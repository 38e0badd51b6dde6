// RUN: tgc-opt %s --tgc-decompose -split-input-file -verify-diagnostics
// Every unsupported node, attribute or input is reported, each with the op
// type and what is missing; the pass goes on after the first.

func.func @two_unsupported_ops(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{node (Foo): op type 'Foo' is not supported (opset 17)}}
  %0 = tgc.onnx_node "Foo"(%x) {opset = 17 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tgc.onnx_node "Relu"(%0) {opset = 17 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{node (Unique): op type 'Unique' is not supported (opset 13)}}
  %2 = tgc.onnx_node "Unique"(%x) {opset = 13 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @unknown_attributes(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{node (Relu): attribute 'bogus' is not supported}}
  // expected-error @+1 {{node (Relu): attribute 'other' is not supported}}
  %0 = tgc.onnx_node "Relu"(%x) {opset = 14 : i64, attrs = {bogus = 1 : i64, other = "x"}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @extra_input(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{node (Relu): input 1 is not supported}}
  %0 = tgc.onnx_node "Relu"(%x, %x) {opset = 14 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @subgraph(%c: tensor<i1>) -> tensor<2xf32> {
  // expected-error @+1 {{node (If): its condition is not a compile-time constant (tgc inlines the branch of a constant condition)}}
  %0 = tgc.onnx_node "If"(%c) {opset = 16 : i64, attrs = {else_branch, then_branch}} : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @custom_domain(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{node (Relu): ops of domain 'com.acme' are not supported}}
  %0 = tgc.onnx_node "Relu"(%x) {opset = 1 : i64, domain = "com.acme"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @not_a_tensor(%x: f32) -> f32 {
  // expected-error @+1 {{node (Relu): operand 0 has type 'f32'; only tensors of static shape are supported}}
  %0 = tgc.onnx_node "Relu"(%x) {opset = 14 : i64} : (f32) -> f32
  return %0 : f32
}

// -----

func.func @runtime_slice_bounds(%x: tensor<10xf32>, %s: tensor<1xsi64>) -> tensor<5xf32> {
  %e = tgc.const dense<5> : tensor<1xsi64>
  // expected-error @+1 {{node (Slice): input 1 (starts) must be a constant integer tensor}}
  %0 = tgc.onnx_node "Slice"(%x, %s, %e) {opset = 13 : i64} : (tensor<10xf32>, tensor<1xsi64>, tensor<1xsi64>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @pad_mode(%x: tensor<4xf32>) -> tensor<6xf32> {
  %p = tgc.const dense<[1, 1]> : tensor<2xsi64>
  // expected-error @+1 {{node (Pad): mode 'wrap' is not supported}}
  %0 = tgc.onnx_node "Pad"(%x, %p) {opset = 13 : i64, attrs = {mode = "wrap"}} : (tensor<4xf32>, tensor<2xsi64>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @reshape_disagrees(%x: tensor<12xf32>) -> tensor<3x4xf32> {
  %s = tgc.const dense<[6, -1]> : tensor<2xsi64>
  // expected-error @+1 {{node (Reshape): computes shape [6, 2] but the node declares [3, 4]}}
  %0 = tgc.onnx_node "Reshape"(%x, %s) {opset = 14 : i64} : (tensor<12xf32>, tensor<2xsi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @wrong_result_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{node (Relu): output 0 decomposes to 'tensor<4xf32>' but the node declares 'tensor<4xf16>'}}
  %0 = tgc.onnx_node "Relu"(%x) {opset = 14 : i64} : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @maxpool_auto_pad(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{node (MaxPool): auto_pad 'BOGUS' is not supported}}
  %0 = tgc.onnx_node "MaxPool"(%x) {opset = 12 : i64, attrs = {auto_pad = "BOGUS", kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @batchnorm_legacy_training(%x: tensor<2x3xf32>, %p: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{node (BatchNormalization): training mode through is_test = 0 (before opset 7) is not supported}}
  %0 = tgc.onnx_node "BatchNormalization"(%x, %p, %p, %p, %p) {opset = 6 : i64, attrs = {is_test = 0 : i64}} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @legacy_no_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{node (Add): operands differ in shape and 'broadcast' is not set}}
  %0 = tgc.onnx_node "Add"(%a, %b) {opset = 6 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @bad_values(%x: tensor<4xf32>, %m: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<f32>) {
  // expected-error @+1 {{node (Mod): floating-point Mod needs fmod = 1}}
  %0 = tgc.onnx_node "Mod"(%x, %m) {opset = 13 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{node (Cast): cannot cast to STRING}}
  %1 = tgc.onnx_node "Cast"(%x) {opset = 13 : i64, attrs = {to = 8 : i64}} : (tensor<4xf32>) -> tensor<4xf32>
  %i = tgc.const dense<4> : tensor<si64>
  // expected-error @+1 {{node (Gather): index 4 is out of range for a dim of size 4}}
  %2 = tgc.onnx_node "Gather"(%x, %i) {opset = 13 : i64} : (tensor<4xf32>, tensor<si64>) -> tensor<f32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<f32>
}

// -----

func.func @bad_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{node (Softmax): axis 2 is out of range for rank 2}}
  %0 = tgc.onnx_node "Softmax"(%x) {opset = 13 : i64, attrs = {axis = 2 : i64}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @attribute_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{node (LeakyRelu): attribute 'alpha' must be a float}}
  %0 = tgc.onnx_node "LeakyRelu"(%x) {opset = 16 : i64, attrs = {alpha = 1 : i64}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Hand-written IR may disagree with itself; that is an error, not a crash.
func.func @inconsistent_shapes(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %x: tensor<1x1x2x2xf32>, %s: tensor<f32>) -> (tensor<2x6xf32>, tensor<1x1x1x1xf32>, tensor<1x1x2x2xf32>) {
  // expected-error @+1 {{node (Concat): cannot concatenate 'tensor<3xf32>' with 'tensor<2x3xf32>' along axis 1}}
  %0 = tgc.onnx_node "Concat"(%a, %b) {opset = 13 : i64, attrs = {axis = 1 : i64}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x6xf32>
  // expected-error @+1 {{node (MaxPool): window 3 (stride 1, dilation 1) does not fit dim 2 of size 2}}
  %1 = tgc.onnx_node "MaxPool"(%x) {opset = 12 : i64, attrs = {kernel_shape = array<i64: 3, 3>}} : (tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xf32>
  // expected-error @+1 {{node (InstanceNormalization): per-channel parameters must have the shape [1] (one value per channel), not 'tensor<f32>'}}
  %2 = tgc.onnx_node "InstanceNormalization"(%x, %s, %s) {opset = 6 : i64} : (tensor<1x1x2x2xf32>, tensor<f32>, tensor<f32>) -> tensor<1x1x2x2xf32>
  return %0, %1, %2 : tensor<2x6xf32>, tensor<1x1x1x1xf32>, tensor<1x1x2x2xf32>
}

// -----

// RoiAlign's adaptive sampling (sampling_ratio 0) takes as many samples as
// each roi is pixels high or wide: a count that depends on the rois' values.
func.func @roialign_adaptive(%x: tensor<1x1x8x8xf32>, %rois: tensor<2x4xf32>, %b: tensor<2xsi64>) -> (tensor<2x1x2x2xf32>, tensor<2x1x2x2xf32>) {
  // expected-error @+1 {{node (RoiAlign): sampling_ratio 0 (as many samples per bin as the roi is pixels high or wide) makes the number of samples depend on the rois' values; tgc needs a static sampling_ratio > 0}}
  %0 = tgc.onnx_node "RoiAlign"(%x, %rois, %b) {opset = 16 : i64, attrs = {output_height = 2 : i64, output_width = 2 : i64}} : (tensor<1x1x8x8xf32>, tensor<2x4xf32>, tensor<2xsi64>) -> tensor<2x1x2x2xf32>
  // expected-error @+1 {{node (RoiAlign): mode 'median' is not supported}}
  %1 = tgc.onnx_node "RoiAlign"(%x, %rois, %b) {opset = 16 : i64, attrs = {mode = "median", output_height = 2 : i64, output_width = 2 : i64, sampling_ratio = 2 : i64}} : (tensor<1x1x8x8xf32>, tensor<2x4xf32>, tensor<2xsi64>) -> tensor<2x1x2x2xf32>
  return %0, %1 : tensor<2x1x2x2xf32>, tensor<2x1x2x2xf32>
}
