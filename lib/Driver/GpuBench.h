//===- GpuBench.h - tgc bench --target cuda ---------------------*- C++ -*-===//
//
// The CUDA side of `tgc bench`: the compiled package is built behind a
// timing main (generateCudaBenchHarness) with nvcc on a machine with an
// NVIDIA GPU, or else against the CPU emulation, run, and reported as
// latency plus each kernel's time, achieved GB/s and GFLOP/s (from the
// manifest's bytes and FLOPs per kernel).
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_GPUBENCH_H
#define TGC_DRIVER_GPUBENCH_H

#include "Driver/Bench.h"
#include "Driver/KernelTimes.h"
#include "Driver/Model.h"

namespace mlir::tgc {

/// Benchmarks the CUDA package `name` compiled into `packageDir`, using
/// `workDir` for the build, on `inputFiles` (raw bytes, one per input of
/// `signature`). `model` names the model in the report.
LogicalResult benchCudaPackage(Location loc, llvm::StringRef model,
                               llvm::StringRef packageDir,
                               llvm::StringRef workDir, llvm::StringRef name,
                               const ModelSignature &signature,
                               llvm::ArrayRef<std::string> inputFiles,
                               const BenchOptions &options,
                               llvm::raw_ostream &out);

} // namespace mlir::tgc

#endif // TGC_DRIVER_GPUBENCH_H
