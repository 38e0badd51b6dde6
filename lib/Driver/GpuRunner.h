//===- GpuRunner.h - build a CUDA or Metal package to run it ---*- C++ -*-===//
//
// `tgc run` and `tgc verify` with --target cuda|metal: the package is built
// behind a harness with the same command line as the C one (Harness.h), on
// the GPU where this machine has one (CUDA: nvcc and an NVIDIA GPU), and
// otherwise for the CPU through the emulation of lib/Runtime/gpu_emu, which
// runs every kernel with its real grid, block sizes, shared memory and
// barriers.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_GPURUNNER_H
#define TGC_DRIVER_GPURUNNER_H

#include "Driver/Model.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tgc {

/// How a GPU package is executed.
enum class GpuRunMode {
  /// On this machine's GPU, built with the vendor's compiler.
  Device,
  /// On the CPU, through lib/Runtime/gpu_emu.
  Emulation,
};

/// The mode `tgc verify --target target` uses here: Device for "cuda" when
/// nvcc and an NVIDIA GPU are present, Emulation otherwise ("metal" always:
/// tgc does not build Metal programs on macOS yet).
GpuRunMode getGpuRunMode(llvm::StringRef target);

/// The source of the harness of the GPU package `name` for `target`
/// ("cuda": CUDA runtime calls, "metal": metal-cpp), with generateHarness's
/// command line and exit codes: raw input files, then output files; 0 on
/// success, 2 on bad arguments or files, 3 if the package or the device
/// fails.
std::string generateGpuHarness(const ModelSignature &signature,
                               llvm::StringRef name, llvm::StringRef target);

/// Builds the harness for the package `name` in `packageDir` (compiled for
/// `target`) into `workDir`, in `mode`; sets `executable`. Emits an error
/// at `loc` with the compiler's output on failure.
LogicalResult buildGpuHarness(Location loc, llvm::StringRef packageDir,
                              llvm::StringRef workDir, llvm::StringRef name,
                              llvm::StringRef target, GpuRunMode mode,
                              const ModelSignature &signature, bool verbose,
                              std::string &executable);

} // namespace mlir::tgc

#endif // TGC_DRIVER_GPURUNNER_H
