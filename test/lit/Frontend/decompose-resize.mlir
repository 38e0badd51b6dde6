// RUN: tgc-opt %s --tgc-decompose | FileCheck %s
// Resize and Upsample: the taps of every output position are computed at
// compile time. Nearest is a gather along each axis (a view where the taps
// allow); linear and cubic a weighted sum of one such gather per tap, or a
// constant weight matrix along the axis where some outputs lie outside a
// tf_crop_and_resize roi.

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
// inputs floor(o/2 - 1/4) and the next with weights 1/4 and 3/4 or 3/4 and
// 1/4. The input with its edge elements repeated is [x0, x0, x1, x1]; tap
// t reads element (o + 1) / 2 + t of it, a view: each element expanded
// twice, the first repeat cut. No reduce: 2 loads per output, not one per
// input.
// CHECK-LABEL: func @resize_linear(
// CHECK: %[[FIRST:.*]] = tgc.shrink %arg0 begin [0, 0] end [3, 1]
// CHECK: %[[LAST:.*]] = tgc.shrink %arg0 begin [0, 1] end [3, 2]
// CHECK: tgc.pad %[[FIRST]] low [0, 0] high [0, 3]
// CHECK: tgc.pad %arg0 low [0, 1] high [0, 1]
// CHECK: %[[MID:.*]] = tgc.where
// CHECK: tgc.pad %[[LAST]] low [0, 3] high [0, 0]
// CHECK: %[[EDGES:.*]] = tgc.where %{{.*}}, %{{.*}}, %[[MID]] : tensor<3x4xi1>, tensor<3x4xf32>
// CHECK: %[[W0:.*]] = tgc.const dense<{{\[}}[2.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01]]> : tensor<1x4xf32>
// CHECK: %[[S0:.*]] = tgc.shrink %[[EDGES]] begin [0, 0] end [3, 3]
// CHECK: tgc.reshape %[[S0]] : tensor<3x3xf32> -> tensor<3x3x1xf32>
// CHECK: tgc.expand %{{.*}} : tensor<3x3x1xf32> -> tensor<3x3x2xf32>
// CHECK: tgc.reshape %{{.*}} : tensor<3x3x2xf32> -> tensor<3x6xf32>
// CHECK: %[[TAP0:.*]] = tgc.shrink %{{.*}} begin [0, 1] end [3, 5] : tensor<3x6xf32> -> tensor<3x4xf32>
// CHECK: %[[T0:.*]] = tgc.mul %[[TAP0]], %{{.*}} : tensor<3x4xf32>
// CHECK: %[[W1:.*]] = tgc.const dense<{{\[}}[7.500000e-01, 2.500000e-01, 7.500000e-01, 2.500000e-01]]> : tensor<1x4xf32>
// CHECK: %[[S1:.*]] = tgc.shrink %[[EDGES]] begin [0, 1] end [3, 4]
// CHECK: %[[TAP1:.*]] = tgc.shrink %{{.*}} begin [0, 1] end [3, 5] : tensor<3x6xf32> -> tensor<3x4xf32>
// CHECK: %[[T1:.*]] = tgc.mul %[[TAP1]], %{{.*}} : tensor<3x4xf32>
// CHECK: %[[SUM:.*]] = tgc.add %[[T0]], %[[T1]] : tensor<3x4xf32>
// CHECK-NEXT: return %[[SUM]]
func.func @resize_linear(%x: tensor<3x2xf32>) -> tensor<3x4xf32> {
  %sizes = tgc.const dense<[3, 4]> : tensor<2xsi64>
  %0 = tgc.onnx_node "Resize"(%x, %sizes) {opset = 13 : i64, input_slots = array<i64: 0, 3>, attrs = {mode = "linear"}} : (tensor<3x2xf32>, tensor<2xsi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// Linear 1/2 (half_pixel) reads inputs 2o and 2o + 1 with weight 1/2: two
// strided views, no edge.
// CHECK-LABEL: func @resize_linear_down(
// CHECK-NOT: tgc.where
// CHECK: %[[HALF:.*]] = tgc.const dense<5.000000e-01> : tensor<1x4xf32>
// CHECK: tgc.reshape %arg0 : tensor<1x8xf32> -> tensor<1x4x2xf32>
// CHECK: tgc.mul %{{.*}}, %[[HALF]]
// CHECK: tgc.shrink %arg0 begin [0, 1] end [1, 8]
// CHECK: tgc.mul %{{.*}}, %[[HALF]]
// CHECK: tgc.add
// CHECK-NEXT: return
func.func @resize_linear_down(%x: tensor<1x8xf32>) -> tensor<1x4xf32> {
  %s = tgc.const dense<[1.0, 0.5]> : tensor<2xf32>
  %0 = tgc.onnx_node "Resize"(%x, %s) {opset = 13 : i64, input_slots = array<i64: 0, 2>, attrs = {mode = "linear"}} : (tensor<1x8xf32>, tensor<2xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// align_corners from 3 to 4 samples at 0, 2/3, 4/3 and 2: the left taps
// 0, 0, 1, 1 and the right ones 1, 1, 2, 2 (1 to 3 of the input with its
// last element repeated) are no view, so each tap is a gather at constant
// indices: a compare with an arange, which tgc-collapse-gather makes one
// load per output.
// CHECK-LABEL: func @resize_linear_gather(
// CHECK: %[[W0:.*]] = tgc.const dense<{{\[}}[0.000000e+00, 0.333333343, 0.666666686, 0.000000e+00]]> : tensor<1x4xf32>
// CHECK: %[[I0:.*]] = tgc.const dense<[0, 1, 2, 2]> : tensor<4xsi32>
// CHECK: %[[AR:.*]] = tgc.const dense<[0, 1, 2, 3]> : tensor<4xsi32>
// CHECK: tgc.reshape %[[I0]] : tensor<4xsi32> -> tensor<1x4x1xsi32>
// CHECK: tgc.reshape %[[AR]] : tensor<4xsi32> -> tensor<1x1x4xsi32>
// CHECK: tgc.cmpeq
// CHECK: tgc.reduce_axis add %{{.*}} [2] : tensor<2x4x4xf32> -> tensor<2x4x1xf32>
// CHECK: %[[T0:.*]] = tgc.mul
// CHECK: tgc.const dense<{{\[}}[1.000000e+00, 0.666666686, 0.333333343, 1.000000e+00]]> : tensor<1x4xf32>
// CHECK: tgc.const dense<[1, 2, 3, 3]> : tensor<4xsi32>
// CHECK: %[[T1:.*]] = tgc.mul
// CHECK: %[[SUM:.*]] = tgc.add %[[T0]], %[[T1]]
// CHECK-NEXT: return %[[SUM]]
func.func @resize_linear_gather(%x: tensor<2x3xf32>) -> tensor<2x4xf32> {
  %sizes = tgc.const dense<[2, 4]> : tensor<2xsi64>
  %0 = tgc.onnx_node "Resize"(%x, %sizes) {opset = 13 : i64, input_slots = array<i64: 0, 3>, attrs = {mode = "linear", coordinate_transformation_mode = "align_corners"}} : (tensor<2x3xf32>, tensor<2xsi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
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
