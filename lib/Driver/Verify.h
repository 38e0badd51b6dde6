//===- Verify.h - tgc verify: run against reference outputs ----*- C++ -*-===//

#ifndef TGC_DRIVER_VERIFY_H
#define TGC_DRIVER_VERIFY_H

#include "Driver/Compare.h"
#include "Driver/KernelChoices.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::tgc {

class DiagnosticPrinter;

struct VerifyOptions {
  /// With a MODEL file: the folders of input and reference output tensors,
  /// named `<tensor name>.npy|.pb` or `input_N.pb` / `output_N.pb`.
  std::string inputsDir;
  std::string expectedDir;
  Tolerance tolerance;
  /// --target: "c" (this CPU), "cuda" or "metal" (the GPU where this machine
  /// has one, else the CPU emulation; GpuRunner.h).
  std::string target = "c";
  /// --tuning-db, --image-loop, --winograd: the package checked against
  /// the reference is the one they make (the GPU targets have no tuning
  /// yet).
  KernelChoices kernels;
  /// -v: stage timings on stderr.
  bool verbose = false;
};

/// `tgc verify`: `path` is a CASE folder in the ONNX backend test layout
/// (`model.onnx`, `test_data_set_*/input_N.pb, output_N.pb`; input_N is the
/// N-th graph input that is not an initializer) or a model file with
/// `inputsDir` and `expectedDir`. Compiles once per distinct set of input
/// shapes, runs every data set and prints, per output, the largest absolute
/// error, the largest ULP distance (floats) or the number of mismatches
/// (integers, bool) and PASS or FAIL to `out`. Succeeds only if every output
/// of every data set passes.
LogicalResult verifyModel(MLIRContext &context, llvm::StringRef path,
                          const VerifyOptions &options,
                          DiagnosticPrinter *printer, llvm::raw_ostream &out);

} // namespace mlir::tgc

#endif // TGC_DRIVER_VERIFY_H
