//===- TuneHarness.h - a timing main() for candidate kernels ----*- C++ -*-===//
//
// BEAM search times each candidate as a one-kernel package (its inputs the
// kernel's buffers, its weights the kernel's constants in a safetensors
// file). The harness fills the inputs with random values, loads the
// weights, and prints times in milliseconds, one line per round, stopping
// early once the candidate is clearly slower than the best so far. One
// harness can time several such packages of one kernel in turns.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_TUNEHARNESS_H
#define TGC_DRIVER_TUNEHARNESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
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

/// The C source of the harness for the packages `names` (weights in
/// files), which share their inputs' shapes. Its arguments: WEIGHTS_FILE
/// (one per package) THREADS MAX_RUNS BUDGET_MS CUTOFF_MS FLUSH_BYTES
/// [OUTPUTS_FILE]. After a warm-up it times up to MAX_RUNS rounds, each a
/// sample of every package in turn (a sample: the mean of enough runs to
/// last about 50 us, at most 8 when cold), and prints a line per round, the
/// packages' samples separated by spaces. It stops after BUDGET_MS or as
/// soon as the first package's fastest sample is slower than CUTOFF_MS (0:
/// never), and writes the outputs of each package, one after the other,
/// to OUTPUTS_FILE. With FLUSH_BYTES > 0 every run is cold, as inside a
/// model: a buffer that size is read before it (evicting the weights) and
/// then the inputs (which the kernel before it would have just written),
/// and only the run is timed.
///
/// Several packages in one process compare kernels on a shared machine:
/// a core that slows down for seconds (another tenant) slows the samples of
/// every package alike, where one process per package would pin the
/// slowdown on whichever ran then.
std::string generateTuneHarness(llvm::ArrayRef<int64_t> inputBytes,
                                llvm::ArrayRef<FillKind> inputFill,
                                llvm::ArrayRef<int64_t> outputBytes,
                                llvm::ArrayRef<std::string> names);

/// The rounds a tune harness of `packages` packages printed to `path`: one
/// sample per package each, in ms. Lines that do not hold exactly that
/// many numbers are skipped; none when the file cannot be read.
llvm::SmallVector<llvm::SmallVector<double, 2>>
readTuneSamples(llvm::StringRef path, size_t packages);

} // namespace mlir::tgc

#endif // TGC_DRIVER_TUNEHARNESS_H
