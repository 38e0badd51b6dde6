//===- Compile.h - tgc compile: a model to a package -----------*- C++ -*-===//
//
// Opens the model, runs the pipeline stage by stage (dumping the IR after
// the stages asked for), and writes the package. `compileModel` is all or
// nothing: the output folder is replaced only when everything succeeded.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_COMPILE_H
#define TGC_DRIVER_COMPILE_H

#include "Driver/KernelChoices.h"
#include "Driver/Model.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::tgc {

class DiagnosticPrinter;

struct CompileOptions {
  /// Prefix of the package's files and symbols (--name); a C identifier.
  std::string name = "net";
  /// "c", "cuda" or "metal".
  std::string target = "c";
  /// The CPU the C is tuned for (--cpu); empty for the host.
  std::string cpu;
  /// --dump-ir: "", "all" or a comma list of stage names.
  std::string dumpStages;
  /// False for --no-opt.
  bool optimize = true;
  /// --parallel-images: images of a looped batch that a run computes at
  /// once, one per thread, each with its own slice of the arena.
  int64_t parallelImages = 1;
  /// --tuning-db, --image-loop, --winograd.
  KernelChoices kernels;
  /// --weights file: weights in NAME.safetensors instead of the source.
  bool weightsInFile = false;
  /// -v: stage timings on stderr.
  bool verbose = false;
  /// --input-shape NAME=D0xD1...: binds dynamic input dimensions.
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// --bind-input NAME=FILE: inputs compiled in as constants (ONNX models
  /// only); they are not inputs of the package.
  std::map<std::string, ::tgc::HostTensor> constantInputs;
  /// How many elements each sequence or optional input holds (verify takes
  /// them from the test data; see ImportOptions::containerCounts).
  std::map<std::string, int64_t> containerCounts;
  /// --beam N: kernels without an entry are searched first (BEAM search
  /// with N lists kept), and the entries added to --tuning-db if given.
  unsigned beam = 0;
};

/// `tgc compile`: writes the package for `modelPath` to `outputDir`.
/// Everything is written to a temporary sibling folder that replaces
/// `outputDir` only on success. An existing `outputDir` must be empty or
/// hold a package (a `<name>.json` manifest); anything else is an error, so
/// a mistyped -o never deletes other files. `printer` (optional) learns the
/// imported node types so that later errors can name them.
LogicalResult compileModel(MLIRContext &context, llvm::StringRef modelPath,
                           llvm::StringRef outputDir,
                           const CompileOptions &options,
                           DiagnosticPrinter *printer = nullptr);

/// The work of compileModel, into the existing empty folder `dir` (dumps in
/// `dir/ir/`); the caller owns cleaning up after a failure. Sets
/// `signature` (when non-null) to the compiled model's inputs and outputs,
/// with every dimension bound.
LogicalResult compileIntoFolder(MLIRContext &context, llvm::StringRef modelPath,
                                llvm::StringRef dir,
                                const CompileOptions &options,
                                DiagnosticPrinter *printer,
                                ModelSignature *signature);

/// Checks the options that need no model (name, target, --dump-ir stages)
/// and emits an error at `loc` for the first one that is wrong.
LogicalResult checkCompileOptions(Location loc, const CompileOptions &options);

} // namespace mlir::tgc

#endif // TGC_DRIVER_COMPILE_H
