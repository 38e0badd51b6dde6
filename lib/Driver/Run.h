//===- Run.h - tgc run: compile for this host, run, write outputs -*- C++ -*-=//

#ifndef TGC_DRIVER_RUN_H
#define TGC_DRIVER_RUN_H

#include "Driver/KernelChoices.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::tgc {

class DiagnosticPrinter;

struct RunOptions {
  /// --input NAME=FILE, in command-line order; .npy or .pb files.
  std::vector<std::pair<std::string, std::string>> inputs;
  /// --output-dir: where `<output name>.<format>` go (created if missing).
  std::string outputDir = ".";
  /// --output-format: "npy" or "pb".
  std::string outputFormat = "npy";
  /// --tuning-db, --image-loop, --winograd: the package as it ships.
  KernelChoices kernels;
  /// --threads: the threads of the package's pool the model runs on (1:
  /// none, the plain entry point). The C target only.
  unsigned threads = 1;
  /// -v: stage timings and the C compiler's command line on stderr.
  bool verbose = false;
};

/// `tgc run`: checks every input against the model (names, dtypes, shapes;
/// each error names the input and its file), compiles the model with the
/// inputs' shapes for this host, runs it, and writes each output. Prints
/// one line per written file to `out`.
LogicalResult runModel(MLIRContext &context, llvm::StringRef modelPath,
                       const RunOptions &options, DiagnosticPrinter *printer,
                       llvm::raw_ostream &out);

} // namespace mlir::tgc

#endif // TGC_DRIVER_RUN_H
