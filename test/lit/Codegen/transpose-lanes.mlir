// RUN: tgc-opt %s --split-input-file --tgc-transpose-lanes="vector-bytes=16 vector-registers=16" | FileCheck %s
// RUN: tgc-opt %s --split-input-file --tgc-transpose-lanes="vector-bytes=8 vector-registers=16" | FileCheck %s --check-prefix=NARROW
// A copy upcast along both of its axes, in[i][k][j] -> out[i][j][k], after
// tgc-expand: 16 lanes, each a scalar load and a scalar store. With 4-lane
// vectors they become 4 vector loads of the input's rows, two rounds of
// permutes (lanes one apart, then two apart) and 4 vector stores of the
// output's rows; nothing is left lane by lane.

// CHECK-LABEL: func @transpose_4x4(
//   CHECK-NOT:   tgc.load %{{.*}} : <f32> -> f32
//       CHECK:   %[[R0:.*]] = tgc.load %{{.*}} : <f32> -> vector<4xf32>
//  CHECK-NEXT:   %[[R1:.*]] = tgc.load %{{.*}} : <f32> -> vector<4xf32>
//  CHECK-NEXT:   %[[R2:.*]] = tgc.load %{{.*}} : <f32> -> vector<4xf32>
//  CHECK-NEXT:   %[[R3:.*]] = tgc.load %{{.*}} : <f32> -> vector<4xf32>
// Round 1: rows 0 and 1 trade lanes 1 and 3 of row 0 for lanes 0 and 2 of row 1.
//       CHECK:   %[[A0:.*]] = tgc.gep %[[R0]][0]
//  CHECK-NEXT:   %[[B0:.*]] = tgc.gep %[[R0]][1]
//  CHECK-NEXT:   %[[A1:.*]] = tgc.gep %[[R1]][0]
//  CHECK-NEXT:   %[[B1:.*]] = tgc.gep %[[R1]][1]
//  CHECK-NEXT:   %[[A2:.*]] = tgc.gep %[[R0]][2]
//  CHECK-NEXT:   %[[B2:.*]] = tgc.gep %[[R0]][3]
//  CHECK-NEXT:   %[[A3:.*]] = tgc.gep %[[R1]][2]
//  CHECK-NEXT:   %[[B3:.*]] = tgc.gep %[[R1]][3]
//  CHECK-NEXT:   %[[S0:.*]] = tgc.vectorize %[[A0]], %[[A1]], %[[A2]], %[[A3]] : (f32, f32, f32, f32) -> vector<4xf32>
//  CHECK-NEXT:   %[[S1:.*]] = tgc.vectorize %[[B0]], %[[B1]], %[[B2]], %[[B3]] : (f32, f32, f32, f32) -> vector<4xf32>
//       CHECK:   %[[S2:.*]] = tgc.vectorize {{.*}} : (f32, f32, f32, f32) -> vector<4xf32>
//  CHECK-NEXT:   %[[S3:.*]] = tgc.vectorize {{.*}} : (f32, f32, f32, f32) -> vector<4xf32>
// Round 2: rows 0 and 2 trade lanes 2 and 3 of row 0 for lanes 0 and 1 of row 2.
//  CHECK-NEXT:   %[[C0:.*]] = tgc.gep %[[S0]][0]
//  CHECK-NEXT:   %[[D0:.*]] = tgc.gep %[[S0]][2]
//  CHECK-NEXT:   %[[C1:.*]] = tgc.gep %[[S0]][1]
//  CHECK-NEXT:   %[[D1:.*]] = tgc.gep %[[S0]][3]
//  CHECK-NEXT:   %[[C2:.*]] = tgc.gep %[[S2]][0]
//  CHECK-NEXT:   %[[D2:.*]] = tgc.gep %[[S2]][2]
//  CHECK-NEXT:   %[[C3:.*]] = tgc.gep %[[S2]][1]
//  CHECK-NEXT:   %[[D3:.*]] = tgc.gep %[[S2]][3]
//  CHECK-NEXT:   %[[T0:.*]] = tgc.vectorize %[[C0]], %[[C1]], %[[C2]], %[[C3]]
//  CHECK-NEXT:   %[[T2:.*]] = tgc.vectorize %[[D0]], %[[D1]], %[[D2]], %[[D3]]
//       CHECK:   %[[T1:.*]] = tgc.vectorize
//  CHECK-NEXT:   %[[T3:.*]] = tgc.vectorize
//  CHECK-NEXT:   tgc.store %{{.*}}, %[[T0]] : <f32>, vector<4xf32>
//  CHECK-NEXT:   tgc.store %{{.*}}, %[[T1]] : <f32>, vector<4xf32>
//  CHECK-NEXT:   tgc.store %{{.*}}, %[[T2]] : <f32>, vector<4xf32>
//  CHECK-NEXT:   tgc.store %{{.*}}, %[[T3]] : <f32>, vector<4xf32>
//  CHECK-NEXT:   tgc.end
// Vectors of 2 lanes make no tile of 4 or more: the lanes stay.
// NARROW-LABEL: func @transpose_4x4(
// NARROW-COUNT-16: tgc.store %{{.*}}, %{{.*}} : <f32>, f32
// NARROW-NOT: vector
func.func @transpose_4x4(%x: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %k = tgc.kernel "E_2_4_4" (%x) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c1 = tgc.const 1 : index
    %c2 = tgc.const 2 : index
    %c3 = tgc.const 3 : index
    %c4 = tgc.const 4 : index
    %c5 = tgc.const 5 : index
    %c6 = tgc.const 6 : index
    %c7 = tgc.const 7 : index
    %c8 = tgc.const 8 : index
    %c9 = tgc.const 9 : index
    %c10 = tgc.const 10 : index
    %c11 = tgc.const 11 : index
    %c12 = tgc.const 12 : index
    %c13 = tgc.const 13 : index
    %c14 = tgc.const 14 : index
    %c15 = tgc.const 15 : index
    %c16 = tgc.const 16 : index
    %i = tgc.range 2 global id 0
    %b = tgc.mul %i, %c16 : index
    %a01 = tgc.add %b, %c1 : index
    %a02 = tgc.add %b, %c2 : index
    %a03 = tgc.add %b, %c3 : index
    %a10 = tgc.add %b, %c4 : index
    %a11 = tgc.add %b, %c5 : index
    %a12 = tgc.add %b, %c6 : index
    %a13 = tgc.add %b, %c7 : index
    %a20 = tgc.add %b, %c8 : index
    %a21 = tgc.add %b, %c9 : index
    %a22 = tgc.add %b, %c10 : index
    %a23 = tgc.add %b, %c11 : index
    %a30 = tgc.add %b, %c12 : index
    %a31 = tgc.add %b, %c13 : index
    %a32 = tgc.add %b, %c14 : index
    %a33 = tgc.add %b, %c15 : index
    %p00 = tgc.index %in[%b] : !tgc.ptr<f32>
    %l00 = tgc.load %p00 : !tgc.ptr<f32> -> f32
    %p01 = tgc.index %in[%a01] : !tgc.ptr<f32>
    %l01 = tgc.load %p01 : !tgc.ptr<f32> -> f32
    %p02 = tgc.index %in[%a02] : !tgc.ptr<f32>
    %l02 = tgc.load %p02 : !tgc.ptr<f32> -> f32
    %p03 = tgc.index %in[%a03] : !tgc.ptr<f32>
    %l03 = tgc.load %p03 : !tgc.ptr<f32> -> f32
    %p10 = tgc.index %in[%a10] : !tgc.ptr<f32>
    %l10 = tgc.load %p10 : !tgc.ptr<f32> -> f32
    %p11 = tgc.index %in[%a11] : !tgc.ptr<f32>
    %l11 = tgc.load %p11 : !tgc.ptr<f32> -> f32
    %p12 = tgc.index %in[%a12] : !tgc.ptr<f32>
    %l12 = tgc.load %p12 : !tgc.ptr<f32> -> f32
    %p13 = tgc.index %in[%a13] : !tgc.ptr<f32>
    %l13 = tgc.load %p13 : !tgc.ptr<f32> -> f32
    %p20 = tgc.index %in[%a20] : !tgc.ptr<f32>
    %l20 = tgc.load %p20 : !tgc.ptr<f32> -> f32
    %p21 = tgc.index %in[%a21] : !tgc.ptr<f32>
    %l21 = tgc.load %p21 : !tgc.ptr<f32> -> f32
    %p22 = tgc.index %in[%a22] : !tgc.ptr<f32>
    %l22 = tgc.load %p22 : !tgc.ptr<f32> -> f32
    %p23 = tgc.index %in[%a23] : !tgc.ptr<f32>
    %l23 = tgc.load %p23 : !tgc.ptr<f32> -> f32
    %p30 = tgc.index %in[%a30] : !tgc.ptr<f32>
    %l30 = tgc.load %p30 : !tgc.ptr<f32> -> f32
    %p31 = tgc.index %in[%a31] : !tgc.ptr<f32>
    %l31 = tgc.load %p31 : !tgc.ptr<f32> -> f32
    %p32 = tgc.index %in[%a32] : !tgc.ptr<f32>
    %l32 = tgc.load %p32 : !tgc.ptr<f32> -> f32
    %p33 = tgc.index %in[%a33] : !tgc.ptr<f32>
    %l33 = tgc.load %p33 : !tgc.ptr<f32> -> f32
    %q00 = tgc.index %out[%b] : !tgc.ptr<f32>
    tgc.store %q00, %l00 : !tgc.ptr<f32>, f32
    %q01 = tgc.index %out[%a10] : !tgc.ptr<f32>
    tgc.store %q01, %l01 : !tgc.ptr<f32>, f32
    %q02 = tgc.index %out[%a20] : !tgc.ptr<f32>
    tgc.store %q02, %l02 : !tgc.ptr<f32>, f32
    %q03 = tgc.index %out[%a30] : !tgc.ptr<f32>
    tgc.store %q03, %l03 : !tgc.ptr<f32>, f32
    %q10 = tgc.index %out[%a01] : !tgc.ptr<f32>
    tgc.store %q10, %l10 : !tgc.ptr<f32>, f32
    %q11 = tgc.index %out[%a11] : !tgc.ptr<f32>
    tgc.store %q11, %l11 : !tgc.ptr<f32>, f32
    %q12 = tgc.index %out[%a21] : !tgc.ptr<f32>
    tgc.store %q12, %l12 : !tgc.ptr<f32>, f32
    %q13 = tgc.index %out[%a31] : !tgc.ptr<f32>
    tgc.store %q13, %l13 : !tgc.ptr<f32>, f32
    %q20 = tgc.index %out[%a02] : !tgc.ptr<f32>
    tgc.store %q20, %l20 : !tgc.ptr<f32>, f32
    %q21 = tgc.index %out[%a12] : !tgc.ptr<f32>
    tgc.store %q21, %l21 : !tgc.ptr<f32>, f32
    %q22 = tgc.index %out[%a22] : !tgc.ptr<f32>
    tgc.store %q22, %l22 : !tgc.ptr<f32>, f32
    %q23 = tgc.index %out[%a32] : !tgc.ptr<f32>
    tgc.store %q23, %l23 : !tgc.ptr<f32>, f32
    %q30 = tgc.index %out[%a03] : !tgc.ptr<f32>
    tgc.store %q30, %l30 : !tgc.ptr<f32>, f32
    %q31 = tgc.index %out[%a13] : !tgc.ptr<f32>
    tgc.store %q31, %l31 : !tgc.ptr<f32>, f32
    %q32 = tgc.index %out[%a23] : !tgc.ptr<f32>
    tgc.store %q32, %l32 : !tgc.ptr<f32>, f32
    %q33 = tgc.index %out[%a33] : !tgc.ptr<f32>
    tgc.store %q33, %l33 : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<2x4x4xf32>
}

