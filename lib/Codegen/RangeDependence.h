//===- RangeDependence.h - how values move with a loop ----------*- C++ -*-===//
//
// Whether an address, a gate or a result is computed from a loop index (a
// tgc.range), and how an address moves across consecutive values of one:
// what the heuristic, the opt actions and the loop passes ask of a kernel
// before they change its loops.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_RANGEDEPENDENCE_H
#define TGC_CODEGEN_RANGEDEPENDENCE_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace mlir::tgc {

/// Answers of dependsOn per (value, range), valid while the IR they were
/// asked of is unchanged.
using DependenceMemo = llvm::DenseMap<std::pair<Value, Value>, bool>;

/// True if `value` is computed from `range` (a range's result, or any value
/// to look for): a walk up the operands that stops at other ranges. `memo`
/// shares the walks of many questions about one kernel.
bool dependsOn(Value value, Value range, DependenceMemo &memo);

/// True if `value` is computed from the loop index `range`.
bool isComputedFrom(Value value, Value range);

/// The stride s of `address` across `lanes` consecutive values of the loop
/// index `range`, starting at a multiple of `lanes`: address(r + l) =
/// address(r) + s*l for every l < lanes. Sums and products with constants
/// add and scale strides; a mod or div by c keeps the lanes in one block
/// when the rest of its dividend is a multiple of s*lanes, which divides c.
/// 0 when the address does not depend on the range; std::nullopt when it
/// moves in any other way.
std::optional<int64_t> getLaneStride(Value address, Value range, int64_t lanes);

/// True if the gate `gate` depends on `range` only through `range + x < c`
/// tests with x independent of `range` (the gate PADTO adds, x the lanes
/// of earlier vectors), joined by `and`: written out as lanes of `range`,
/// every lane's gate is then the same but for lanes past the old bound,
/// where it is false, so the lanes can be one partial vector access.
bool gatesOnlyPadding(Value gate, Value range);

/// True if the gate `cond` takes one value over each run of `lanes`
/// values of `range` from a multiple of `lanes`: every comparison of an
/// index with a constant that moves with `range` has its bound between
/// runs (the lanes of 16 channels test `16*v + k < 64`, a concatenation's
/// part boundary, alike for every k). Joined by and, or, xor. Written out
/// as a vector's lanes, tgc-unswitch then copies their loop once per part,
/// where each copy's gates are decided and the lanes are one vector access.
bool gateUniformPerVector(Value cond, Value range, int64_t lanes,
                          DependenceMemo &memo);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_RANGEDEPENDENCE_H
