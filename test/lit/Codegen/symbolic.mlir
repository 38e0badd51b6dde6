// RUN: tgc-opt %s --tgc-symbolic | FileCheck %s
// Index arithmetic simplified by the bounds of ranges.

// (r*4 + c) // 4 => r and (r*4 + c) % 4 => c for r in [0,3), c in [0,4)
// CHECK-LABEL: func @split_div_mod(
//       CHECK:     %[[R:.*]] = tgc.range 3 global id 0
//       CHECK:     %[[C:.*]] = tgc.range 4 global id 1
//   CHECK-NOT:     tgc.idiv
//   CHECK-NOT:     tgc.mod
//       CHECK:     tgc.index %{{.*}}[%[[R]]]
//       CHECK:     tgc.index %{{.*}}[%[[C]]]
func.func @split_div_mod(%x: tensor<3xf32>) -> tensor<3x4xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<3xf32>) -> tensor<3x4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c4 = tgc.const 4 : index
    %r = tgc.range 3 global id 0
    %c = tgc.range 4 global id 1
    %rs = tgc.mul %r, %c4 : index
    %flat = tgc.add %rs, %c : index
    %d = tgc.idiv %flat, %c4 : index
    %m = tgc.mod %flat, %c4 : index
    %p = tgc.index %in[%d] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %q = tgc.index %out[%m] : !tgc.ptr<f32>
    tgc.store %q, %v : !tgc.ptr<f32>, f32
    tgc.end %c
    tgc.end %r
    tgc.sink
  }
  return %k : tensor<3x4xf32>
}

// x // 8 => 0 and x % 8 => x when x < 8; x // 2 stays when x may reach 2.
// CHECK-LABEL: func @small_dividend(
//       CHECK:     %[[R:.*]] = tgc.range 5 global id 0
//       CHECK:     %[[H:.*]] = tgc.idiv %[[R]], %{{.*}} : index
//       CHECK:     tgc.index %{{.*}}[%[[H]]]
//       CHECK:     tgc.index %{{.*}}[%[[R]]]
func.func @small_dividend(%x: tensor<5xf32>) -> tensor<5xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<5xf32>) -> tensor<5xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c8 = tgc.const 8 : index
    %c2 = tgc.const 2 : index
    %r = tgc.range 5 global id 0
    %z = tgc.idiv %r, %c8 : index
    %half = tgc.idiv %r, %c2 : index
    %sum = tgc.add %z, %half : index
    %m = tgc.mod %r, %c8 : index
    %p = tgc.index %in[%sum] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %q = tgc.index %out[%m] : !tgc.ptr<f32>
    tgc.store %q, %v : !tgc.ptr<f32>, f32
    tgc.end %r
    tgc.sink
  }
  return %k : tensor<5xf32>
}

// (r*6 + c) // 3 => r*2 + c // 3 when c may exceed 3; (x // 2) // 3 => x // 6
// CHECK-LABEL: func @partial_split(
//       CHECK:     %[[R:.*]] = tgc.range 2 global id 0
//       CHECK:     %[[C:.*]] = tgc.range 12 global id 1
//   CHECK-DAG:     %[[R2:.*]] = tgc.mul %[[R]], %{{.*}} : index
//   CHECK-DAG:     %[[C3:.*]] = tgc.idiv %[[C]], %{{.*}} : index
//       CHECK:     %[[S:.*]] = tgc.add %[[R2]], %[[C3]] : index
//       CHECK:     tgc.index %{{.*}}[%[[S]]]
//       CHECK:     %[[C6:.*]] = tgc.idiv %[[C]], %{{.*}} : index
//       CHECK:     tgc.index %{{.*}}[%[[C6]]]
func.func @partial_split(%x: tensor<12xf32>) -> tensor<2x12xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<12xf32>) -> tensor<2x12xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c2 = tgc.const 2 : index
    %c3 = tgc.const 3 : index
    %c6 = tgc.const 6 : index
    %r = tgc.range 2 global id 0
    %c = tgc.range 12 global id 1
    %rs = tgc.mul %r, %c6 : index
    %flat = tgc.add %rs, %c : index
    %d = tgc.idiv %flat, %c3 : index
    %p = tgc.index %in[%d] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %h = tgc.idiv %c, %c2 : index
    %hh = tgc.idiv %h, %c3 : index
    %q = tgc.index %out[%hh] : !tgc.ptr<f32>
    tgc.store %q, %v : !tgc.ptr<f32>, f32
    tgc.end %c
    tgc.end %r
    tgc.sink
  }
  return %k : tensor<2x12xf32>
}

