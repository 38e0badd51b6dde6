//===- KernelCost.h - the FLOPs and bytes of a kernel's run -*- C++ -*-===//
//
// What the manifest reports per kernel and `tgc bench --profile` turns into
// GFLOP/s and GB/s. FLOPs are counted the way tinygrad's `flops_mem` does,
// restricted to floating-point arithmetic: every ALU op once per iteration
// of the loops around it, per vector lane, a multiply-add as two.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_KERNELCOST_H
#define TGC_CODEGEN_KERNELCOST_H

#include "IR/TgcOps.h"

namespace mlir::tgc {

/// What one run of a kernel costs.
struct KernelCost {
  /// Arithmetic ops on floating-point values (a multiply-add counts 2),
  /// each times the trip count of the loops around it and its vector lanes.
  int64_t flops = 0;
  /// Bytes of the buffers the kernel reads plus those it writes.
  int64_t bytes = 0;
};

/// Counts the cost of a lowered, linearized kernel as it runs: padded
/// lanes and the copies of loops included.
KernelCost getKernelCost(KernelOp kernel);

/// The cost of one run of `kernel` for the work the model asks for:
/// getKernelCost's, its FLOPs times the share of lanes its padded axes
/// leave to elements (the kernel's `useful_share`). Ops that do not move
/// with a padded axis are discounted too; in the kernels PADTO pads
/// (convolutions and matrix products padded along their outputs, pools
/// along a row) that is a few ops per output at most.
KernelCost getUsefulCost(KernelOp kernel);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_KERNELCOST_H
