// RUN: tgc-opt %s --tgc-decompose | FileCheck %s
// Inverse trigonometric functions (from one atan), Celu and the float Mod.

// atan reduces |x| by 1/x above tan(3pi/8) and by (x-1)/(x+1) above
// tan(pi/8), then a polynomial; the sign comes back at the end.
// CHECK-LABEL: func @atan(
// CHECK: %[[AX:.*]] = tgc.bitcast %{{.*}} : tensor<4xui32> to tensor<4xf32>
// CHECK: %[[BIG:.*]] = tgc.cmplt %{{.*}}, %[[AX]]
// CHECK: %[[MID:.*]] = tgc.cmplt %{{.*}}, %[[AX]]
// CHECK: tgc.fdiv
// CHECK: tgc.recip %[[AX]]
// CHECK: tgc.const dense<0.0805374458> : tensor<4xf32>
// CHECK: %[[NEG:.*]] = tgc.cmplt %arg0, %{{.*}} : tensor<4xf32>
// CHECK: %[[R:.*]] = tgc.where %[[NEG]], %{{.*}}, %{{.*}}
// CHECK-NEXT: return %[[R]]
func.func @atan(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.onnx_node "Atan"(%x) {opset = 7 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// acos(x) = 2 atan(sqrt((1 - x) / (1 + x)))
// CHECK-LABEL: func @acos(
// CHECK: %[[ONE:.*]] = tgc.const dense<1.000000e+00> : tensor<4xf32>
// CHECK: %[[P:.*]] = tgc.add %[[ONE]], %arg0
// CHECK: %[[M:.*]] = tgc.sub %[[ONE]], %arg0
// CHECK: %[[Q:.*]] = tgc.fdiv %[[M]], %[[P]]
// CHECK: tgc.sqrt %[[Q]]
// CHECK: %[[TWO:.*]] = tgc.const dense<2.000000e+00> : tensor<4xf32>
// CHECK: tgc.mul %{{.*}}, %[[TWO]]
func.func @acos(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.onnx_node "Acos"(%x) {opset = 7 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Float Mod computes in f64, where trunc(a/b)*b is exact, then corrects a
// remainder of the wrong sign or size.
// CHECK-LABEL: func @fmod(
// CHECK: %[[A:.*]] = tgc.cast %arg0 : tensor<4xf32> to tensor<4xf64>
// CHECK: %[[B:.*]] = tgc.cast %arg1 : tensor<4xf32> to tensor<4xf64>
// CHECK: %[[Q:.*]] = tgc.fdiv %[[A]], %[[B]]
// CHECK: %[[T:.*]] = tgc.trunc %[[Q]]
// CHECK: %[[P:.*]] = tgc.mul %[[T]], %[[B]]
// CHECK: tgc.sub %[[A]], %[[P]]
// CHECK: tgc.cast %{{.*}} : tensor<4xf64> to tensor<4xf32>
func.func @fmod(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.onnx_node "Mod"(%a, %b) {opset = 13 : i64, attrs = {fmod = 1 : i64}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Integer Mod stays on tgc.mod.
// CHECK-LABEL: func @mod_int_not_float(
// CHECK-NOT: tgc.cast
// CHECK: tgc.mod %arg0, %arg1 : tensor<4xsi32>
func.func @mod_int_not_float(%a: tensor<4xsi32>, %b: tensor<4xsi32>) -> tensor<4xsi32> {
  %0 = tgc.onnx_node "Mod"(%a, %b) {opset = 13 : i64, attrs = {fmod = 1 : i64}} : (tensor<4xsi32>, tensor<4xsi32>) -> tensor<4xsi32>
  return %0 : tensor<4xsi32>
}

// CHECK-LABEL: func @celu(
// CHECK: %[[ALPHA:.*]] = tgc.const dense<2.000000e+00> : tensor<4xf32>
// CHECK: tgc.fdiv %arg0, %[[ALPHA]]
// CHECK: tgc.exp2
// CHECK: tgc.max %arg0
func.func @celu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.onnx_node "Celu"(%x) {opset = 12 : i64, attrs = {alpha = 2.0 : f32}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
