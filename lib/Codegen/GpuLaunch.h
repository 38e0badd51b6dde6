//===- GpuLaunch.h - how a GPU kernel is launched ----------------*- C++ -*-===//
//
// After tgc-gpu-dims a kernel's launch geometry is in its tgc.special ops:
// the bound of "gidxN" is the number of blocks along dimension N, that of
// "lidxN" the threads of a block along it. The host glue, the manifest and
// the heuristics read it from here.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_GPULAUNCH_H
#define TGC_CODEGEN_GPULAUNCH_H

#include "IR/TgcOps.h"
#include <array>

namespace mlir::tgc {

/// The hardware limits tgc's GPU kernels respect (CUDA compute capability
/// 7.5 and up; Apple GPUs, whose threadgroups share the 1024 thread limit
/// and have 32 KiB of threadgroup memory).
struct GpuLimits {
  static constexpr int64_t kMaxThreadsPerBlock = 1024;
  static constexpr int64_t kMaxBlockDim[3] = {1024, 1024, 64};
  static constexpr int64_t kMaxGridDim[3] = {2147483647, 65535, 65535};
  static constexpr int64_t kMaxSharedBytes = 32768;
};

struct LaunchDims {
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};

  int64_t blockThreads() const { return block[0] * block[1] * block[2]; }
  int64_t blocks() const { return grid[0] * grid[1] * grid[2]; }
};

/// The grid and block sizes of a kernel mapped by tgc-gpu-dims (all 1 for
/// a kernel without specials).
LaunchDims getLaunchDims(KernelOp kernel);

/// Bytes of workgroup memory (tgc.define_local) the kernel declares.
int64_t getSharedBytes(KernelOp kernel);

/// True once tgc-gpu-dims has mapped the kernel (it has a tgc.special, or
/// no range that a GPU runs as threads).
bool isGpuMapped(KernelOp kernel);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_GPULAUNCH_H
