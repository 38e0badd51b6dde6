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

/// What one run of a kernel costs.
struct KernelCost {
  /// Arithmetic ops on floating-point values (a multiply-add counts 2),
  /// each times the trip count of the loops around it and its vector lanes.
  int64_t flops = 0;
  /// Bytes of the buffers the kernel reads plus those it writes.
  int64_t bytes = 0;
};

/// Counts the cost of a lowered, linearized kernel.
KernelCost getKernelCost(KernelOp kernel);

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
