// Runs the emitted C: a main compiled against the self-contained source
// feeds known inputs and prints every output, checked here against values
// worked out by hand.
// RUN: tgc-translate --emit-c %s > %t.c
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/emit-c-run-main.c -o %t.gcc -lm
// RUN: %t.gcc | FileCheck %s
// RUN: clang -std=c99 -O2 -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/emit-c-run-main.c -o %t.clang -lm
// RUN: %t.clang | FileCheck %s

// x = [[1.5, -2.5, 3], [0, 5.75, -7.25]], n = [7, -7, 8, -8]
// Row sums through an accumulator register, then + bias [10, 20].
// CHECK: sum: 12 18.5
// Each row padded by one on both sides; the gated load reads -1 outside.
// CHECK-NEXT: padded: -1 1.5 -2.5 3 -1 -1 0 5.75 -7.25 -1
// w = [1, nan, -2, 3, -inf, 5]: NaN wins from either side.
// CHECK-NEXT: max: 1.5 nan 3 3 5.75 5
// CHECK-NEXT: max2: 1.5 nan 3 3 5.75 5
// C truncating division; the remainder takes the sign of the dividend.
// CHECK-NEXT: div: 2 -2 2 -2
// CHECK-NEXT: mod: 1 -1 2 -2
// CHECK-NEXT: positive: 1 0 1 0 1 0
// CHECK-NEXT: nonzero: 1 1 1 0 1 1
// CHECK-NEXT: trunc: 1 -2 3 0 5 -7
// exp2 in double precision of x[i][0].
// CHECK-NEXT: exp2: 2.8284271247461903 1
// Pairs loaded as 2-lane vectors and stored swapped.
// CHECK-NEXT: swapped: -2.5 1.5 0 3 -7.25 5.75
// CHECK-NEXT: status: 0

