// RUN: tgc-opt %s --tgc-unswitch | FileCheck %s
// A loop that reads the parts of a concatenation through gates computed
// outside it runs once per piece of the index the gates compare, each copy
// with its gates decided.

// Three parts along the outer axis c (1, 1 and 2 rows): the inner loop is
// written three times, under c < 1, 0 < c < 2 and 1 < c, each reading one
// part without a gate and selecting nothing.
// CHECK-LABEL: func @concat_three_parts(
//       CHECK:   %[[C:.*]] = tgc.range 4 global id 0
//   CHECK-NOT:   tgc.where
//       CHECK:   %[[FIRST:.*]] = tgc.cmplt %[[C]], %{{.*}} : index
//       CHECK:   tgc.if %[[FIRST]]
//       CHECK:     tgc.range 8 global id 1
//       CHECK:     %[[PA:.*]] = tgc.index %arg{{.*}}[%{{.*}}] : <f32>
//       CHECK:     %[[A:.*]] = tgc.load %[[PA]] : <f32> -> f32
//       CHECK:     tgc.store %{{.*}}, %[[A]]
//       CHECK:   tgc.endif
//       CHECK:   %[[LO:.*]] = tgc.cmplt %{{.*}}, %[[C]] : index
//       CHECK:   %[[HI:.*]] = tgc.cmplt %[[C]], %{{.*}} : index
//       CHECK:   %[[MID:.*]] = tgc.and %[[LO]], %[[HI]]
//       CHECK:   tgc.if %[[MID]]
//       CHECK:     tgc.load %{{.*}} : <f32> -> f32
//   CHECK-NOT:     tgc.where
//       CHECK:   tgc.endif
//       CHECK:   %[[LAST:.*]] = tgc.cmplt %{{.*}}, %[[C]] : index
//       CHECK:   tgc.if %[[LAST]]
//       CHECK:     tgc.load %{{.*}} : <f32> -> f32
//       CHECK:   tgc.endif
//   CHECK-NOT:   tgc.where
//       CHECK:   tgc.end %[[C]]
func.func @concat_three_parts(%a: tensor<1x8xf32>, %b: tensor<1x8xf32>, %d: tensor<2x8xf32>) -> tensor<4x8xf32> {
  %k = tgc.kernel "E_4_8" (%a, %b, %d) : (tensor<1x8xf32>, tensor<1x8xf32>, tensor<2x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %pd: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %c1 = tgc.const 1 : index
    %c2 = tgc.const 2 : index
    %c8 = tgc.const 8 : index
    %m8 = tgc.const -8 : index
    %m16 = tgc.const -16 : index
    %zero = tgc.const 0.0 : f32
    %c = tgc.range 4 global id 0
    %inA = tgc.cmplt %c, %c1 : index
    %geB = tgc.cmplt %c0, %c : index
    %ltB = tgc.cmplt %c, %c2 : index
    %inB = tgc.and %geB, %ltB : i1
    %inD = tgc.cmplt %c1, %c : index
    %row = tgc.mul %c, %c8 : index
    %j = tgc.range 8 global id 1
    %at = tgc.add %row, %j : index
    %atB = tgc.add %at, %m8 : index
    %atD = tgc.add %at, %m16 : index
    %ia = tgc.index %pa[%at], %inA : !tgc.ptr<f32>
    %ib = tgc.index %pb[%atB], %inB : !tgc.ptr<f32>
    %id = tgc.index %pd[%atD], %inD : !tgc.ptr<f32>
    %va = tgc.load %ia else %zero : !tgc.ptr<f32> -> f32
    %vb = tgc.load %ib else %zero : !tgc.ptr<f32> -> f32
    %vd = tgc.load %id else %zero : !tgc.ptr<f32> -> f32
    %ab = tgc.where %inB, %vb, %va : i1, f32
    %v = tgc.where %inD, %vd, %ab : i1, f32
    %o = tgc.index %out[%at] : !tgc.ptr<f32>
    tgc.store %o, %v : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %c
    tgc.sink
  }
  return %k : tensor<4x8xf32>
}

