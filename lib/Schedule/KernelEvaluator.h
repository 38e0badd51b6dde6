//===- KernelEvaluator.h - a graph-level kernel run at compile time -*- C++
//-*-===//
//
// tgc-fold-constant-kernels computes a kernel whose inputs are all
// constants once, when the model is compiled, instead of at every run (the
// kernels that build Swin's shifted-window attention mask from constants).
// This interpreter runs a kernel body of tensor-graph ops (elementwise,
// reduce, movement) on concrete tensors, with the semantics the C renderer
// gives each op.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_SCHEDULE_KERNELEVALUATOR_H
#define TGC_SCHEDULE_KERNELEVALUATOR_H

#include "IR/TgcOps.h"
#include <string>
#include <vector>

namespace mlir::tgc {

/// The elements of each result of `kernel` (a body of graph-level ops,
/// before tgc-lower), laid out as in a buffer (one byte per i1), computed
/// from `inputs`, the constants its operands are. Fails, with the reason in
/// `whyNot`, on an op outside the tensor graph, where its ops' results
/// together (a reduce's source counted too) have more than `maxElementOps`
/// elements, and
/// where C leaves a result undefined (an integer division by zero or
/// overflowing, a shift past the type's width, a float converted to an
/// integer that cannot hold it): the kernel then runs as it is.
///
/// Floats are computed in double and rounded to their type after every op,
/// which gives the correctly rounded result of + - * / and sqrt; exp2, log2,
/// sin and pow are the C library's in double, at least as accurate as
/// the kernels' own.
FailureOr<SmallVector<std::vector<char>>>
evaluateKernel(KernelOp kernel, ArrayRef<ConstOp> inputs, int64_t maxElementOps,
               std::string &whyNot);

} // namespace mlir::tgc

#endif // TGC_SCHEDULE_KERNELEVALUATOR_H
