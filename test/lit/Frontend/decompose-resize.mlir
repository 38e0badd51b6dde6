// RUN: tgc-opt %s --tgc-decompose | FileCheck %s
// Resize and Upsample: the taps of every output position are computed at
// compile time. Nearest is a gather along each axis (a view where the taps
// allow), linear and cubic a constant weight matrix applied along the axis.

// Nearest x2 with asymmetric coordinates repeats each element: a reshape,
// an expand and a reshape, no arithmetic.
// CHECK-LABEL: func @upsample_nearest(
// CHECK-NEXT: tgc.const
// CHECK-NEXT: %[[R:.*]] = tgc.reshape %arg0 : tensor<1x1x2x3xf32> -> tensor<1x1x2x3x1xf32>
// CHECK-NEXT: %[[E:.*]] = tgc.expand %[[R]] : tensor<1x1x2x3x1xf32> -> tensor<1x1x2x3x2xf32>
// CHECK-NEXT: %[[R2:.*]] = tgc.reshape %[[E]] : tensor<1x1x2x3x2xf32> -> tensor<1x1x2x1x6xf32>
// CHECK-NEXT: %[[E2:.*]] = tgc.expand %[[R2]] : tensor<1x1x2x1x6xf32> -> tensor<1x1x2x2x6xf32>
// CHECK-NEXT: %[[H:.*]] = tgc.reshape %[[E2]] : tensor<1x1x2x2x6xf32> -> tensor<1x1x4x6xf32>
// CHECK-NEXT: return %[[H]]
func.func @upsample_nearest(%x: tensor<1x1x2x3xf32>) -> tensor<1x1x4x6xf32> {
  %s = tgc.const dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  %0 = tgc.onnx_node "Upsample"(%x, %s) {opset = 9 : i64, attrs = {mode = "nearest"}} : (tensor<1x1x2x3xf32>, tensor<4xf32>) -> tensor<1x1x4x6xf32>
  return %0 : tensor<1x1x4x6xf32>
}

// Nearest downsampling by 0.6 (half_pixel, round_prefer_floor) reads
// columns 0 and 2: a strided view.
// CHECK-LABEL: func @resize_nearest_down(
// CHECK: tgc.reshape %arg0 : tensor<1x1x2x4xf32> -> tensor<1x1x2x2x2xf32>
// CHECK: tgc.shrink %{{.*}} begin [0, 0, 0, 0, 0] end [1, 1, 2, 2, 1]
// CHECK: tgc.shrink %{{.*}} begin [0, 0, 0, 0] end [1, 1, 1, 2] : tensor<1x1x2x2xf32> -> tensor<1x1x1x2xf32>
// CHECK-NEXT: return
func.func @resize_nearest_down(%x: tensor<1x1x2x4xf32>) -> tensor<1x1x1x2xf32> {
  %s = tgc.const dense<[1.0, 1.0, 0.6, 0.6]> : tensor<4xf32>
  %0 = tgc.onnx_node "Resize"(%x, %s) {opset = 13 : i64, input_slots = array<i64: 0, 2>, attrs = {mode = "nearest"}} : (tensor<1x1x2x4xf32>, tensor<4xf32>) -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}

// Linear x2 along the last axis (half_pixel, edges clamped): output o mixes
// inputs floor(o/2 - 1/4) and the next with weights 3/4 and 1/4.
// CHECK-LABEL: func @resize_linear(
// CHECK-DAG: %[[W:.*]] = tgc.const dense<{{\[}}[1.000000e+00, 0.000000e+00], [7.500000e-01, 2.500000e-01], [2.500000e-01, 7.500000e-01], [0.000000e+00, 1.000000e+00]]> : tensor<4x2xf32>
// CHECK-DAG: %[[M:.*]] = tgc.const dense<{{\[}}[true, false], [true, true], [true, true], [false, true]]> : tensor<4x2xi1>
// CHECK: %[[X:.*]] = tgc.reshape %arg0 : tensor<3x2xf32> -> tensor<3x1x2xf32>
// CHECK: %[[P:.*]] = tgc.mul
// CHECK: %[[SEL:.*]] = tgc.where %{{.*}}, %[[P]], %{{.*}} : tensor<3x4x2xi1>, tensor<3x4x2xf32>
// CHECK: tgc.reduce_axis add %[[SEL]] [2] : tensor<3x4x2xf32> -> tensor<3x4x1xf32>
func.func @resize_linear(%x: tensor<3x2xf32>) -> tensor<3x4xf32> {
  %sizes = tgc.const dense<[3, 4]> : tensor<2xsi64>
  %0 = tgc.onnx_node "Resize"(%x, %sizes) {opset = 13 : i64, input_slots = array<i64: 0, 3>, attrs = {mode = "linear"}} : (tensor<3x2xf32>, tensor<2xsi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// tf_crop_and_resize: positions outside the roi take extrapolation_value.
// CHECK-LABEL: func @resize_crop_extrapolate(
// CHECK: %[[OUT:.*]] = tgc.const dense<[false, false, true]> : tensor<3xi1>
// CHECK: %[[FILL:.*]] = tgc.const dense<1.000000e+01> : tensor<2x3xf32>
// CHECK: tgc.where %{{.*}}, %[[FILL]], %{{.*}} : tensor<2x3xi1>, tensor<2x3xf32>
func.func @resize_crop_extrapolate(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %roi = tgc.const dense<[0.0, 0.4, 1.0, 1.2]> : tensor<4xf32>
  %sizes = tgc.const dense<[2, 3]> : tensor<2xsi64>
  %0 = tgc.onnx_node "Resize"(%x, %roi, %sizes) {opset = 13 : i64, input_slots = array<i64: 0, 1, 3>, attrs = {mode = "linear", coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 10.0 : f32}} : (tensor<2x4xf32>, tensor<4xf32>, tensor<2xsi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Scales of 1 on every axis leave the input as it is.
// CHECK-LABEL: func @resize_identity_not_resized(
// CHECK-NEXT: tgc.const
// CHECK-NEXT: return %arg0
func.func @resize_identity_not_resized(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = tgc.const dense<[1.0, 1.0]> : tensor<2xf32>
  %0 = tgc.onnx_node "Resize"(%x, %s) {opset = 13 : i64, input_slots = array<i64: 0, 2>, attrs = {mode = "cubic"}} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
