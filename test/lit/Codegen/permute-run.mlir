// Max pools of stride 2 (3x3 windows, rows of 27 and 55 pixels to 13 and
// 27): each vector of every other input element is two vector loads and a
// permute of their even lanes (`_permute`, one instruction, where a vector
// made lane by lane took an insert per lane: SqueezeNet's pools ran 2-5x
// faster). The last vector of a row of 27 outputs has 11 lanes of input
// and 5 of a constant (its lanes are decided per part of the concatenation
// it pools), which a second permute takes from a splat. The
// results match the driver's own pooling, built with gcc and clang, with
// vector extensions and with the portable fallback, for AVX-512 and AVX2.
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=skylake-avx512 thread-tasks=0" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s --check-prefix=SRC --implicit-check-not="_make(tgc_f32x16_lane" < %t.c
// RUN: gcc -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/permute-run-main.c -o %t.gcc
// RUN: %t.gcc | FileCheck %s
// RUN: clang -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/permute-run-main.c -o %t.clang
// RUN: %t.clang | FileCheck %s
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -DTGC_VECTOR_EXTENSIONS=0 -include %t.c %S/Inputs/permute-run-main.c -o %t.portable
// RUN: %t.portable | FileCheck %s
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=haswell thread-tasks=0" | tgc-translate --emit-c > %t-avx2.c
// RUN: FileCheck %s --check-prefix=AVX2 --implicit-check-not="_make(tgc_f32x8_lane" < %t-avx2.c
// RUN: gcc -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t-avx2.c %S/Inputs/permute-run-main.c -o %t-avx2.gcc
// RUN: %t-avx2.gcc | FileCheck %s
// RUN: clang -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t-avx2.c %S/Inputs/permute-run-main.c -o %t-avx2.clang
// RUN: %t-avx2.clang | FileCheck %s

// SRC: #define tgc_f32x16_permute(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
// SRC: #define tgc_f32x16_permute(a, b, ...) __builtin_shuffle(a, b, (tgc_f32x16_m){__VA_ARGS__})
// SRC: tgc_f32x16_permute(val{{[0-9]+}}, val{{[0-9]+}}, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
// SRC: tgc_f32x16_permute(tgc_f32x16_permute(val{{[0-9]+}}, val{{[0-9]+}}, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 0, 0, 0, 0, 0), tgc_f32x16_splat(0.0f), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 16, 16, 16, 16);
// AVX2: tgc_f32x8_permute(val{{[0-9]+}}, val{{[0-9]+}}, 0, 2, 4, 6, 8, 10, 12, 14);

// CHECK: y13: ok
// CHECK-NEXT: y27: ok

func.func @main(%a: tensor<1x2x27x27xf32> {tgc.name = "a"}, %b: tensor<1x1x55x55xf32> {tgc.name = "b"},
                %c: tensor<1x1x55x55xf32> {tgc.name = "c"})
    -> (tensor<1x2x13x13xf32> {tgc.name = "y13"}, tensor<1x2x27x27xf32> {tgc.name = "y27"}) {
  %y13 = tgc.onnx_node "MaxPool"(%a) {opset = 17 : i64, attrs = {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>}} : (tensor<1x2x27x27xf32>) -> tensor<1x2x13x13xf32>
  %bc = tgc.onnx_node "Concat"(%b, %c) {opset = 17 : i64, attrs = {axis = 1 : i64}} : (tensor<1x1x55x55xf32>, tensor<1x1x55x55xf32>) -> tensor<1x2x55x55xf32>
  %y27 = tgc.onnx_node "MaxPool"(%bc) {opset = 17 : i64, attrs = {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>}} : (tensor<1x2x55x55xf32>) -> tensor<1x2x27x27xf32>
  return %y13, %y27 : tensor<1x2x13x13xf32>, tensor<1x2x27x27xf32>
}
