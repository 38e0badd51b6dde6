//===- Manifest.h - the package's net.json ---------------------*- C++ -*-===//
//
// The machine-readable description of an emitted package: inputs, outputs,
// arena, weights and the kernels with what each costs.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_MANIFEST_H
#define TGC_CODEGEN_MANIFEST_H

#include "Codegen/Package.h"
#include "Codegen/PackageLayout.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tgc {

/// The files of the package, as the manifest lists them.
struct PackageFiles {
  std::string header;
  std::vector<std::string> sources;
  /// The safetensors file; empty when the weights are compiled in.
  std::string weights;
  /// The runtime's files (the thread pool), shared by every model.
  std::vector<std::string> runtime;
};

/// Writes the manifest (JSON) of the package described by `layout`.
void writeManifest(const ModelLayout &layout, const PackageOptions &options,
                   const PackageFiles &files, llvm::raw_ostream &os);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_MANIFEST_H
