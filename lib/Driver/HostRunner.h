//===- HostRunner.h - compile a model for this host and run it -*- C++ -*-===//
//
// What `tgc run` and `tgc verify` share: checking input tensors against a
// model's signature, compiling the model with those shapes into a scratch
// folder, building it with the system C compiler behind a harness, and
// running it on tensors.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_HOSTRUNNER_H
#define TGC_DRIVER_HOSTRUNNER_H

#include "Driver/Compile.h"
#include "Driver/Model.h"
#include "Driver/StagingDir.h"
#include "Support/TensorFile.h"
#include "mlir/IR/MLIRContext.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace mlir::tgc {

class DiagnosticPrinter;

/// Checks that `tensor`, read from `file`, can be `spec`'s input: same
/// dtype, same rank, equal static dimensions. Emits an error naming the
/// input and the file otherwise.
LogicalResult checkInputTensor(MLIRContext &context, const TensorSpec &spec,
                               const ::tgc::HostTensor &tensor,
                               llvm::StringRef file);

/// `message` without a leading "<file>: ", for Support's messages, which
/// name the file that the diagnostic's location names already.
llvm::StringRef withoutFilePrefix(llvm::StringRef message,
                                  llvm::StringRef file);

/// `name` made safe as a file name (path separators become '_'), for
/// `<output name>.npy` and for finding `<input name>.npy`.
std::string tensorFileStem(llvm::StringRef name);

/// The inputs of the model at `modelPath` that run and verify compile in as
/// constants (with the values given for them): those whose values decide
/// shapes (see findModelConstantInputs). None for an .mlir model.
FailureOr<std::set<std::string>> constantInputsOf(MLIRContext &context,
                                                  llvm::StringRef modelPath);

/// A model compiled for this host, with a harness built around it.
class HostRunner {
public:
  /// Compiles `modelPath` with the input shapes in `options` for this host
  /// and builds it with $CC (default `cc`), to run on a pool of `threads`
  /// threads (1: the plain entry point, no pool). Emits errors and fails on
  /// any problem.
  static FailureOr<std::unique_ptr<HostRunner>>
  create(MLIRContext &context, llvm::StringRef modelPath,
         const CompileOptions &options, DiagnosticPrinter *printer,
         unsigned threads = 1);

  /// The compiled model's inputs and outputs, every dimension bound.
  const ModelSignature &getSignature() const { return signature; }

  /// Runs the model on `inputs` (one per signature input, in order, each
  /// already checked with checkInputTensor) and returns the outputs in
  /// signature order, named after them.
  FailureOr<std::vector<::tgc::HostTensor>>
  run(llvm::ArrayRef<const ::tgc::HostTensor *> inputs);

private:
  HostRunner(MLIRContext &context, std::string modelPath, ScratchDir scratch)
      : context(context), modelPath(std::move(modelPath)),
        scratch(std::move(scratch)) {}

  LogicalResult build(bool verbose);

  MLIRContext &context;
  std::string modelPath;
  ScratchDir scratch;
  ModelSignature signature;
  std::string executable;
  unsigned runs = 0;
  /// The threads of the pool the C harness runs the model on.
  unsigned threads = 1;
  /// The package's target: "c", or "cuda"/"metal" (GpuRunner.h).
  std::string target = "c";
};

} // namespace mlir::tgc

#endif // TGC_DRIVER_HOSTRUNNER_H
