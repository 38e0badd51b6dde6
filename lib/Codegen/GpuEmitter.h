//===- GpuEmitter.h - the CUDA and Metal renderers -------------*- C++ -*-===//
//
// The kernels of a linearized module mapped by tgc-gpu-dims, as CUDA C++ or
// the Metal Shading Language, and the host glue that launches them with the
// same API shape as the C package (GpuHostGlue.h). Both languages reuse the
// C renderer (CEmitterKernel.h) with their own CStyleLanguage, as
// tinygrad's CUDARenderer and MetalRenderer subclass CStyleLanguage.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_GPUEMITTER_H
#define TGC_CODEGEN_GPUEMITTER_H

#include "Codegen/CEmitterLanguage.h"
#include "Codegen/PackageLayout.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tgc {

enum class GpuTarget { Cuda, Metal };

/// "cuda" or "metal" to the target; std::nullopt for anything else.
std::optional<GpuTarget> parseGpuTarget(llvm::StringRef name);

/// The spelling of CUDA C++ for `kernel`: `extern "C" __global__` with its
/// launch bounds, `__shared__` memory, `__syncthreads()`, blockIdx and
/// threadIdx, and 32-bit index arithmetic when every index value of the
/// kernel fits (64-bit otherwise).
CStyleLanguage getCudaLanguage(KernelOp kernel);

/// The spelling of the Metal Shading Language for `kernel`: `kernel void`
/// with its threadgroup size limit, `device` buffers bound by index, the
/// thread's position as `gid`/`lid` parameters, `threadgroup` memory and
/// `threadgroup_barrier`.
CStyleLanguage getMetalLanguage(KernelOp kernel);

/// Writes every kernel of `layout` (in the order of the schedule, named
/// after `KernelCall::function`) with the helpers they need: the CUDA file
/// `<name>_kernels.cuh` or the Metal source `<name>.metal`. Fails with a
/// diagnostic on a kernel the target cannot run (not mapped by
/// tgc-gpu-dims; f64 on Metal).
LogicalResult emitGpuKernels(const ModelLayout &layout, GpuTarget target,
                             llvm::raw_ostream &os);

/// Registers `--emit-cuda` and `--emit-metal` (kernels only, with
/// `--emit-gpu-name`, default "net") for tgc-translate.
void registerEmitGpuTranslations();

} // namespace mlir::tgc

#endif // TGC_CODEGEN_GPUEMITTER_H
