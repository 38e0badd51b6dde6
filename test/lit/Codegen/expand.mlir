// RUN: tgc-opt %s --tgc-expand | FileCheck %s
// RUN: tgc-opt %s --tgc-expand="max-vector=1" | FileCheck %s --check-prefix=COPIES
// Lane ranges are written out: ops that depend on one repeat per lane (as
// scalars, or as one vector op for the vector range), the rest is shared.

// The upcast range is contiguous in the output: vector lanes. The shared
// load is splat; the cast of each lane's index stays a scalar per lane and
// is gathered; the product and the reduce are vectors; each lane's store
// takes its lane with tgc.gep (tgc-devectorize merges them).
// CHECK-LABEL: func @lanes(
//   CHECK-NOT:     upcast
//       CHECK:     %[[K:.*]] = tgc.range 8 reduce id 1
//       CHECK:     %[[X:.*]] = tgc.load %{{.*}} : <f32> -> f32
//  CHECK-NEXT:     %[[XS:.*]] = tgc.vectorize %[[X]], %[[X]] : (f32, f32) -> vector<2xf32>
//  CHECK-NEXT:     %[[F0:.*]] = tgc.cast %{{.*}} : index to f32
//  CHECK-NEXT:     %[[F1:.*]] = tgc.cast %{{.*}} : index to f32
//  CHECK-NEXT:     %[[F:.*]] = tgc.vectorize %[[F0]], %[[F1]] : (f32, f32) -> vector<2xf32>
//  CHECK-NEXT:     %[[M:.*]] = tgc.mul %[[XS]], %[[F]] : vector<2xf32>
//  CHECK-NEXT:     tgc.end %[[K]]
//  CHECK-NEXT:     %[[S:.*]] = tgc.reduce add %[[M]] over %[[K]] : vector<2xf32>
//  CHECK-NEXT:     %[[S0:.*]] = tgc.gep %[[S]][0] : vector<2xf32> -> f32
//  CHECK-NEXT:     %[[S1:.*]] = tgc.gep %[[S]][1] : vector<2xf32> -> f32
//       CHECK:     tgc.store %{{.*}}, %[[S0]] : <f32>, f32
//  CHECK-NEXT:     tgc.store %{{.*}}, %[[S1]] : <f32>, f32
//  CHECK-NEXT:     tgc.end
//  CHECK-NEXT:     tgc.sink
// Without vectors the lanes are copies.
// COPIES-LABEL: func @lanes(
//       COPIES:     %[[K:.*]] = tgc.range 8 reduce id 1
//       COPIES:     %[[X:.*]] = tgc.load
//   COPIES-NOT:     tgc.load %{{.*}} : <f32> -> f32
//       COPIES:     %[[M0:.*]] = tgc.mul %[[X]], %{{.*}} : f32
//       COPIES:     %[[M1:.*]] = tgc.mul %[[X]], %{{.*}} : f32
//       COPIES:     tgc.end %[[K]]
//       COPIES:     tgc.reduce add %[[M0]] over %[[K]] : f32
//       COPIES:     tgc.reduce add %[[M1]] over %[[K]] : f32
//       COPIES-COUNT-2: tgc.store
//       COPIES:     tgc.end
//  COPIES-NEXT:     tgc.sink
func.func @lanes(%x: tensor<8xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "r_4_8" (%x) : (tensor<8xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c2 = tgc.const 2 : index
    %o = tgc.range 2 global id 0
    %u = tgc.range 2 upcast id 2
    %os = tgc.mul %o, %c2 : index
    %i = tgc.add %os, %u : index
    %k = tgc.range 8 reduce id 1
    %p = tgc.index %in[%k] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %f = tgc.cast %i : index to f32
    %m = tgc.mul %v, %f : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %q = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %q, %s : !tgc.ptr<f32>, f32
    tgc.end %u
    tgc.end %o
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// A max over unroll lanes: each lane accumulates over the rest of the
// axis, then the lanes are combined (as a vector: one vector accumulator,
// then a tree over its lanes).
// CHECK-LABEL: func @unroll_sum(
//       CHECK:     %[[K:.*]] = tgc.range 2 reduce id 0
//       CHECK:     %[[V:.*]] = tgc.vectorize %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (f32, f32, f32, f32) -> vector<4xf32>
//       CHECK:     tgc.end %[[K]]
//  CHECK-NEXT:     %[[S:.*]] = tgc.reduce max %[[V]] over %[[K]] : vector<4xf32>
//  CHECK-NEXT:     %[[L0:.*]] = tgc.gep %[[S]][0]
//  CHECK-NEXT:     %[[L1:.*]] = tgc.gep %[[S]][1]
//  CHECK-NEXT:     %[[L2:.*]] = tgc.gep %[[S]][2]
//  CHECK-NEXT:     %[[L3:.*]] = tgc.gep %[[S]][3]
//  CHECK-NEXT:     %[[A:.*]] = tgc.max %[[L0]], %[[L1]] : f32
//  CHECK-NEXT:     %[[B:.*]] = tgc.max %[[L2]], %[[L3]] : f32
//  CHECK-NEXT:     %[[T:.*]] = tgc.max %[[A]], %[[B]] : f32
//  CHECK-NEXT:     tgc.store %{{.*}}, %[[T]] : <f32>, f32
// COPIES-LABEL: func @unroll_sum(
//       COPIES:     %[[K:.*]] = tgc.range 2 reduce id 0
//       COPIES:     tgc.end %[[K]]
//       COPIES-COUNT-4: tgc.reduce max %{{.*}} over %[[K]] : f32
//       COPIES:     %[[A:.*]] = tgc.max
//  COPIES-NEXT:     %[[B:.*]] = tgc.max
//  COPIES-NEXT:     %[[T:.*]] = tgc.max %[[A]], %[[B]] : f32
//  COPIES-NEXT:     tgc.store %{{.*}}, %[[T]] : <f32>, f32
func.func @unroll_sum(%x: tensor<8xf32>) -> tensor<1xf32> {
  %k = tgc.kernel "r_1_8" (%x) : (tensor<8xf32>) -> tensor<1xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c4 = tgc.const 4 : index
    %k = tgc.range 2 reduce id 0
    %u = tgc.range 4 unroll id 1
    %ks = tgc.mul %k, %c4 : index
    %i = tgc.add %ks, %u : index
    %p = tgc.index %in[%i] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    tgc.end %u
    tgc.end %k
    %s = tgc.reduce max %v over %k, %u : f32
    tgc.store %out, %s : !tgc.ptr<f32>, f32
    tgc.sink
  }
  return %k : tensor<1xf32>
}

// A sum over unroll lanes of values that are each a reduction (a 1x1
// convolution summed over a pool's pixels): the lanes combine inside the
// loop and one accumulator sums over the rest, not one per lane.
// CHECK-LABEL: func @unroll_outer_sum(
//       CHECK:     %[[Y:.*]] = tgc.range 2 reduce id 0
//       CHECK:     %[[J:.*]] = tgc.range 4 reduce id 2
//       CHECK:     tgc.end %[[J]]
//  CHECK-NEXT:     %[[A:.*]] = tgc.reduce add %{{.*}} over %[[J]] : f32
//  CHECK-NEXT:     %[[B:.*]] = tgc.reduce add %{{.*}} over %[[J]] : f32
//  CHECK-NEXT:     %[[C:.*]] = tgc.reduce add %{{.*}} over %[[J]] : f32
//  CHECK-NEXT:     %[[AB:.*]] = tgc.add %[[A]], %[[B]] : f32
//  CHECK-NEXT:     %[[ABC:.*]] = tgc.add %[[AB]], %[[C]] : f32
//  CHECK-NEXT:     tgc.end %[[Y]]
//  CHECK-NEXT:     %[[S:.*]] = tgc.reduce add %[[ABC]] over %[[Y]] : f32
//  CHECK-NEXT:     tgc.store %{{.*}}, %[[S]] : <f32>, f32
func.func @unroll_outer_sum(%x: tensor<24xf32>) -> tensor<1xf32> {
  %k = tgc.kernel "r_1_2_3_4" (%x) : (tensor<24xf32>) -> tensor<1xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c4 = tgc.const 4 : index
    %c12 = tgc.const 12 : index
    %y = tgc.range 2 reduce id 0
    %u = tgc.range 3 unroll id 1
    %j = tgc.range 4 reduce id 2
    %ys = tgc.mul %y, %c12 : index
    %us = tgc.mul %u, %c4 : index
    %b = tgc.add %ys, %us : index
    %i = tgc.add %b, %j : index
    %p = tgc.index %in[%i] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    tgc.end %j
    %inner = tgc.reduce add %v over %j : f32
    tgc.end %u
    tgc.end %y
    %s = tgc.reduce add %inner over %y, %u : f32
    tgc.store %out, %s : !tgc.ptr<f32>, f32
    tgc.sink
  }
  return %k : tensor<1xf32>
}

