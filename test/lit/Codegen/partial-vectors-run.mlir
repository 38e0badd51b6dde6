// Rows a little shorter than a vector (14 columns in 16 lanes, 7 in 8)
// or than two (28 in 32): the heuristic pads the column axis to whole
// vectors (PADTO) and the C reads and writes each row's last vector with a
// partial (masked) access that touches its first 14, 7 or 12 lanes only.
// A row of 100 is 7 vectors of 16 in a loop: each access's lanes are
// counted at run time (100 - 16 * vector, at most 16), 4 in the last one.
// The results match a double-precision
// reference, and the floats just past each output are untouched (a whole
// vector store would overwrite them), built with gcc and clang, with
// vector extensions and with the portable fallback.
// RUN: tgc-opt %s --tgc-pipeline="after=decompose cpu=skylake-avx512" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s --check-prefix=SRC < %t.c
// RUN: gcc -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/partial-vectors-run-main.c -o %t.gcc -lm
// RUN: %t.gcc | FileCheck %s
// RUN: clang -std=c99 -O2 -march=native -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/partial-vectors-run-main.c -o %t.clang -lm
// RUN: %t.clang | FileCheck %s
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -DTGC_VECTOR_EXTENSIONS=0 -include %t.c %S/Inputs/partial-vectors-run-main.c -o %t.portable -lm
// RUN: %t.portable | FileCheck %s

// SRC: opts: PADTO(1,16) UPCAST(1,16)
// SRC: tgc_f32x16_load_part(data{{[0-9]+}} + {{.*}}, 14, tgc_f32x16_splat(0))
// SRC: tgc_f32x16_store_part(data{{[0-9]+}} + {{.*}}, 14,
// SRC: opts: PADTO(1,8) UPCAST(1,8)
// SRC: tgc_f32x8_load_part(data{{[0-9]+}} + {{.*}}, 7, tgc_f32x8_splat(0))
// SRC: tgc_f32x8_store_part(data{{[0-9]+}} + {{.*}}, 7,
// SRC: opts: PADTO(1,16) UPCAST(1,16) UPCAST(1,2)
// SRC-NOT: tgc_f32x16_load_part
// SRC: tgc_f32x16_load_part(data{{[0-9]+}} + {{.*}}, 12, tgc_f32x16_splat(0))
// SRC: tgc_f32x16_store_part(data{{[0-9]+}} + {{.*}}, 12,
// SRC: opts: PADTO(1,16) UPCAST(1,16) UPCAST(0,3)
// SRC: for (ptrdiff_t [[V:ridx[0-9]+]] = 0; [[V]] < 7; [[V]]++)
// SRC: tgc_f32x16_load_part(data{{[0-9]+}} + {{.*}}, ((100 - [[F:alu[0-9]+]]) < 16 ? (int)(100 - [[F]]) : 16), tgc_f32x16_splat(0))
// SRC: tgc_f32x16_store_part(data{{[0-9]+}} + {{.*}}, ((100 - [[F]]) < 16 ? (int)(100 - [[F]]) : 16),

// CHECK: y14: ok
// CHECK-NEXT: y14 guard: ok
// CHECK-NEXT: y7: ok
// CHECK-NEXT: y7 guard: ok
// CHECK-NEXT: y28: ok
// CHECK-NEXT: y28 guard: ok
// CHECK-NEXT: y100: ok
// CHECK-NEXT: y100 guard: ok

module {
  func.func @main(%a: tensor<3x32xf32> {tgc.name = "a"}, %b: tensor<32x14xf32> {tgc.name = "b"},
                  %c: tensor<32x7xf32> {tgc.name = "c"}, %d: tensor<32x28xf32> {tgc.name = "d"},
                  %e: tensor<32x100xf32> {tgc.name = "e"})
      -> (tensor<3x14xf32> {tgc.name = "y14"}, tensor<3x7xf32> {tgc.name = "y7"},
          tensor<3x28xf32> {tgc.name = "y28"}, tensor<3x100xf32> {tgc.name = "y100"}) {
    %a3 = tgc.reshape %a : tensor<3x32xf32> -> tensor<3x32x1xf32>
    %ab = tgc.expand %a3 : tensor<3x32x1xf32> -> tensor<3x32x14xf32>
    %b3 = tgc.reshape %b : tensor<32x14xf32> -> tensor<1x32x14xf32>
    %be = tgc.expand %b3 : tensor<1x32x14xf32> -> tensor<3x32x14xf32>
    %m = tgc.mul %ab, %be : tensor<3x32x14xf32>
    %s = tgc.reduce_axis add %m [1] : tensor<3x32x14xf32> -> tensor<3x1x14xf32>
    %s2 = tgc.reshape %s : tensor<3x1x14xf32> -> tensor<3x14xf32>
    %zero = tgc.const dense<0.0> : tensor<3x14xf32>
    %y14 = tgc.max %s2, %zero : tensor<3x14xf32>
    %ac = tgc.expand %a3 : tensor<3x32x1xf32> -> tensor<3x32x7xf32>
    %c3 = tgc.reshape %c : tensor<32x7xf32> -> tensor<1x32x7xf32>
    %ce = tgc.expand %c3 : tensor<1x32x7xf32> -> tensor<3x32x7xf32>
    %n = tgc.mul %ac, %ce : tensor<3x32x7xf32>
    %t = tgc.reduce_axis add %n [1] : tensor<3x32x7xf32> -> tensor<3x1x7xf32>
    %y7 = tgc.reshape %t : tensor<3x1x7xf32> -> tensor<3x7xf32>
    %ad = tgc.expand %a3 : tensor<3x32x1xf32> -> tensor<3x32x28xf32>
    %d3 = tgc.reshape %d : tensor<32x28xf32> -> tensor<1x32x28xf32>
    %de = tgc.expand %d3 : tensor<1x32x28xf32> -> tensor<3x32x28xf32>
    %o = tgc.mul %ad, %de : tensor<3x32x28xf32>
    %u = tgc.reduce_axis add %o [1] : tensor<3x32x28xf32> -> tensor<3x1x28xf32>
    %y28 = tgc.reshape %u : tensor<3x1x28xf32> -> tensor<3x28xf32>
    %ae = tgc.expand %a3 : tensor<3x32x1xf32> -> tensor<3x32x100xf32>
    %e3 = tgc.reshape %e : tensor<32x100xf32> -> tensor<1x32x100xf32>
    %ee = tgc.expand %e3 : tensor<1x32x100xf32> -> tensor<3x32x100xf32>
    %p = tgc.mul %ae, %ee : tensor<3x32x100xf32>
    %v = tgc.reduce_axis add %p [1] : tensor<3x32x100xf32> -> tensor<3x1x100xf32>
    %y100 = tgc.reshape %v : tensor<3x1x100xf32> -> tensor<3x100xf32>
    return %y14, %y7, %y28, %y100 : tensor<3x14xf32>, tensor<3x7xf32>, tensor<3x28xf32>, tensor<3x100xf32>
  }
}
