//===- KernelTimes.h - each kernel's time with its costs --------*- C++ -*-===//
//
// Both benches (the C package's, through its NAME_KERNEL_DONE hook, and the
// CUDA package's, through cudaEvents) report one row of kernel times per
// timed run, in the manifest's order. These join the rows with the
// manifest's FLOPs and bytes per kernel and print them as a table or JSON.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_KERNELTIMES_H
#define TGC_DRIVER_KERNELTIMES_H

#include "Driver/Bench.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir::tgc {

/// What one kernel achieved: its manifest entry and its measured time.
struct KernelRate {
  std::string function;
  /// How many times a run calls it: once per image where the package
  /// computes a batch one image at a time (the manifest's "images").
  int64_t calls = 1;
  /// Over a whole run (the manifest's per-call costs times `calls`), like
  /// `time`, which sums the calls.
  int64_t flops = 0, bytes = 0;
  /// GPU packages: the launch's "XxYxZ" grid and block.
  std::string grid, block;
  /// C packages: the opt actions applied to it, space-separated.
  std::string opts;
  LatencyStats time;
  /// bytes and FLOPs over the median time, in 1e9 per second.
  double gbPerS = 0, gflopPerS = 0;
};

/// The rows of kernel times of a timing program's output: one per line
/// that starts with "kernels", the times after it in milliseconds.
std::vector<std::vector<double>> parseKernelRows(llvm::StringRef text);

/// How many kernels the manifest `manifestText` lists (0 when it is no
/// manifest).
unsigned countManifestKernels(llvm::StringRef manifestText);

/// Each kernel of the manifest `manifestText`, in order, as its name
/// (without the package's prefix) and its opt actions: "NAME OPT OPT ...".
/// Two builds of a model run the same code for a kernel where these are
/// equal. Empty when it is no manifest.
std::vector<std::string> manifestKernelChoices(llvm::StringRef manifestText);

/// Joins the manifest `manifestText`'s kernels with `kernelTimes` (one row
/// per timed run, one column per kernel in the manifest's order). Emits an
/// error at `loc` and fails when they do not match.
FailureOr<std::vector<KernelRate>>
computeKernelRates(Location loc, llvm::StringRef manifestText,
                   llvm::ArrayRef<std::vector<double>> kernelTimes);

/// The sum of the kernels' median times.
double sumKernelMedians(llvm::ArrayRef<KernelRate> rates);

/// One JSON object per kernel: function, calls, min_ms, median_ms, bytes,
/// flops, gb_per_s, gflop_per_s, and grid and block (`gpu`) or opts.
llvm::json::Array kernelRatesToJson(llvm::ArrayRef<KernelRate> rates, bool gpu);

/// The table of `rates` under the line "per kernel (median of N runs of
/// `timedBy`; ...)": time, share of the sum, GB/s, GFLOP/s, and grid and
/// block (`gpu`) or the opt actions.
void printKernelTable(llvm::raw_ostream &out, llvm::ArrayRef<KernelRate> rates,
                      llvm::StringRef timedBy, bool gpu);

} // namespace mlir::tgc

#endif // TGC_DRIVER_KERNELTIMES_H
