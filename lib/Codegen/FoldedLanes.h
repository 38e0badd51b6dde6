//===- FoldedLanes.h - unrolled lanes that share one accumulator -*- C++
//-*-===//
//
// tgc-expand gives each unrolled lane of a reduction an accumulator of its
// own, so that their updates do not wait on each other. Beside a register
// tile that is too many: 4 pixels by 2 vectors with a 3x3 window's row
// unrolled held 24 accumulators on AVX2's 16 registers, and every one
// spilled. There the lanes share the tile's accumulators instead, as
// tinygrad's do: the ops that combine them are marked, and tgc-linearize
// folds their operands into the accumulator one at a time, acc + a + b + c,
// so that each product still becomes one fused multiply-add.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_FOLDEDLANES_H
#define TGC_CODEGEN_FOLDEDLANES_H

#include "llvm/ADT/StringRef.h"

namespace mlir::tgc {

/// The unit attribute on a tgc.add, tgc.mul or tgc.max that combines
/// unrolled lanes of a reduction of the same operator.
inline constexpr llvm::StringLiteral kFoldedLanesAttr = "folded_lanes";

} // namespace mlir::tgc

#endif // TGC_CODEGEN_FOLDEDLANES_H
