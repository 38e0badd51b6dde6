// tgc.max against a constant that is a number (ReLU, Clip, quantization
// clamps) renders without the general form's NaN test: max_num(c, x),
// x86's maxps, for a nonzero constant, and max_by_num(x, c) for a zero
// (max is Commutative, so the constant is on the right); a minimum,
// -max(-x, c) for such a c, is min_neg(c, x), x86's minps(-c, x), without
// the two negations. Each must still
// be tgc.max bit for bit: NaN from x comes through, and where x is the
// other zero the result is the constant. Scalars come from elementwise
// kernels; 16-lane vectors from matmul epilogues (a selector a times b is
// all ones, times z gives z's special values exactly). The driver checks
// every element against `(a != a || a > b) ? a : b`, built with gcc and
// clang, with vector extensions and with the portable fallback.
// RUN: tgc-opt %s --tgc-pipeline="after=decompose cpu=skylake-avx512" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s --check-prefix=SRC < %t.c
// RUN: gcc -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/max-constants-run-main.c -o %t.gcc
// RUN: %t.gcc | FileCheck %s
// RUN: clang -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/max-constants-run-main.c -o %t.clang
// RUN: %t.clang | FileCheck %s
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -DTGC_VECTOR_EXTENSIONS=0 -include %t.c %S/Inputs/max-constants-run-main.c -o %t.portable
// RUN: %t.portable | FileCheck %s
// The same with AVX2's 8 lanes and SSE's 4 (_mm256_max_ps, _mm_max_ps).
// RUN: tgc-opt %s --tgc-pipeline="after=decompose cpu=haswell" | tgc-translate --emit-c > %t-avx2.c
// RUN: FileCheck %s --check-prefix=AVX2SRC < %t-avx2.c
// RUN: gcc -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t-avx2.c %S/Inputs/max-constants-run-main.c -o %t-avx2.gcc
// RUN: %t-avx2.gcc | FileCheck %s
// RUN: tgc-opt %s --tgc-pipeline="after=decompose cpu=x86-64" | tgc-translate --emit-c > %t-sse.c
// RUN: FileCheck %s --check-prefix=SSESRC < %t-sse.c
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -include %t-sse.c %S/Inputs/max-constants-run-main.c -o %t-sse.gcc
// RUN: %t-sse.gcc | FileCheck %s

// SRC-DAG: #define tgc_f32x16_max_num(c, x) ((tgc_f32x16)_mm512_max_ps((__m512)(c), (__m512)(x)))
// SRC-DAG: = 0.0f >= val{{[0-9]+}} ? 0.0f : val{{[0-9]+}};
// SRC-DAG: = (-0.0f) >= val{{[0-9]+}} ? (-0.0f) : val{{[0-9]+}};
// SRC-DAG: = (-6.0f) > val{{[0-9]+}} ? (-6.0f) : val{{[0-9]+}};
// SRC-DAG: = 2.5f > val{{[0-9]+}} ? 2.5f : val{{[0-9]+}};
// SRC-DAG: = (val{{[0-9]+}} != val{{[0-9]+}} || val{{[0-9]+}} > val{{[0-9]+}}) ? val{{[0-9]+}} : val{{[0-9]+}};
// SRC-DAG: = tgc_f32x16_max_by_num(alu{{[0-9]+}}, tgc_f32x16_splat(0.0f));
// SRC-DAG: = tgc_f32x16_max_by_num(alu{{[0-9]+}}, tgc_f32x16_splat((-0.0f)));
// SRC-DAG: = tgc_f32x16_max_num(tgc_f32x16_splat((-6.0f)), alu{{[0-9]+}});
// SRC-DAG: = tgc_f32x16_max_num(tgc_f32x16_splat(2.5f), alu{{[0-9]+}});
// SRC-DAG: = tgc_f32x16_max(alu{{[0-9]+}}, val{{[0-9]+}});
// SRC-DAG: #define tgc_f32x16_min_neg(c, x) ((tgc_f32x16)_mm512_min_ps((__m512)(-(c)), (__m512)(x)))
// SRC-DAG: = tgc_f32x16_min_neg(tgc_f32x16_splat((-6.0f)), alu{{[0-9]+}});
// SRC-DAG: = 6.0f < val{{[0-9]+}} ? 6.0f : val{{[0-9]+}};
// AVX2SRC: #define tgc_f32x8_max_num(c, x) ((tgc_f32x8)_mm256_max_ps((__m256)(c), (__m256)(x)))
// AVX2SRC: = tgc_f32x8_max_num(tgc_f32x8_splat((-6.0f)), alu{{[0-9]+}});
// SSESRC: #define tgc_f32x4_max_num(c, x) ((tgc_f32x4)_mm_max_ps((__m128)(c), (__m128)(x)))
// SSESRC: = tgc_f32x4_max_num(tgc_f32x4_splat((-6.0f)), alu{{[0-9]+}});

