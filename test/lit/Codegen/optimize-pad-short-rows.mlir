// A Pad of planes whose rows are a cache line or shorter (a border around
// 14x14 or 7x7 pixels): the heuristic upcasts the planes by up to 8, the
// outermost axis the border's gate does not move along, so each step
// copies a row of 8 planes that tgc-unswitch splits alike. Rows of 30
// floats, and a channels-last pad whose rows (the channels) are not gated,
// are left alone.
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=znver3 thread-tasks=0" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s < %t.c
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -fsyntax-only %t.c

// CHECK: /* opts: UPCAST(0,8) */
// CHECK-NEXT: net_E_1_256_16_16(
// CHECK: /* opts: UPCAST(0,8) */
// CHECK-NEXT: net_E_64_10_10(
// CHECK: /* opts: UPCAST(0,3) */
// CHECK-NEXT: net_E_3_16_16(
// CHECK-NOT: opts
// CHECK: net_E_8_30_30(
// CHECK-NOT: opts
// CHECK: net_E_16_16_8(
func.func @main(%a: tensor<1x256x14x14xf32> {tgc.name = "a"}, %b: tensor<64x7x7xf32> {tgc.name = "b"}, %c: tensor<3x14x14xf32> {tgc.name = "c"}, %d: tensor<8x28x28xf32> {tgc.name = "d"}, %e: tensor<14x14x8xf32> {tgc.name = "e"}) -> (tensor<1x256x16x16xf32> {tgc.name = "pa"}, tensor<64x10x10xf32> {tgc.name = "pb"}, tensor<3x16x16xf32> {tgc.name = "pc"}, tensor<8x30x30xf32> {tgc.name = "pd"}, tensor<16x16x8xf32> {tgc.name = "pe"}) {
  %pa4 = tgc.const dense<[0, 0, 1, 1, 0, 0, 1, 1]> : tensor<8xsi64>
  %pa = tgc.onnx_node "Pad"(%a, %pa4) {opset = 17 : i64} : (tensor<1x256x14x14xf32>, tensor<8xsi64>) -> tensor<1x256x16x16xf32>
  %pb3 = tgc.const dense<[0, 1, 1, 0, 2, 2]> : tensor<6xsi64>
  %pb = tgc.onnx_node "Pad"(%b, %pb3) {opset = 17 : i64} : (tensor<64x7x7xf32>, tensor<6xsi64>) -> tensor<64x10x10xf32>
  %p3 = tgc.const dense<[0, 1, 1, 0, 1, 1]> : tensor<6xsi64>
  %pc = tgc.onnx_node "Pad"(%c, %p3) {opset = 17 : i64} : (tensor<3x14x14xf32>, tensor<6xsi64>) -> tensor<3x16x16xf32>
  %pd = tgc.onnx_node "Pad"(%d, %p3) {opset = 17 : i64} : (tensor<8x28x28xf32>, tensor<6xsi64>) -> tensor<8x30x30xf32>
  %pe3 = tgc.const dense<[1, 1, 0, 1, 1, 0]> : tensor<6xsi64>
  %pe = tgc.onnx_node "Pad"(%e, %pe3) {opset = 17 : i64} : (tensor<14x14x8xf32>, tensor<6xsi64>) -> tensor<16x16x8xf32>
  return %pa, %pb, %pc, %pd, %pe : tensor<1x256x16x16xf32>, tensor<64x10x10xf32>, tensor<3x16x16xf32>, tensor<8x30x30xf32>, tensor<16x16x8xf32>
}
