//===- GpuHeuristic.h - opt actions for a GPU kernel -----------*- C++ -*-===//
//
// tinygrad's hand_coded_optimizations for a GPU, in small: a reduction
// with few outputs is split across the threads of a workgroup (GROUP),
// which then combine their partial results in shared memory; the
// innermost output axes become the threads of a workgroup (LOCAL), the
// rest of the output axes the grid.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_GPUHEURISTIC_H
#define TGC_CODEGEN_GPUHEURISTIC_H

#include "Codegen/OptActions.h"

namespace mlir::tgc {

struct GpuHeuristicOptions {
  /// Most threads of a workgroup (the product of the LOCAL and GROUP
  /// amounts).
  int64_t maxThreads = 256;
  /// Tile of the target's tensor cores (TensorCores.h), 0 for none.
  int64_t tensorCoreTile = 0;
};

/// Chooses and applies actions to `kernel` (lowered, not expanded), each
/// recorded in its `opts`.
void applyGpuHeuristic(KernelOp kernel, const GpuHeuristicOptions &options);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_GPUHEURISTIC_H
