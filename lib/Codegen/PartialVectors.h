//===- PartialVectors.h - vector accesses of their first lanes only -*- C++ -*-===//
//
// An axis a little shorter than a vector (a row of 14 pixels in 16 lanes)
// is padded to it (PADTO) and its accesses gated by the old bound; written
// out as lanes, the gate is constant false past that bound. tgc-devectorize
// still makes one vector access of such lanes and marks it with the number
// of leading lanes it touches: a load gives the rest its `else` value (0
// without one), a store leaves the rest of memory alone. Neither reads or
// writes memory past the active lanes, so a row at the end of a buffer is
// safe; the renderer uses masked loads and stores where the ISA has them.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_PARTIALVECTORS_H
#define TGC_CODEGEN_PARTIALVECTORS_H

#include "IR/TgcOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include <optional>

namespace mlir::tgc {

/// The attribute on a vector tgc.load or tgc.store: the leading lanes it
/// touches (fewer than the vector's).
inline constexpr llvm::StringLiteral kActiveLanesAttr = "active_lanes";

/// The leading lanes `access` touches if it is partial, else std::nullopt.
inline std::optional<int64_t> getActiveLanes(Operation *access) {
  if (auto attr = access->getAttrOfType<IntegerAttr>(kActiveLanesAttr))
    return attr.getInt();
  return std::nullopt;
}

/// The attribute on a vector tgc.load or tgc.store whose active lanes are
/// known only at run time: an axis padded past several vectors (ViT's 197
/// tokens in 13 vectors of 16) runs its vectors in a loop, and only the
/// last one is partial. Its index's gate is `first < limit`, or `other and
/// (first < limit)` (laneLimitOf finds the comparison), and lane l is
/// active where `first + l < limit` holds: the first `limit - first`.
inline constexpr llvm::StringLiteral kLaneLimitAttr = "lane_limit";

/// The comparison `first < limit` that bounds the active lanes of an
/// access marked with kLaneLimitAttr, given its index's gate.
inline CmpltOp laneLimitOf(Operation *access, Value gate) {
  if (!access->hasAttr(kLaneLimitAttr) || !gate)
    return {};
  if (auto both = gate.getDefiningOp<AndOp>())
    gate = both.getOperand(1);
  return gate.getDefiningOp<CmpltOp>();
}

} // namespace mlir::tgc

#endif // TGC_CODEGEN_PARTIALVECTORS_H
