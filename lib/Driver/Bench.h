//===- Bench.h - tgc bench: latency of a model on this host ----*- C++ -*-===//

#ifndef TGC_DRIVER_BENCH_H
#define TGC_DRIVER_BENCH_H

#include "Driver/KernelChoices.h"
#include "Driver/Model.h"
#include "Driver/StagingDir.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::tgc {

class DiagnosticPrinter;

struct BenchOptions {
  /// --input NAME=FILE; inputs not given come from a CASE's first data set
  /// or are made up (uniform in [-1, 1) for floats, 0 and 1 for integers).
  std::vector<std::pair<std::string, std::string>> inputs;
  /// --threads: 1 runs NAME_run; more run NAME_run_parallel on a tgc_pool
  /// of that many threads.
  unsigned threads = 1;
  /// --iterations: timed runs; 0 picks enough for about two seconds
  /// (10 to 10000).
  unsigned iterations = 0;
  /// --json: one JSON object instead of a line of text.
  bool json = false;
  /// False for --no-opt.
  bool optimize = true;
  /// --tuning-db, --image-loop, --winograd: the package timed.
  KernelChoices kernels;
  /// --scaling (C target, 2 or more threads): each timed run is paired
  /// with one of NAME_run on the calling thread alone, in turns in one
  /// process, for the speedup the pool gives; apart, the two thread counts
  /// land in different seconds of a shared machine.
  bool scaling = false;
  /// --against-heuristic (C target, with --tuning-db): each timed run is
  /// paired with one of the same model built with the heuristic's actions
  /// (no database), on the same threads, in turns in one process: how much
  /// the database gains, read in the same seconds of a shared machine.
  bool againstHeuristic = false;
  /// --profile (C target): each kernel's time too, from as many runs again
  /// of a build whose NAME_KERNEL_DONE hook reads the clock. The batch is
  /// then computed in one sequence of kernels, not images side by side.
  bool profile = false;
  /// -v: stage timings and the C compiler's command line on stderr.
  bool verbose = false;
  /// --target: "c" (this CPU) or "cuda" (this machine's NVIDIA GPU, built
  /// with nvcc, or else the CPU emulation, whose times mean nothing).
  std::string target = "c";
};

/// The statistics of a list of run times in milliseconds.
struct LatencyStats {
  double minMs = 0, medianMs = 0, p90Ms = 0;
  unsigned iterations = 0;
};

/// Min, median and 90th percentile (nearest rank) of `times`, which must
/// not be empty.
LatencyStats summarizeLatencies(llvm::ArrayRef<double> times);

/// The median over the pairs of baseline[i] / timed[i]: how many times as
/// fast the timed runs were (the pool against one thread, a tuned build
/// against the heuristic's), each pair timed within one run's length. Both
/// must have the same, nonzero, length.
double pairedSpeedup(llvm::ArrayRef<double> baseline,
                     llvm::ArrayRef<double> timed);

/// A model compiled for this host behind the timing harness, ready to run
/// (or, for target "cuda", compiled only).
struct BenchProgram {
  Location loc;
  /// Owns the package, the inputs and the executable.
  ScratchDir scratch;
  std::string packageDir, executable;
  ModelSignature compiled;
  /// Raw bytes, one file per input.
  std::vector<std::string> inputFiles;
  /// With --profile: the manifest's text and its kernel count.
  std::string manifest;
  unsigned profiledKernels = 0;
  /// With --against-heuristic: the heuristic's build is linked in too, and
  /// `tunedKernels` of the package's `kernelCount` kernels are not among
  /// its kernels with the same actions (another graph choice, or actions).
  bool hasHeuristicBuild = false;
  unsigned tunedKernels = 0, kernelCount = 0;
};

/// Compiles `path` as `options` say and builds the harness around it.
FailureOr<BenchProgram> buildBenchProgram(MLIRContext &context,
                                          llvm::StringRef path,
                                          const BenchOptions &options,
                                          DiagnosticPrinter *printer);

struct KernelRate;

/// What one run of a BenchProgram measured: each run's latency, and with a
/// profile each kernel's statistics over the same number of runs.
struct BenchSamples {
  llvm::SmallVector<double> runs;
  /// With a pairing: the run paired with each of `runs`.
  llvm::SmallVector<double> pairedRuns;
  std::vector<KernelRate> kernels;
};

/// What each timed run of a BenchProgram is paired with; the value is the
/// harness's PAIR argument (generateBenchHarness).
enum class BenchPairing {
  none = 0,
  /// NAME_run on the calling thread alone (--scaling).
  oneThread = 1,
  /// The heuristic's build on the same threads (--against-heuristic; the
  /// program must have it).
  heuristicBuild = 2,
};

/// Runs `program` (`iterations` timed runs, 0 for about two seconds'
/// worth, on `threads` threads, each paired as `pairing` says).
FailureOr<BenchSamples>
runBenchProgram(const BenchProgram &program, unsigned iterations,
                unsigned threads, BenchPairing pairing = BenchPairing::none);

/// `tgc bench`: compiles `path` (a model file or a CASE folder) for this
/// host, builds it with a timing harness (the C compiler's -O3
/// -march=native), runs it a few times to warm up and then `iterations`
/// times, and prints min / median / p90 latency to `out`: one line, or with
/// `json` one object {"model", "threads", "iterations", "min_ms",
/// "median_ms", "p90_ms"}; with `scaling` also "one_thread" (the paired
/// single-thread runs' min_ms, median_ms and p90_ms) and "speedup" (the
/// median over the pairs of the single-thread time over the pooled one); with
/// `againstHeuristic` also "heuristic" (the paired runs of the heuristic's
/// build), "tuned_speedup" (the median over the pairs of the heuristic's
/// time over the tuned one) and "tuned_kernels" (how many of the tuned
/// build's kernels the heuristic's has not, with the same actions). With
/// target "cuda", the CUDA package is timed instead, and each kernel too
/// (see GpuBench.h).
LogicalResult benchModel(MLIRContext &context, llvm::StringRef path,
                         const BenchOptions &options,
                         DiagnosticPrinter *printer, llvm::raw_ostream &out);

/// The C source of the timing harness for package `name`, whose inputs and
/// outputs are `signature`'s, every dimension bound: its arguments are the
/// iteration count (0: automatic), the thread count, what to pair each run
/// with (0: nothing, 1: a run on a single thread, 2: a run of package
/// `otherName`) and one raw input file per input; it prints one run time
/// in milliseconds per line, each followed by "one T" or "other T" with
/// the paired time. With `profiledKernels` (the package's kernel count),
/// it includes NAME.c itself (which is then not compiled apart), its hook
/// defined, and prints a line "kernels T0 T1 ..." per run after the
/// latency runs. `otherName`, if given, is another build of the same model
/// (same inputs and outputs), linked in beside it.
std::string generateBenchHarness(const ModelSignature &signature,
                                 llvm::StringRef name,
                                 unsigned profiledKernels = 0,
                                 llvm::StringRef otherName = {});

} // namespace mlir::tgc

#endif // TGC_DRIVER_BENCH_H
