//===- ElementwiseOpts.h - kernels without a reduction ----------*- C++ -*-===//
//
// The heuristic's actions for an elementwise kernel (a copy, a pad, a
// concatenation), which C compilers vectorize well as plain loops except
// where parts are stacked along a short axis or the copy is a transpose.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_ELEMENTWISEOPTS_H
#define TGC_CODEGEN_ELEMENTWISEOPTS_H

#include "Codegen/KernelShape.h"

namespace mlir::tgc::heuristic {

/// Writes out the short axes a few parts are stacked along, each copy then
/// computing only its own part, and makes the axis its stores are
/// contiguous along the vector lanes; else, for a transpose, moves whole
/// cache lines per step; else, for a pad of rows of a cache line or less,
/// copies a row of up to 8 planes per step. Leaves other elementwise kernels
/// alone.
void applyElementwiseOpts(KernelOp kernel, KernelShape &shape,
                          const HeuristicOptions &options);

} // namespace mlir::tgc::heuristic

#endif // TGC_CODEGEN_ELEMENTWISEOPTS_H
