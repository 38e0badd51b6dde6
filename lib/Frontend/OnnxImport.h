//===- OnnxImport.h - ONNX model to the import stage ----------*- C++ -*-===//
//
// Reads an ONNX model through the ONNX library (parser, checker, shape
// inference) and builds the import-stage module: one tgc.onnx_node per node.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_FRONTEND_ONNXIMPORT_H
#define TGC_FRONTEND_ONNXIMPORT_H

#include "Support/TensorFile.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>
#include <vector>

namespace mlir::tgc {

struct ImportOptions {
  /// Shapes that bind the dynamic dimensions of graph inputs, by input name
  /// (from --input-shape NAME=D0xD1 or from the tensors given to run/verify).
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// Graph inputs compiled in as constants, by input name (from
  /// --bind-input NAME=FILE, or the tensors given to run/verify for the
  /// inputs findModelConstantInputs names). A bound input is no longer an
  /// input of the imported module.
  std::map<std::string, ::tgc::HostTensor> constantInputs;
  /// How many elements each sequence or optional graph input holds, by
  /// container name ("x" -> 3; nested: "x[0]" -> 2). Such an input becomes
  /// the tensors it holds (Support/ValueFile.h), and so do sequence and
  /// optional outputs.
  std::map<std::string, int64_t> containerCounts;
};

/// Imports the model at `path`. On failure emits diagnostics naming the
/// file (and the node, where there is one) and returns null.
OwningOpRef<ModuleOp> importOnnx(MLIRContext &context, llvm::StringRef path,
                                 const ImportOptions &options);

/// Imports a model whose bytes are already in memory; `path` names it in
/// diagnostics and is where external data files are looked up from.
OwningOpRef<ModuleOp> importOnnxBuffer(MLIRContext &context,
                                       llvm::StringRef bytes,
                                       llvm::StringRef path,
                                       const ImportOptions &options);

/// The graph inputs of the ONNX model at `path` whose values tgc needs at
/// compile time: they feed, directly or through other nodes, an operand
/// that decides a shape (a Reshape's shape, a Slice's starts, a Resize's
/// scales, ...). Emits an error naming the file if it cannot be read.
FailureOr<std::vector<std::string>>
findModelConstantInputs(MLIRContext &context, llvm::StringRef path);

/// Registers `--import-onnx` with mlir-translate's registry.
void registerOnnxImportTranslation();

} // namespace mlir::tgc

#endif // TGC_FRONTEND_ONNXIMPORT_H
