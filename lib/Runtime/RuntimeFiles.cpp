//===- RuntimeFiles.cpp - the C runtime a package ships --------*- C++ -*-===//

#include "Runtime/RuntimeFiles.h"

using namespace mlir::tgc;

static const RuntimeFile kFiles[] = {
#include "RuntimeFiles.inc"
};

llvm::ArrayRef<RuntimeFile> mlir::tgc::getRuntimeFiles() { return kFiles; }
