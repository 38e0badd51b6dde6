// Erf and Tanh as tgc computes them (a rational function on the clamped
// input, TensorBuilderMath.cpp), compiled and run on 2^20 floats spread
// over every exponent of both signs, against libm's erf and tanh in double:
// within 8 ulps of the rounded reference, never past +-1, the sign and
// -0 kept, NaN staying NaN and the infinities giving +-1. Built with gcc
// and clang, with vector extensions and with the portable fallback.
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=skylake-avx512" | tgc-translate --emit-c > %t.c
// RUN: gcc -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/erf-tanh-run-main.c -o %t.gcc -lm
// RUN: %t.gcc | FileCheck %s
// RUN: clang -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/erf-tanh-run-main.c -o %t.clang -lm
// RUN: %t.clang | FileCheck %s
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -DTGC_VECTOR_EXTENSIONS=0 -include %t.c %S/Inputs/erf-tanh-run-main.c -o %t.portable -lm
// RUN: %t.portable | FileCheck %s

// CHECK: erf: ok
// CHECK-NEXT: tanh: ok

func.func @main(%x: tensor<1048576xf32> {tgc.name = "x"})
    -> (tensor<1048576xf32> {tgc.name = "erf"}, tensor<1048576xf32> {tgc.name = "tanh"}) {
  %e = tgc.onnx_node "Erf"(%x) {opset = 13 : i64} : (tensor<1048576xf32>) -> tensor<1048576xf32>
  %t = tgc.onnx_node "Tanh"(%x) {opset = 13 : i64} : (tensor<1048576xf32>) -> tensor<1048576xf32>
  return %e, %t : tensor<1048576xf32>, tensor<1048576xf32>
}
