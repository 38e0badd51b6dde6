//===- CEmitter.h - the C renderer (stage "render") ------------*- C++ -*-===//
//
// Turns a module at the linearize stage into C99: one static function per
// kernel and the run function that calls them in order on the caller's
// inputs, outputs and arena. The package writer (Package.h) calls the
// pieces below; `tgc-translate --emit-c` calls emitC.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_CEMITTER_H
#define TGC_CODEGEN_CEMITTER_H

#include "Codegen/PackageLayout.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace mlir::tgc {

/// Where the run function finds the weights.
enum class WeightsMode {
  /// In a static array of the emitted source itself (self-contained).
  InSource,
  /// In the array `<name>_weights`, defined by `<name>_weights.c`.
  SeparateSource,
  /// In the bytes of `<name>.safetensors`, which the caller loads and passes
  /// to the run function.
  File,
};

struct CEmitterOptions {
  /// Prefix of every public symbol and macro (`net_run`, `NET_ARENA_BYTES`).
  std::string name = "net";
  WeightsMode weights = WeightsMode::InSource;
  /// The header the source includes ("net.h"). Empty: the source declares
  /// the API itself and stands alone, as `--emit-c` writes it.
  std::string header;
};

/// Writes the C source of `module` (a linearized module, see
/// docs/architecture.md). Emits diagnostics and fails on IR it cannot
/// render.
LogicalResult emitC(ModuleOp module, llvm::raw_ostream &os,
                    const CEmitterOptions &options);

/// The same from an analyzed layout (Package.cpp analyzes once and writes
/// every file from it).
LogicalResult emitCSource(const ModelLayout &layout,
                          const CEmitterOptions &options,
                          llvm::raw_ostream &os);

/// Writes `<name>.h`: the whole API (size and shape macros, the I/O structs,
/// the run function and, for a weights file, its check function).
void emitCHeader(const ModelLayout &layout, const CEmitterOptions &options,
                 llvm::raw_ostream &os);

/// Writes `<name>_weights.c`: the weights blob as one string literal.
void emitCWeightsSource(const ModelLayout &layout,
                        const CEmitterOptions &options, llvm::raw_ostream &os);

/// Registers `--emit-c` (with `--emit-c-name`, default "net") for
/// tgc-translate.
void registerEmitCTranslation();

} // namespace mlir::tgc

#endif // TGC_CODEGEN_CEMITTER_H