// A part's gate that also tests the inner index (a padded border inside
// the part) is decided only in part: and(false, x) is false, and(true, x)
// is x, so the piece of the first part keeps that border's gate.
// CHECK-LABEL: func @gate_with_inner_border(
//       CHECK:   tgc.if
//       CHECK:     %[[J:.*]] = tgc.range 8 global id 1
//       CHECK:     %[[BORDER:.*]] = tgc.cmplt %[[J]], %{{.*}} : index
//       CHECK:     tgc.index %{{.*}}[%{{.*}}], %[[BORDER]] : <f32>
//   CHECK-NOT:     tgc.and
//       CHECK:   tgc.endif
//       CHECK:   tgc.if
//       CHECK:     tgc.range 8 global id 1
//   CHECK-NOT:     tgc.cmplt
//   CHECK-NOT:     tgc.where
//       CHECK:   tgc.endif
func.func @gate_with_inner_border(%a: tensor<1x8xf32>, %b: tensor<1x8xf32>) -> tensor<2x8xf32> {
  %k = tgc.kernel "E_2_8" (%a, %b) : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %c1 = tgc.const 1 : index
    %c7 = tgc.const 7 : index
    %c8 = tgc.const 8 : index
    %m8 = tgc.const -8 : index
    %zero = tgc.const 0.0 : f32
    %c = tgc.range 2 global id 0
    %inA = tgc.cmplt %c, %c1 : index
    %inB = tgc.cmplt %c0, %c : index
    %row = tgc.mul %c, %c8 : index
    %j = tgc.range 8 global id 1
    %inside = tgc.cmplt %j, %c7 : index
    %gateA = tgc.and %inA, %inside : i1
    %at = tgc.add %row, %j : index
    %atB = tgc.add %at, %m8 : index
    %ia = tgc.index %pa[%at], %gateA : !tgc.ptr<f32>
    %ib = tgc.index %pb[%atB], %inB : !tgc.ptr<f32>
    %va = tgc.load %ia else %zero : !tgc.ptr<f32> -> f32
    %vb = tgc.load %ib else %zero : !tgc.ptr<f32> -> f32
    %v = tgc.where %inB, %vb, %va : i1, f32
    %o = tgc.index %out[%at] : !tgc.ptr<f32>
    tgc.store %o, %v : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %c
    tgc.sink
  }
  return %k : tensor<2x8xf32>
}

// A padded border alone (one gated load, no choice between parts) stays
// as it is: the C compiler hoists one predictable branch itself.
// CHECK-LABEL: func @padded_rows(
//   CHECK-NOT:   tgc.if
//       CHECK:   tgc.load %{{.*}} else
func.func @padded_rows(%a: tensor<2x8xf32>) -> tensor<4x8xf32> {
  %k = tgc.kernel "E_4_8" (%a) : (tensor<2x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %c3 = tgc.const 3 : index
    %c8 = tgc.const 8 : index
    %m8 = tgc.const -8 : index
    %zero = tgc.const 0.0 : f32
    %c = tgc.range 4 global id 0
    %lo = tgc.cmplt %c0, %c : index
    %hi = tgc.cmplt %c, %c3 : index
    %in = tgc.and %lo, %hi : i1
    %row = tgc.mul %c, %c8 : index
    %j = tgc.range 8 global id 1
    %at = tgc.add %row, %j : index
    %src = tgc.add %at, %m8 : index
    %ia = tgc.index %pa[%src], %in : !tgc.ptr<f32>
    %va = tgc.load %ia else %zero : !tgc.ptr<f32> -> f32
    %o = tgc.index %out[%at] : !tgc.ptr<f32>
    tgc.store %o, %va : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %c
    tgc.sink
  }
  return %k : tensor<4x8xf32>
}

// The parts' gates depend on the inner index (a concatenation along the
// innermost axis): nothing is invariant in the loop, so nothing is copied.
// CHECK-LABEL: func @concat_inner_axis(
//   CHECK-NOT:   tgc.if
//       CHECK:   tgc.where
func.func @concat_inner_axis(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<8xf32> {
  %k = tgc.kernel "E_8" (%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c3 = tgc.const 3 : index
    %c4 = tgc.const 4 : index
    %m4 = tgc.const -4 : index
    %zero = tgc.const 0.0 : f32
    %j = tgc.range 8 global id 0
    %inA = tgc.cmplt %j, %c4 : index
    %inB = tgc.cmplt %c3, %j : index
    %atB = tgc.add %j, %m4 : index
    %ia = tgc.index %pa[%j], %inA : !tgc.ptr<f32>
    %ib = tgc.index %pb[%atB], %inB : !tgc.ptr<f32>
    %va = tgc.load %ia else %zero : !tgc.ptr<f32> -> f32
    %vb = tgc.load %ib else %zero : !tgc.ptr<f32> -> f32
    %v = tgc.where %inB, %vb, %va : i1, f32
    %o = tgc.index %out[%j] : !tgc.ptr<f32>
    tgc.store %o, %v : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.sink
  }
  return %k : tensor<8xf32>
}