// Two lane ranges: the one the loads of the reduction are contiguous along
// (the columns of b) becomes the vector; the rows are copies.
// CHECK-LABEL: func @vector_choice(
//   CHECK-NOT:     upcast
//       CHECK:     tgc.range 4 reduce id 1
//       CHECK-COUNT-2: tgc.mul %{{.*}}, %{{.*}} : vector<4xf32>
//   CHECK-NOT:     tgc.mul %{{.*}}, %{{.*}} : vector
//       CHECK:     tgc.end
func.func @vector_choice(%a: tensor<2x4xf32>, %b: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %k = tgc.kernel "r_2_4_4" (%a, %b) : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c4 = tgc.const 4 : index
    %i = tgc.range 2 upcast id 0
    %j = tgc.range 4 upcast id 2
    %k = tgc.range 4 reduce id 1
    %ai = tgc.mul %i, %c4 : index
    %ak = tgc.add %ai, %k : index
    %p = tgc.index %pa[%ak] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %bk = tgc.mul %k, %c4 : index
    %bj = tgc.add %bk, %j : index
    %q = tgc.index %pb[%bj] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %oi = tgc.mul %i, %c4 : index
    %oj = tgc.add %oi, %j : index
    %o = tgc.index %out[%oj] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<2x4xf32>
}

