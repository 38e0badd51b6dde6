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

/// The source of `tgc bench --target cuda`'s timing program for the CUDA
/// package `name`. Its arguments: the iteration count (0: about two
/// seconds' worth) and one raw input file per input. It prints
/// `device NAME`, then `run MS` per timed NAME_run (cudaEvents around it),
/// then `kernels MS...` per timed NAME_run_timed (the time of each kernel,
/// in the manifest's order); exit codes as generateGpuHarness's.
std::string generateCudaBenchHarness(const ModelSignature &signature,
                                     llvm::StringRef name);

/// Builds the harness for the package `name` in `packageDir` (compiled for
/// `target`) into `workDir`, in `mode`; sets `executable`. Emits an error
/// at `loc` with the compiler's output on failure.
LogicalResult buildGpuHarness(Location loc, llvm::StringRef packageDir,
                              llvm::StringRef workDir, llvm::StringRef name,
                              llvm::StringRef target, GpuRunMode mode,
                              const ModelSignature &signature, bool verbose,
                              std::string &executable);

/// buildGpuHarness with the main program's source given: `harnessSource`
/// (C++ for both targets) is written to `workDir` and built with the
/// package into `workDir/harness`. `compileLine`, if given, is set to the
/// compiler command that built it.
LogicalResult buildGpuProgram(Location loc, llvm::StringRef packageDir,
                              llvm::StringRef workDir, llvm::StringRef name,
                              llvm::StringRef target, GpuRunMode mode,
                              llvm::StringRef harnessSource, bool verbose,
                              std::string &executable,
                              std::string *compileLine = nullptr);

} // namespace mlir::tgc

#endif // TGC_DRIVER_GPURUNNER_H