// -----

// One lane's load is gated (a padded input): the tile is not all copies,
// and nothing changes.
// CHECK-LABEL: func @gated_lane(
//   CHECK-NOT:   vector
// CHECK-COUNT-16: tgc.store %{{.*}}, %{{.*}} : <f32>, f32
//   CHECK-NOT:   vector
func.func @gated_lane(%x: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %k = tgc.kernel "E_2_4_4" (%x) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c1 = tgc.const 1 : index
    %c2 = tgc.const 2 : index
    %c3 = tgc.const 3 : index
    %c4 = tgc.const 4 : index
    %c5 = tgc.const 5 : index
    %c6 = tgc.const 6 : index
    %c7 = tgc.const 7 : index
    %c8 = tgc.const 8 : index
    %c9 = tgc.const 9 : index
    %c10 = tgc.const 10 : index
    %c11 = tgc.const 11 : index
    %c12 = tgc.const 12 : index
    %c13 = tgc.const 13 : index
    %c14 = tgc.const 14 : index
    %c15 = tgc.const 15 : index
    %c16 = tgc.const 16 : index
    %c0f = tgc.const 0.0 : f32
    %i = tgc.range 2 global id 0
    %g = tgc.cmplt %i, %c1 : index
    %b = tgc.mul %i, %c16 : index
    %a01 = tgc.add %b, %c1 : index
    %a02 = tgc.add %b, %c2 : index
    %a03 = tgc.add %b, %c3 : index
    %a10 = tgc.add %b, %c4 : index
    %a11 = tgc.add %b, %c5 : index
    %a12 = tgc.add %b, %c6 : index
    %a13 = tgc.add %b, %c7 : index
    %a20 = tgc.add %b, %c8 : index
    %a21 = tgc.add %b, %c9 : index
    %a22 = tgc.add %b, %c10 : index
    %a23 = tgc.add %b, %c11 : index
    %a30 = tgc.add %b, %c12 : index
    %a31 = tgc.add %b, %c13 : index
    %a32 = tgc.add %b, %c14 : index
    %a33 = tgc.add %b, %c15 : index
    %p00 = tgc.index %in[%b], %g : !tgc.ptr<f32>
    %l00 = tgc.load %p00 else %c0f : !tgc.ptr<f32> -> f32
    %p01 = tgc.index %in[%a01] : !tgc.ptr<f32>
    %l01 = tgc.load %p01 : !tgc.ptr<f32> -> f32
    %p02 = tgc.index %in[%a02] : !tgc.ptr<f32>
    %l02 = tgc.load %p02 : !tgc.ptr<f32> -> f32
    %p03 = tgc.index %in[%a03] : !tgc.ptr<f32>
    %l03 = tgc.load %p03 : !tgc.ptr<f32> -> f32
    %p10 = tgc.index %in[%a10] : !tgc.ptr<f32>
    %l10 = tgc.load %p10 : !tgc.ptr<f32> -> f32
    %p11 = tgc.index %in[%a11] : !tgc.ptr<f32>
    %l11 = tgc.load %p11 : !tgc.ptr<f32> -> f32
    %p12 = tgc.index %in[%a12] : !tgc.ptr<f32>
    %l12 = tgc.load %p12 : !tgc.ptr<f32> -> f32
    %p13 = tgc.index %in[%a13] : !tgc.ptr<f32>
    %l13 = tgc.load %p13 : !tgc.ptr<f32> -> f32
    %p20 = tgc.index %in[%a20] : !tgc.ptr<f32>
    %l20 = tgc.load %p20 : !tgc.ptr<f32> -> f32
    %p21 = tgc.index %in[%a21] : !tgc.ptr<f32>
    %l21 = tgc.load %p21 : !tgc.ptr<f32> -> f32
    %p22 = tgc.index %in[%a22] : !tgc.ptr<f32>
    %l22 = tgc.load %p22 : !tgc.ptr<f32> -> f32
    %p23 = tgc.index %in[%a23] : !tgc.ptr<f32>
    %l23 = tgc.load %p23 : !tgc.ptr<f32> -> f32
    %p30 = tgc.index %in[%a30] : !tgc.ptr<f32>
    %l30 = tgc.load %p30 : !tgc.ptr<f32> -> f32
    %p31 = tgc.index %in[%a31] : !tgc.ptr<f32>
    %l31 = tgc.load %p31 : !tgc.ptr<f32> -> f32
    %p32 = tgc.index %in[%a32] : !tgc.ptr<f32>
    %l32 = tgc.load %p32 : !tgc.ptr<f32> -> f32
    %p33 = tgc.index %in[%a33] : !tgc.ptr<f32>
    %l33 = tgc.load %p33 : !tgc.ptr<f32> -> f32
    %q00 = tgc.index %out[%b] : !tgc.ptr<f32>
    tgc.store %q00, %l00 : !tgc.ptr<f32>, f32
    %q01 = tgc.index %out[%a10] : !tgc.ptr<f32>
    tgc.store %q01, %l01 : !tgc.ptr<f32>, f32
    %q02 = tgc.index %out[%a20] : !tgc.ptr<f32>
    tgc.store %q02, %l02 : !tgc.ptr<f32>, f32
    %q03 = tgc.index %out[%a30] : !tgc.ptr<f32>
    tgc.store %q03, %l03 : !tgc.ptr<f32>, f32
    %q10 = tgc.index %out[%a01] : !tgc.ptr<f32>
    tgc.store %q10, %l10 : !tgc.ptr<f32>, f32
    %q11 = tgc.index %out[%a11] : !tgc.ptr<f32>
    tgc.store %q11, %l11 : !tgc.ptr<f32>, f32
    %q12 = tgc.index %out[%a21] : !tgc.ptr<f32>
    tgc.store %q12, %l12 : !tgc.ptr<f32>, f32
    %q13 = tgc.index %out[%a31] : !tgc.ptr<f32>
    tgc.store %q13, %l13 : !tgc.ptr<f32>, f32
    %q20 = tgc.index %out[%a02] : !tgc.ptr<f32>
    tgc.store %q20, %l20 : !tgc.ptr<f32>, f32
    %q21 = tgc.index %out[%a12] : !tgc.ptr<f32>
    tgc.store %q21, %l21 : !tgc.ptr<f32>, f32
    %q22 = tgc.index %out[%a22] : !tgc.ptr<f32>
    tgc.store %q22, %l22 : !tgc.ptr<f32>, f32
    %q23 = tgc.index %out[%a32] : !tgc.ptr<f32>
    tgc.store %q23, %l23 : !tgc.ptr<f32>, f32
    %q30 = tgc.index %out[%a03] : !tgc.ptr<f32>
    tgc.store %q30, %l30 : !tgc.ptr<f32>, f32
    %q31 = tgc.index %out[%a13] : !tgc.ptr<f32>
    tgc.store %q31, %l31 : !tgc.ptr<f32>, f32
    %q32 = tgc.index %out[%a23] : !tgc.ptr<f32>
    tgc.store %q32, %l32 : !tgc.ptr<f32>, f32
    %q33 = tgc.index %out[%a33] : !tgc.ptr<f32>
    tgc.store %q33, %l33 : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<2x4x4xf32>
}
