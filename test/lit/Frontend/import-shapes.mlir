// Dynamic input dims bound from given shapes, and shape arithmetic folded
// once they are.

// RUN: tgc-translate --import-onnx %S/Inputs/dynamic.onnx --onnx-input-shape=x=3x4 --onnx-input-shape=u=5 | FileCheck %s
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: tensor<3x4xf32> {tgc.name = "x"}, %[[U:.*]]: tensor<5xf32> {tgc.name = "u"})
// CHECK-SAME: -> (tensor<3x4xf32> {tgc.name = "y"}, tensor<5xf32> {tgc.name = "v"})
// CHECK: tgc.onnx_node "Relu"(%[[X]]) {opset = 17 : i64} : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK: tgc.onnx_node "Neg"(%[[U]]) {opset = 17 : i64} : (tensor<5xf32>) -> tensor<5xf32>

// RUN: not tgc-translate --import-onnx %S/Inputs/dynamic.onnx 2>&1 | FileCheck %s --check-prefix=UNBOUND
// UNBOUND: dynamic.onnx:0:0: error: input 'x' has dynamic dim 0 ('N'); give a shape for it

// An input without any shape is rejected by the checker unless bound.
// RUN: not tgc-translate --import-onnx %S/Inputs/dynamic.onnx --onnx-input-shape=x=3x4 2>&1 | FileCheck %s --check-prefix=NOSHAPE
// NOSHAPE: dynamic.onnx:0:0: error: input 'u' has no shape; give one for it

// RUN: not tgc-translate --import-onnx %S/Inputs/dynamic.onnx --onnx-input-shape=x=3x5 --onnx-input-shape=u=5 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: error: input 'x' has dim 1 = 4 but the shape given for it says 5

// RUN: not tgc-translate --import-onnx %S/Inputs/dynamic.onnx --onnx-input-shape=x=3 --onnx-input-shape=u=5 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: error: input 'x' has rank 2 but the shape given for it, [3], has rank 1

// RUN: not tgc-translate --import-onnx %S/Inputs/dynamic.onnx --onnx-input-shape=x=3x4 --onnx-input-shape=u=5 --onnx-input-shape=w=1 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: a shape is given for 'w', which is not an input of the model

// RUN: not tgc-translate --import-onnx %S/Inputs/dynamic.onnx --onnx-input-shape=x3x4 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: error: bad --onnx-input-shape 'x3x4': expected NAME=D0xD1...

// Shape -> Gather -> Unsqueeze -> Concat becomes the constant [2, -1]; the
// Reshape then has a static type, and the constants nothing reads are gone.
// RUN: tgc-translate --import-onnx %S/Inputs/shape_chain.onnx --onnx-input-shape=x=2x3x4 | FileCheck %s --check-prefix=CHAIN
// CHAIN-LABEL: func.func @main(
// CHAIN-SAME: %[[X:.*]]: tensor<2x3x4xf32> {tgc.name = "x"}) -> (tensor<2x12xf32> {tgc.name = "y"})
// CHAIN-NEXT: %[[T:.*]] = tgc.const dense<[2, -1]> : tensor<2xsi64>
// CHAIN-NEXT: %[[R:.*]] = tgc.onnx_node "Reshape"(%[[X]], %[[T]]) {opset = 17 : i64} : (tensor<2x3x4xf32>, tensor<2xsi64>) -> tensor<2x12xf32>
// CHAIN-NEXT: return %[[R]]

// Swin's window padding: pads from the input's shape through Mod (of a
// negative height: the divisor's sign, (-10) mod 7 = 4), a reversing Slice
// and a Transpose fold to a constant, and the Pad's type is static.
// RUN: tgc-translate --import-onnx %S/Inputs/window_pad.onnx --onnx-input-shape=x=1x10x12x3 | FileCheck %s --check-prefix=WINDOW
// WINDOW-LABEL: func.func @main(
// WINDOW-SAME: tensor<1x10x12x3xf32> {tgc.name = "x"}) -> (tensor<1x14x14x3xf32> {tgc.name = "y"})
// WINDOW-NEXT: tgc.const dense<[0, 0, 0, 0, 0, 4, 2, 0]> : tensor<8xsi64>
// WINDOW-NEXT: tgc.onnx_node "Pad"