// CHECK: relu: ok
// CHECK-NEXT: negzero: ok
// CHECK-NEXT: clip: ok
// CHECK-NEXT: left: ok
// CHECK-NEXT: pair: ok
// CHECK-NEXT: vrelu: ok
// CHECK-NEXT: vnegzero: ok
// CHECK-NEXT: vclip: ok
// CHECK-NEXT: vleft: ok
// CHECK-NEXT: vpair: ok
// CHECK-NEXT: min: ok
// CHECK-NEXT: vmin: ok

module {
  func.func @main(%x: tensor<1024xf32> {tgc.name = "x"},
                  %y: tensor<1024xf32> {tgc.name = "y"},
                  %a_relu: tensor<4x32xf32> {tgc.name = "a_relu"},
                  %a_negzero: tensor<4x32xf32> {tgc.name = "a_negzero"},
                  %a_clip: tensor<4x32xf32> {tgc.name = "a_clip"},
                  %a_left: tensor<4x32xf32> {tgc.name = "a_left"},
                  %a_pair: tensor<4x32xf32> {tgc.name = "a_pair"},
                  %b: tensor<32x64xf32> {tgc.name = "b"},
                  %z: tensor<4x64xf32> {tgc.name = "z"},
                  %w: tensor<4x64xf32> {tgc.name = "w"},
                  %a_min: tensor<4x32xf32> {tgc.name = "a_min"})
      -> (tensor<1024xf32> {tgc.name = "relu"},
          tensor<1024xf32> {tgc.name = "negzero"},
          tensor<1024xf32> {tgc.name = "clip"},
          tensor<1024xf32> {tgc.name = "left"},
          tensor<1024xf32> {tgc.name = "pair"},
          tensor<4x64xf32> {tgc.name = "vrelu"},
          tensor<4x64xf32> {tgc.name = "vnegzero"},
          tensor<4x64xf32> {tgc.name = "vclip"},
          tensor<4x64xf32> {tgc.name = "vleft"},
          tensor<4x64xf32> {tgc.name = "vpair"},
          tensor<1024xf32> {tgc.name = "min"},
          tensor<4x64xf32> {tgc.name = "vmin"}) {
    %c_relu = tgc.const dense<0.0> : tensor<1024xf32>
    %vc_relu = tgc.const dense<0.0> : tensor<4x64xf32>
    %c_negzero = tgc.const dense<-0.0> : tensor<1024xf32>
    %vc_negzero = tgc.const dense<-0.0> : tensor<4x64xf32>
    %c_clip = tgc.const dense<-6.0> : tensor<1024xf32>
    %vc_clip = tgc.const dense<-6.0> : tensor<4x64xf32>
    %c_left = tgc.const dense<2.5> : tensor<1024xf32>
    %vc_left = tgc.const dense<2.5> : tensor<4x64xf32>
    %r_relu = tgc.max %x, %c_relu : tensor<1024xf32>
    %r_negzero = tgc.max %x, %c_negzero : tensor<1024xf32>
    %r_clip = tgc.max %x, %c_clip : tensor<1024xf32>
    %r_left = tgc.max %c_left, %x : tensor<1024xf32>
    %r_pair = tgc.max %x, %y : tensor<1024xf32>
    %b3 = tgc.reshape %b : tensor<32x64xf32> -> tensor<1x32x64xf32>
    %be = tgc.expand %b3 : tensor<1x32x64xf32> -> tensor<4x32x64xf32>
    %a3_relu = tgc.reshape %a_relu : tensor<4x32xf32> -> tensor<4x32x1xf32>
    %ae_relu = tgc.expand %a3_relu : tensor<4x32x1xf32> -> tensor<4x32x64xf32>
    %m_relu = tgc.mul %ae_relu, %be : tensor<4x32x64xf32>
    %s_relu = tgc.reduce_axis add %m_relu [1] : tensor<4x32x64xf32> -> tensor<4x1x64xf32>
    %s2_relu = tgc.reshape %s_relu : tensor<4x1x64xf32> -> tensor<4x64xf32>
    %e_relu = tgc.mul %s2_relu, %z : tensor<4x64xf32>
    %v_relu = tgc.max %e_relu, %vc_relu : tensor<4x64xf32>
    %a3_negzero = tgc.reshape %a_negzero : tensor<4x32xf32> -> tensor<4x32x1xf32>
    %ae_negzero = tgc.expand %a3_negzero : tensor<4x32x1xf32> -> tensor<4x32x64xf32>
    %m_negzero = tgc.mul %ae_negzero, %be : tensor<4x32x64xf32>
    %s_negzero = tgc.reduce_axis add %m_negzero [1] : tensor<4x32x64xf32> -> tensor<4x1x64xf32>
    %s2_negzero = tgc.reshape %s_negzero : tensor<4x1x64xf32> -> tensor<4x64xf32>
    %e_negzero = tgc.mul %s2_negzero, %z : tensor<4x64xf32>
    %v_negzero = tgc.max %e_negzero, %vc_negzero : tensor<4x64xf32>
    %a3_clip = tgc.reshape %a_clip : tensor<4x32xf32> -> tensor<4x32x1xf32>
    %ae_clip = tgc.expand %a3_clip : tensor<4x32x1xf32> -> tensor<4x32x64xf32>
    %m_clip = tgc.mul %ae_clip, %be : tensor<4x32x64xf32>
    %s_clip = tgc.reduce_axis add %m_clip [1] : tensor<4x32x64xf32> -> tensor<4x1x64xf32>
    %s2_clip = tgc.reshape %s_clip : tensor<4x1x64xf32> -> tensor<4x64xf32>
    %e_clip = tgc.mul %s2_clip, %z : tensor<4x64xf32>
    %v_clip = tgc.max %e_clip, %vc_clip : tensor<4x64xf32>
    %a3_left = tgc.reshape %a_left : tensor<4x32xf32> -> tensor<4x32x1xf32>
    %ae_left = tgc.expand %a3_left : tensor<4x32x1xf32> -> tensor<4x32x64xf32>
    %m_left = tgc.mul %ae_left, %be : tensor<4x32x64xf32>
    %s_left = tgc.reduce_axis add %m_left [1] : tensor<4x32x64xf32> -> tensor<4x1x64xf32>
    %s2_left = tgc.reshape %s_left : tensor<4x1x64xf32> -> tensor<4x64xf32>
    %e_left = tgc.mul %s2_left, %z : tensor<4x64xf32>
    %v_left = tgc.max %vc_left, %e_left : tensor<4x64xf32>
    %a3_pair = tgc.reshape %a_pair : tensor<4x32xf32> -> tensor<4x32x1xf32>
    %ae_pair = tgc.expand %a3_pair : tensor<4x32x1xf32> -> tensor<4x32x64xf32>
    %m_pair = tgc.mul %ae_pair, %be : tensor<4x32x64xf32>
    %s_pair = tgc.reduce_axis add %m_pair [1] : tensor<4x32x64xf32> -> tensor<4x1x64xf32>
    %s2_pair = tgc.reshape %s_pair : tensor<4x1x64xf32> -> tensor<4x64xf32>
    %e_pair = tgc.mul %s2_pair, %z : tensor<4x64xf32>
    %v_pair = tgc.max %e_pair, %w : tensor<4x64xf32>
    %c_min = tgc.const dense<-6.0> : tensor<1024xf32>
    %nx = tgc.neg %x : tensor<1024xf32>
    %mx = tgc.max %nx, %c_min : tensor<1024xf32>
    %r_min = tgc.neg %mx : tensor<1024xf32>
    %vc_min = tgc.const dense<-6.0> : tensor<4x64xf32>
    %a3_min = tgc.reshape %a_min : tensor<4x32xf32> -> tensor<4x32x1xf32>
    %ae_min = tgc.expand %a3_min : tensor<4x32x1xf32> -> tensor<4x32x64xf32>
    %m_min = tgc.mul %ae_min, %be : tensor<4x32x64xf32>
    %s_min = tgc.reduce_axis add %m_min [1] : tensor<4x32x64xf32> -> tensor<4x1x64xf32>
    %s2_min = tgc.reshape %s_min : tensor<4x1x64xf32> -> tensor<4x64xf32>
    %e_min = tgc.mul %s2_min, %z : tensor<4x64xf32>
    %ne = tgc.neg %e_min : tensor<4x64xf32>
    %me = tgc.max %ne, %vc_min : tensor<4x64xf32>
    %v_min = tgc.neg %me : tensor<4x64xf32>
    return %r_relu, %r_negzero, %r_clip, %r_left, %r_pair, %v_relu, %v_negzero, %v_clip, %v_left, %v_pair, %r_min, %v_min : tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>, tensor<1024xf32>, tensor<4x64xf32>
  }
}