// A dividend that may be negative is left alone (C division truncates).
// CHECK-LABEL: func @not_negative_dividend(
//       CHECK:     tgc.idiv
//       CHECK:     tgc.mod
func.func @not_negative_dividend(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %cm = tgc.const -2 : index
    %c4 = tgc.const 4 : index
    %r = tgc.range 4 global id 0
    %s = tgc.add %r, %cm : index
    %d = tgc.idiv %s, %c4 : index
    %m = tgc.mod %s, %c4 : index
    %a = tgc.add %d, %m : index
    %p = tgc.index %in[%a] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %q = tgc.index %out[%r] : !tgc.ptr<f32>
    tgc.store %q, %v : !tgc.ptr<f32>, f32
    tgc.end %r
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// Pad masks that cannot be false disappear; one that can stays.
// CHECK-LABEL: func @masks(
//       CHECK:     %[[R:.*]] = tgc.range 4 global id 0
//       CHECK:     %[[LT:.*]] = tgc.cmplt %[[R]], %{{.*}} : index
//       CHECK:     tgc.index %{{.*}}[%[[R]]], %[[LT]] : <f32>
func.func @masks(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %cm1 = tgc.const -1 : index
    %c3 = tgc.const 3 : index
    %c9 = tgc.const 9 : index
    %r = tgc.range 4 global id 0
    %always = tgc.cmplt %cm1, %r : index
    %below9 = tgc.cmplt %r, %c9 : index
    %below3 = tgc.cmplt %r, %c3 : index
    %g0 = tgc.and %always, %below9 : i1
    %g = tgc.and %g0, %below3 : i1
    %p = tgc.index %in[%r], %g : !tgc.ptr<f32>
    %z = tgc.const 0.0 : f32
    %v = tgc.load %p else %z : !tgc.ptr<f32> -> f32
    %q = tgc.index %out[%r] : !tgc.ptr<f32>
    tgc.store %q, %v : !tgc.ptr<f32>, f32
    tgc.end %r
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// A mask decided true leaves the load unconditional: no gate at all (the
// copy of a concatenation's part, once its position is a constant).
// CHECK-LABEL: func @mask_decided_true(
//       CHECK:     %[[R:.*]] = tgc.range 4 global id 0
//       CHECK:     %[[P:.*]] = tgc.index %{{.*}}[%[[R]]] : <f32>
//  CHECK-NEXT:     tgc.load %[[P]] else %{{.*}} : <f32> -> f32
func.func @mask_decided_true(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c9 = tgc.const 9 : index
    %r = tgc.range 4 global id 0
    %below9 = tgc.cmplt %r, %c9 : index
    %p = tgc.index %in[%r], %below9 : !tgc.ptr<f32>
    %z = tgc.const 0.0 : f32
    %v = tgc.load %p else %z : !tgc.ptr<f32> -> f32
    %q = tgc.index %out[%r] : !tgc.ptr<f32>
    tgc.store %q, %v : !tgc.ptr<f32>, f32
    tgc.end %r
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// (x / 2) * 112 + (x % 2) * 56 is x * 56, for negative x too (C's division
// truncates and % keeps the dividend's sign): a row of 2x2 tiles read back
// as the image, one before the padded border.
// CHECK-LABEL: func @recombine_div_mod(
//       CHECK:     %[[R:.*]] = tgc.range 58 global id 0
//   CHECK-NOT:     tgc.idiv
//   CHECK-NOT:     tgc.mod
//       CHECK:     %[[X:.*]] = tgc.mul %[[R]], %{{.*}} : index
//       CHECK:     tgc.add %[[X]], %{{.*}} : index
func.func @recombine_div_mod(%x: tensor<3136xf32>) -> tensor<58xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<3136xf32>) -> tensor<58xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %cm1 = tgc.const -1 : index
    %c2 = tgc.const 2 : index
    %c56 = tgc.const 56 : index
    %c112 = tgc.const 112 : index
    %r = tgc.range 58 global id 0
    %x0 = tgc.add %r, %cm1 : index
    %q = tgc.idiv %x0, %c2 : index
    %m = tgc.mod %x0, %c2 : index
    %a = tgc.mul %q, %c112 : index
    %b = tgc.mul %m, %c56 : index
    %i = tgc.add %a, %b : index
    %c0 = tgc.const 0 : index
    %ok = tgc.cmplt %c0, %r : index
    %p = tgc.index %in[%i], %ok : !tgc.ptr<f32>
    %z = tgc.const 0.0 : f32
    %v = tgc.load %p else %z : !tgc.ptr<f32> -> f32
    %o = tgc.index %out[%r] : !tgc.ptr<f32>
    tgc.store %o, %v : !tgc.ptr<f32>, f32
    tgc.end %r
    tgc.sink
  }
  return %k : tensor<58xf32>
}

