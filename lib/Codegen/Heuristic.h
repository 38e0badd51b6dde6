//===- Heuristic.h - opt actions for a kernel without search ---*- C++ -*-===//
//
// tinygrad's hand_coded_optimizations, for a CPU: register tiles shaped to
// the SIMD width, vector lanes where memory is contiguous, and the
// outermost axis split across threads for kernels worth it.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_HEURISTIC_H
#define TGC_CODEGEN_HEURISTIC_H

#include "Codegen/OptActions.h"
#include "Codegen/Target.h"

namespace mlir::tgc {

struct HeuristicOptions {
  CpuTarget target;
  /// Tasks the outermost axis of a big kernel is split into (THREAD); 1 or
  /// less: none.
  int64_t threadTasks = 0;
};

/// Chooses and applies actions to `kernel` (lowered, not expanded), each
/// recorded in its `opts`. Leaves elementwise kernels alone: C compilers
/// vectorize their loops well.
void applyHeuristic(KernelOp kernel, const HeuristicOptions &options);

/// The stride s of `address` across `lanes` consecutive values of the loop
/// index `range`, starting at a multiple of `lanes`: address(r + l) =
/// address(r) + s*l for every l < lanes. Sums and products with constants
/// add and scale strides; a mod or div by c keeps the lanes in one block
/// when the rest of its dividend is a multiple of s*lanes, which divides c.
/// 0 when the address does not depend on the range; std::nullopt when it
/// moves in any other way.
std::optional<int64_t> getLaneStride(Value address, Value range,
                                     int64_t lanes);

/// True if `value` is computed from the loop index `range`.
bool isComputedFrom(Value value, Value range);

/// True if the gate `gate` depends on `range` only through `range + x < c`
/// tests with x independent of `range` (the gate PADTO adds, x the lanes
/// of earlier vectors), joined by `and`: written out as lanes of `range`,
/// every lane's gate is then the same but for lanes past the old bound,
/// where it is false, so the lanes can be one partial vector access.
bool gatesOnlyPadding(Value gate, Value range);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_HEURISTIC_H