module attributes {tgc.arena_bytes = 64 : i64, tgc.arena_align = 64 : i64, tgc.peak_bytes = 8 : i64} {
  func.func @main(%x: tensor<2x3xf32> {tgc.name = "x"}, %n: tensor<4xsi32> {tgc.name = "n"})
      -> (tensor<2xf32> {tgc.name = "sum"}, tensor<2x5xf32> {tgc.name = "padded"},
          tensor<6xf32> {tgc.name = "max"}, tensor<6xf32> {tgc.name = "max2"},
          tensor<4xsi32> {tgc.name = "div"}, tensor<4xsi32> {tgc.name = "mod"},
          tensor<6xi1> {tgc.name = "positive"}, tensor<6xi1> {tgc.name = "nonzero"},
          tensor<6xsi32> {tgc.name = "trunc"}, tensor<2xf64> {tgc.name = "exp2"},
          tensor<6xf32> {tgc.name = "swapped"}) {
    %w = tgc.const dense<[1.0, 0x7FC00000, -2.0, 3.0, 0xFF800000, 5.0]> : tensor<6xf32>
    %bias = tgc.const dense_resource<bias> : tensor<2xf32>

    %rows = tgc.kernel "r_2_3" (%x) {arena_offset = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c0 = tgc.const 0 : index
      %c3 = tgc.const 3 : index
      %zero = tgc.const 0.0 : f32
      %i = tgc.range 2 global id 0
      %acc = tgc.define_reg 1 : !tgc.ptr<f32, reg>
      %a0 = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
      tgc.store %a0, %zero : !tgc.ptr<f32, reg>, f32
      %row = tgc.mul %i, %c3 : index
      %k = tgc.range 3 reduce id 1
      %idx = tgc.add %row, %k : index
      %p = tgc.index %in[%idx] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %old = tgc.load %a0 : !tgc.ptr<f32, reg> -> f32
      %new = tgc.add %old, %v : f32
      tgc.store %a0, %new : !tgc.ptr<f32, reg>, f32
      tgc.end %k
      %s = tgc.load %a0 : !tgc.ptr<f32, reg> -> f32
      %o = tgc.index %out[%i] : !tgc.ptr<f32>
      tgc.store %o, %s : !tgc.ptr<f32>, f32
      tgc.end %i
      tgc.sink
    }

    %sum = tgc.kernel "E_2" (%rows, %bias) {arena_offset = array<i64: -1>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> {
    ^bb0(%a: !tgc.ptr<f32>, %b: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %i = tgc.range 2 global id 0
      %pa = tgc.index %a[%i] : !tgc.ptr<f32>
      %va = tgc.load %pa : !tgc.ptr<f32> -> f32
      %pb = tgc.index %b[%i] : !tgc.ptr<f32>
      %vb = tgc.load %pb : !tgc.ptr<f32> -> f32
      %r = tgc.add %va, %vb : f32
      %o = tgc.index %out[%i] : !tgc.ptr<f32>
      tgc.store %o, %r : !tgc.ptr<f32>, f32
      tgc.end %i
      tgc.sink
    }

    %padded = tgc.kernel "E_2_5" (%x) {arena_offset = array<i64: -1>} : (tensor<2x3xf32>) -> tensor<2x5xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c0 = tgc.const 0 : index
      %c1 = tgc.const 1 : index
      %c3 = tgc.const 3 : index
      %c4 = tgc.const 4 : index
      %c5 = tgc.const 5 : index
      %alt = tgc.const -1.0 : f32
      %i = tgc.range 2 global id 0
      %row = tgc.mul %i, %c3 : index
      %orow = tgc.mul %i, %c5 : index
      %j = tgc.range 5 global id 1
      %lo = tgc.cmplt %c0, %j : index
      %hi = tgc.cmplt %j, %c4 : index
      %valid = tgc.and %lo, %hi : i1
      %jm1 = tgc.sub %j, %c1 : index
      %src = tgc.add %row, %jm1 : index
      %p = tgc.index %in[%src], %valid : !tgc.ptr<f32>
      %v = tgc.load %p else %alt : !tgc.ptr<f32> -> f32
      %dst = tgc.add %orow, %j : index
      %o = tgc.index %out[%dst] : !tgc.ptr<f32>
      tgc.store %o, %v : !tgc.ptr<f32>, f32
      tgc.end %j
      tgc.end %i
      tgc.sink
    }

    %max:2 = tgc.kernel "E_6" (%x, %w) {arena_offset = array<i64: -1, -1>} : (tensor<2x3xf32>, tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
    ^bb0(%a: !tgc.ptr<f32>, %b: !tgc.ptr<f32>, %out: !tgc.ptr<f32>, %out2: !tgc.ptr<f32>):
      %i = tgc.range 6 global id 0
      %pa = tgc.index %a[%i] : !tgc.ptr<f32>
      %va = tgc.load %pa : !tgc.ptr<f32> -> f32
      %pb = tgc.index %b[%i] : !tgc.ptr<f32>
      %vb = tgc.load %pb : !tgc.ptr<f32> -> f32
      %m = tgc.max %va, %vb : f32
      %m2 = tgc.max %vb, %va : f32
      %o = tgc.index %out[%i] : !tgc.ptr<f32>
      tgc.store %o, %m : !tgc.ptr<f32>, f32
      %o2 = tgc.index %out2[%i] : !tgc.ptr<f32>
      tgc.store %o2, %m2 : !tgc.ptr<f32>, f32
      tgc.end %i
      tgc.sink
    }

    %divmod:2 = tgc.kernel "E_4" (%n) {arena_offset = array<i64: -1, -1>} : (tensor<4xsi32>) -> (tensor<4xsi32>, tensor<4xsi32>) {
    ^bb0(%in: !tgc.ptr<si32>, %q: !tgc.ptr<si32>, %r: !tgc.ptr<si32>):
      %c3 = tgc.const 3 : si32
      %i = tgc.range 4 global id 0
      %p = tgc.index %in[%i] : !tgc.ptr<si32>
      %v = tgc.load %p : !tgc.ptr<si32> -> si32
      %d = tgc.idiv %v, %c3 : si32
      %m = tgc.mod %v, %c3 : si32
      %pq = tgc.index %q[%i] : !tgc.ptr<si32>
      tgc.store %pq, %d : !tgc.ptr<si32>, si32
      %pr = tgc.index %r[%i] : !tgc.ptr<si32>
      tgc.store %pr, %m : !tgc.ptr<si32>, si32
      tgc.end %i
      tgc.sink
    }

    %conv:3 = tgc.kernel "E_6_cast" (%x) {arena_offset = array<i64: -1, -1, -1>} : (tensor<2x3xf32>) -> (tensor<6xi1>, tensor<6xi1>, tensor<6xsi32>) {
    ^bb0(%in: !tgc.ptr<f32>, %pos: !tgc.ptr<i1>, %nz: !tgc.ptr<i1>, %tr: !tgc.ptr<si32>):
      %zero = tgc.const 0.0 : f32
      %i = tgc.range 6 global id 0
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %gt = tgc.cmplt %zero, %v : f32
      %b = tgc.cast %v : f32 to i1
      %t = tgc.cast %v : f32 to si32
      %p1 = tgc.index %pos[%i] : !tgc.ptr<i1>
      tgc.store %p1, %gt : !tgc.ptr<i1>, i1
      %p2 = tgc.index %nz[%i] : !tgc.ptr<i1>
      tgc.store %p2, %b : !tgc.ptr<i1>, i1
      %p3 = tgc.index %tr[%i] : !tgc.ptr<si32>
      tgc.store %p3, %t : !tgc.ptr<si32>, si32
      tgc.end %i
      tgc.sink
    }

    %exp = tgc.kernel "E_2_f64" (%x) {arena_offset = array<i64: -1>} : (tensor<2x3xf32>) -> tensor<2xf64> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f64>):
      %c3 = tgc.const 3 : index
      %i = tgc.range 2 global id 0
      %src = tgc.mul %i, %c3 : index
      %p = tgc.index %in[%src] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %d = tgc.cast %v : f32 to f64
      %e = tgc.exp2 %d : f64
      %o = tgc.index %out[%i] : !tgc.ptr<f64>
      tgc.store %o, %e : !tgc.ptr<f64>, f64
      tgc.end %i
      tgc.sink
    }

