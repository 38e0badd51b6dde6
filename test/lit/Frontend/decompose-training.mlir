// RUN: tgc-opt %s --tgc-decompose | FileCheck %s
// The optimizer steps of ai.onnx.preview.training: elementwise updates with
// the step count T read at run time.

// Nesterov momentum: beta applies from the second step (T > 0) on.
// CHECK-LABEL: func @nesterov(
// CHECK: %[[STARTED:.*]] = tgc.cmplt %{{.*}}, %arg1 : tensor<si64>
// CHECK: %[[BETA:.*]] = tgc.where %[[STARTED]], %{{.*}}, %{{.*}} : tensor<i1>, tensor<f32>
// CHECK: %[[REG:.*]] = tgc.add %{{.*}}, %arg3 : tensor<2xf32>
// CHECK: %[[BG:.*]] = tgc.mul %{{.*}}, %[[REG]] : tensor<2xf32>
// CHECK: %[[AV0:.*]] = tgc.mul %arg4, %{{.*}} : tensor<2xf32>
// CHECK: %[[V:.*]] = tgc.add %[[AV0]], %[[BG]] : tensor<2xf32>
// CHECK: %[[AV:.*]] = tgc.mul %[[V]], %{{.*}} : tensor<2xf32>
// CHECK: %[[U:.*]] = tgc.add %[[REG]], %[[AV]] : tensor<2xf32>
// CHECK: %[[STEP:.*]] = tgc.mul %{{.*}}, %[[U]] : tensor<2xf32>
// CHECK: %[[X:.*]] = tgc.sub %arg2, %[[STEP]] : tensor<2xf32>
// CHECK: return %[[X]], %[[V]]
func.func @nesterov(%r: tensor<f32>, %t: tensor<si64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0:2 = tgc.onnx_node "Momentum"(%r, %t, %x, %g, %v) {domain = "ai.onnx.preview.training", opset = 1 : i64, attrs = {alpha = 0.9 : f32, beta = 0.1 : f32, mode = "nesterov"}} : (tensor<f32>, tensor<si64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>
}

// Adam's bias correction R sqrt(1 - beta^T) / (1 - alpha^T) from T > 0.
// CHECK-LABEL: func @adam(
// CHECK: tgc.sqrt
// CHECK: %[[BT:.*]] = tgc.pow %{{.*}}, %{{.*}} : tensor<f32>
// CHECK: %[[AT:.*]] = tgc.pow %{{.*}}, %{{.*}} : tensor<f32>
// CHECK: tgc.where %{{.*}}, %{{.*}}, %{{.*}} : tensor<i1>, tensor<f32>
// CHECK: return
func.func @adam(%r: tensor<f32>, %t: tensor<si64>, %x: tensor<3xf32>, %g: tensor<3xf32>, %v: tensor<3xf32>, %h: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = tgc.onnx_node "Adam"(%r, %t, %x, %g, %v, %h) {domain = "ai.onnx.preview.training", opset = 1 : i64} : (tensor<f32>, tensor<si64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// The window functions are constants of their size.
// CHECK-LABEL: func @hann_window(
// CHECK: %[[W:.*]] = tgc.const dense<[0.000000e+00, 5.000000e-01, 1.000000e+00, 5.000000e-01]> : tensor<4xf32>
// CHECK: return %[[W]]
func.func @hann_window() -> tensor<4xf32> {
  %n = tgc.const dense<4> : tensor<si32>
  %0 = tgc.onnx_node "HannWindow"(%n) {opset = 17 : i64} : (tensor<si32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// BatchNormalization in training mode normalizes with the batch's
// statistics and moves the running ones toward them.
// CHECK-LABEL: func @batchnorm_training(
// CHECK: %[[MEAN:.*]] = tgc.fdiv %{{.*}}, %{{.*}} : tensor<1x3xf32>
// CHECK: %[[M:.*]] = tgc.const dense<0.899999976> : tensor<3xf32>
// CHECK: tgc.mul %arg3, %[[M]] : tensor<3xf32>
// CHECK: tgc.mul %arg4, %[[M]] : tensor<3xf32>
func.func @batchnorm_training(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = tgc.onnx_node "BatchNormalization"(%x, %s, %b, %m, %v) {opset = 15 : i64, attrs = {training_mode = 1 : i64}} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>
}