// An axis split into three and merged again, as a flatten of a 16x7x7
// feature map before a Gemm reads it: x / 49 * 49 + x / 7 % 7 * 7 + x % 7
// is x, and with a stride k (here 3) the three terms scale alike.
// CHECK-LABEL: func @recombine_three_way_split(
//       CHECK:     %[[R:.*]] = tgc.range 784 reduce id 0
//   CHECK-NOT:     tgc.idiv
//   CHECK-NOT:     tgc.mod
//       CHECK:     %[[X:.*]] = tgc.mul %[[R]], %{{.*}} : index
//  CHECK-NEXT:     tgc.index %{{.*}}[%[[X]]]
// Without the outer term, the inner two become one mod of 49.
//       CHECK:     %[[M:.*]] = tgc.mod %[[R]], %{{.*}} : index
//   CHECK-NOT:     tgc.mod
//       CHECK:     tgc.index %{{.*}}[%[[M]]]
func.func @recombine_three_way_split(%x: tensor<2352xf32>, %y: tensor<49xf32>)
    -> tensor<1xf32> {
  %k = tgc.kernel "k" (%x, %y) : (tensor<2352xf32>, tensor<49xf32>)
      -> tensor<1xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %in2: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c3 = tgc.const 3 : index
    %c7 = tgc.const 7 : index
    %c21 = tgc.const 21 : index
    %c49 = tgc.const 49 : index
    %c147 = tgc.const 147 : index
    %zero = tgc.const 0 : index
    %r = tgc.range 784 reduce id 0
    %hi = tgc.idiv %r, %c49 : index
    %d7 = tgc.idiv %r, %c7 : index
    %mid = tgc.mod %d7, %c7 : index
    %lo = tgc.mod %r, %c7 : index
    %a = tgc.mul %hi, %c147 : index
    %b = tgc.mul %mid, %c21 : index
    %c = tgc.mul %lo, %c3 : index
    %ab = tgc.add %a, %b : index
    %i = tgc.add %ab, %c : index
    %p = tgc.index %in[%i] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %mid7 = tgc.mul %mid, %c7 : index
    %j = tgc.add %mid7, %lo : index
    %q = tgc.index %in2[%j] : !tgc.ptr<f32>
    %w = tgc.load %q : !tgc.ptr<f32> -> f32
    %s = tgc.add %v, %w : f32
    %o = tgc.index %out[%zero] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %r
    tgc.sink
  }
  return %k : tensor<1xf32>
}

// Coefficients are split too: (i + 59*k) % 58 => i + k and (i + 59*k) // 58
// => k when i + k < 58 (the window index of a padded convolution).
// CHECK-LABEL: func @coefficient_split(
//       CHECK:     %[[I:.*]] = tgc.range 56 global id 0
//       CHECK:     %[[K:.*]] = tgc.range 3 reduce id 1
//   CHECK-NOT:     tgc.mod
//   CHECK-NOT:     tgc.idiv
//   CHECK-DAG:     %[[S:.*]] = tgc.add %[[K]], %[[I]] : index
//   CHECK-DAG:     tgc.index %{{.*}}[%[[S]]]
//   CHECK-DAG:     tgc.index %{{.*}}[%[[K]]]
func.func @coefficient_split(%x: tensor<64xf32>) -> tensor<56xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<64xf32>) -> tensor<56xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c58 = tgc.const 58 : index
    %c59 = tgc.const 59 : index
    %i = tgc.range 56 global id 0
    %r = tgc.range 3 reduce id 1
    %rs = tgc.mul %r, %c59 : index
    %a = tgc.add %i, %rs : index
    %m = tgc.mod %a, %c58 : index
    %d = tgc.idiv %a, %c58 : index
    %p = tgc.index %in[%m] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %p2 = tgc.index %in[%d] : !tgc.ptr<f32>
    %v2 = tgc.load %p2 : !tgc.ptr<f32> -> f32
    %s = tgc.add %v, %v2 : f32
    tgc.end %r
    %t = tgc.reduce add %s over %r : f32
    %q = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %q, %t : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<56xf32>
}

