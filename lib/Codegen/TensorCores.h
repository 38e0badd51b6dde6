//===- TensorCores.h - the TC action: matmul tiles on tensor cores -*- C++ -*-===//
//
// tinygrad's TC opt: a reduce that adds the products of two loads (a
// matmul, or a convolution once lowering has turned its window into the
// loads' index expressions) runs on the GPU's matrix units. Output axes M
// and N are cut into tiles of `tile` (16 on CUDA's tf32 wmma m16n16k8, 8 on
// Metal's simdgroup_float8x8), the reduce axis K into steps of 8; one warp
// (32 threads) computes one tile:
//
//   for each step of K (inside the kernel's other reduce loops):
//     the 32 threads stage the M x 8 tile of the first load and the 8 x N
//     tile of the second into workgroup memory, each element through the
//     load's own index expression, rows, columns and steps past the end
//     read as 0 (so any size works); barrier; tgc.wmma; barrier
//   tgc.store_acc the tile to workgroup memory; barrier
//   each thread takes its elements of the tile and runs the rest of the
//   kernel on them (bias, activation, the store), skipping padding.
//
// The action writes this program out at once: the kernel leaves the
// optimize stage in the form tgc-linearize would give it (expand has no
// lanes to write, linearize leaves it alone), and tgc-gpu-dims maps the
// tile axes to blocks and the warp's range to threads as for any kernel.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_TENSORCORES_H
#define TGC_CODEGEN_TENSORCORES_H

#include "Codegen/OptActions.h"

namespace mlir::tgc {

/// The threads computing one tile: a CUDA warp, a Metal simdgroup.
constexpr int64_t kTensorCoreThreads = 32;
/// The K step of both tile shapes tgc uses (tf32 m16n16k8, Metal 8x8x8).
constexpr int64_t kTensorCoreK = 8;

/// Why the TC action `action` cannot apply to `kernel` (lowered, no other
/// action yet), or "" if it can.
std::string checkTensorCores(KernelOp kernel, const OptAction &action);

/// Rewrites `kernel` as the file comment says; checkTensorCores must have
/// accepted `action`.
void applyTensorCores(KernelOp kernel, const OptAction &action);

/// The TC action with tiles of `tile` that wastes the fewest padded
/// multiply-adds on `kernel`, if one applies and M, N and K each fill at
/// least one tile step; the N axis is the output's innermost axis where
/// that ties, so the final stores of neighbouring threads are neighbours.
std::optional<OptAction> chooseTensorCores(KernelOp kernel, int64_t tile);

/// Whether `kernel` runs on tensor cores (holds a tgc.wmma).
bool usesTensorCores(KernelOp kernel);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_TENSORCORES_H