    %swapped = tgc.kernel "E_3_2" (%x) {arena_offset = array<i64: -1>, opts = ["UPCAST(0,2)"]} : (tensor<2x3xf32>) -> tensor<6xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c2 = tgc.const 2 : index
      %i = tgc.range 3 global id 0
      %base = tgc.mul %i, %c2 : index
      %p = tgc.index %in[%base] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> vector<2xf32>
      %l0 = tgc.gep %v[0] : vector<2xf32> -> f32
      %l1 = tgc.gep %v[1] : vector<2xf32> -> f32
      %s = tgc.vectorize %l1, %l0 : (f32, f32) -> vector<2xf32>
      %o = tgc.index %out[%base] : !tgc.ptr<f32>
      tgc.store %o, %s : !tgc.ptr<f32>, vector<2xf32>
      tgc.end %i
      tgc.sink
    }

    return %sum, %padded, %max#0, %max#1, %divmod#0, %divmod#1, %conv#0, %conv#1, %conv#2, %exp, %swapped
        : tensor<2xf32>, tensor<2x5xf32>, tensor<6xf32>, tensor<6xf32>, tensor<4xsi32>, tensor<4xsi32>,
          tensor<6xi1>, tensor<6xi1>, tensor<6xsi32>, tensor<2xf64>, tensor<6xf32>
  }
}

// bias = [10, 20] as a resource blob (alignment 4, then little-endian f32).
{-#
  dialect_resources: {
    builtin: {
      bias: "0x04000000000020410000A041"
    }
  }
#-}
