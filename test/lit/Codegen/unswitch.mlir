// RUN: tgc-opt %s --tgc-unswitch | FileCheck %s
// A loop that reads the parts of a concatenation through gates computed
// outside it runs once per piece of the index the gates compare, each copy
// with its gates decided. The tests below put the parts along a threaded
// axis, whose loop cannot be split: its index is a task's.

// Three parts along the outer axis c (1, 1 and 2 rows): the inner loop is
// written three times, under c < 1, 0 < c < 2 and 1 < c, each reading one
// part without a gate and selecting nothing.
// CHECK-LABEL: func @concat_three_parts(
//       CHECK:   %[[C:.*]] = tgc.range 4 thread id 0
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
    %c = tgc.range 4 thread id 0
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
// is x, so the piece of the first part keeps that border's test, and its
// inner loop is then split there: 7 columns read without a gate, the 8th
// (a single step, no loop) stores the padding's zero.
// CHECK-LABEL: func @gate_with_inner_border(
//       CHECK:   tgc.if
//       CHECK:     %[[J:.*]] = tgc.range 7 global id 1
//       CHECK:     %[[PA:.*]] = tgc.index %{{.*}}[%{{.*}}] : <f32>
//  CHECK-NEXT:     tgc.load %[[PA]] : <f32> -> f32
//       CHECK:     tgc.end %[[J]]
//   CHECK-NOT:     tgc.load
//       CHECK:     tgc.store %{{.*}}, %{{.*}} : <f32>, f32
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
    %c = tgc.range 2 thread id 0
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

// A padded border along an output loop whose own index the gate compares:
// the loop runs once per piece, the border rows storing zeros and the rows
// inside reading without a gate. A border of one row is no loop: its row
// index is a constant (row 3 starts at element 24).
// CHECK-LABEL: func @padded_rows(
//   CHECK-NOT:   tgc.if
//   CHECK-NOT:   tgc.range {{.*}} id 0
//       CHECK:   %[[TOP:.*]] = tgc.range 8 global id 1
//   CHECK-NOT:     tgc.load
//       CHECK:   tgc.end %[[TOP]]
//       CHECK:   %[[INSIDE:.*]] = tgc.range 2 global id 0
//       CHECK:     tgc.add %[[INSIDE]], %{{.*}} : index
//       CHECK:     tgc.load %{{.*}} : <f32> -> f32
//       CHECK:   tgc.end %[[INSIDE]]
//       CHECK:   %[[C24:.*]] = tgc.const 24 : index
//       CHECK:   %[[BOTTOM:.*]] = tgc.range 8 global id 1
//       CHECK:     tgc.add %[[BOTTOM]], %[[C24]] : index
//   CHECK-NOT:     tgc.load
//       CHECK:   tgc.end %[[BOTTOM]]
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

