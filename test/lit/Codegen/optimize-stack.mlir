// Stacked tensors (a Concat along a short axis, as Winograd's 16 tile
// elements are): the heuristic writes the stack axis out in full, so each
// copy's select folds away and it computes only its own part, and makes
// the axis its stores are contiguous along the vector lanes. A Pad, whose
// one gate is a border, is left alone.
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=skylake-avx512 thread-tasks=0" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s < %t.c
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -fsyntax-only %t.c

// CHECK: /* opts: UPCAST(0,4) UPCAST(1,16) */
// CHECK-NEXT: net_E_4_8_28(
// CHECK-NOT: ?
// CHECK: tgc_f32x16 val0 = tgc_f32x16_load(data0 + [[ROW:alu[0-9]+]]);
// CHECK-DAG: tgc_f32x16_neg(val0)
// CHECK-DAG: tgc_f32x16_sub(val0, tgc_f32x16_splat(1.0f))
// CHECK-DAG: tgc_f32x16_mul(val0, val0)
// CHECK-DAG: tgc_f32x16_add(val0, tgc_f32x16_splat(1.0f))
// CHECK-DAG: tgc_f32x16_store(
// CHECK-DAG: tgc_f32x16_store(
// CHECK-DAG: tgc_f32x16_store(
// CHECK-DAG: tgc_f32x16_store(
// CHECK: }
// CHECK-NOT: opts
// CHECK: static void net_E_10_30(

// Stacked along the innermost axis (pairs interleaved, as Winograd's output
// tiles are): the pair's stores are contiguous, but its lanes take
// different parts, so they are copies, not a vector of 2 selecting lane by
// lane.
// CHECK: net_E_8_28_2(
// CHECK-NOT: tgc_f32x2
// CHECK-NOT: ?
// CHECK: }
func.func @main(%x: tensor<1x8x28xf32> {tgc.name = "x"}, %p: tensor<8x28xf32> {tgc.name = "p"}, %e: tensor<8x28x1xf32> {tgc.name = "e"}) -> (tensor<4x8x28xf32> {tgc.name = "stacked"}, tensor<10x30xf32> {tgc.name = "padded"}, tensor<8x28x2xf32> {tgc.name = "pairs"}) {
  %one = tgc.const dense<1.0> : tensor<1x8x28xf32>
  %a = tgc.onnx_node "Add"(%x, %one) {opset = 17 : i64} : (tensor<1x8x28xf32>, tensor<1x8x28xf32>) -> tensor<1x8x28xf32>
  %b = tgc.onnx_node "Mul"(%x, %x) {opset = 17 : i64} : (tensor<1x8x28xf32>, tensor<1x8x28xf32>) -> tensor<1x8x28xf32>
  %c = tgc.onnx_node "Sub"(%x, %one) {opset = 17 : i64} : (tensor<1x8x28xf32>, tensor<1x8x28xf32>) -> tensor<1x8x28xf32>
  %d = tgc.onnx_node "Neg"(%x) {opset = 17 : i64} : (tensor<1x8x28xf32>) -> tensor<1x8x28xf32>
  %s = tgc.onnx_node "Concat"(%a, %b, %c, %d) {opset = 17 : i64, attrs = {axis = 0 : i64}} : (tensor<1x8x28xf32>, tensor<1x8x28xf32>, tensor<1x8x28xf32>, tensor<1x8x28xf32>) -> tensor<4x8x28xf32>
  %pads = tgc.const dense<[1, 1, 1, 1]> : tensor<4xsi64>
  %q = tgc.onnx_node "Pad"(%p, %pads) {opset = 17 : i64} : (tensor<8x28xf32>, tensor<4xsi64>) -> tensor<10x30xf32>
  %sq = tgc.onnx_node "Mul"(%e, %e) {opset = 17 : i64} : (tensor<8x28x1xf32>, tensor<8x28x1xf32>) -> tensor<8x28x1xf32>
  %pair = tgc.onnx_node "Concat"(%e, %sq) {opset = 17 : i64, attrs = {axis = 2 : i64}} : (tensor<8x28x1xf32>, tensor<8x28x1xf32>) -> tensor<8x28x2xf32>
  return %s, %q, %pair : tensor<4x8x28xf32>, tensor<10x30xf32>, tensor<8x28x2xf32>
}
