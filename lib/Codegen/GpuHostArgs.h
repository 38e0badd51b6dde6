//===- GpuHostArgs.h - kernel arguments for the host glue ------*- C++ -*-===//
//
// Private to lib/Codegen: what CudaHost.cpp and MetalHost.cpp share about
// the buffers behind a kernel's parameters.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_GPUHOSTARGS_H
#define TGC_CODEGEN_GPUHOSTARGS_H

#include "Codegen/PackageLayout.h"
#include <string>

namespace mlir::tgc {

/// The byte offset of `ref` in its buffer: 0 for inputs and outputs, the
/// arena offset, the weight tensor's offset in the blob.
int64_t getBufferOffset(const ModelLayout &layout, const BufferRef &ref);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_GPUHOSTARGS_H