// A register tile padded past its axis (13 x 4 rows of 49): copies 1 to 3
// read rows 4 * r + k under 4 * r + k < 49, which is r < 12 for each. One
// cut: the reduction is written for r < 12 with no gate and for r = 12
// with the copies past row 48 reading their zero.
// CHECK-LABEL: func @padded_tile(
//       CHECK:   %[[R:.*]] = tgc.range 13 global id 0
//       CHECK:   %[[BODY:.*]] = tgc.cmplt %[[R]], %[[C12:.*]] : index
//       CHECK:   tgc.if %[[BODY]]
//       CHECK:     tgc.range 16 reduce id 1
//   CHECK-NOT:     else
//       CHECK:     tgc.end
//       CHECK:   tgc.endif
//       CHECK:   %[[LAST:.*]] = tgc.cmplt %{{.*}}, %[[R]] : index
//       CHECK:   tgc.if %[[LAST]]
//       CHECK:     tgc.range 16 reduce id 1
//       CHECK:     tgc.load %{{.*}} : <f32> -> f32
//   CHECK-NOT:     : <f32> -> f32
//       CHECK:     tgc.end
//       CHECK:   tgc.endif
func.func @padded_tile(%a: tensor<49x16xf32>) -> tensor<52xf32> {
  %k = tgc.kernel "r_52_16" (%a) : (tensor<49x16xf32>) -> tensor<52xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c1 = tgc.const 1 : index
    %c2 = tgc.const 2 : index
    %c3 = tgc.const 3 : index
    %c4 = tgc.const 4 : index
    %c16 = tgc.const 16 : index
    %c49 = tgc.const 49 : index
    %zero = tgc.const 0.0 : f32
    %r = tgc.range 13 global id 0
    %row0 = tgc.mul %r, %c4 : index
    %row1 = tgc.add %row0, %c1 : index
    %row2 = tgc.add %row0, %c2 : index
    %row3 = tgc.add %row0, %c3 : index
    %in1 = tgc.cmplt %row1, %c49 : index
    %in2 = tgc.cmplt %row2, %c49 : index
    %in3 = tgc.cmplt %row3, %c49 : index
    %b0 = tgc.mul %row0, %c16 : index
    %b1 = tgc.mul %row1, %c16 : index
    %b2 = tgc.mul %row2, %c16 : index
    %b3 = tgc.mul %row3, %c16 : index
    %c0 = tgc.const 0 : index
    %acc = tgc.define_reg 1 : <f32, reg>
    %pacc = tgc.index %acc[%c0] : <f32, reg>
    tgc.store %pacc, %zero : <f32, reg>, f32
    %i = tgc.range 16 reduce id 1
    %a0 = tgc.add %b0, %i : index
    %a1 = tgc.add %b1, %i : index
    %a2 = tgc.add %b2, %i : index
    %a3 = tgc.add %b3, %i : index
    %p0 = tgc.index %pa[%a0] : !tgc.ptr<f32>
    %p1 = tgc.index %pa[%a1], %in1 : !tgc.ptr<f32>
    %p2 = tgc.index %pa[%a2], %in2 : !tgc.ptr<f32>
    %p3 = tgc.index %pa[%a3], %in3 : !tgc.ptr<f32>
    %v0 = tgc.load %p0 : !tgc.ptr<f32> -> f32
    %v1 = tgc.load %p1 else %zero : !tgc.ptr<f32> -> f32
    %v2 = tgc.load %p2 else %zero : !tgc.ptr<f32> -> f32
    %v3 = tgc.load %p3 else %zero : !tgc.ptr<f32> -> f32
    %s01 = tgc.add %v0, %v1 : f32
    %s23 = tgc.add %v2, %v3 : f32
    %s = tgc.add %s01, %s23 : f32
    %before = tgc.load %pacc : <f32, reg> -> f32
    %after = tgc.add %before, %s : f32
    tgc.store %pacc, %after : <f32, reg>, f32
    tgc.end %i
    %sum = tgc.load %pacc : <f32, reg> -> f32
    %o = tgc.index %out[%r] : !tgc.ptr<f32>
    tgc.store %o, %sum : !tgc.ptr<f32>, f32
    tgc.end %r
    tgc.sink
  }
  return %k : tensor<52xf32>
}

// The parts' gates compare the loop's own index (a concatenation along the
// innermost axis): nothing is invariant in the loop to unswitch, so the
// loop runs once per part, each copy reading its own part without a gate
// or a select.
// CHECK-LABEL: func @concat_inner_axis(
//   CHECK-NOT:   tgc.where
//       CHECK:   %[[A:.*]] = tgc.range 4 global id 0
//       CHECK:     %[[PA:.*]] = tgc.index %arg{{.*}}[%[[A]]] : <f32>
//  CHECK-NEXT:     tgc.load %[[PA]] : <f32> -> f32
//       CHECK:   tgc.end %[[A]]
//       CHECK:   %[[B:.*]] = tgc.range 4 global id 0
//       CHECK:     tgc.load %{{.*}} : <f32> -> f32
//       CHECK:   tgc.end %[[B]]
//   CHECK-NOT:   tgc.where
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

// A reduction over a concatenation (the parts' gates compare the loop's own
// index) runs as one loop per part, one after the other, each reading its
// part without a gate and adding into the same accumulator.
// CHECK-LABEL: func @concat_along_reduction(
//   CHECK-NOT:   tgc.where
//       CHECK:   %[[K0:.*]] = tgc.range 4 reduce id 0
//       CHECK:     %[[PA:.*]] = tgc.index %arg{{.*}}[%[[K0]]] : <f32>
//  CHECK-NEXT:     tgc.load %[[PA]] : <f32> -> f32
//       CHECK:   tgc.end %[[K0]]
//       CHECK:   %[[K1:.*]] = tgc.range 4 reduce id 0
//       CHECK:     %[[AT:.*]] = tgc.add %[[K1]], %{{.*}} : index
//       CHECK:     %[[PB:.*]] = tgc.index %arg{{.*}}[%{{.*}}] : <f32>
//  CHECK-NEXT:     tgc.load %[[PB]] : <f32> -> f32
//       CHECK:   tgc.end %[[K1]]
//   CHECK-NOT:   tgc.where
//       CHECK:   tgc.sink
func.func @concat_along_reduction(%a: tensor<4xf32>, %b: tensor<4xf32>, %w: tensor<8xf32>) -> tensor<1xf32> {
  %r = tgc.kernel "r_1_8" (%a, %b, %w) : (tensor<4xf32>, tensor<4xf32>, tensor<8xf32>) -> tensor<1xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %c3 = tgc.const 3 : index
    %c4 = tgc.const 4 : index
    %m4 = tgc.const -4 : index
    %zero = tgc.const 0.0 : f32
    %acc = tgc.define_reg 1 : !tgc.ptr<f32, reg>
    %ai = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
    tgc.store %ai, %zero : !tgc.ptr<f32, reg>, f32
    %k = tgc.range 8 reduce id 0
    %inA = tgc.cmplt %k, %c4 : index
    %inB = tgc.cmplt %c3, %k : index
    %atB = tgc.add %k, %m4 : index
    %ia = tgc.index %pa[%k], %inA : !tgc.ptr<f32>
    %ib = tgc.index %pb[%atB], %inB : !tgc.ptr<f32>
    %va = tgc.load %ia else %zero : !tgc.ptr<f32> -> f32
    %vb = tgc.load %ib else %zero : !tgc.ptr<f32> -> f32
    %v = tgc.where %inB, %vb, %va : i1, f32
    %iw = tgc.index %pw[%k] : !tgc.ptr<f32>
    %vw = tgc.load %iw : !tgc.ptr<f32> -> f32
    %m = tgc.mul %v, %vw : f32
    %s = tgc.load %ai : !tgc.ptr<f32, reg> -> f32
    %n = tgc.add %s, %m : f32
    tgc.store %ai, %n : !tgc.ptr<f32, reg>, f32
    tgc.end %k
    %sum = tgc.load %ai : !tgc.ptr<f32, reg> -> f32
    %o = tgc.index %out[%c0] : !tgc.ptr<f32>
    tgc.store %o, %sum : !tgc.ptr<f32>, f32
    tgc.sink
  }
  return %r : tensor<1xf32>
}

