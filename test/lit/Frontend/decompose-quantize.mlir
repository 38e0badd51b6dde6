// RUN: tgc-opt %s --tgc-decompose | FileCheck %s
// Linear quantization: clamp to the type's range less the zero point,
// round half to even, add the zero point; integer products accumulate in
// si32.

// A per-axis scale and zero point broadcast along axis 1. The clamp comes
// first, so the value rounded is small and rounds by adding and taking off
// 1.5 * 2^23 (0x4B400000): nothing compares or selects.
// CHECK-LABEL: func @quantize_per_axis(
// CHECK: %[[Z:.*]] = tgc.reshape %arg2 : tensor<3xsi8> -> tensor<1x3xsi8>
// CHECK: %[[S:.*]] = tgc.reshape %arg1 : tensor<3xf32> -> tensor<1x3xf32>
// CHECK: %[[X:.*]] = tgc.fdiv %arg0, %{{.*}} : tensor<2x3xf32>
// CHECK: %[[ZF:.*]] = tgc.cast %[[Z]] : tensor<1x3xsi8> to tensor<1x3xf32>
// CHECK-DAG: %[[LO:.*]] = tgc.const dense<-1.280000e+02> : tensor<2x3xf32>
// CHECK-DAG: %[[HI:.*]] = tgc.const dense<1.270000e+02> : tensor<2x3xf32>
// CHECK: tgc.sub %[[LO]], %{{.*}}
// CHECK: tgc.sub %[[HI]], %{{.*}}
// CHECK: tgc.max %[[X]], %{{.*}}
// CHECK: tgc.max
// CHECK-NEXT: %[[C:.*]] = tgc.neg
// CHECK: %[[M:.*]] = tgc.const dense<0x4B400000> : tensor<2x3xf32>
// CHECK: %[[A:.*]] = tgc.add %[[C]], %[[M]]
// CHECK: %[[R:.*]] = tgc.sub %[[A]], %[[M]]
// CHECK: %[[Q:.*]] = tgc.add %[[R]], %{{.*}} : tensor<2x3xf32>
// CHECK-NOT: tgc.cmplt
// CHECK: tgc.cast %[[Q]] : tensor<2x3xf32> to tensor<2x3xsi8>
func.func @quantize_per_axis(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %z: tensor<3xsi8>) -> tensor<2x3xsi8> {
  %0 = tgc.onnx_node "QuantizeLinear"(%x, %s, %z) {opset = 13 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xsi8>) -> tensor<2x3xsi8>
  return %0 : tensor<2x3xsi8>
}

