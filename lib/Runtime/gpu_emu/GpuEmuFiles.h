//===- GpuEmuFiles.h - the GPU emulation's files ---------------*- C++ -*-===//
//
// The text of lib/Runtime/gpu_emu, compiled into tgc: the driver writes
// these files next to a CUDA or Metal package to build it for the CPU
// (tgc_gpu_emu.h says how the emulation works).
//
//===----------------------------------------------------------------------===//

#ifndef TGC_RUNTIME_GPU_EMU_GPUEMUFILES_H
#define TGC_RUNTIME_GPU_EMU_GPUEMUFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tgc {

struct GpuEmuFile {
  /// The path relative to the emulation's folder (`Metal/Metal.hpp`).
  llvm::StringRef path;
  llvm::StringRef contents;
};

/// Every file of the emulation: headers (the emulation folder goes on the
/// include path) and the .cpp files to compile with the package.
llvm::ArrayRef<GpuEmuFile> getGpuEmuFiles();

} // namespace mlir::tgc

#endif // TGC_RUNTIME_GPU_EMU_GPUEMUFILES_H
