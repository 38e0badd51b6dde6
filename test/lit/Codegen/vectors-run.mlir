// The whole kernel pipeline on a matmul with bias and Relu, a row max, a
// row sum, exp2 and a row sum of exp2: the heuristic makes vector lanes and
// register tiles, the C uses native vectors, FMAs and tgc's exp2 (scalar
// and vector), and the results match a double-precision reference computed
// by the driver (exp2 within 2 ulp, special values exact, subnormal results
// flushed to zero), built with gcc and clang, with vector extensions and
// with the portable fallback.
// RUN: tgc-opt %s --tgc-pipeline="after=decompose cpu=skylake-avx512" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s --check-prefix=SRC < %t.c
// RUN: gcc -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/vectors-run-main.c -o %t.gcc -lm
// RUN: %t.gcc | FileCheck %s
// RUN: clang -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/vectors-run-main.c -o %t.clang -lm
// RUN: %t.clang | FileCheck %s
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -DTGC_VECTOR_EXTENSIONS=0 -include %t.c %S/Inputs/vectors-run-main.c -o %t.portable -lm
// RUN: %t.portable | FileCheck %s
// RUN: clang -std=c99 -O2 -Wall -Wextra -Werror -pedantic -DTGC_VECTOR_EXTENSIONS=0 -include %t.c %S/Inputs/vectors-run-main.c -o %t.portable-clang -lm
// RUN: %t.portable-clang | FileCheck %s
// The same tuned for AVX2: 8-lane vectors, each weight vector of the tile
// kept in a register (TGC_IN_REGISTER) for the FMAs that share it; built
// for haswell with both compilers and run as built for this host.
// RUN: tgc-opt %s --tgc-pipeline="after=decompose cpu=haswell" | tgc-translate --emit-c > %t-avx2.c
// RUN: FileCheck %s --check-prefix=AVX2SRC < %t-avx2.c
// RUN: gcc -std=c99 -O2 -march=haswell -Wall -Wextra -Werror -pedantic -c -x c %t-avx2.c -o %t-avx2.o
// RUN: clang -std=c99 -O2 -march=haswell -Wall -Wextra -Werror -pedantic -c -x c %t-avx2.c -o %t-avx2.o
// RUN: gcc -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t-avx2.c %S/Inputs/vectors-run-main.c -o %t-avx2.gcc -lm
// RUN: %t-avx2.gcc | FileCheck %s

// SRC: typedef float tgc_f32x16 __attribute__((vector_size(64)));
// SRC: opts: UPCAST(1,16) UPCAST(1,4) UPCAST(0,4)
// SRC: tgc_f32x16 acc0[1];
// SRC: tgc_f32x16_load(
// SRC: tgc_f32x16_fma(
// SRC: tgc_f32x16_max_by_num(
// SRC: tgc_f32x16_store(
// SRC: opts: UNROLL(1,8)
// SRC: tgc_f32x8_max(

// AVX2SRC: opts: UPCAST(1,8) UPCAST(1,2) UPCAST(0,4)
// AVX2SRC: tgc_f32x8 val[[W:[0-9]+]] = tgc_f32x8_load(
// AVX2SRC-NEXT: TGC_IN_REGISTER(val[[W]]);
// AVX2SRC: tgc_f32x8_fma(

// SRC: float alu{{[0-9]+}} = tgc_exp2f(val{{[0-9]+}});
// SRC: tgc_f32x8 alu{{[0-9]+}} = tgc_f32x8_exp2(val{{[0-9]+}});

// CHECK: y: ok
// CHECK-NEXT: rmax: ok
// CHECK-NEXT: rsum: ok
// CHECK-NEXT: ex: ok
// CHECK-NEXT: esum: ok

module {
  func.func @main(%a: tensor<4x32xf32> {tgc.name = "a"}, %b: tensor<32x64xf32> {tgc.name = "b"},
                  %e: tensor<4x32xf32> {tgc.name = "e"})
      -> (tensor<4x64xf32> {tgc.name = "y"}, tensor<4x1xf32> {tgc.name = "rmax"},
          tensor<64x1xf32> {tgc.name = "rsum"}, tensor<4x32xf32> {tgc.name = "ex"},
          tensor<4x1xf32> {tgc.name = "esum"}) {
    %a3 = tgc.reshape %a : tensor<4x32xf32> -> tensor<4x32x1xf32>
    %ae = tgc.expand %a3 : tensor<4x32x1xf32> -> tensor<4x32x64xf32>
    %b3 = tgc.reshape %b : tensor<32x64xf32> -> tensor<1x32x64xf32>
    %be = tgc.expand %b3 : tensor<1x32x64xf32> -> tensor<4x32x64xf32>
    %m = tgc.mul %ae, %be : tensor<4x32x64xf32>
    %s = tgc.reduce_axis add %m [1] : tensor<4x32x64xf32> -> tensor<4x1x64xf32>
    %s2 = tgc.reshape %s : tensor<4x1x64xf32> -> tensor<4x64xf32>
    %one = tgc.const dense<1.0> : tensor<4x64xf32>
    %d = tgc.sub %s2, %one : tensor<4x64xf32>
    %zero = tgc.const dense<0.0> : tensor<4x64xf32>
    %y = tgc.max %d, %zero : tensor<4x64xf32>
    %rmax = tgc.reduce_axis max %a [1] : tensor<4x32xf32> -> tensor<4x1xf32>
    %bt = tgc.permute %b [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
    %rsum = tgc.reduce_axis add %bt [1] : tensor<64x32xf32> -> tensor<64x1xf32>
    %ex = tgc.exp2 %e : tensor<4x32xf32>
    %e2 = tgc.exp2 %e : tensor<4x32xf32>
    %esum = tgc.reduce_axis add %e2 [1] : tensor<4x32xf32> -> tensor<4x1xf32>
    return %y, %rmax, %rsum, %ex, %esum : tensor<4x64xf32>, tensor<4x1xf32>, tensor<64x1xf32>, tensor<4x32xf32>, tensor<4x1xf32>
  }
}
