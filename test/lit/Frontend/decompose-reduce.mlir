// RUN: tgc-opt %s --tgc-decompose | FileCheck %s
// Reductions become tgc.reduce_axis (add, mul, max), which keeps the reduced
// dims; a reshape drops them when keepdims is 0.

// Opset 13 ReduceSum reads its axes from a constant input.
// CHECK-LABEL: func @reduce_sum_input_axes(
// CHECK: %[[R:.*]] = tgc.reduce_axis add %arg0 [1] : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT: %[[S:.*]] = tgc.reshape %[[R]] : tensor<2x1x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT: return %[[S]]
func.func @reduce_sum_input_axes(%x: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  %axes = tgc.const dense<[-2]> : tensor<1xsi64>
  %0 = tgc.onnx_node "ReduceSum"(%x, %axes) {opset = 13 : i64, attrs = {keepdims = 0 : i64}} : (tensor<2x3x4xf32>, tensor<1xsi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// No axes: all of them, unless noop_with_empty_axes.
// CHECK-LABEL: func @reduce_sum_empty_axes(
// CHECK-NEXT: %[[R:.*]] = tgc.reduce_axis add %arg0 [0, 1] : tensor<2x3xf32> -> tensor<1x1xf32>
// CHECK-NEXT: return %[[R]], %arg0
func.func @reduce_sum_empty_axes(%x: tensor<2x3xf32>) -> (tensor<1x1xf32>, tensor<2x3xf32>) {
  %0 = tgc.onnx_node "ReduceSum"(%x) {opset = 13 : i64} : (tensor<2x3xf32>) -> tensor<1x1xf32>
  %1 = tgc.onnx_node "ReduceSum"(%x) {opset = 13 : i64, attrs = {noop_with_empty_axes = 1 : i64}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<1x1xf32>, tensor<2x3xf32>
}

// Before opset 18 the other reductions take axes as an attribute, since as
// an input. Means divide by the count (truncating for integers).
// CHECK-LABEL: func @reduce_mean(
// CHECK-NEXT: %[[R:.*]] = tgc.reduce_axis add %arg0 [1, 2] : tensor<2x3x4xf32> -> tensor<2x1x1xf32>
// CHECK-NEXT: %[[N:.*]] = tgc.const dense<1.200000e+01> : tensor<2x1x1xf32>
// CHECK-NEXT: tgc.fdiv %[[R]], %[[N]] : tensor<2x1x1xf32>
// CHECK: %[[I:.*]] = tgc.reduce_axis add %arg1 [1] : tensor<2x4xsi32> -> tensor<2x1xsi32>
// CHECK-NEXT: %[[FOUR:.*]] = tgc.const dense<4> : tensor<2xsi32>
// CHECK-NEXT: %[[IS:.*]] = tgc.reshape %[[I]] : tensor<2x1xsi32> -> tensor<2xsi32>
// CHECK-NEXT: tgc.idiv %[[IS]], %[[FOUR]] : tensor<2xsi32>
// CHECK: %[[R18:.*]] = tgc.reduce_axis add %arg2 [1] : tensor<2x3xf32> -> tensor<2x1xf32>
// CHECK-NEXT: %[[THREE:.*]] = tgc.const dense<3.000000e+00> : tensor<2x1xf32>
// CHECK-NEXT: tgc.fdiv %[[R18]], %[[THREE]]
func.func @reduce_mean(%x: tensor<2x3x4xf32>, %i: tensor<2x4xsi32>, %y: tensor<2x3xf32>) -> (tensor<2x1x1xf32>, tensor<2xsi32>, tensor<2x1xf32>) {
  %0 = tgc.onnx_node "ReduceMean"(%x) {opset = 17 : i64, attrs = {axes = array<i64: 1, 2>}} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %1 = tgc.onnx_node "ReduceMean"(%i) {opset = 17 : i64, attrs = {axes = array<i64: 1>, keepdims = 0 : i64}} : (tensor<2x4xsi32>) -> tensor<2xsi32>
  %axes = tgc.const dense<1> : tensor<1xsi64>
  %2 = tgc.onnx_node "ReduceMean"(%y, %axes) {opset = 18 : i64} : (tensor<2x3xf32>, tensor<1xsi64>) -> tensor<2x1xf32>
  return %0, %1, %2 : tensor<2x1x1xf32>, tensor<2xsi32>, tensor<2x1xf32>
}

// min is -max(-x) for floats and ~max(~x) for integers (no overflow).
// CHECK-LABEL: func @reduce_max_min(
// CHECK-NEXT: tgc.reduce_axis max %arg0 [1] : tensor<2x3xf32> -> tensor<2x1xf32>
// CHECK-NEXT: %[[N:.*]] = tgc.neg %arg0
// CHECK-NEXT: %[[M:.*]] = tgc.reduce_axis max %[[N]] [1]
// CHECK-NEXT: tgc.neg %[[M]] : tensor<2x1xf32>
// CHECK-NEXT: %[[ONES:.*]] = tgc.const dense<-1> : tensor<2x3xsi8>
// CHECK-NEXT: %[[NOT:.*]] = tgc.xor %arg1, %[[ONES]]
// CHECK-NEXT: %[[IM:.*]] = tgc.reduce_axis max %[[NOT]] [0] : tensor<2x3xsi8> -> tensor<1x3xsi8>
// CHECK-NEXT: %[[ONES2:.*]] = tgc.const dense<-1> : tensor<1x3xsi8>
// CHECK-NEXT: tgc.xor %[[IM]], %[[ONES2]]
func.func @reduce_max_min(%x: tensor<2x3xf32>, %i: tensor<2x3xsi8>) -> (tensor<2x1xf32>, tensor<2x1xf32>, tensor<1x3xsi8>) {
  %0 = tgc.onnx_node "ReduceMax"(%x) {opset = 17 : i64, attrs = {axes = array<i64: 1>}} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %1 = tgc.onnx_node "ReduceMin"(%x) {opset = 17 : i64, attrs = {axes = array<i64: 1>}} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %2 = tgc.onnx_node "ReduceMin"(%i) {opset = 17 : i64, attrs = {axes = array<i64: 0>}} : (tensor<2x3xsi8>) -> tensor<1x3xsi8>
  return %0, %1, %2 : tensor<2x1xf32>, tensor<2x1xf32>, tensor<1x3xsi8>
}

// Half-precision sums accumulate in f32.
// CHECK-LABEL: func @reduce_sum_f16(
// CHECK-NEXT: %[[W:.*]] = tgc.cast %arg0 : tensor<8xf16> to tensor<8xf32>
// CHECK-NEXT: %[[S:.*]] = tgc.reduce_axis add %[[W]] [0] : tensor<8xf32> -> tensor<1xf32>
// CHECK-NEXT: tgc.cast %[[S]] : tensor<1xf32> to tensor<1xf16>
func.func @reduce_sum_f16(%x: tensor<8xf16>) -> tensor<1xf16> {
  %0 = tgc.onnx_node "ReduceSum"(%x) {opset = 11 : i64, attrs = {axes = array<i64: 0>}} : (tensor<8xf16>) -> tensor<1xf16>
  return %0 : tensor<1xf16>
}

// log(sum(exp(x - max))) + max cannot overflow.
// CHECK-LABEL: func @reduce_logsumexp(
// CHECK-NEXT: %[[M:.*]] = tgc.reduce_axis max %arg0 [1]
// CHECK-NEXT: %[[ME:.*]] = tgc.expand %[[M]] : tensor<2x1xf32> -> tensor<2x3xf32>
// CHECK-NEXT: tgc.sub %arg0, %[[ME]]
// CHECK: tgc.exp2
// CHECK-NEXT: tgc.reduce_axis add
// CHECK-NEXT: tgc.log2
// CHECK: %[[L:.*]] = tgc.add %{{.*}}, %[[M]] : tensor<2x1xf32>
// CHECK-NEXT: tgc.reshape %[[L]] : tensor<2x1xf32> -> tensor<2xf32>
func.func @reduce_logsumexp(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = tgc.onnx_node "ReduceLogSumExp"(%x) {opset = 13 : i64, attrs = {axes = array<i64: 1>, keepdims = 0 : i64}} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @reduce_l2_prod(
// CHECK-NEXT: %[[SQ:.*]] = tgc.mul %arg0, %arg0
// CHECK-NEXT: %[[S:.*]] = tgc.reduce_axis add %[[SQ]] [1]
// CHECK-NEXT: tgc.sqrt %[[S]]
// CHECK-NEXT: tgc.reduce_axis mul %arg0 [1] : tensor<2x3xf32> -> tensor<2x1xf32>
func.func @reduce_l2_prod(%x: tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x1xf32>) {
  %0 = tgc.onnx_node "ReduceL2"(%x) {opset = 13 : i64, attrs = {axes = array<i64: 1>}} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %1 = tgc.onnx_node "ReduceProd"(%x) {opset = 13 : i64, attrs = {axes = array<i64: 1>}} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0, %1 : tensor<2x1xf32>, tensor<2x1xf32>
}

// ArgMax: where x hits the max keep (n-1-i), take the max, turn it back
// into the first index. With select_last_index the index itself is kept.
// CHECK-LABEL: func @arg_max_min(
// CHECK-NEXT: %[[M:.*]] = tgc.reduce_axis max %arg0 [1]
// CHECK-NEXT: %[[ME:.*]] = tgc.expand %[[M]]
// CHECK-NEXT: %[[HIT:.*]] = tgc.cmpeq %arg0, %[[ME]] : tensor<2x3xf32>
// CHECK-NEXT: %[[I:.*]] = tgc.const dense<[0, 1, 2]> : tensor<3xsi64>
// CHECK-NEXT: %[[TWO:.*]] = tgc.const dense<2> : tensor<3xsi64>
// CHECK-NEXT: %[[REV:.*]] = tgc.sub %[[TWO]], %[[I]]
// CHECK: %[[SEL:.*]] = tgc.where %[[HIT]]
// CHECK-NEXT: %[[BEST:.*]] = tgc.reduce_axis max %[[SEL]] [1] : tensor<2x3xsi64> -> tensor<2x1xsi64>
// CHECK: tgc.sub %{{.*}}, %{{.*}} : tensor<2xsi64>
// CHECK: tgc.const dense<[0, 1]> : tensor<2xsi64>
// CHECK-NOT: tgc.sub
// CHECK: %[[LAST:.*]] = tgc.reduce_axis max %{{.*}} [0] : tensor<2x3xsi64> -> tensor<1x3xsi64>
// CHECK-NEXT: return %{{.*}}, %[[LAST]]
func.func @arg_max_min(%x: tensor<2x3xf32>) -> (tensor<2xsi64>, tensor<1x3xsi64>) {
  %0 = tgc.onnx_node "ArgMax"(%x) {opset = 13 : i64, attrs = {axis = 1 : i64, keepdims = 0 : i64}} : (tensor<2x3xf32>) -> tensor<2xsi64>
  %1 = tgc.onnx_node "ArgMin"(%x) {opset = 13 : i64, attrs = {axis = 0 : i64, select_last_index = 1 : i64}} : (tensor<2x3xf32>) -> tensor<1x3xsi64>
  return %0, %1 : tensor<2xsi64>, tensor<1x3xsi64>
}

// CumSum is a sum over windows of a zero-padded axis (tinygrad's _cumalu)
// up to 64 elements;
// exclusive shifts the input by one, reverse flips around it.
// CHECK-LABEL: func @cumsum(
// CHECK: %[[P:.*]] = tgc.pad %arg0 low [0, 3] high [0, 0] : tensor<2x4xf32> -> tensor<2x7xf32>
// CHECK: %[[W:.*]] = tgc.permute %{{.*}} [0, 2, 1] : tensor<2x4x4xf32> -> tensor<2x4x4xf32>
// CHECK-NEXT: %[[S:.*]] = tgc.reduce_axis add %[[W]] [2] : tensor<2x4x4xf32> -> tensor<2x4x1xf32>
// CHECK-NEXT: %[[C:.*]] = tgc.reshape %[[S]] : tensor<2x4x1xf32> -> tensor<2x4xf32>
// CHECK-NEXT: %[[F:.*]] = tgc.flip %arg0 [1]
// CHECK-NEXT: %[[SH:.*]] = tgc.shrink %[[F]] begin [0, 0] end [2, 3]
// CHECK-NEXT: tgc.pad %[[SH]] low [0, 1] high [0, 0] : tensor<2x3xf32> -> tensor<2x4xf32>
// CHECK: %[[R:.*]] = tgc.flip %{{.*}} [1] : tensor<2x4xf32>
// CHECK-NEXT: return %[[C]], %[[R]]
func.func @cumsum(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %axis = tgc.const dense<1> : tensor<si64>
  %0 = tgc.onnx_node "CumSum"(%x, %axis) {opset = 14 : i64} : (tensor<2x4xf32>, tensor<si64>) -> tensor<2x4xf32>
  %1 = tgc.onnx_node "CumSum"(%x, %axis) {opset = 14 : i64, attrs = {exclusive = 1 : i64, reverse = 1 : i64}} : (tensor<2x4xf32>, tensor<si64>) -> tensor<2x4xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<2x4xf32>
}

// Past 64 elements the axis goes in blocks of about sqrt(n): 100 is 10
// blocks of 10, each block's running sums (windows of 10) plus the
// exclusive running sum of the blocks' totals (shifted by one), broadcast
// over the block: 100 * 10 + 10 * 10 additions per row instead of 100 * 100.
// CHECK-LABEL: func @cumsum_long(
// CHECK: %[[B:.*]] = tgc.reshape %arg0 : tensor<2x100xf32> -> tensor<2x10x10xf32>
// CHECK: %[[IN:.*]] = tgc.reduce_axis add %{{.*}} [3] : tensor<2x10x10x10xf32> -> tensor<2x10x10x1xf32>
// CHECK: %[[T:.*]] = tgc.reduce_axis add %[[B]] [2] : tensor<2x10x10xf32> -> tensor<2x10x1xf32>
// CHECK: tgc.pad %{{.*}} low [0, 1] high [0, 0] : tensor<2x9xf32> -> tensor<2x10xf32>
// CHECK: %[[BEFORE:.*]] = tgc.reduce_axis add %{{.*}} [2] : tensor<2x10x10xf32> -> tensor<2x10x1xf32>
// CHECK: %[[I:.*]] = tgc.reshape %[[IN]] : tensor<2x10x10x1xf32> -> tensor<2x10x10xf32>
// CHECK: %[[E:.*]] = tgc.expand %[[BEFORE]] : tensor<2x10x1xf32> -> tensor<2x10x10xf32>
// CHECK: %[[S:.*]] = tgc.add %[[I]], %[[E]] : tensor<2x10x10xf32>
// CHECK: %[[R:.*]] = tgc.reshape %[[S]] : tensor<2x10x10xf32> -> tensor<2x100xf32>
// CHECK-NEXT: return %[[R]]
func.func @cumsum_long(%x: tensor<2x100xf32>) -> tensor<2x100xf32> {
  %axis = tgc.const dense<1> : tensor<si64>
  %0 = tgc.onnx_node "CumSum"(%x, %axis) {opset = 14 : i64} : (tensor<2x100xf32>, tensor<si64>) -> tensor<2x100xf32>
  return %0 : tensor<2x100xf32>
}
