// RUN: tgc-opt %s --tgc-expand="max-vector=1 vector-registers=8" | FileCheck %s --check-prefix=FOLD
// RUN: tgc-opt %s --tgc-expand="max-vector=1 vector-registers=12" | FileCheck %s --check-prefix=FITS
// RUN: tgc-opt %s --tgc-expand="vector-registers=4 vector-bytes=8" | FileCheck %s --check-prefix=VFOLD
// RUN: tgc-opt %s --tgc-expand="vector-registers=4 vector-bytes=16" | FileCheck %s --check-prefix=VFITS
// A register tile of 4 outputs beside 3 unrolled taps of a reduction.
// With an accumulator per tap, 12 accumulators; where they do not fit the
// registers, the taps share the tile's: each output's taps are combined
// first, in adds marked for tgc-linearize to fold into the accumulator.

// 12 accumulators, 8 registers: 4 reduces, each of its taps combined.
// FOLD-LABEL: func @tile_and_taps(
//       FOLD:     %[[K:.*]] = tgc.range 2 reduce id 1
//   FOLD-NOT:     unroll
//       FOLD:     %[[P0:.*]] = tgc.mul %{{.*}}, %{{.*}} : f32
//  FOLD-NEXT:     %[[P1:.*]] = tgc.mul %{{.*}}, %{{.*}} : f32
//  FOLD-NEXT:     %[[P2:.*]] = tgc.mul %{{.*}}, %{{.*}} : f32
//  FOLD-NEXT:     %[[S01:.*]] = tgc.add %[[P0]], %[[P1]] {folded_lanes} : f32
//  FOLD-NEXT:     %[[S:.*]] = tgc.add %[[S01]], %[[P2]] {folded_lanes} : f32
//       FOLD:     tgc.end %[[K]]
//  FOLD-NEXT:     tgc.reduce add %[[S]] over %[[K]] : f32
//  FOLD-NEXT:     tgc.reduce add %{{.*}} over %[[K]] : f32
//  FOLD-NEXT:     tgc.reduce add %{{.*}} over %[[K]] : f32
//  FOLD-NEXT:     tgc.reduce add %{{.*}} over %[[K]] : f32
//  FOLD-NEXT:     tgc.index
// 12 registers: one accumulator per output and tap.
// FITS-LABEL: func @tile_and_taps(
//   FITS-NOT:     folded_lanes
// FITS-COUNT-12:  tgc.reduce add %{{.*}} over %{{.*}} : f32
//   FITS-NOT:     tgc.reduce
// The outputs as a vector of 4 floats: with 8-byte registers, 2 per
// vector, 6 for the taps' accumulators, past 4.
// VFOLD-LABEL: func @tile_and_taps(
//       VFOLD:     %[[S01:.*]] = tgc.add %{{.*}}, %{{.*}} {folded_lanes} : vector<4xf32>
//  VFOLD-NEXT:     %[[S:.*]] = tgc.add %[[S01]], %{{.*}} {folded_lanes} : vector<4xf32>
//  VFOLD-NEXT:     tgc.end
//  VFOLD-NEXT:     tgc.reduce add %[[S]] over %{{.*}} : vector<4xf32>
//   VFOLD-NOT:     tgc.reduce
// With 16-byte registers the 3 fit.
// VFITS-LABEL: func @tile_and_taps(
//   VFITS-NOT:     folded_lanes
// VFITS-COUNT-3:  tgc.reduce add %{{.*}} over %{{.*}} : vector<4xf32>
func.func @tile_and_taps(%x: tensor<12xf32>, %w: tensor<6xf32>) -> tensor<4xf32> {
  %r = tgc.kernel "r_4_2_3" (%x, %w) : (tensor<12xf32>, tensor<6xf32>) -> tensor<4xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c3 = tgc.const 3 : index
    %o = tgc.range 4 upcast id 0
    %k = tgc.range 2 reduce id 1
    %j = tgc.range 3 unroll id 2
    %k3 = tgc.mul %k, %c3 : index
    %tap = tgc.add %k3, %j : index
    %xi = tgc.add %o, %tap : index
    %ix = tgc.index %px[%xi] : !tgc.ptr<f32>
    %vx = tgc.load %ix : !tgc.ptr<f32> -> f32
    %iw = tgc.index %pw[%tap] : !tgc.ptr<f32>
    %vw = tgc.load %iw : !tgc.ptr<f32> -> f32
    %m = tgc.mul %vx, %vw : f32
    tgc.end %j
    tgc.end %k
    %s = tgc.reduce add %m over %k, %j : f32
    %iy = tgc.index %out[%o] : !tgc.ptr<f32>
    tgc.store %iy, %s : !tgc.ptr<f32>, f32
    tgc.end %o
    tgc.sink
  }
  return %r : tensor<4xf32>
}
