// A max pool whose output rows are 13 wide (SqueezeNet's last, 3x3 of
// stride 2 over 27x27): 13 of 16 lanes is more idle than a padded axis is
// otherwise allowed, but the only alternative is a chain of dependent
// scalar max ops per output, so the row is padded to two vectors of 8,
// both in registers, the second one's last 3 lanes masked.
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=haswell thread-tasks=0" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s < %t.c
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -fsyntax-only %t.c

// CHECK: /* opts: PADTO(2,8) UPCAST(2,8) UPCAST(2,2) */
// CHECK-COUNT-2: tgc_f32x8_max(
// CHECK: tgc_f32x8_store(data1 + {{.*}},
// CHECK: tgc_f32x8_store_part(data1 + {{.*}}, 5,

func.func @main(%x: tensor<1x4x27x27xf32> {tgc.name = "x"}) -> (tensor<1x4x13x13xf32> {tgc.name = "y"}) {
  %y = tgc.onnx_node "MaxPool"(%x) {opset = 17 : i64, attrs = {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>}} : (tensor<1x4x27x27xf32>) -> tensor<1x4x13x13xf32>
  return %y : tensor<1x4x13x13xf32>
}
