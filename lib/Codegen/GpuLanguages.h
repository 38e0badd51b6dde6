//===- GpuLanguages.h - CUDA and Metal spellings, privately -----*- C++ -*-===//
//
// What CudaEmitter.cpp and MetalEmitter.cpp give GpuEmitter.cpp besides the
// CStyleLanguage of GpuEmitter.h. Private to lib/Codegen.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_GPULANGUAGES_H
#define TGC_CODEGEN_GPULANGUAGES_H

#include "IR/TgcOps.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace mlir::tgc {

/// The C type for the index values of `kernel`: `narrow` (32 bits) if the
/// bounds of every index value it computes fit in 32 bits, else `wide`.
std::string getIndexType(KernelOp kernel, llvm::StringRef narrow,
                         llvm::StringRef wide);

/// The C renderer's helper definitions (CHelperSet::print) as CUDA device
/// functions.
std::string getCudaHelpers(llvm::StringRef cHelpers);

/// The same in the Metal Shading Language (bit copies through as_type, no
/// identifier named `half`); fails if a helper has no such spelling.
FailureOr<std::string> getMetalHelpers(llvm::StringRef cHelpers);

/// Fails with a diagnostic if `kernel` computes with types Metal lacks
/// (64-bit floats).
LogicalResult checkMetalTypes(KernelOp kernel);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_GPULANGUAGES_H
