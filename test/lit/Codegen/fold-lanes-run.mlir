// A sliding dot product, y[o] = sum over k < 4, j < 3 of x[o + 3k + j] *
// w[3k + j], with 16 outputs as a vector, 4 vectors as a register tile and
// the taps j unrolled. For AVX2 (16 registers of 8 floats) an accumulator
// per unrolled tap would be 4 x 3 vectors of two registers each, 24: the
// taps share the tile's 4 accumulators, each tap one FMA into it. For
// AVX-512 (32 registers of 16 floats) the 12 fit: one per tap. Both are
// built and match a double-precision reference.
// RUN: tgc-opt %s --tgc-optimize="actions=UPCAST(0,16);UPCAST(0,4);UNROLL(2,3)" > %t.mlir
// RUN: tgc-opt %t.mlir --tgc-pipeline="after=optimize cpu=haswell" | tgc-translate --emit-c > %t-avx2.c
// RUN: FileCheck %s --check-prefix=AVX2 < %t-avx2.c
// RUN: gcc -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t-avx2.c %S/Inputs/fold-lanes-run-main.c -o %t-avx2 -lm
// RUN: %t-avx2 | FileCheck %s
// RUN: tgc-opt %t.mlir --tgc-pipeline="after=optimize cpu=skylake-avx512" | tgc-translate --emit-c > %t-avx512.c
// RUN: FileCheck %s --check-prefix=AVX512 < %t-avx512.c
// RUN: gcc -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t-avx512.c %S/Inputs/fold-lanes-run-main.c -o %t-avx512 -lm
// RUN: %t-avx512 | FileCheck %s

// AVX2: tgc_f32x16 acc3[1];
// AVX2-NOT: acc4
// AVX2: for (ptrdiff_t ridx1 = 0; ridx1 < 4; ridx1++) {
// AVX2: tgc_f32x16 [[ACC:val[0-9]+]] = acc0[0];
// AVX2: tgc_f32x16 [[A0:alu[0-9]+]] = tgc_f32x16_fma({{.*}}, [[ACC]]);
// AVX2: tgc_f32x16 [[A1:alu[0-9]+]] = tgc_f32x16_fma({{.*}}, [[A0]]);
// AVX2: tgc_f32x16 [[A2:alu[0-9]+]] = tgc_f32x16_fma({{.*}}, [[A1]]);
// AVX2-NEXT: acc0[0] = [[A2]];

// AVX512: tgc_f32x16 acc11[1];
// AVX512: for (ptrdiff_t ridx1 = 0; ridx1 < 4; ridx1++) {

// CHECK: y: ok

module attributes {tgc.arena_align = 64 : i64, tgc.arena_bytes = 256 : i64, tgc.peak_bytes = 256 : i64, tgc.stage = "lower"} {
  func.func @main(%x: tensor<76xf32> {tgc.name = "x"}, %w: tensor<12xf32> {tgc.name = "w"})
      -> (tensor<64xf32> {tgc.name = "y"}) {
    %y = tgc.kernel "r_64_4_3"(%x, %w) {arena_offset = array<i64: 0>} : (tensor<76xf32>, tensor<12xf32>) -> tensor<64xf32> {
    ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c3 = tgc.const 3 : index
      %o = tgc.range 64 global id 0
      %k = tgc.range 4 reduce id 1
      %j = tgc.range 3 reduce id 2
      %k3 = tgc.mul %k, %c3 : index
      %tap = tgc.add %k3, %j : index
      %xi = tgc.add %o, %tap : index
      %ix = tgc.index %px[%xi] : !tgc.ptr<f32>
      %vx = tgc.load %ix : !tgc.ptr<f32> -> f32
      %iw = tgc.index %pw[%tap] : !tgc.ptr<f32>
      %vw = tgc.load %iw : !tgc.ptr<f32> -> f32
      %m = tgc.mul %vx, %vw : f32
      tgc.end %j
      tgc.end %k
      %s = tgc.reduce add %m over %k, %j : f32
      %iy = tgc.index %out[%o] : !tgc.ptr<f32>
      tgc.store %iy, %s : !tgc.ptr<f32>, f32
      tgc.end %o
      tgc.sink
    }
    return %y : tensor<64xf32>
  }
}