// An image padded by one pixel on each side (MobileNetV2's input made
// channels-last): the column loop's gate is the row's condition and its
// own. The columns are cut where their own comparisons change: the two
// border columns store zeros, and the columns inside keep only the row's
// gate, invariant in the loop (which the C compiler hoists). The row loop
// is threaded: its index is a task's, and stays whole.
// CHECK-LABEL: func @padded_image(
//       CHECK:   %[[TASK:.*]] = tgc.range 2 thread id 2
//       CHECK:   %[[ROWS:.*]] = tgc.range 2 loop id 0
//       CHECK:   %[[ROW_IN:.*]] = tgc.and
//       CHECK:   tgc.mul
//       CHECK:   %[[OUT_ROW:.*]] = tgc.mul %{{.*}}, %{{.*}} : index
//   CHECK-NOT:   tgc.load
//       CHECK:   %[[LEFT:.*]] = tgc.index %arg{{.*}}[%[[OUT_ROW]]] : <f32>
//  CHECK-NEXT:   tgc.store %[[LEFT]], %{{.*}} : <f32>, f32
//       CHECK:   %[[INSIDE:.*]] = tgc.range 4 global id 1
//   CHECK-NOT:     tgc.cmplt
//       CHECK:     tgc.index %{{.*}}[%{{.*}}], %[[ROW_IN]] : <f32>
//       CHECK:   tgc.end %[[INSIDE]]
//   CHECK-NOT:   tgc.load
//       CHECK:   tgc.store
//   CHECK-NOT:   tgc.load
//       CHECK:   tgc.end %[[ROWS]]
func.func @padded_image(%a: tensor<2x4xf32>) -> tensor<4x6xf32> {
  %k = tgc.kernel "E_4_6" (%a) : (tensor<2x4xf32>) -> tensor<4x6xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %c2 = tgc.const 2 : index
    %c3 = tgc.const 3 : index
    %c4 = tgc.const 4 : index
    %c5 = tgc.const 5 : index
    %c6 = tgc.const 6 : index
    %m5 = tgc.const -5 : index
    %zero = tgc.const 0.0 : f32
    %task = tgc.range 2 thread id 2
    %first = tgc.mul %task, %c2 : index
    %r = tgc.range 2 loop id 0
    %h = tgc.add %first, %r : index
    %top = tgc.cmplt %c0, %h : index
    %bottom = tgc.cmplt %h, %c3 : index
    %rowIn = tgc.and %top, %bottom : i1
    %rowAt = tgc.mul %h, %c4 : index
    %outRow = tgc.mul %h, %c6 : index
    %w = tgc.range 6 global id 1
    %left = tgc.cmplt %c0, %w : index
    %right = tgc.cmplt %w, %c5 : index
    %cols = tgc.and %left, %right : i1
    %in = tgc.and %rowIn, %cols : i1
    %at = tgc.add %rowAt, %w : index
    %src = tgc.add %at, %m5 : index
    %ia = tgc.index %pa[%src], %in : !tgc.ptr<f32>
    %va = tgc.load %ia else %zero : !tgc.ptr<f32> -> f32
    %dst = tgc.add %outRow, %w : index
    %o = tgc.index %out[%dst] : !tgc.ptr<f32>
    tgc.store %o, %va : !tgc.ptr<f32>, f32
    tgc.end %w
    tgc.end %r
    tgc.end %task
    tgc.sink
  }
  return %k : tensor<4x6xf32>
}
