// How long a stack axis the heuristic writes out in full: up to 36 when
// every element is a part of its own (Winograd F(4x4, 3x3)'s 36 tile
// elements; here 20 parts of one row each, each a load and an add), but
// not 32 elements of two 16-long parts (a Concat of two 16-channel
// tensors), which stays a loop under the parts' gates.
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=skylake-avx512 thread-tasks=0" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s < %t.c
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -fsyntax-only %t.c

// CHECK: /* opts: UPCAST(0,20) UPCAST(1,16) */
// CHECK-NEXT: net_E_20_32(
// CHECK-NOT: ?
// CHECK-COUNT-20: tgc_f32x16_store(
// CHECK: }
// CHECK-NOT: UPCAST(0,32)
// CHECK: net_E_32_32(

func.func @main(%x0: tensor<1x32xf32> {tgc.name = "x0"}, %x1: tensor<1x32xf32> {tgc.name = "x1"}, %x2: tensor<1x32xf32> {tgc.name = "x2"}, %x3: tensor<1x32xf32> {tgc.name = "x3"}, %x4: tensor<1x32xf32> {tgc.name = "x4"}, %x5: tensor<1x32xf32> {tgc.name = "x5"}, %x6: tensor<1x32xf32> {tgc.name = "x6"}, %x7: tensor<1x32xf32> {tgc.name = "x7"}, %x8: tensor<1x32xf32> {tgc.name = "x8"}, %x9: tensor<1x32xf32> {tgc.name = "x9"}, %x10: tensor<1x32xf32> {tgc.name = "x10"}, %x11: tensor<1x32xf32> {tgc.name = "x11"}, %x12: tensor<1x32xf32> {tgc.name = "x12"}, %x13: tensor<1x32xf32> {tgc.name = "x13"}, %x14: tensor<1x32xf32> {tgc.name = "x14"}, %x15: tensor<1x32xf32> {tgc.name = "x15"}, %x16: tensor<1x32xf32> {tgc.name = "x16"}, %x17: tensor<1x32xf32> {tgc.name = "x17"}, %x18: tensor<1x32xf32> {tgc.name = "x18"}, %x19: tensor<1x32xf32> {tgc.name = "x19"}, %a: tensor<16x32xf32> {tgc.name = "a"}, %b: tensor<16x32xf32> {tgc.name = "b"}) -> (tensor<20x32xf32> {tgc.name = "rows"}, tensor<32x32xf32> {tgc.name = "halves"}) {
  %one = tgc.const dense<1.0> : tensor<1x32xf32>
  %y0 = tgc.onnx_node "Add"(%x0, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y1 = tgc.onnx_node "Add"(%x1, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y2 = tgc.onnx_node "Add"(%x2, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y3 = tgc.onnx_node "Add"(%x3, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y4 = tgc.onnx_node "Add"(%x4, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y5 = tgc.onnx_node "Add"(%x5, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y6 = tgc.onnx_node "Add"(%x6, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y7 = tgc.onnx_node "Add"(%x7, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y8 = tgc.onnx_node "Add"(%x8, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y9 = tgc.onnx_node "Add"(%x9, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y10 = tgc.onnx_node "Add"(%x10, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y11 = tgc.onnx_node "Add"(%x11, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y12 = tgc.onnx_node "Add"(%x12, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y13 = tgc.onnx_node "Add"(%x13, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y14 = tgc.onnx_node "Add"(%x14, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y15 = tgc.onnx_node "Add"(%x15, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y16 = tgc.onnx_node "Add"(%x16, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y17 = tgc.onnx_node "Add"(%x17, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y18 = tgc.onnx_node "Add"(%x18, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %y19 = tgc.onnx_node "Add"(%x19, %one) {opset = 17 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %rows = tgc.onnx_node "Concat"(%y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7, %y8, %y9, %y10, %y11, %y12, %y13, %y14, %y15, %y16, %y17, %y18, %y19) {opset = 17 : i64, attrs = {axis = 0 : i64}} : (tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<20x32xf32>
  %two = tgc.const dense<2.0> : tensor<16x32xf32>
  %bb = tgc.onnx_node "Mul"(%b, %two) {opset = 17 : i64} : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
  %halves = tgc.onnx_node "Concat"(%a, %bb) {opset = 17 : i64, attrs = {axis = 0 : i64}} : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<32x32xf32>
  return %rows, %halves : tensor<20x32xf32>, tensor<32x32xf32>
}
