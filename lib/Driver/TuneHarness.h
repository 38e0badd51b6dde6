//===- TuneHarness.h - a timing main() for one candidate kernel -*- C++ -*-===//
//
// BEAM search times each candidate as a one-kernel package (its inputs the
// kernel's buffers, its weights the kernel's constants in a safetensors
// file). The harness fills the inputs with random values, loads the
// weights, and prints one time in milliseconds per line, stopping early
// once the candidate is clearly slower than the best so far.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_TUNEHARNESS_H
#define TGC_DRIVER_TUNEHARNESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace mlir::tgc {

/// How the harness fills an input buffer.
enum class FillKind {
  /// Uniform in [-1, 1) as float or double.
  Float32,
  Float64,
  /// Zeros: a safe index for every gather, a valid value of every type.
  Zero,
};

/// The C source of the harness for package `name` (weights in a file).
/// Its arguments: WEIGHTS_FILE THREADS MAX_RUNS BUDGET_MS CUTOFF_MS
/// FLUSH_BYTES [OUTPUTS_FILE]. After a warm-up it times up to MAX_RUNS
/// samples (each the mean of enough runs to last about 50 us, at most 8
/// when cold), stops after BUDGET_MS or as soon as the fastest sample is
/// slower than CUTOFF_MS (0: never), prints each sample, and writes the
/// outputs, one after the other, to OUTPUTS_FILE. With FLUSH_BYTES > 0
/// every run is cold, as inside a model: a buffer that size is read
/// before it (evicting the weights) and then the inputs (which the
/// kernel before it would have just written), and only the run is timed.
std::string generateTuneHarness(llvm::ArrayRef<int64_t> inputBytes,
                                llvm::ArrayRef<FillKind> inputFill,
                                llvm::ArrayRef<int64_t> outputBytes,
                                llvm::StringRef name);

} // namespace mlir::tgc

#endif // TGC_DRIVER_TUNEHARNESS_H
