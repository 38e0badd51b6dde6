// A stack whose row is a little shorter than a vector: the row is padded
// to a vector of 8 (masked loads and stores) when its loads are
// contiguous, and left scalar copies when each part reads every other
// element (Winograd's 2x2 input transform: each vector's lanes would be
// picked out of two loads, and the stores masked).
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=haswell thread-tasks=0" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s < %t.c
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -fsyntax-only %t.c

// CHECK: /* opts: UPCAST(0,2) */
// CHECK-NEXT: net_E_2_7(
// CHECK-NOT: tgc_f32x8
// CHECK: }
// CHECK: /* opts: UPCAST(0,2) PADTO(1,8) UPCAST(1,8) */
// CHECK-NEXT: net_E_2_7n1(
// CHECK-DAG: tgc_f32x8_load_part(data1 + 0, 7,
// CHECK-DAG: tgc_f32x8_store_part(data2 + 7, 7,
// CHECK-DAG: tgc_f32x8_load_part(data0 + 0, 7,
// CHECK-DAG: tgc_f32x8_store_part(data2 + 0, 7,
// CHECK: }

func.func @main(%x: tensor<1x14xf32> {tgc.name = "x"}, %p: tensor<1x7xf32> {tgc.name = "p"}, %q: tensor<1x7xf32> {tgc.name = "q"}) -> (tensor<2x7xf32> {tgc.name = "strided"}, tensor<2x7xf32> {tgc.name = "rows"}) {
  %one = tgc.const dense<1.0> : tensor<1x7xf32>
  %s0 = tgc.const dense<[0]> : tensor<1xi64>
  %s1 = tgc.const dense<[1]> : tensor<1xi64>
  %e = tgc.const dense<[14]> : tensor<1xi64>
  %ax = tgc.const dense<[1]> : tensor<1xi64>
  %st = tgc.const dense<[2]> : tensor<1xi64>
  %even = tgc.onnx_node "Slice"(%x, %s0, %e, %ax, %st) {opset = 17 : i64} : (tensor<1x14xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x7xf32>
  %odd = tgc.onnx_node "Slice"(%x, %s1, %e, %ax, %st) {opset = 17 : i64} : (tensor<1x14xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x7xf32>
  %a = tgc.onnx_node "Add"(%even, %one) {opset = 17 : i64} : (tensor<1x7xf32>, tensor<1x7xf32>) -> tensor<1x7xf32>
  %b = tgc.onnx_node "Sub"(%odd, %one) {opset = 17 : i64} : (tensor<1x7xf32>, tensor<1x7xf32>) -> tensor<1x7xf32>
  %strided = tgc.onnx_node "Concat"(%a, %b) {opset = 17 : i64, attrs = {axis = 0 : i64}} : (tensor<1x7xf32>, tensor<1x7xf32>) -> tensor<2x7xf32>
  %c = tgc.onnx_node "Add"(%p, %one) {opset = 17 : i64} : (tensor<1x7xf32>, tensor<1x7xf32>) -> tensor<1x7xf32>
  %d = tgc.onnx_node "Sub"(%q, %one) {opset = 17 : i64} : (tensor<1x7xf32>, tensor<1x7xf32>) -> tensor<1x7xf32>
  %rows = tgc.onnx_node "Concat"(%c, %d) {opset = 17 : i64, attrs = {axis = 0 : i64}} : (tensor<1x7xf32>, tensor<1x7xf32>) -> tensor<2x7xf32>
  return %strided, %rows : tensor<2x7xf32>, tensor<2x7xf32>
}