// (r*16 + l) % 64 => (r*16) % 64 + l and (r*16 + l) // 64 => (r*16) // 64
// when 0 <= l < 16 and 16 divides 64: the lanes of an upcast axis under a
// reshape's mod stay consecutive. (Rows of 128: with rows of 64 the pair
// would recombine into r*16 + l, recombine_div_mod above.)
// CHECK-LABEL: func @factor_split(
//       CHECK:     %[[R:.*]] = tgc.range 16 reduce id 0
//       CHECK:     %[[L:.*]] = tgc.range 16 upcast id 1
//  CHECK-NEXT:     tgc.mul %[[R]], %{{.*}} : index
//  CHECK-NEXT:     %[[R16:.*]] = tgc.mul %[[R]], %{{.*}} : index
//  CHECK-NEXT:     %[[M:.*]] = tgc.mod %[[R16]], %{{.*}} : index
//  CHECK-NEXT:     %[[ML:.*]] = tgc.add %[[M]], %[[L]] : index
//  CHECK-NEXT:     %[[R16B:.*]] = tgc.mul %[[R]], %{{.*}} : index
//  CHECK-NEXT:     %[[D:.*]] = tgc.idiv %[[R16B]], %{{.*}} : index
//       CHECK:     tgc.add %{{.*}}, %[[ML]] : index
// A remainder that can reach the factor is left alone.
//       CHECK:     %[[W:.*]] = tgc.add %{{.*}}, %{{.*}} : index
//  CHECK-NEXT:     tgc.mod %[[W]], %{{.*}} : index
func.func @factor_split(%x: tensor<256xf32>) -> tensor<4x64xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<256xf32>) -> tensor<4x64xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c16 = tgc.const 16 : index
    %c17 = tgc.const 17 : index
    %c64 = tgc.const 64 : index
    %c128 = tgc.const 128 : index
    %r = tgc.range 16 reduce id 0
    %l = tgc.range 16 upcast id 1
    %rs = tgc.mul %r, %c16 : index
    %i = tgc.add %rs, %l : index
    %m = tgc.mod %i, %c64 : index
    %d = tgc.idiv %i, %c64 : index
    %row = tgc.mul %d, %c128 : index
    %a = tgc.add %row, %m : index
    %p = tgc.index %in[%a] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %wide = tgc.mul %l, %c17 : index
    %w = tgc.add %rs, %wide : index
    %wm = tgc.mod %w, %c64 : index
    %q = tgc.index %out[%wm] : !tgc.ptr<f32>
    tgc.store %q, %v : !tgc.ptr<f32>, f32
    tgc.end %l
    tgc.end %r
    tgc.sink
  }
  return %k : tensor<4x64xf32>
}

// where(g, load(buf[i] if g else 0), 0) => the load: a pad lowers to a
// gated load and a select by the same gate. A select by another gate, or
// with another alternative, stays.
// CHECK-LABEL: func @gated_load_select(
//       CHECK:     %[[L:.*]] = tgc.load %{{.*}} else %[[Z:.*]] : <f32> -> f32
//   CHECK-NOT:     tgc.where %{{.*}}, %[[L]], %[[Z]]
//       CHECK:     %[[M:.*]] = tgc.load %{{.*}} else %[[Z]] : <f32> -> f32
//       CHECK:     tgc.where %{{.*}}, %[[M]], %{{.*}} : i1, f32
//       CHECK:     tgc.store %{{.*}}, %[[L]]
func.func @gated_load_select(%x: tensor<6xf32>) -> tensor<8xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<6xf32>) -> tensor<8xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %c1 = tgc.const 1 : index
    %c7 = tgc.const 7 : index
    %zero = tgc.const 0.0 : f32
    %one = tgc.const 1.0 : f32
    %r = tgc.range 8 global id 0
    %lo = tgc.cmplt %c0, %r : index
    %hi = tgc.cmplt %r, %c7 : index
    %g = tgc.and %lo, %hi : i1
    %i = tgc.sub %r, %c1 : index
    %p = tgc.index %in[%i], %g : !tgc.ptr<f32>
    %v = tgc.load %p else %zero : !tgc.ptr<f32> -> f32
    %s = tgc.where %g, %v, %zero : i1, f32
    %q = tgc.index %in[%i], %hi : !tgc.ptr<f32>
    %w = tgc.load %q else %zero : !tgc.ptr<f32> -> f32
    %t = tgc.where %g, %w, %one : i1, f32
    %sum = tgc.add %s, %t : f32
    %o = tgc.index %out[%r] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    %o2 = tgc.index %out[%c0] : !tgc.ptr<f32>
    tgc.store %o2, %sum : !tgc.ptr<f32>, f32
    tgc.end %r
    tgc.sink
  }
  return %k : tensor<8xf32>
}
