//===- GpuEmuFiles.cpp - the GPU emulation's files -------------*- C++ -*-===//

#include "Runtime/gpu_emu/GpuEmuFiles.h"

static const mlir::tgc::GpuEmuFile kFiles[] = {
#include "GpuEmuFiles.inc"
};

llvm::ArrayRef<mlir::tgc::GpuEmuFile> mlir::tgc::getGpuEmuFiles() {
  return kFiles;
}
