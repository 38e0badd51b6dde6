// A 3x3 max pool of stride 2 to rows of 55 (SqueezeNet's first) over a
// concatenation (its fire modules' two branches) on AVX2: the row is padded
// to 7 vectors of 8, all in registers, where a limit of 4 padded vectors
// (enough with AVX-512's 16 lanes) had left it a chain of scalar max ops,
// 13x slower. The loop is written once per part of the concatenation, and
// in each copy the lanes of every other element of one part become two
// vector loads and a permute of their even lanes, not 8 scalar loads: those
// lanes were selects between the parts' loads until the copies decided
// them.
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=haswell thread-tasks=0" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s --implicit-check-not="tgc_f32x8_make(val" < %t.c
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -fsyntax-only %t.c

// CHECK: /* opts: PADTO(2,8) UPCAST(2,8) UPCAST(2,7) */
// CHECK: if (
// CHECK-COUNT-6: tgc_f32x8_permute(val{{[0-9]+}}, val{{[0-9]+}}, 0, 2, 4, 6, 8, 10, 12, 14);
// CHECK: tgc_f32x8_permute(tgc_f32x8_permute(val{{[0-9]+}}, val{{[0-9]+}}, 0, 2, 4, 6, 8, 10, 12, 0), tgc_f32x8_splat(0.0f), 0, 1, 2, 3, 4, 5, 6, 8);
// CHECK: if (
// CHECK: tgc_f32x8_load(data1 +
// CHECK-COUNT-6: tgc_f32x8_permute(val{{[0-9]+}}, val{{[0-9]+}}, 0, 2, 4, 6, 8, 10, 12, 14);
// CHECK: tgc_f32x8_permute(tgc_f32x8_permute(val{{[0-9]+}}, val{{[0-9]+}}, 0, 2, 4, 6, 8, 10, 12, 0), tgc_f32x8_splat(0.0f), 0, 1, 2, 3, 4, 5, 6, 8);
// CHECK: tgc_f32x8_store_part(data2 + {{.*}}, 7,

func.func @main(%a: tensor<1x4x111x111xf32> {tgc.name = "a"}, %b: tensor<1x4x111x111xf32> {tgc.name = "b"}) -> (tensor<1x8x55x55xf32> {tgc.name = "y"}) {
  %c = tgc.onnx_node "Concat"(%a, %b) {opset = 17 : i64, attrs = {axis = 1 : i64}} : (tensor<1x4x111x111xf32>, tensor<1x4x111x111xf32>) -> tensor<1x8x111x111xf32>
  %y = tgc.onnx_node "MaxPool"(%c) {opset = 17 : i64, attrs = {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>}} : (tensor<1x8x111x111xf32>) -> tensor<1x8x55x55xf32>
  return %y : tensor<1x8x55x55xf32>
}