// A batched product of Winograd's transform (out[k][t] = sum over c of
// w[c][k] x[c][t]): the weights are contiguous along the 8 output
// channels, the inputs and the stores along the 4 tiles. The loads of the
// reduction count most, and 8 lanes do twice the work of 4: the channels
// are the vector, the tiles copies (their stores scalars per lane).
// CHECK-LABEL: func @wider_vector(
//       CHECK:     tgc.range 16 reduce id 2
//       CHECK-COUNT-4: tgc.mul %{{.*}}, %{{.*}} : vector<8xf32>
//   CHECK-NOT:     vector<4xf32>
//       CHECK:     tgc.end
func.func @wider_vector(%w: tensor<16x8xf32>, %x: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %k = tgc.kernel "r_8_4_16" (%w, %x) : (tensor<16x8xf32>, tensor<16x4xf32>) -> tensor<8x4xf32> {
  ^bb0(%pw: !tgc.ptr<f32>, %px: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c4 = tgc.const 4 : index
    %c8 = tgc.const 8 : index
    %o = tgc.range 8 upcast id 0
    %t = tgc.range 4 upcast id 1
    %c = tgc.range 16 reduce id 2
    %wc = tgc.mul %c, %c8 : index
    %wa = tgc.add %wc, %o : index
    %p = tgc.index %pw[%wa] : !tgc.ptr<f32>
    %a = tgc.load %p : !tgc.ptr<f32> -> f32
    %xc = tgc.mul %c, %c4 : index
    %xa = tgc.add %xc, %t : index
    %q = tgc.index %px[%xa] : !tgc.ptr<f32>
    %b = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %c
    %s = tgc.reduce add %m over %c : f32
    %oo = tgc.mul %o, %c4 : index
    %oa = tgc.add %oo, %t : index
    %r = tgc.index %out[%oa] : !tgc.ptr<f32>
    tgc.store %r, %s : !tgc.ptr<f32>, f32
    tgc.end %t
    tgc.end %o
    tgc.sink
  }
  return %k : tensor<8x4xf32>
}

// A row's sum over unroll lanes, then the row scaled in upcast lanes: no
// vector value varies with both ranges, so both are written as vectors
// (the sum's lanes combine into one scalar, splat for the update).
// CHECK-LABEL: func @two_vectors(
//       CHECK:     %[[K:.*]] = tgc.range 2 reduce id 0
//       CHECK:     %[[SQ:.*]] = tgc.mul %{{.*}}, %{{.*}} : vector<4xf32>
//       CHECK:     tgc.end %[[K]]
//  CHECK-NEXT:     tgc.reduce add %[[SQ]] over %[[K]] : vector<4xf32>
//       CHECK:     %[[SPLAT:.*]] = tgc.vectorize %[[S:.*]], %[[S]], %[[S]], %[[S]] : (f32, f32, f32, f32) -> vector<4xf32>
//       CHECK:     tgc.mul %{{.*}}, %[[SPLAT]] : vector<4xf32>
// COPIES-LABEL: func @two_vectors(
//   COPIES-NOT:     vector
//       COPIES:     tgc.sink
func.func @two_vectors(%x: tensor<8xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "r_4_8" (%x) : (tensor<8xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c4 = tgc.const 4 : index
    %j = tgc.range 4 upcast id 2
    %k = tgc.range 2 reduce id 0
    %u = tgc.range 4 unroll id 1
    %ks = tgc.mul %k, %c4 : index
    %i = tgc.add %ks, %u : index
    %p = tgc.index %in[%i] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %sq = tgc.mul %v, %v : f32
    tgc.end %u
    tgc.end %k
    %s = tgc.reduce add %sq over %k, %u : f32
    %q = tgc.index %in[%j] : !tgc.ptr<f32>
    %x0 = tgc.load %q : !tgc.ptr<f32> -> f32
    %y = tgc.mul %x0, %s : f32
    %o = tgc.index %out[%j] : !tgc.ptr<f32>
    tgc.store %o, %y : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// A concatenation along an upcast range selects one part per lane. Each lane
// copies only the part it picks (one load, not one per part): its conditions
// fold as they are copied, and so do the selects they decide.
// CHECK-LABEL: func @concat_lanes(
//   CHECK-NOT:     upcast
//   CHECK-NOT:     tgc.cmplt
//   CHECK-NOT:     tgc.where
//       CHECK:     %[[A:.*]] = tgc.load %{{.*}} else %{{.*}} : <f32> -> f32
//  CHECK-NEXT:     %[[A2:.*]] = tgc.mul %[[A]], %{{.*}} : f32
//   CHECK-NOT:     tgc.load %{{.*}} : <f32> -> f32
//       CHECK:     %[[B:.*]] = tgc.load %{{.*}} else %{{.*}} : <f32> -> f32
//  CHECK-NEXT:     %[[B1:.*]] = tgc.add %[[B]], %{{.*}} : f32
//       CHECK:     %[[C:.*]] = tgc.load %{{.*}} : <f32> -> f32
//   CHECK-NOT:     tgc.load
//       CHECK:     tgc.store %{{.*}}, %[[A2]] : <f32>, f32
//  CHECK-NEXT:     tgc.store %{{.*}}, %[[B1]] : <f32>, f32
//  CHECK-NEXT:     tgc.store %{{.*}}, %[[C]] : <f32>, f32
//  CHECK-NEXT:     tgc.sink
// COPIES-LABEL: func @concat_lanes(
//   COPIES-COUNT-3: tgc.load
//   COPIES-NOT:     tgc.load
//       COPIES:     tgc.sink
func.func @concat_lanes(%a: tensor<1xf32>, %b: tensor<1xf32>,
                        %c: tensor<1xf32>) -> tensor<3xf32> {
  %k = tgc.kernel "E_3" (%a, %b, %c)
      : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %pc: !tgc.ptr<f32>,
       %out: !tgc.ptr<f32>):
    %c1 = tgc.const 1 : index
    %c2 = tgc.const 2 : index
    %zero = tgc.const 0.0 : f32
    %one = tgc.const 1.0 : f32
    %two = tgc.const 2.0 : f32
    %u = tgc.range 3 upcast id 0
    %in0 = tgc.cmplt %u, %c1 : index
    %ia = tgc.index %pa[%u], %in0 : !tgc.ptr<f32>
    %va = tgc.load %ia else %zero : !tgc.ptr<f32> -> f32
    %ma = tgc.mul %va, %two : f32
    %in1 = tgc.cmplt %u, %c2 : index
    %ub = tgc.sub %u, %c1 : index
    %ib = tgc.index %pb[%ub], %in1 : !tgc.ptr<f32>
    %vb = tgc.load %ib else %zero : !tgc.ptr<f32> -> f32
    %ab = tgc.add %vb, %one : f32
    %uc = tgc.sub %u, %c2 : index
    %ic = tgc.index %pc[%uc] : !tgc.ptr<f32>
    %vc = tgc.load %ic : !tgc.ptr<f32> -> f32
    %w1 = tgc.where %in1, %ab, %vc : i1, f32
    %w0 = tgc.where %in0, %ma, %w1 : i1, f32
    %o = tgc.index %out[%u] : !tgc.ptr<f32>
    tgc.store %o, %w0 : !tgc.ptr<f32>, f32
    tgc.end %u
    tgc.sink
  }
  return %k : tensor<3xf32>
}

// (x * s) * w, x varying with the copied range p and w with the vector
// range o, is regrouped x * (s * w): one vector product of the scale and
// the weight, shared by both copies, instead of x * s once per copy (a
// Squeeze-and-Excitation scale fused into a 1x1 convolution's tile).
// CHECK-LABEL: func @regroup_product(
//       CHECK:     tgc.index %arg4[
//  CHECK-NEXT:     tgc.load
//  CHECK-NEXT:     %[[S:.*]] = tgc.vectorize
//       CHECK:     %[[W:.*]] = tgc.vectorize
//  CHECK-NEXT:     %[[SW:.*]] = tgc.mul %[[S]], %[[W]] : vector<4xf32>
//  CHECK-NEXT:     tgc.mul %{{.*}}, %[[SW]] : vector<4xf32>
//  CHECK-NEXT:     tgc.mul %{{.*}}, %[[SW]] : vector<4xf32>
//  CHECK-NEXT:     tgc.end
// With every range copied nothing is gained (s * w would be 4 copies, x * s
// is 2): 2 products x * s and 8 with w.
// COPIES-LABEL: func @regroup_product(
// COPIES-COUNT-10: tgc.mul %{{.*}}, %{{.*}} : f32
//   COPIES-NOT:     tgc.mul %{{.*}}, %{{.*}} : f32
//       COPIES:     tgc.end
func.func @regroup_product(%x: tensor<16xf32>, %s: tensor<8xf32>, %w: tensor<32xf32>) -> tensor<8xf32> {
  %r = tgc.kernel "r_2_4_8" (%x, %s, %w) : (tensor<16xf32>, tensor<8xf32>, tensor<32xf32>) -> tensor<8xf32> {
  ^bb0(%xin: !tgc.ptr<f32>, %sin: !tgc.ptr<f32>, %win: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c4 = tgc.const 4 : index
    %c8 = tgc.const 8 : index
    %p = tgc.range 2 upcast id 0
    %o = tgc.range 4 upcast id 1
    %k = tgc.range 8 reduce id 2
    %p8 = tgc.mul %p, %c8 : index
    %xi = tgc.add %p8, %k : index
    %xp = tgc.index %xin[%xi] : !tgc.ptr<f32>
    %xv = tgc.load %xp : !tgc.ptr<f32> -> f32
    %sp = tgc.index %sin[%k] : !tgc.ptr<f32>
    %sv = tgc.load %sp : !tgc.ptr<f32> -> f32
    %k4 = tgc.mul %k, %c4 : index
    %wi = tgc.add %k4, %o : index
    %wp = tgc.index %win[%wi] : !tgc.ptr<f32>
    %wv = tgc.load %wp : !tgc.ptr<f32> -> f32
    %xs = tgc.mul %xv, %sv : f32
    %m = tgc.mul %xs, %wv : f32
    tgc.end %k
    %sum = tgc.reduce add %m over %k : f32
    %p4 = tgc.mul %p, %c4 : index
    %oi = tgc.add %p4, %o : index
    %op = tgc.index %out[%oi] : !tgc.ptr<f32>
    tgc.store %op, %sum : !tgc.ptr<f32>, f32
    tgc.end %o
    tgc.end %p
    tgc.sink
  }
  return %r : tensor<8xf32>
}

// The parts of a concatenation along the reduction (loads gated by the
// reduce index) count as one access when the vector range is chosen: the
// weight's 8 lanes win over the two parts' 4 pixels (SqueezeNet's squeeze
// convolutions).
// CHECK-LABEL: func @concat_parts_vote_once(
//   CHECK-NOT:     vector<4xf32>
//       CHECK:     tgc.vectorize %[[X:.*]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]] : {{.*}} -> vector<8xf32>
//   CHECK-NOT:     vector<4xf32>
//       CHECK:     tgc.sink
func.func @concat_parts_vote_once(%a: tensor<16xf32>, %b: tensor<16xf32>, %w: tensor<64xf32>) -> tensor<32xf32> {
  %r = tgc.kernel "r_8_4_8" (%a, %b, %w) : (tensor<16xf32>, tensor<16xf32>, tensor<64xf32>) -> tensor<32xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c3 = tgc.const 3 : index
    %c4 = tgc.const 4 : index
    %c8 = tgc.const 8 : index
    %m16 = tgc.const -16 : index
    %zero = tgc.const 0.0 : f32
    %o = tgc.range 8 upcast id 0
    %p = tgc.range 4 upcast id 1
    %k = tgc.range 8 reduce id 2
    %inA = tgc.cmplt %k, %c4 : index
    %inB = tgc.cmplt %c3, %k : index
    %k4 = tgc.mul %k, %c4 : index
    %xa = tgc.add %k4, %p : index
    %xb = tgc.add %xa, %m16 : index
    %ia = tgc.index %pa[%xa], %inA : !tgc.ptr<f32>
    %ib = tgc.index %pb[%xb], %inB : !tgc.ptr<f32>
    %va = tgc.load %ia else %zero : !tgc.ptr<f32> -> f32
    %vb = tgc.load %ib else %zero : !tgc.ptr<f32> -> f32
    %x = tgc.where %inB, %vb, %va : i1, f32
    %k8 = tgc.mul %k, %c8 : index
    %wi = tgc.add %k8, %o : index
    %iw = tgc.index %pw[%wi] : !tgc.ptr<f32>
    %vw = tgc.load %iw : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %vw : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %o4 = tgc.mul %o, %c4 : index
    %oi = tgc.add %o4, %p : index
    %op = tgc.index %out[%oi] : !tgc.ptr<f32>
    tgc.store %op, %s : !tgc.ptr<f32>, f32
    tgc.end %p
    tgc.end %o
    tgc.sink
  }
  return %r : tensor<32xf32>
}
