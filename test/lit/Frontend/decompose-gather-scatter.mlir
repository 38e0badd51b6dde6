// RUN: tgc-opt %s --tgc-decompose | FileCheck %s
// Indexing by run-time values: one-hot compares with an arange over the
// addressed positions, then a where-select (and a sum, or a reduction).

// ScatterND with reduction add: updates summed into the rows they hit.
// CHECK-LABEL: func @scatternd_add(
// CHECK: %[[HIT:.*]] = tgc.cmpeq %{{.*}}, %{{.*}} : tensor<4x2x1xsi64>
// CHECK: %[[HITS:.*]] = tgc.expand %[[HIT]] : tensor<4x2x1xi1> -> tensor<4x2x3xi1>
// CHECK: %[[SEL:.*]] = tgc.where %[[HITS]], %{{.*}}, %{{.*}} : tensor<4x2x3xi1>, tensor<4x2x3xf32>
// CHECK: %[[SUM:.*]] = tgc.reduce_axis add %[[SEL]] [1] : tensor<4x2x3xf32> -> tensor<4x1x3xf32>
// CHECK: %[[R:.*]] = tgc.reshape %[[SUM]] : tensor<4x1x3xf32> -> tensor<4x3xf32>
// CHECK: tgc.add %arg0, %[[R]] : tensor<4x3xf32>
func.func @scatternd_add(%d: tensor<4x3xf32>, %i: tensor<2x1xsi64>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %0 = tgc.onnx_node "ScatterND"(%d, %i, %u) {opset = 16 : i64, attrs = {reduction = "add"}} : (tensor<4x3xf32>, tensor<2x1xsi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// Without a reduction, positions no index hits keep the data.
// CHECK-LABEL: func @scatter_elements(
// CHECK: %[[HIT:.*]] = tgc.cmpeq %{{.*}}, %{{.*}} : tensor<1x3x2xsi64>
// CHECK: %[[ANY:.*]] = tgc.reduce_axis max %{{.*}} [2] : tensor<1x3x2xui8> -> tensor<1x3x1xui8>
// CHECK: tgc.where %{{.*}}, %{{.*}}, %arg0 : tensor<1x3xi1>, tensor<1x3xf32>
func.func @scatter_elements(%d: tensor<1x3xf32>, %i: tensor<1x2xsi64>, %u: tensor<1x2xf32>) -> tensor<1x3xf32> {
  %0 = tgc.onnx_node "ScatterElements"(%d, %i, %u) {opset = 16 : i64, attrs = {axis = 1 : i64}} : (tensor<1x3xf32>, tensor<1x2xsi64>, tensor<1x2xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// GatherND: index tuples become linear positions, then a one-hot sum.
// CHECK-LABEL: func @gathernd(
// CHECK: %[[HIT:.*]] = tgc.cmpeq %{{.*}}, %{{.*}} : tensor<1x2x4x1xsi64>
// CHECK: tgc.reduce_axis add %{{.*}} [2] : tensor<1x2x4x1xsi32> -> tensor<1x2x1x1xsi32>
func.func @gathernd(%d: tensor<2x2xsi32>, %i: tensor<2x2xsi64>) -> tensor<2xsi32> {
  %0 = tgc.onnx_node "GatherND"(%d, %i) {opset = 13 : i64} : (tensor<2x2xsi32>, tensor<2x2xsi64>) -> tensor<2xsi32>
  return %0 : tensor<2xsi32>
}

// Compress by a constant condition is a gather of the kept slices.
// CHECK-LABEL: func @compress(
// CHECK: tgc.shrink %arg0 begin [1, 0] end [2, 2] : tensor<3x2xf32> -> tensor<1x2xf32>
func.func @compress(%x: tensor<3x2xf32>) -> tensor<1x2xf32> {
  %c = tgc.const dense<[false, true, false]> : tensor<3xi1>
  %0 = tgc.onnx_node "Compress"(%x, %c) {opset = 11 : i64, attrs = {axis = 0 : i64}} : (tensor<3x2xf32>, tensor<3xi1>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// Einsum: a repeated label takes the diagonal (every (n+1)-th element).
// CHECK-LABEL: func @einsum_diagonal(
// CHECK: tgc.reshape %arg0 : tensor<3x5x5xf32> -> tensor<3x25xf32>
// CHECK: tgc.pad %{{.*}} low [0, 0] high [0, 5] : tensor<3x25xf32> -> tensor<3x30xf32>
// CHECK: tgc.shrink %{{.*}} begin [0, 0, 0] end [3, 5, 1] : tensor<3x5x6xf32> -> tensor<3x5x1xf32>
func.func @einsum_diagonal(%a: tensor<3x5x5xf32>) -> tensor<3x5xf32> {
  %0 = tgc.onnx_node "Einsum"(%a) {opset = 12 : i64, attrs = {equation = "...ii ->...i"}} : (tensor<3x5x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// Einsum: operands in one label order, multiplied, summed over j.
// CHECK-LABEL: func @einsum_matmul(
// CHECK: tgc.mul %{{.*}}, %{{.*}} : tensor<2x4x3xf32>
// CHECK: tgc.reduce_axis add %{{.*}} [2] : tensor<2x4x3xf32> -> tensor<2x4x1xf32>
func.func @einsum_matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = tgc.onnx_node "Einsum"(%a, %b) {opset = 12 : i64, attrs = {equation = "ij,jk"}} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// Det by the Leibniz formula: a*d - b*c for 2x2.
// CHECK-LABEL: func @det_2x2(
// CHECK: %[[AD:.*]] = tgc.mul %{{.*}}, %{{.*}} : tensor<f32>
// CHECK: %[[BC:.*]] = tgc.mul %{{.*}}, %{{.*}} : tensor<f32>
// CHECK: tgc.sub %[[AD]], %[[BC]] : tensor<f32>
func.func @det_2x2(%a: tensor<2x2xf32>) -> tensor<f32> {
  %0 = tgc.onnx_node "Det"(%a) {opset = 11 : i64} : (tensor<2x2xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// MaxPool's Indices: a constant grid of positions pooled like the input;
// the first max of each window picks from it, plus the plane's offset.
// CHECK-LABEL: func @maxpool_indices(
// CHECK: %[[GRID:.*]] = tgc.const dense<{{\[}}{{\[}}{{\[}}[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]]]> : tensor<1x1x4x4xsi64>
// CHECK: tgc.reduce_axis max %{{.*}} [4] : tensor<1x1x2x2x4xf32> -> tensor<1x1x2x2x1xf32>
// CHECK: tgc.reduce_axis add %{{.*}} [4] : tensor<1x1x2x2x4xsi64> -> tensor<1x1x2x2x1xsi64>
func.func @maxpool_indices(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xsi64> {
  %0:2 = tgc.onnx_node "MaxPool"(%x) {opset = 12 : i64, attrs = {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xsi64>)
  return %0#1 : tensor<1x1x2x2xsi64>
}
