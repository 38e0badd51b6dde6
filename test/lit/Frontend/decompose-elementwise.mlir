// RUN: tgc-opt %s --tgc-decompose | FileCheck %s
// Elementwise ONNX ops: broadcasting is an explicit reshape + expand, math
// goes through exp2/log2, float min/max/abs keep NaN and -0.0.

// CHECK-LABEL: func @add_broadcast(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK-NEXT: %[[R:.*]] = tgc.reshape %[[B]] : tensor<3xf32> -> tensor<1x3xf32>
// CHECK-NEXT: %[[E:.*]] = tgc.expand %[[R]] : tensor<1x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[S:.*]] = tgc.add %[[A]], %[[E]] : tensor<2x3xf32>
// CHECK-NEXT: return %[[S]]
func.func @add_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = tgc.onnx_node "Add"(%a, %b) {opset = 17 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Equal shapes need no movement.
// CHECK-LABEL: func @add_not_broadcast(
// CHECK-NEXT: %[[S:.*]] = tgc.add %arg0, %arg1 : tensor<2x3xf32>
// CHECK-NEXT: return %[[S]]
func.func @add_not_broadcast(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tgc.onnx_node "Add"(%a, %b) {opset = 17 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func @sub_both_broadcast(
// CHECK-NEXT: %[[A:.*]] = tgc.expand %arg0 : tensor<2x1xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[B:.*]] = tgc.expand %arg1 : tensor<1x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: tgc.sub %[[A]], %[[B]] : tensor<2x3xf32>
func.func @sub_both_broadcast(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %0 = tgc.onnx_node "Sub"(%a, %b) {opset = 17 : i64} : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Before opset 7, B lines up with A from `axis`.
// CHECK-LABEL: func @mul_legacy_axis(
// CHECK-NEXT: %[[R:.*]] = tgc.reshape %arg1 : tensor<3xf32> -> tensor<1x3x1xf32>
// CHECK-NEXT: %[[E:.*]] = tgc.expand %[[R]] : tensor<1x3x1xf32> -> tensor<2x3x4xf32>
// CHECK-NEXT: tgc.mul %arg0, %[[E]] : tensor<2x3x4xf32>
func.func @mul_legacy_axis(%a: tensor<2x3x4xf32>, %b: tensor<3xf32>) -> tensor<2x3x4xf32> {
  %0 = tgc.onnx_node "Mul"(%a, %b) {opset = 6 : i64, attrs = {broadcast = 1 : i64, axis = 1 : i64}} : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func @div(
// CHECK: tgc.fdiv %arg0, %arg1 : tensor<4xf32>
// CHECK: tgc.idiv %arg2, %arg3 : tensor<4xsi32>
func.func @div(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xsi32>, %j: tensor<4xsi32>) -> (tensor<4xf32>, tensor<4xsi32>) {
  %0 = tgc.onnx_node "Div"(%a, %b) {opset = 17 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = tgc.onnx_node "Div"(%i, %j) {opset = 17 : i64} : (tensor<4xsi32>, tensor<4xsi32>) -> tensor<4xsi32>
  return %0, %1 : tensor<4xf32>, tensor<4xsi32>
}

// The exponent takes the base's type; integer powers go through f64.
// CHECK-LABEL: func @pow(
// CHECK-NEXT: %[[Y:.*]] = tgc.cast %arg1 : tensor<4xsi64> to tensor<4xf32>
// CHECK-NEXT: tgc.pow %arg0, %[[Y]] : tensor<4xf32>
// CHECK: %[[IA:.*]] = tgc.cast %arg2 : tensor<4xsi32> to tensor<4xf64>
// CHECK-NEXT: %[[IB:.*]] = tgc.cast %arg2 : tensor<4xsi32> to tensor<4xf64>
// CHECK-NEXT: %[[P:.*]] = tgc.pow %[[IA]], %[[IB]] : tensor<4xf64>
// CHECK-NEXT: tgc.cast %[[P]] : tensor<4xf64> to tensor<4xsi32>
func.func @pow(%a: tensor<4xf32>, %b: tensor<4xsi64>, %i: tensor<4xsi32>) -> (tensor<4xf32>, tensor<4xsi32>) {
  %0 = tgc.onnx_node "Pow"(%a, %b) {opset = 15 : i64} : (tensor<4xf32>, tensor<4xsi64>) -> tensor<4xf32>
  %1 = tgc.onnx_node "Pow"(%i, %i) {opset = 15 : i64} : (tensor<4xsi32>, tensor<4xsi32>) -> tensor<4xsi32>
  return %0, %1 : tensor<4xf32>, tensor<4xsi32>
}

// max propagates NaN, as numpy's maximum does.
// CHECK-LABEL: func @relu(
// CHECK-NEXT: %[[Z:.*]] = tgc.const dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: tgc.max %arg0, %[[Z]] : tensor<4xf32>
func.func @relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.onnx_node "Relu"(%x) {opset = 14 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// exp(x) = exp2(x * log2(e)); log(x) = log2(x) * ln(2).
// CHECK-LABEL: func @exp_log(
// CHECK-NEXT: %[[L2E:.*]] = tgc.const dense<1.44269502> : tensor<4xf32>
// CHECK-NEXT: %[[M:.*]] = tgc.mul %arg0, %[[L2E]]
// CHECK-NEXT: %[[E:.*]] = tgc.exp2 %[[M]]
// CHECK-NEXT: %[[L:.*]] = tgc.log2 %[[E]]
// CHECK-NEXT: %[[LN2:.*]] = tgc.const dense<0.693147182> : tensor<4xf32>
// CHECK-NEXT: tgc.mul %[[L]], %[[LN2]]
func.func @exp_log(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.onnx_node "Exp"(%x) {opset = 13 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tgc.onnx_node "Log"(%0) {opset = 13 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// sigmoid(x) = 1 / (1 + exp2(-x * log2(e)))
// CHECK-LABEL: func @sigmoid(
// CHECK-NEXT: %[[N:.*]] = tgc.neg %arg0
// CHECK-NEXT: tgc.const dense<1.44269502>
// CHECK-NEXT: %[[M:.*]] = tgc.mul %[[N]]
// CHECK-NEXT: %[[E:.*]] = tgc.exp2 %[[M]]
// CHECK-NEXT: %[[ONE:.*]] = tgc.const dense<1.000000e+00>
// CHECK-NEXT: %[[D:.*]] = tgc.add %[[E]], %[[ONE]]
// CHECK-NEXT: %[[R:.*]] = tgc.recip %[[D]]
// CHECK-NEXT: return %[[R]]
func.func @sigmoid(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.onnx_node "Sigmoid"(%x) {opset = 13 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// tanh and erf: x P(x^2) / Q(x^2) on x clamped to where the function is
// +-1 in float, the quotient clamped to [-1, 1] (min(a, b) as
// -max(-a, -b)): nothing compared or selected, so vector code keeps it.
// CHECK-LABEL: func @tanh(
// CHECK: %[[LOW:.*]] = tgc.const dense<-9.020000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[UP:.*]] = tgc.max %arg0, %[[LOW]]
// CHECK-NEXT: %[[NUP:.*]] = tgc.neg %[[UP]]
// CHECK-NEXT: %[[NHIGH:.*]] = tgc.neg
// CHECK-NEXT: %[[M:.*]] = tgc.max %[[NUP]], %[[NHIGH]]
// CHECK-NEXT: %[[X:.*]] = tgc.neg %[[M]]
// CHECK-NEXT: %[[T:.*]] = tgc.mul %[[X]], %[[X]]
// CHECK-NEXT: %[[P4:.*]] = tgc.const dense<1.33191049E-8>
// CHECK-NEXT: tgc.mul %[[P4]], %[[T]]
// CHECK: %[[Q4:.*]] = tgc.const dense<7.76203365E-7>
// CHECK-NEXT: tgc.mul %[[Q4]], %[[T]]
// CHECK: %[[XP:.*]] = tgc.mul %[[X]], %{{.*}}
// CHECK-NEXT: %[[Y:.*]] = tgc.fdiv %[[XP]], %{{.*}}
// CHECK-NEXT: %[[MINUS1:.*]] = tgc.const dense<-1.000000e+00>
// CHECK-NEXT: tgc.max %[[Y]], %[[MINUS1]]
// CHECK-NOT: tgc.{{bitcast|cmplt|where}}
// CHECK: return
func.func @tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.onnx_node "Tanh"(%x) {opset = 13 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @erf(
// CHECK-NOT: tgc.{{bitcast|cmplt|where}}
// CHECK: tgc.const dense<-3.920000e+00> : tensor<4xf32>
// CHECK-NOT: tgc.{{bitcast|cmplt|where}}
// CHECK: tgc.const dense<2.05008519E-6>
// CHECK-NOT: tgc.{{bitcast|cmplt|where}}
// CHECK: tgc.const dense<1.12837911>
// CHECK-NOT: tgc.{{bitcast|cmplt|where}}
// CHECK: tgc.const dense<3.80917299E-5>
// CHECK-NOT: tgc.{{bitcast|cmplt|where}}
// CHECK: tgc.fdiv
// CHECK-NOT: tgc.{{bitcast|cmplt|where}}
// CHECK: return
func.func @erf(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.onnx_node "Erf"(%x) {opset = 13 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @abs(
// CHECK-NEXT: %[[B:.*]] = tgc.bitcast %arg0 : tensor<4xf16> to tensor<4xui16>
// CHECK-NEXT: %[[M:.*]] = tgc.const dense<32767> : tensor<4xui16>
// CHECK-NEXT: %[[C:.*]] = tgc.and %[[B]], %[[M]]
// CHECK-NEXT: tgc.bitcast %[[C]] : tensor<4xui16> to tensor<4xf16>
// CHECK-NEXT: %[[Z:.*]] = tgc.const dense<0> : tensor<4xsi8>
// CHECK-NEXT: %[[L:.*]] = tgc.cmplt %arg1, %[[Z]]
// CHECK-NEXT: %[[N:.*]] = tgc.neg %arg1
// CHECK-NEXT: tgc.where %[[L]], %[[N]], %arg1
// Unsigned values are their own absolute value.
// CHECK-NEXT: return %{{.*}}, %{{.*}}, %arg2
func.func @abs(%f: tensor<4xf16>, %i: tensor<4xsi8>, %u: tensor<4xui8>) -> (tensor<4xf16>, tensor<4xsi8>, tensor<4xui8>) {
  %0 = tgc.onnx_node "Abs"(%f) {opset = 13 : i64} : (tensor<4xf16>) -> tensor<4xf16>
  %1 = tgc.onnx_node "Abs"(%i) {opset = 13 : i64} : (tensor<4xsi8>) -> tensor<4xsi8>
  %2 = tgc.onnx_node "Abs"(%u) {opset = 13 : i64} : (tensor<4xui8>) -> tensor<4xui8>
  return %0, %1, %2 : tensor<4xf16>, tensor<4xsi8>, tensor<4xui8>
}

// Float min is -max(-a, -b) (exact, NaN kept); integer min selects.
// CHECK-LABEL: func @min(
// CHECK-NEXT: %[[NA:.*]] = tgc.neg %arg0
// CHECK-NEXT: %[[NB:.*]] = tgc.neg %arg1
// CHECK-NEXT: %[[M:.*]] = tgc.max %[[NA]], %[[NB]]
// CHECK-NEXT: %[[NC:.*]] = tgc.neg %arg2 : tensor<f32>
// CHECK-NEXT: %[[R:.*]] = tgc.reshape %[[NC]] : tensor<f32> -> tensor<1xf32>
// CHECK-NEXT: %[[E:.*]] = tgc.expand %[[R]] : tensor<1xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[M2:.*]] = tgc.max %[[M]], %[[E]]
// CHECK-NEXT: tgc.neg %[[M2]]
// CHECK-NEXT: %[[LT:.*]] = tgc.cmplt %arg3, %arg4 : tensor<4xsi32>
// CHECK-NEXT: tgc.where %[[LT]], %arg3, %arg4 : tensor<4xi1>, tensor<4xsi32>
func.func @min(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<f32>, %i: tensor<4xsi32>, %j: tensor<4xsi32>) -> (tensor<4xf32>, tensor<4xsi32>) {
  %0 = tgc.onnx_node "Min"(%a, %b, %c) {opset = 13 : i64} : (tensor<4xf32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = tgc.onnx_node "Min"(%i, %j) {opset = 13 : i64} : (tensor<4xsi32>, tensor<4xsi32>) -> tensor<4xsi32>
  return %0, %1 : tensor<4xf32>, tensor<4xsi32>
}

// Clip's bounds are optional inputs since opset 11, attributes before.
// CHECK-LABEL: func @clip(
// CHECK-NEXT: %[[NX:.*]] = tgc.neg %arg0
// CHECK-NEXT: %[[NH:.*]] = tgc.neg %arg1 : tensor<f32>
// CHECK: tgc.max %[[NX]],
// CHECK-NEXT: tgc.neg
// CHECK-NEXT: %[[LO:.*]] = tgc.const dense<-1.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[HI:.*]] = tgc.const dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT: tgc.max %arg0, %[[LO]]
func.func @clip(%x: tensor<4xf32>, %hi: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = tgc.onnx_node "Clip"(%x, %hi) {opset = 13 : i64, input_slots = array<i64: 0, 2>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = tgc.onnx_node "Clip"(%x) {opset = 6 : i64, attrs = {min = -1.0 : f32, max = 1.0 : f32}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func @leaky_relu(
// CHECK-NEXT: %[[Z:.*]] = tgc.const dense<0.000000e+00>
// CHECK-NEXT: %[[N:.*]] = tgc.cmplt %arg0, %[[Z]]
// CHECK-NEXT: %[[A:.*]] = tgc.const dense<1.000000e-01>
// CHECK-NEXT: %[[S:.*]] = tgc.mul %arg0, %[[A]]
// CHECK-NEXT: tgc.where %[[N]], %[[S]], %arg0
func.func @leaky_relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.onnx_node "LeakyRelu"(%x) {opset = 16 : i64, attrs = {alpha = 0.1 : f32}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// a <= b is (a < b) | (a == b): false for NaN, unlike !(b < a).
// CHECK-LABEL: func @compare(
// CHECK-NEXT: %[[EQ:.*]] = tgc.cmpeq %arg0, %arg1 : tensor<4xf32>
// CHECK-NEXT: %[[GT:.*]] = tgc.cmplt %arg1, %arg0 : tensor<4xf32>
// CHECK-NEXT: %[[LT:.*]] = tgc.cmplt %arg0, %arg1 : tensor<4xf32>
// CHECK-NEXT: %[[EQ2:.*]] = tgc.cmpeq %arg0, %arg1 : tensor<4xf32>
// CHECK-NEXT: %[[LE:.*]] = tgc.or %[[LT]], %[[EQ2]] : tensor<4xi1>
// CHECK-NEXT: %[[T:.*]] = tgc.const dense<true> : tensor<4xi1>
// CHECK-NEXT: %[[NOT:.*]] = tgc.xor %[[EQ]], %[[T]] : tensor<4xi1>
// CHECK-NEXT: %[[ILE:.*]] = tgc.cmplt %arg3, %arg2 : tensor<4xsi32>
// CHECK-NEXT: %[[T2:.*]] = tgc.const dense<true> : tensor<4xi1>
// CHECK-NEXT: tgc.xor %[[ILE]], %[[T2]] : tensor<4xi1>
func.func @compare(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xsi32>, %j: tensor<4xsi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = tgc.onnx_node "Equal"(%a, %b) {opset = 13 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = tgc.onnx_node "Greater"(%a, %b) {opset = 13 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = tgc.onnx_node "LessOrEqual"(%a, %b) {opset = 16 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %3 = tgc.onnx_node "Not"(%0) {opset = 1 : i64} : (tensor<4xi1>) -> tensor<4xi1>
  %4 = tgc.onnx_node "LessOrEqual"(%i, %j) {opset = 16 : i64} : (tensor<4xsi32>, tensor<4xsi32>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// CHECK-LABEL: func @where(
// CHECK-NEXT: %[[R:.*]] = tgc.reshape %arg1 : tensor<f32> -> tensor<1xf32>
// CHECK-NEXT: %[[E:.*]] = tgc.expand %[[R]] : tensor<1xf32> -> tensor<4xf32>
// CHECK-NEXT: tgc.where %arg0, %[[E]], %arg2 : tensor<4xi1>, tensor<4xf32>
func.func @where(%c: tensor<4xi1>, %x: tensor<f32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.onnx_node "Where"(%c, %x, %y) {opset = 16 : i64} : (tensor<4xi1>, tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A cast to the same type, Identity and inference-mode Dropout emit nothing
// (Dropout's mask is all true).
// CHECK-LABEL: func @no_ops(
// CHECK-NEXT: %[[C:.*]] = tgc.cast %arg0 : tensor<4xf32> to tensor<4xsi64>
// CHECK-NEXT: %[[MASK:.*]] = tgc.const dense<true> : tensor<4xi1>
// CHECK-NEXT: return %[[C]], %arg0, %arg0, %[[MASK]]
func.func @no_ops(%x: tensor<4xf32>) -> (tensor<4xsi64>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>) {
  %0 = tgc.onnx_node "Cast"(%x) {opset = 13 : i64, attrs = {to = 7 : i64}} : (tensor<4xf32>) -> tensor<4xsi64>
  %1 = tgc.onnx_node "Cast"(%x) {opset = 13 : i64, attrs = {to = 1 : i64}} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = tgc.onnx_node "Identity"(%1) {opset = 16 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %3:2 = tgc.onnx_node "Dropout"(%2) {opset = 13 : i64} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>)
  return %0, %1, %3#0, %3#1 : tensor<4xsi64>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>
}

// Round half to even: x - floor(x) is exact, a tie looks at floor's parity.
// CHECK-LABEL: func @round(
// CHECK-NEXT: %[[T:.*]] = tgc.trunc %arg0
// CHECK-NEXT: %[[B:.*]] = tgc.cmplt %arg0, %[[T]]
// CHECK: %[[F:.*]] = tgc.where %[[B]]
// CHECK-NEXT: %[[FRAC:.*]] = tgc.sub %arg0, %[[F]]
// CHECK: %[[HALF:.*]] = tgc.const dense<5.000000e-01>
// CHECK: %[[ODD:.*]] = tgc.cmpeq
// CHECK: %[[GT:.*]] = tgc.cmplt %[[HALF]], %[[FRAC]]
// CHECK-NEXT: %[[R:.*]] = tgc.where %[[GT]]
// CHECK-NEXT: return %[[R]]
func.func @round(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.onnx_node "Round"(%x) {opset = 11 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Integer Mod with fmod = 0 takes the divisor's sign (Python's %).
// CHECK-LABEL: func @mod(
// CHECK-NEXT: %[[REM:.*]] = tgc.mod %arg0, %arg1 : tensor<4xsi32>
// CHECK: %[[FIX:.*]] = tgc.and
// CHECK-NEXT: %[[ADJ:.*]] = tgc.add %[[REM]], %arg1
// CHECK-NEXT: %[[R:.*]] = tgc.where %[[FIX]], %[[ADJ]], %[[REM]]
// CHECK-NEXT: %[[C:.*]] = tgc.mod %arg0, %arg1 : tensor<4xsi32>
// CHECK-NEXT: return %[[R]], %[[C]]
func.func @mod(%a: tensor<4xsi32>, %b: tensor<4xsi32>) -> (tensor<4xsi32>, tensor<4xsi32>) {
  %0 = tgc.onnx_node "Mod"(%a, %b) {opset = 13 : i64} : (tensor<4xsi32>, tensor<4xsi32>) -> tensor<4xsi32>
  %1 = tgc.onnx_node "Mod"(%a, %b) {opset = 13 : i64, attrs = {fmod = 1 : i64}} : (tensor<4xsi32>, tensor<4xsi32>) -> tensor<4xsi32>
  return %0, %1 : tensor<4xsi32>, tensor<4xsi32>
}

// Half precision computes erf in float: its coefficients down to 2e-6
// would lose their digits in float16.
// CHECK-LABEL: func @erf_f16(
// CHECK-NEXT: %[[X:.*]] = tgc.cast %arg0 : tensor<4xf16> to tensor<4xf32>
// CHECK: tgc.fdiv %{{.*}} : tensor<4xf32>
// CHECK: %[[Y:.*]] = tgc.cast %{{.*}} : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT: return %[[Y]]
func.func @erf_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = tgc.onnx_node "Erf"(%x) {opset = 13 : i64} : (tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
