// RUN: not tgc-opt %s --tgc-decompose 2>&1 | FileCheck %s
// Errors name the node (from its location) and its op type. Nodes that can
// be decomposed are, even when others cannot; the failed ones stay.

// CHECK: model.onnx:0:0: error: node 'first' (Foo): op type 'Foo' is not supported (opset 17)
// CHECK: model.onnx:0:0: error: node 'second' (Bar): op type 'Bar' is not supported (opset 17)
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.onnx_node "Foo"(%x) {opset = 17 : i64} : (tensor<4xf32>) -> tensor<4xf32> loc("first"("model.onnx":0:0))
  %1 = tgc.onnx_node "Relu"(%0) {opset = 17 : i64} : (tensor<4xf32>) -> tensor<4xf32> loc("relu"("model.onnx":0:0))
  %2 = tgc.onnx_node "Bar"(%1) {opset = 17 : i64} : (tensor<4xf32>) -> tensor<4xf32> loc("second"("model.onnx":0:0))
  return %2 : tensor<4xf32>
}
