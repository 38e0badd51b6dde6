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

/// Writes the API declarations: status codes, size, shape and dtype
/// macros, the I/O structs and the prototypes (what goes inside the
/// header's include guard).
void emitCDeclarations(const ModelLayout &layout,
                       const CEmitterOptions &options, llvm::raw_ostream &os);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_CEMITTERHEADER_H
