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

/// The stride of the memory access `index` along `range` when its address
/// is `range * stride + (terms without range)`; std::nullopt when the range
/// enters the address in any other way (through a div or a mod). 0 when
/// the address does not depend on the range.
std::optional<int64_t> getAccessStride(IndexOp index, Value range);

/// True if `value` is computed from the loop index `range`.
bool isComputedFrom(Value value, Value range);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_HEURISTIC_H
