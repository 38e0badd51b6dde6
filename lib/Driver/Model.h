//===- Model.h - open a model: .onnx or a stage's .mlir --------*- C++ -*-===//
//
// tgc takes an ONNX file or the textual IR of any stage. Both open into a
// module; both have a signature (named, typed inputs and outputs) that `run`
// and `verify` check their tensors against before compiling.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_MODEL_H
#define TGC_DRIVER_MODEL_H

#include "Frontend/OnnxImport.h"
#include "Support/TensorFile.h"
#include "Support/ValueFile.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tgc {

/// One input or output of a model.
struct TensorSpec {
  std::string name;
  ::tgc::DType dtype = ::tgc::DType::Float;
  /// -1 for a dimension that is bound only when the model is compiled.
  llvm::SmallVector<int64_t> shape;
  /// False when the ONNX file gives no shape at all (any rank binds).
  bool rankKnown = true;
  /// The sequences and optionals around the tensor, outermost first (an
  /// ONNX input of type optional(sequence(tensor))); empty for a tensor.
  /// dtype and shape are those of the tensors inside. A compiled package
  /// takes such a value flattened (Support/ValueFile.h).
  std::vector<::tgc::Container> containers;
};

/// The real inputs (graph inputs that are not initializers) and the
/// outputs, in graph order.
struct ModelSignature {
  llvm::SmallVector<TensorSpec> inputs;
  llvm::SmallVector<TensorSpec> outputs;
};

enum class ModelKind { Onnx, Mlir };

/// The location of a whole file, `file:0:0`: what every diagnostic about a
/// file (rather than a node in it) is reported at.
Location fileLoc(MLIRContext &context, llvm::StringRef path);

/// "[1,?,28]": a shape with dynamic dimensions as '?'.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Checks that `path` is a readable file named `.onnx` or `.mlir` and says
/// which; emits an error naming the file otherwise.
FailureOr<ModelKind> classifyModel(MLIRContext &context, llvm::StringRef path);

/// Opens `path` into a module: imports an .onnx (binding dynamic input
/// dimensions from `options`) or parses an .mlir dump, whose shapes are
/// fixed (a shape in `options` that disagrees with it is an error). The
/// `tgc.stage` attribute of a dump is left in place.
OwningOpRef<ModuleOp> openModel(MLIRContext &context, llvm::StringRef path,
                                const ImportOptions &options);

/// The signature of an .onnx file as written in its graph (dynamic
/// dimensions stay -1), read without importing it; or, for an .mlir file,
/// of its `@main`. Sequence and optional inputs and outputs are an error
/// naming them unless `allowContainers` (only verify reads such values).
FailureOr<ModelSignature> readSignature(MLIRContext &context,
                                        llvm::StringRef path,
                                        bool allowContainers = false);

/// The signature of a module's `func.func @main`, at any stage: argument and
/// result names from their `tgc.name` attributes.
FailureOr<ModelSignature> getModuleSignature(ModuleOp module);

} // namespace mlir::tgc

#endif // TGC_DRIVER_MODEL_H
