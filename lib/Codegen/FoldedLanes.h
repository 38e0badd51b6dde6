//===- FoldedLanes.h - unrolled lanes sharing an accumulator ---*- C++ -*-===//
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

#include "IR/TgcOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tgc {

/// The unit attribute on a tgc.add, tgc.mul or tgc.max that combines
/// unrolled lanes of a reduction of the same operator.
inline constexpr llvm::StringLiteral kFoldedLanesAttr = "folded_lanes";

/// One step of a reduction of `kind`: a + b, a * b or max(a, b).
inline Operation *createReduceStep(OpBuilder &builder, Location loc,
                                   ReduceKind kind, Value a, Value b) {
  switch (kind) {
  case ReduceKind::add:
    return builder.create<AddOp>(loc, a, b);
  case ReduceKind::mul:
    return builder.create<MulOp>(loc, a, b);
  case ReduceKind::max:
    return builder.create<MaxOp>(loc, a, b);
  }
  llvm_unreachable("unknown reduce kind");
}

/// Whether `op` is a step of a reduction of `kind` (createReduceStep's op).
inline bool isReduceStep(Operation *op, ReduceKind kind) {
  switch (kind) {
  case ReduceKind::add:
    return isa<AddOp>(op);
  case ReduceKind::mul:
    return isa<MulOp>(op);
  case ReduceKind::max:
    return isa<MaxOp>(op);
  }
  return false;
}

} // namespace mlir::tgc

#endif // TGC_CODEGEN_FOLDEDLANES_H
