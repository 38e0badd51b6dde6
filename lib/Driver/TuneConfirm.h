//===- TuneConfirm.h - search choices checked in the model ------*- C++ -*-===//
//
// The search times each kernel alone: its weights warm in cache, its inputs
// made up, nothing else running. Inside the model a kernel finds its
// weights evicted by the layers since its last run and its input just
// written by the kernel before, and a choice that won alone can lose there
// (ResNet-18's 7x7 Winograd products: 2.93 -> 2.52 ms alone, slower than
// the heuristic's inside). So after the search the model is built twice,
// with the heuristic's actions and with the database's, both run in turns
// with each kernel timed at the package's NAME_KERNEL_DONE hook, and an
// entry whose kernels are not faster inside the model gets the heuristic's
// actions back (its search's stay on record). So does one that is slower
// at the other thread count (one thread, or all of the host's CPUs where
// the search ran on one): one database serves every count.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_TUNECONFIRM_H
#define TGC_DRIVER_TUNECONFIRM_H

#include "Driver/Bench.h"
#include "Driver/KernelTimes.h"
#include "Driver/Tune.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <string>

namespace mlir::tgc {

/// One entry's kernels inside the model: their times summed over every
/// place the entry applies, with the heuristic's actions and the search's.
struct ModelTimes {
  double heuristicMs = 0, tunedMs = 0;
};

/// Sums the kernel times of the two builds by the database key of each
/// kernel: `keyOfKernel` maps a kernel's name to its key, a rate's function
/// is `prefix` + "_" + that name. Kernels without a key are left out.
std::map<std::string, ModelTimes>
sumModelTimesByKey(const llvm::StringMap<std::string> &keyOfKernel,
                   llvm::StringRef prefix, llvm::ArrayRef<KernelRate> heuristic,
                   llvm::ArrayRef<KernelRate> tuned);

/// The noise of one timing of the two builds, as the kernels they share
/// show it: most kernels of a model keep the heuristic's actions, so both
/// builds run the same code for them, and whatever tells their times apart
/// (a neighbour that slowed the core in one build's turns, one build's
/// threads placed worse) is not the search's doing. A choice's time is
/// read against them, as the search reads a candidate's against the
/// heuristic's in the same round.
struct BuildNoise {
  /// The median over the shared kernels of the tuned build's time over the
  /// heuristic's: what the tuned build's times are divided by.
  double shift = 1;
  /// The 80th percentile of how far (as a fraction) a shared kernel's
  /// ratio lies from `shift`, at least kModelTimingMargin and at most 15%:
  /// what a choice must clear.
  double margin = kModelTimingMargin;
};

/// The noise of `times` (one timing of the two builds, by key) measured on
/// the keys `changed` says both builds run unchanged; the defaults where
/// fewer than 5 are shared.
BuildNoise sharedKernelNoise(const std::map<std::string, ModelTimes> &times,
                             llvm::function_ref<bool(llvm::StringRef)> changed);

/// Whether the search's choice stays: faster inside the model, once its
/// time is divided by `noise.shift`, by more than `noise.margin`.
bool keepsSearchChoice(const ModelTimes &times, const BuildNoise &noise = {});

/// Whether the search's choice is slower inside the model than the
/// heuristic's by more than the noise, or was not measured: at a thread
/// count other than the search's, the choice then goes.
bool slowsSearchChoice(const ModelTimes &times, const BuildNoise &noise = {});

/// The thread counts a model's choices are checked at: the search's
/// (`searched`) first, then one thread if that was more, or all `cpus` if
/// it was one. The package runs at whatever count its product gives its
/// pool, and a choice made on one thread can lose on two: a split that
/// reads another core's writes, a tile that leaves a task idle.
llvm::SmallVector<unsigned> confirmThreadCounts(unsigned searched,
                                                unsigned cpus);

/// Rounds of a model's builds run in turns; a build's time is the lowest of
/// its rounds' medians, so one round disturbed by another job does not
/// decide.
constexpr int kModelTimingRounds = 3;

/// Whether the model can be built and timed on this host as `options` tune
/// it: not for another CPU than this one, nor for inputs of dynamic shape
/// without --input files. Otherwise prints why, then `consequence`.
bool canTimeModel(const TuneOptions &options, llvm::StringRef consequence);

/// What builds the model as `options` tune it: its --input files, threads,
/// --image-loop, --winograd and --conv-layout.
BenchOptions modelBenchOptions(const TuneOptions &options);

/// `ms` rounded to the nanosecond, so that a database reads the same after
/// a round trip.
double roundMs(double ms);

/// The database key of each of `kernels` by kernel name.
llvm::StringMap<std::string> kernelKeys(llvm::ArrayRef<KeyedKernel> kernels);

/// The model built with the heuristic's actions and a profile, as
/// `options` tune it.
FailureOr<BenchProgram> buildHeuristicModel(MLIRContext &context,
                                            llvm::StringRef modelPath,
                                            const TuneOptions &options,
                                            DiagnosticPrinter *printer);

/// The time inside `heuristic` (built by buildHeuristicModel from the
/// model lowered into `module`) of each database key: one round of runs on
/// the search's thread count, each kernel's median summed over the kernels
/// that share its key.
FailureOr<std::map<std::string, double>>
timeKernelsInModel(const llvm::StringMap<std::string> &keyOfKernel,
                   const BenchProgram &heuristic, const TuneOptions &options);

/// Builds the model at `modelPath` (lowered into `module`) with and without
/// the database's entries, times both inside the model in turns at each of
/// confirmThreadCounts, and gives every entry of `db` still unconfirmed
/// whose search chose other actions than the heuristic its model times (at
/// the search's count), and the heuristic's actions back unless
/// keepsSearchChoice there and not slowsSearchChoice at the other count.
/// Skipped (with a note) for another CPU than this one and for inputs of
/// dynamic shape without --input files. `heuristic`, if given, is the
/// heuristic's build (buildHeuristicModel), else it is built here.
LogicalResult confirmInModel(MLIRContext &context, llvm::StringRef modelPath,
                             const llvm::StringMap<std::string> &keyOfKernel,
                             TuningDb &db, const TuneOptions &options,
                             DiagnosticPrinter *printer,
                             const BenchProgram *heuristic = nullptr);

} // namespace mlir::tgc

#endif // TGC_DRIVER_TUNECONFIRM_H