// A scalar scale ignores the axis, even one the input lacks.
// CHECK-LABEL: func @dequantize_scalar(
// CHECK: %[[X:.*]] = tgc.cast %arg0 : tensor<4xui8> to tensor<4xf32>
// CHECK: %[[Z:.*]] = tgc.cast %arg2 : tensor<ui8> to tensor<f32>
// CHECK: %[[C:.*]] = tgc.sub %[[X]], %{{.*}} : tensor<4xf32>
// CHECK: tgc.mul %[[C]], %{{.*}} : tensor<4xf32>
func.func @dequantize_scalar(%x: tensor<4xui8>, %s: tensor<f32>, %z: tensor<ui8>) -> tensor<4xf32> {
  %0 = tgc.onnx_node "DequantizeLinear"(%x, %s, %z) {opset = 13 : i64} : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A zero point of zeros is left out: nothing is added or taken off.
// CHECK-LABEL: func @zero_point_of_zeros(
//       CHECK:   tgc.const dense<2.550000e+02>
//   CHECK-NOT:   tgc.sub
//       CHECK:   tgc.add
//  CHECK-NEXT:   tgc.sub
//  CHECK-NEXT:   tgc.cast %{{.*}} : tensor<4xf32> to tensor<4xui8>
//  CHECK-NEXT:   %[[Q:.*]] = tgc.cast %{{.*}} : tensor<4xui8> to tensor<4xf32>
//   CHECK-NOT:   tgc.sub
//       CHECK:   tgc.mul %[[Q]]
func.func @zero_point_of_zeros(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf32> {
  %z = tgc.const dense<0> : tensor<ui8>
  %0 = tgc.onnx_node "QuantizeLinear"(%x, %s, %z) {opset = 13 : i64} : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  %1 = tgc.onnx_node "DequantizeLinear"(%0, %s, %z) {opset = 13 : i64} : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// An integer convolution of a constant weight whose channels' |w| sums,
// times the largest |x - x_zp| (128 for uint8 about 128), stay below 2^24
// runs in float32: every partial sum is a whole number float32 holds, so
// the order of the float kernels' additions cannot change it. No Winograd
// (its fractions would round); the sum is cast to int32 at the end.
// CHECK-LABEL: func @conv_integer_in_float(
//       CHECK:   tgc.reduce_axis add %{{.*}} : tensor<{{.*}}xf32> -> tensor<{{.*}}xf32>
//       CHECK:   tgc.cast %{{.*}} : tensor<1x4x3x3xf32> to tensor<1x4x3x3xsi32>
func.func @conv_integer_in_float(%x: tensor<1x4x3x3xui8>) -> tensor<1x4x3x3xsi32> {
  %w = tgc.const dense_resource<w4> : tensor<4x4x1x1xsi8>
  %z = tgc.const dense<128> : tensor<ui8>
  %0 = tgc.onnx_node "ConvInteger"(%x, %w, %z) {opset = 10 : i64} : (tensor<1x4x3x3xui8>, tensor<4x4x1x1xsi8>, tensor<ui8>) -> tensor<1x4x3x3xsi32>
  return %0 : tensor<1x4x3x3xsi32>
}

// 600 input channels of weight 127 sum to 76200, times 255 (a zero point
// known only at run time) past 2^24: int32.
// CHECK-LABEL: func @conv_integer_in_int32(
//       CHECK:   tgc.reduce_axis add %{{.*}} : tensor<{{.*}}xsi32> -> tensor<{{.*}}xsi32>
//   CHECK-NOT:   xf32
//       CHECK:   return
func.func @conv_integer_in_int32(%x: tensor<1x600x2x2xui8>, %z: tensor<ui8>) -> tensor<1x1x2x2xsi32> {
  %w = tgc.const dense_resource<w600> : tensor<1x600x1x1xsi8>
  %0 = tgc.onnx_node "ConvInteger"(%x, %w, %z) {opset = 10 : i64} : (tensor<1x600x2x2xui8>, tensor<1x600x1x1xsi8>, tensor<ui8>) -> tensor<1x1x2x2xsi32>
  return %0 : tensor<1x1x2x2xsi32>
}

// CHECK-LABEL: func @matmul_integer(
// CHECK: %[[A:.*]] = tgc.cast %arg0 : tensor<2x3xui8> to tensor<2x3xsi32>
// CHECK: %[[AZ:.*]] = tgc.cast %{{.*}} : tensor<ui8> to tensor<si32>
// CHECK: tgc.sub %[[A]], %{{.*}} : tensor<2x3xsi32>
// CHECK: tgc.cast %arg1 : tensor<3x4xui8> to tensor<3x4xsi32>
// CHECK: tgc.mul %{{.*}}, %{{.*}} : tensor<2x4x3xsi32>
// CHECK: tgc.reduce_axis add %{{.*}} [2] : tensor<2x4x3xsi32> -> tensor<2x4x1xsi32>
func.func @matmul_integer(%a: tensor<2x3xui8>, %b: tensor<3x4xui8>, %az: tensor<ui8>) -> tensor<2x4xsi32> {
  %0 = tgc.onnx_node "MatMulInteger"(%a, %b, %az) {opset = 10 : i64} : (tensor<2x3xui8>, tensor<3x4xui8>, tensor<ui8>) -> tensor<2x4xsi32>
  return %0 : tensor<2x4xsi32>
}

// A weight dequantized from constants is a constant by the time the ops
// that use it are decomposed (the Winograd choice looks for one): [[1, -2],
// [3, -128]] less zero points [1, 2] times scales [0.5, 0.25], per row.
// CHECK-LABEL: func @dequantize_weight(
//       CHECK:   %[[W:.*]] = tgc.const dense_resource<[[$W:q8w_folded(_[0-9]+)?]]> : tensor<2x2xf32>
//   CHECK-NOT:   tgc.cast
//       CHECK:   return %[[W]]
//       CHECK: [[$W]]: "0x10000000000000000000C0BF0000803E000002C2"
func.func @dequantize_weight() -> tensor<2x2xf32> {
  %q = tgc.const dense_resource<q8w> : tensor<2x2xsi8>
  %s = tgc.const dense<[0.5, 0.25]> : tensor<2xf32>
  %z = tgc.const dense<[1, 2]> : tensor<2xsi8>
  %0 = tgc.onnx_node "DequantizeLinear"(%q, %s, %z) {opset = 13 : i64, attrs = {axis = 0 : i64}} : (tensor<2x2xsi8>, tensor<2xf32>, tensor<2xsi8>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      q8w: "0x0100000001FE0380",
      w4: "0x0100000001FE03FC01FE03FC01FE03FC01FE03FC",
      w600: "0x010000007F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F"
    }
  }
#-}
