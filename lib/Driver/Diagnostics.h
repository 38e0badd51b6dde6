//===- Diagnostics.h - tgc's one-line error messages -----------*- C++ -*-===//
//
// Every diagnostic, from the importer, a pass, the package writer or the
// driver itself, reaches the user as one line:
//   tgc: error: model.onnx: node 'conv1' (Conv): <message>
//   tgc: error: model.onnx: <message>
// The node and file come from the location, `NameLoc(node, file:0:0)`; the
// op type from the `tgc.onnx_node` ops seen with that location.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_DIAGNOSTICS_H
#define TGC_DRIVER_DIAGNOSTICS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::tgc {

/// Installs itself as the context's diagnostic handler for its lifetime.
class DiagnosticPrinter {
public:
  /// `fallbackFile` names diagnostics whose location carries no file.
  DiagnosticPrinter(MLIRContext &context, llvm::raw_ostream &os,
                    llvm::StringRef fallbackFile);
  ~DiagnosticPrinter();
  DiagnosticPrinter(const DiagnosticPrinter &) = delete;
  DiagnosticPrinter &operator=(const DiagnosticPrinter &) = delete;

  /// Learns the op type of every `tgc.onnx_node` in `module` by node name,
  /// so errors that later stages report at those nodes can name the type.
  void recordNodeTypes(ModuleOp module);

  void setFallbackFile(llvm::StringRef file) { fallbackFile = file.str(); }

  /// How many errors were printed so far.
  unsigned errorCount() const { return errors; }

  /// The line printed for `diag` (without the newline): severity, where,
  /// message. Notes attached to it are not included.
  std::string format(const Diagnostic &diag) const;

private:
  /// Formats "<file>[:line:col]: [node 'n' (Type): ]" for `loc`; the node
  /// part is left out when `message` starts with it already.
  std::string describeLocation(Location loc, llvm::StringRef message) const;

  MLIRContext &context;
  llvm::raw_ostream &os;
  std::string fallbackFile;
  llvm::StringMap<std::string> nodeTypes;
  DiagnosticEngine::HandlerID handlerId;
  unsigned errors = 0;
};

} // namespace mlir::tgc

#endif // TGC_DRIVER_DIAGNOSTICS_H
