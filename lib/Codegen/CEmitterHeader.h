//===- CEmitterHeader.h - the C API of a model -----------------*- C++ -*-===//
//
// Pieces of the model's API that both the header and a self-contained
// source need. Private to lib/Codegen.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_CEMITTERHEADER_H
#define TGC_CODEGEN_CEMITTERHEADER_H

#include "Codegen/CEmitter.h"

namespace mlir::tgc {

/// The upper-case prefix of every macro ("NET").
std::string getMacroPrefix(llvm::StringRef name);

/// `int net_run(...)`, without the semicolon.
std::string getRunSignature(const CEmitterOptions &options);

/// `int net_run_parallel(...)`: net_run's parameters, then the
/// parallel-for hook and its context.
std::string getRunParallelSignature(const CEmitterOptions &options);

/// Size in bytes of the safetensors header, i.e. where its data starts.
int64_t getWeightsDataOffset(const ModelLayout &layout);

/// `"name" dtype [d0, d1]`: a tensor of the API, as its comments name it.
std::string describeIoTensor(const IoTensor &io);

/// Writes the macros of input or output `index` (`kind`): a comment that
/// describes it, then MACRO_NAME_NAME, _DTYPE, _RANK, _SHAPE, _ELEMS and
/// _BYTES. The C and GPU headers share them, so code reads the same
/// against either.
void emitIoMacros(const IoTensor &io, llvm::StringRef kind, unsigned index,
                  llvm::StringRef macro, llvm::raw_ostream &os);

/// Writes the checks a C or CUDA entry point starts with: `in`, `out` and
/// every tensor pointer in them not NULL; then, with `needsArena`, the
/// arena not NULL and aligned to MACRO_ARENA_ALIGN, else a cast that marks
/// it unused. A failed check returns MACRO_ERR_NULL or MACRO_ERR_ALIGN.
void emitIoAndArenaChecks(const ModelLayout &layout, llvm::StringRef macro,
                          bool needsArena, llvm::raw_ostream &os);

/// Writes the API declarations: status codes, size, shape and dtype
/// macros, the I/O structs and the prototypes (what goes inside the
/// header's include guard).
void emitCDeclarations(const ModelLayout &layout,
                       const CEmitterOptions &options, llvm::raw_ostream &os);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_CEMITTERHEADER_H
