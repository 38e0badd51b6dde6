// An access whose gate is the constant false (the padded copy of a
// register tile in the part of a loop tgc-unswitch split off) reads its
// alternative, writes nothing and computes no address: the address's
// arithmetic was written before and left unused, which -Wall -Wextra
// -Werror rejects (18 such variables in ResNet-18's C for AVX2).
// RUN: tgc-translate --emit-c %s > %t.c
// RUN: FileCheck %s < %t.c
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/emit-c-never-touched-main.c -o %t.gcc
// RUN: %t.gcc | FileCheck %s --check-prefix=OUT
// RUN: clang -std=c99 -O2 -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/emit-c-never-touched-main.c -o %t.clang
// RUN: %t.clang | FileCheck %s --check-prefix=OUT

// CHECK-LABEL: static void net_E_4_8(
// CHECK: ptrdiff_t [[ROW:alu[0-9]+]] = ridx0 * 8;
// CHECK-NEXT: tgc_f32x8 [[X:val[0-9]+]] = tgc_f32x8_load(data0 + [[ROW]]);
// CHECK-NEXT: tgc_f32x8 [[NEVER:val[0-9]+]] = tgc_f32x8_splat(0);
// CHECK-NEXT: float [[SCALAR:val[0-9]+]] = 0;
// CHECK-NEXT: tgc_f32x8 [[SUM:alu[0-9]+]] = tgc_f32x8_add([[X]], [[NEVER]]);
// CHECK-NOT: ridx0 * 3
// CHECK-NOT: + 100
// CHECK: tgc_f32x8_store(data1 + [[ROW]],
// CHECK-NOT: tgc_f32x8_store(
// CHECK: }

// OUT: y: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32{{$}}

module attributes {tgc.arena_bytes = 0 : i64, tgc.arena_align = 64 : i64, tgc.peak_bytes = 0 : i64} {
  func.func @main(%x: tensor<32xf32> {tgc.name = "x"}) -> (tensor<32xf32> {tgc.name = "y"}) {
    %y = tgc.kernel "E_4_8" (%x) {arena_offset = array<i64: -1>} : (tensor<32xf32>) -> tensor<32xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c8 = tgc.const 8 : index
      %c3 = tgc.const 3 : index
      %c100 = tgc.const 100 : index
      %one = tgc.const 1.0 : f32
      %never = tgc.const false
      %i = tgc.range 4 global id 0
      %row = tgc.mul %i, %c8 : index
      %p = tgc.index %in[%row] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> vector<8xf32>
      %far = tgc.mul %i, %c3 : index
      %farther = tgc.add %far, %c100 : index
      %q = tgc.index %in[%farther], %never : !tgc.ptr<f32>
      %w = tgc.load %q : !tgc.ptr<f32> -> vector<8xf32>
      %s = tgc.index %in[%far], %never : !tgc.ptr<f32>
      %u = tgc.load %s : !tgc.ptr<f32> -> f32
      %sum = tgc.add %v, %w : vector<8xf32>
      %bias = tgc.add %u, %one : f32
      %b = tgc.vectorize %bias, %bias, %bias, %bias, %bias, %bias, %bias, %bias : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
      %r = tgc.add %sum, %b : vector<8xf32>
      %o = tgc.index %out[%row] : !tgc.ptr<f32>
      tgc.store %o, %r : !tgc.ptr<f32>, vector<8xf32>
      %o2 = tgc.index %out[%farther], %never : !tgc.ptr<f32>
      tgc.store %o2, %r : !tgc.ptr<f32>, vector<8xf32>
      tgc.end %i
      tgc.sink
    }
    return %y : tensor<32xf32>
  }
}
