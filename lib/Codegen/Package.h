//===- Package.h - write the folder a product embeds ----------*- C++ -*-===//
//
// Turns a linearized module into the emitted package of DESIGN §4: header,
// source, weights, manifest, runtime files and a CMakeLists.txt.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_PACKAGE_H
#define TGC_CODEGEN_PACKAGE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace mlir::tgc {

struct PackageOptions {
  /// Prefix of every emitted symbol and file name (--name).
  std::string name = "net";
  /// "c", "cuda" or "metal".
  std::string target = "c";
  /// Weights embedded in the source (default) or in NAME.safetensors.
  bool weightsInFile = false;
  /// The CPU the code is tuned for (--cpu), which the package's CMake
  /// passes to -march; empty: the host ("native").
  std::string cpu;
};

/// Writes the package into the existing, empty folder `dir`. Emits
/// diagnostics and returns failure if the module cannot be rendered.
LogicalResult writePackage(ModuleOp module, const PackageOptions &options,
                           llvm::StringRef dir);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_PACKAGE_H
