//===- PackWeights.h - weights laid out for the kernel that reads them -*- C++ -*-===//
//
// A weight is a constant, so its layout is the compiler's choice: the PACK
// action transposes one at compile time so that the axis a kernel
// vectorizes walks it with stride 1 (a convolution's output channels, the
// output columns of a Gemm with transB), turning gathers of scalars into
// vector loads.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_PACKWEIGHTS_H
#define TGC_CODEGEN_PACKWEIGHTS_H

#include "IR/TgcOps.h"
#include <string>

namespace mlir::tgc {

/// For kernel input `input` (an operand index): if it is a constant weight
/// and every access to it is `sum over dims d of stride_d * (start_d +
/// range_d)`, each range walking one dim (its coefficient the dim's
/// row-major stride) from start_d, within the dim or, from 0, past it where
/// gated below its size (PADTO), the range of each dim (null for dims no
/// range walks: size 1, or one element at start_d). All accesses read the
/// same window; its starts go to `starts` (zeros for the whole weight).
/// Fails otherwise, with the reason in `whyNot`.
FailureOr<SmallVector<RangeOp>>
getWeightDims(KernelOp kernel, unsigned input, std::string *whyNot = nullptr,
              SmallVectorImpl<int64_t> *starts = nullptr);

/// Replaces weight `input` by a transposed copy of the window it reads
/// (getWeightDims) in which the dim walked by
/// `range` comes last in blocks of `block` elements (dim d of size n
/// becomes n/block blocks, placed where `range` opens in the loop nest, and
/// block elements, innermost) and the other dims follow the loop nest
/// (their ranges in program order); rewrites every access to it. A block
/// keeps what one register tile reads in consecutive bytes. The kernel
/// reads the new constant; the old one is erased if nothing else reads it.
/// The caller has checked getWeightDims and that `block` divides the dim.
void packWeight(KernelOp kernel, unsigned input, RangeOp range, int64_t block);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_PACKWEIGHTS_H
