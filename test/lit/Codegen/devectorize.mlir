// RUN: tgc-opt %s --split-input-file --tgc-devectorize | FileCheck %s
// Lanes whose indices are i, i+1, ... become one vector load or store.

// CHECK-LABEL: func @contiguous(
//       CHECK:   %[[I:.*]] = tgc.range 2 global id 0
//       CHECK:   %[[B:.*]] = tgc.mul %[[I]], %{{.*}} : index
//       CHECK:   %[[P:.*]] = tgc.index %{{.*}}[%[[B]]] : <f32>
//   CHECK-NOT:   tgc.load %{{.*}} : <f32> -> f32
//       CHECK:   %[[V:.*]] = tgc.load %[[P]] : <f32> -> vector<4xf32>
//       CHECK:   %[[S:.*]] = tgc.add %[[V]], %[[V]] : vector<4xf32>
//       CHECK:   %[[Q:.*]] = tgc.index %{{.*}}[%[[B]]] : <f32>
//   CHECK-NOT:   tgc.store %{{.*}}, %{{.*}} : <f32>, f32
//       CHECK:   tgc.store %[[Q]], %[[S]] : <f32>, vector<4xf32>
//  CHECK-NEXT:   tgc.end %[[I]]
func.func @contiguous(%x: tensor<8xf32>) -> tensor<8xf32> {
  %k = tgc.kernel "E_8" (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c1 = tgc.const 1 : index
    %c2 = tgc.const 2 : index
    %c3 = tgc.const 3 : index
    %c4 = tgc.const 4 : index
    %i = tgc.range 2 global id 0
    %b = tgc.mul %i, %c4 : index
    %i1 = tgc.add %b, %c1 : index
    %i2 = tgc.add %b, %c2 : index
    %i3 = tgc.add %b, %c3 : index
    %p0 = tgc.index %in[%b] : !tgc.ptr<f32>
    %p1 = tgc.index %in[%i1] : !tgc.ptr<f32>
    %p2 = tgc.index %in[%i2] : !tgc.ptr<f32>
    %p3 = tgc.index %in[%i3] : !tgc.ptr<f32>
    %l0 = tgc.load %p0 : !tgc.ptr<f32> -> f32
    %l1 = tgc.load %p1 : !tgc.ptr<f32> -> f32
    %l2 = tgc.load %p2 : !tgc.ptr<f32> -> f32
    %l3 = tgc.load %p3 : !tgc.ptr<f32> -> f32
    %v = tgc.vectorize %l0, %l1, %l2, %l3 : (f32, f32, f32, f32) -> vector<4xf32>
    %s = tgc.add %v, %v : vector<4xf32>
    %s0 = tgc.gep %s[0] : vector<4xf32> -> f32
    %s1 = tgc.gep %s[1] : vector<4xf32> -> f32
    %s2 = tgc.gep %s[2] : vector<4xf32> -> f32
    %s3 = tgc.gep %s[3] : vector<4xf32> -> f32
    %q0 = tgc.index %out[%b] : !tgc.ptr<f32>
    %q1 = tgc.index %out[%i1] : !tgc.ptr<f32>
    %q2 = tgc.index %out[%i2] : !tgc.ptr<f32>
    %q3 = tgc.index %out[%i3] : !tgc.ptr<f32>
    tgc.store %q0, %s0 : !tgc.ptr<f32>, f32
    tgc.store %q1, %s1 : !tgc.ptr<f32>, f32
    tgc.store %q2, %s2 : !tgc.ptr<f32>, f32
    tgc.store %q3, %s3 : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<8xf32>
}

// -----

// Two lanes two apart (too few for two loads and a permute) stay a gather
// and scattered stores; lanes under different gates too.
// CHECK-LABEL: func @not_contiguous(
//       CHECK-COUNT-2: tgc.load %{{.*}} : <f32> -> f32
//       CHECK:   tgc.vectorize
//       CHECK-COUNT-2: tgc.load %{{.*}} else %{{.*}} : <f32> -> f32
//       CHECK:   tgc.vectorize
//       CHECK-COUNT-2: tgc.store %{{.*}}, %{{.*}} : <f32>, f32
//   CHECK-NOT:   vector<2xf32>, vector
func.func @not_contiguous(%x: tensor<8xf32>, %g: tensor<2xi1>) -> tensor<4xf32> {
  %k = tgc.kernel "E_4" (%x, %g) : (tensor<8xf32>, tensor<2xi1>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %gates: !tgc.ptr<i1>, %out: !tgc.ptr<f32>):
    %c1 = tgc.const 1 : index
    %c2 = tgc.const 2 : index
    %zero = tgc.const 0.0 : f32
    %i = tgc.range 2 global id 0
    %b = tgc.mul %i, %c2 : index
    %b1 = tgc.add %b, %c1 : index
    %b2 = tgc.add %b, %c2 : index
    %p0 = tgc.index %in[%b] : !tgc.ptr<f32>
    %p2 = tgc.index %in[%b2] : !tgc.ptr<f32>
    %l0 = tgc.load %p0 : !tgc.ptr<f32> -> f32
    %l2 = tgc.load %p2 : !tgc.ptr<f32> -> f32
    %strided = tgc.vectorize %l0, %l2 : (f32, f32) -> vector<2xf32>
    %gp0 = tgc.index %gates[%c1] : !tgc.ptr<i1>
    %g0 = tgc.load %gp0 : !tgc.ptr<i1> -> i1
    %gp1 = tgc.index %gates[%c2] : !tgc.ptr<i1>
    %g1 = tgc.load %gp1 : !tgc.ptr<i1> -> i1
    %m0 = tgc.index %in[%b], %g0 : !tgc.ptr<f32>
    %m1 = tgc.index %in[%b1], %g1 : !tgc.ptr<f32>
    %n0 = tgc.load %m0 else %zero : !tgc.ptr<f32> -> f32
    %n1 = tgc.load %m1 else %zero : !tgc.ptr<f32> -> f32
    %gated = tgc.vectorize %n0, %n1 : (f32, f32) -> vector<2xf32>
    %s = tgc.add %strided, %gated : vector<2xf32>
    %s0 = tgc.gep %s[0] : vector<2xf32> -> f32
    %s1 = tgc.gep %s[1] : vector<2xf32> -> f32
    %q0 = tgc.index %out[%b] : !tgc.ptr<f32>
    %q1 = tgc.index %out[%b2] : !tgc.ptr<f32>
    tgc.store %q0, %s0 : !tgc.ptr<f32>, f32
    tgc.store %q1, %s1 : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// -----

// One gate for all lanes: a gated vector load whose alternative is the
// splat of the lanes' alternative.
// CHECK-LABEL: func @gated(
//       CHECK:   %[[G:.*]] = tgc.cmplt
//       CHECK:   %[[P:.*]] = tgc.index %{{.*}}[%{{.*}}], %[[G]] : <f32>
//       CHECK:   %[[Z:.*]] = tgc.vectorize %[[ZERO:.*]], %[[ZERO]] : (f32, f32) -> vector<2xf32>
//  CHECK-NEXT:   tgc.load %[[P]] else %[[Z]] : <f32> -> vector<2xf32>
func.func @gated(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "E_4" (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c1 = tgc.const 1 : index
    %c2 = tgc.const 2 : index
    %zero = tgc.const 0.0 : f32
    %i = tgc.range 2 global id 0
    %g = tgc.cmplt %i, %c1 : index
    %b = tgc.mul %i, %c2 : index
    %b1 = tgc.add %b, %c1 : index
    %p0 = tgc.index %in[%b], %g : !tgc.ptr<f32>
    %p1 = tgc.index %in[%b1], %g : !tgc.ptr<f32>
    %l0 = tgc.load %p0 else %zero : !tgc.ptr<f32> -> f32
    %l1 = tgc.load %p1 else %zero : !tgc.ptr<f32> -> f32
    %v = tgc.vectorize %l0, %l1 : (f32, f32) -> vector<2xf32>
    %q = tgc.index %out[%b] : !tgc.ptr<f32>
    tgc.store %q, %v : !tgc.ptr<f32>, vector<2xf32>
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// -----

// Four lanes reading every other element (a convolution of stride 2): two
// contiguous vector loads, from lane 0's index and from lane 2's, whose
// even lanes make the vector. Both fit in the 16 elements of the buffer.
// CHECK-LABEL: func @stride_two(
//       CHECK:   %[[P0:.*]] = tgc.index %{{.*}}[%{{.*}}] : <f32>
//       CHECK:   %[[P2:.*]] = tgc.index %{{.*}}[%{{.*}}] : <f32>
//   CHECK-NOT:   tgc.load %{{.*}} : <f32> -> f32
//       CHECK:   %[[A:.*]] = tgc.load %[[P0]] : <f32> -> vector<4xf32>
//  CHECK-NEXT:   %[[B:.*]] = tgc.load %[[P2]] : <f32> -> vector<4xf32>
//  CHECK-NEXT:   %[[A0:.*]] = tgc.gep %[[A]][0]
//  CHECK-NEXT:   %[[A2:.*]] = tgc.gep %[[A]][2]
//  CHECK-NEXT:   %[[B0:.*]] = tgc.gep %[[B]][0]
//  CHECK-NEXT:   %[[B2:.*]] = tgc.gep %[[B]][2]
//  CHECK-NEXT:   tgc.vectorize %[[A0]], %[[A2]], %[[B0]], %[[B2]] : (f32, f32, f32, f32) -> vector<4xf32>
func.func @stride_two(%x: tensor<16xf32>) -> tensor<8xf32> {
  %k = tgc.kernel "E_8" (%x) : (tensor<16xf32>) -> tensor<8xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c2 = tgc.const 2 : index
    %c4 = tgc.const 4 : index
    %c6 = tgc.const 6 : index
    %c8 = tgc.const 8 : index
    %i = tgc.range 2 global id 0
    %b = tgc.mul %i, %c8 : index
    %i1 = tgc.add %b, %c2 : index
    %i2 = tgc.add %b, %c4 : index
    %i3 = tgc.add %b, %c6 : index
    %p0 = tgc.index %in[%b] : !tgc.ptr<f32>
    %p1 = tgc.index %in[%i1] : !tgc.ptr<f32>
    %p2 = tgc.index %in[%i2] : !tgc.ptr<f32>
    %p3 = tgc.index %in[%i3] : !tgc.ptr<f32>
    %l0 = tgc.load %p0 : !tgc.ptr<f32> -> f32
    %l1 = tgc.load %p1 : !tgc.ptr<f32> -> f32
    %l2 = tgc.load %p2 : !tgc.ptr<f32> -> f32
    %l3 = tgc.load %p3 : !tgc.ptr<f32> -> f32
    %v = tgc.vectorize %l0, %l1, %l2, %l3 : (f32, f32, f32, f32) -> vector<4xf32>
    %o = tgc.mul %i, %c4 : index
    %q = tgc.index %out[%o] : !tgc.ptr<f32>
    tgc.store %q, %v : !tgc.ptr<f32>, vector<4xf32>
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<8xf32>
}

// -----

// The same lanes at the end of a buffer of 15 elements: a whole second
// vector would read element 15 for the last row, so it reads its first
// three lanes only.
// CHECK-LABEL: func @stride_two_at_end(
//       CHECK:   tgc.index %{{.*}}[%{{.*}}] : <f32>
//  CHECK-NEXT:   %[[P2:.*]] = tgc.index %{{.*}}[%{{.*}}] : <f32>
//       CHECK:   tgc.load %{{.*}} : <f32> -> vector<4xf32>
//  CHECK-NEXT:   tgc.load %[[P2]] {active_lanes = 3 : i64} : <f32> -> vector<4xf32>
func.func @stride_two_at_end(%x: tensor<15xf32>) -> tensor<8xf32> {
  %k = tgc.kernel "E_8" (%x) : (tensor<15xf32>) -> tensor<8xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c2 = tgc.const 2 : index
    %c4 = tgc.const 4 : index
    %c6 = tgc.const 6 : index
    %c8 = tgc.const 8 : index
    %i = tgc.range 2 global id 0
    %b = tgc.mul %i, %c8 : index
    %i1 = tgc.add %b, %c2 : index
    %i2 = tgc.add %b, %c4 : index
    %i3 = tgc.add %b, %c6 : index
    %p0 = tgc.index %in[%b] : !tgc.ptr<f32>
    %p1 = tgc.index %in[%i1] : !tgc.ptr<f32>
    %p2 = tgc.index %in[%i2] : !tgc.ptr<f32>
    %p3 = tgc.index %in[%i3] : !tgc.ptr<f32>
    %l0 = tgc.load %p0 : !tgc.ptr<f32> -> f32
    %l1 = tgc.load %p1 : !tgc.ptr<f32> -> f32
    %l2 = tgc.load %p2 : !tgc.ptr<f32> -> f32
    %l3 = tgc.load %p3 : !tgc.ptr<f32> -> f32
    %v = tgc.vectorize %l0, %l1, %l2, %l3 : (f32, f32, f32, f32) -> vector<4xf32>
    %o = tgc.mul %i, %c4 : index
    %q = tgc.index %out[%o] : !tgc.ptr<f32>
    tgc.store %q, %v : !tgc.ptr<f32>, vector<4xf32>
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<8xf32>
}
