// Transposes through the whole pipeline: NHWC to NCHW (24 channels of 6x40
// pixels, and 8 and 16 channels of 20x32 as int32, uint8 and float16) and
// a 48x64 matrix. The f32 copies move in square tiles of vector registers
// (tgc-transpose-lanes): 8x8 for AVX2, 16x16 for AVX-512 where the rows
// take them, else 4x4; the other types' vectors are written lane by lane
// and stay copies. Every output matches the driver's own transpose, bit
// for bit, and nothing past it is written, built with gcc and clang, with
// vector extensions and with the portable fallback.
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=haswell thread-tasks=0" | tgc-translate --emit-c > %t-avx2.c
// RUN: FileCheck %s --check-prefix=AVX2 < %t-avx2.c
// RUN: gcc -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t-avx2.c %S/Inputs/transpose-run-main.c -o %t-avx2.gcc
// RUN: %t-avx2.gcc | FileCheck %s
// RUN: clang -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t-avx2.c %S/Inputs/transpose-run-main.c -o %t-avx2.clang
// RUN: %t-avx2.clang | FileCheck %s
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -DTGC_VECTOR_EXTENSIONS=0 -include %t-avx2.c %S/Inputs/transpose-run-main.c -o %t-avx2.portable
// RUN: %t-avx2.portable | FileCheck %s
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=skylake-avx512 thread-tasks=0" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s --check-prefix=AVX512 < %t.c
// RUN: gcc -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/transpose-run-main.c -o %t.gcc
// RUN: %t.gcc | FileCheck %s
// RUN: clang -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/transpose-run-main.c -o %t.clang
// RUN: %t.clang | FileCheck %s
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -DTGC_VECTOR_EXTENSIONS=0 -include %t.c %S/Inputs/transpose-run-main.c -o %t.portable
// RUN: %t.portable | FileCheck %s

// The first round of an 8x8 tile: rows 0 and 1 trade their odd and even
// lanes; the last: rows 0 and 4 their halves.
// AVX2: opts: UPCAST(0,8) UPCAST(1,8)
// AVX2: tgc_f32x8 val0 = tgc_f32x8_load(data0 +
// AVX2: tgc_f32x8_permute(val0, val1, 0, 8, 2, 10, 4, 12, 6, 14);
// AVX2: tgc_f32x8_permute(val0, val1, 1, 9, 3, 11, 5, 13, 7, 15);
// AVX2: tgc_f32x8_permute({{vec[0-9]+}}, {{vec[0-9]+}}, 0, 1, 2, 3, 8, 9, 10, 11);
// AVX2: tgc_f32x8_store(data1 +
// AVX2: opts: UPCAST(0,16) UPCAST(1,8)
// AVX2: opts: UPCAST(0,8) UPCAST(1,4)
// AVX2-NOT: tgc_i32
// AVX512: opts: UPCAST(0,8) UPCAST(1,4)
// AVX512: tgc_f32x4_permute(val0, val1, 0, 4, 2, 6);
// AVX512: opts: UPCAST(0,16) UPCAST(1,16)
// AVX512: tgc_f32x16_permute({{val[0-9]+}}, {{val[0-9]+}}, 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30);
// AVX512: tgc_f32x16_permute({{vec[0-9]+}}, {{vec[0-9]+}}, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);

// CHECK: ya: ok
// CHECK-NEXT: yb: ok
// CHECK-NEXT: yc: ok
// CHECK-NEXT: yd: ok
// CHECK-NEXT: ye: ok

func.func @main(%a: tensor<1x6x40x24xf32> {tgc.name = "a"}, %b: tensor<48x64xf32> {tgc.name = "b"},
                %c: tensor<1x20x32x8xi32> {tgc.name = "c"}, %d: tensor<1x20x32x16xui8> {tgc.name = "d"},
                %e: tensor<1x20x32x16xf16> {tgc.name = "e"})
    -> (tensor<1x24x6x40xf32> {tgc.name = "ya"}, tensor<64x48xf32> {tgc.name = "yb"},
        tensor<1x8x20x32xi32> {tgc.name = "yc"}, tensor<1x16x20x32xui8> {tgc.name = "yd"},
        tensor<1x16x20x32xf16> {tgc.name = "ye"}) {
  %ya = tgc.onnx_node "Transpose"(%a) {opset = 17 : i64, attrs = {perm = array<i64: 0, 3, 1, 2>}} : (tensor<1x6x40x24xf32>) -> tensor<1x24x6x40xf32>
  %yb = tgc.onnx_node "Transpose"(%b) {opset = 17 : i64, attrs = {}} : (tensor<48x64xf32>) -> tensor<64x48xf32>
  %yc = tgc.onnx_node "Transpose"(%c) {opset = 17 : i64, attrs = {perm = array<i64: 0, 3, 1, 2>}} : (tensor<1x20x32x8xi32>) -> tensor<1x8x20x32xi32>
  %yd = tgc.onnx_node "Transpose"(%d) {opset = 17 : i64, attrs = {perm = array<i64: 0, 3, 1, 2>}} : (tensor<1x20x32x16xui8>) -> tensor<1x16x20x32xui8>
  %ye = tgc.onnx_node "Transpose"(%e) {opset = 17 : i64, attrs = {perm = array<i64: 0, 3, 1, 2>}} : (tensor<1x20x32x16xf16>) -> tensor<1x16x20x32xf16>
  return %ya, %yb, %yc, %yd, %ye : tensor<1x24x6x40xf32>, tensor<64x48xf32>, tensor<1x8x20x32xi32>, tensor<1x16x20x32xui8>, tensor<1x16x20x32xf16>
}
