//===- VectorAxis.h - which axes become lanes and tiles ---------*- C++ -*-===//
//
// The heuristic's two central choices for a reduction: the axis whose
// consecutive elements become a SIMD vector's lanes (where the reduction's
// loads are contiguous or packable along it), and the axis whose copies of
// the accumulators form a register tile (where those loads stay put).
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_VECTORAXIS_H
#define TGC_CODEGEN_VECTORAXIS_H

#include "Codegen/KernelShape.h"

namespace mlir::tgc::heuristic {

/// Most vectors of a padded axis that are all upcast into registers, so
/// that each vector's gate is a constant lane count. A longer axis runs its
/// vectors in a loop, and the last one's lanes are counted at run time
/// (PartialVectors.h: kLaneLimitAttr).
constexpr int64_t kMaxPaddedVectors = 4;

/// The vector axis and its lane count: an output axis if one has only
/// contiguous or constant loads, else a reduce axis (the lanes are summed
/// once at the end), else an output axis whose stores are contiguous even
/// if some loads are gathered, else one whose loads are all contiguous or
/// constant though its stores are scattered (a convolution of 3 channels
/// reads the input with stride 2: its output channels, with the weights
/// packed, still make 27 vector FMAs per scattered store). Wider vectors
/// first; at each width, an output axis a little shorter than one vector
/// (padded, its last lanes masked) when no axis fits whole, unless only its
/// stores favour it and another axis has vector loads.
struct VectorChoice {
  RangeOp range;
  int64_t lanes = 0;
  /// The axis is padded to `lanes` first (PADTO).
  bool padded = false;
  /// Most vectors of the padded axis that are all upcast into registers.
  int64_t maxVectors = kMaxPaddedVectors;
};

VectorChoice chooseVectorAxis(KernelShape &shape, int64_t maxLanes);

/// A reduce axis to vectorize besides an output `vector` that only the
/// stores (and the loads after the reduction) move along: a normalization
/// (the variance of a row, then the row scaled) keeps the row's reduction a
/// chain of scalar adds, 4 cycles each, unless its lanes are summed in
/// vector lanes too. The reduce axis must read every reduction-loop load
/// contiguously or not at all (vectorScore without gathers).
RangeOp chooseReduceLanes(KernelShape &shape, RangeOp vector, int64_t lanes);

/// The axis whose copies reuse the most loads: one along which the vector
/// loads (contiguous along `vector`) do not move counts most, one along
/// which only scalar loads stay put counts less. An output axis, or the
/// axis of a reduction around the innermost one (a 1x1 convolution summed
/// over the image for a global pool: its pixels share every weight load).
/// None when the copies along the best axis would share no vector load
/// (nor a weight packed into one), only scalar ones: the accumulators cost
/// more than they save (a depthwise convolution's rows share nothing but
/// its nine weights; MobileNetV2's 3x3 depthwise convolutions ran 1.5-1.7x
/// faster under BEAM without their 14-row tile, 7% for the model).
RangeOp chooseTileAxis(KernelShape &shape, RangeOp vector, int64_t lanes);

/// An output axis of a few vectors of half of `lanes` to take instead of a
/// reduce axis of `lanes`: one whose loads are vector loads (a weight packed
/// along it) and whose stores are whole vectors, beside an axis to tile.
/// Lanes of a reduce axis are summed at the end of every output, and its
/// tile shares only one load: a channels-last 1x1 convolution to 24
/// channels (MobileNetV2's 56x56 stage) summed its 144 input channels in
/// 16 lanes at 53 GFLOP/s; its 24 outputs as three vectors of 8 by 7
/// pixels, the pixel's channels broadcast, ran 2.2x faster.
RangeOp narrowOutputAxis(KernelShape &shape, int64_t lanes);

} // namespace mlir::tgc::heuristic

#endif // TGC_CODEGEN_VECTORAXIS_H
