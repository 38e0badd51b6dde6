//===- GpuPackage.h - write a CUDA or Metal package ------------*- C++ -*-===//
//
// The GPU counterpart of Package.h: the same folder shape (header, sources,
// weights, manifest, CMakeLists.txt), with the files of GpuHostGlue.h.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_GPUPACKAGE_H
#define TGC_CODEGEN_GPUPACKAGE_H

#include "Codegen/Package.h"

namespace mlir::tgc {

/// Writes the package of `options.target` ("cuda" or "metal") into the
/// existing, empty folder `dir`. The module must have been compiled for
/// that target (tgc-gpu-dims). Emits diagnostics and returns failure if the
/// module cannot be rendered; nothing is written then.
LogicalResult writeGpuPackage(ModuleOp module, const PackageOptions &options,
                              llvm::StringRef dir);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_GPUPACKAGE_H
