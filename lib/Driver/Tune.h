//===- Tune.h - tgc tune: BEAM search into a tuning database ---*- C++ -*-===//
//
// `tgc tune MODEL -o DB.json` chooses between graphs where the host
// decides which is faster (TuneGraph.h), lowers the model, searches each
// distinct kernel that the database has no entry for (BeamSearch.h), and
// writes what it found; `tgc compile --tuning-db DB.json` then applies it
// without searching, and `tgc compile --beam N` does both in one go.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_TUNE_H
#define TGC_DRIVER_TUNE_H

#include "Codegen/TuningDb.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mlir::tgc {

class DiagnosticPrinter;

struct TuneOptions {
  /// The database to extend (-o); it need not exist yet.
  std::string dbPath;
  /// Action lists kept each round (--beam).
  unsigned beam = 2;
  /// Threads the candidates run on (--threads).
  unsigned threads = 1;
  /// Time budget of one candidate (--timeout-ms).
  unsigned timeoutMs = 1000;
  /// Seconds one candidate may take to compile (--compile-timeout-s).
  unsigned compileTimeoutSeconds = 60;
  /// --budget-s: seconds the search of the model's kernels may take (0: no
  /// limit), shared among them by their times inside the model (the
  /// heuristic's build, timed first; where it cannot be, by their work,
  /// kernelWork), summed over the kernels of the model that share an
  /// entry, at least 2 s each (kernelBudgetSeconds). The starting points
  /// of every kernel are always timed, and the compiles in flight when a
  /// share ends finish, so the search can run over; the kernels after
  /// share what is left. The check inside the model comes after it.
  double budgetSeconds = 360;
  /// --cold: evict the caches before every timed run (TuneHarness.h)
  /// instead of timing with the weights left in cache by the run before.
  /// Off by default: the cold sums come closer to the model's time, but on
  /// the transformer block the database tuned warm ran 1.43x faster than
  /// the heuristic inside the model, the one tuned cold only 1.13x.
  bool cold = false;
  /// The CPU to tune for (--cpu); empty for the host.
  std::string cpu;
  /// --image-loop, --winograd and --conv-layout, as the packages the
  /// database is for are compiled: they change the kernels, so a database
  /// tuned with other values has no entries for them.
  std::string imageLoop = "auto";
  std::string winograd = "auto";
  std::string convLayout = "auto";
  /// --input NAME=FILE: the shapes of dynamic inputs come from the files.
  std::vector<std::pair<std::string, std::string>> inputs;
  /// --input-shape bindings (from tgc compile --beam).
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// -v: stage timings, compiler commands, dropped candidates.
  bool verbose = false;
};

/// Fails with an error naming `cpu` (--cpu) where tgc does not know it:
/// an unknown name would otherwise tune the C for a plain SSE2 CPU.
LogicalResult checkCpu(Location loc, llvm::StringRef cpu);

/// The tuning context of this machine for code for `cpu` (empty: the
/// host) with the pipeline's `threadTasks`: the host's CPU model, the ISA,
/// the C compiler ($CC, else cc) and its version. Emits an error at `loc`
/// if `cpu` is unknown or the C compiler does not run.
FailureOr<TuningContext> getTuningContext(Location loc, llvm::StringRef cpu,
                                          int64_t threadTasks);

/// The C compiler's command line for candidates: $CC (or cc), -O3 and
/// -march=`cpu` (native when empty).
std::vector<std::string> getTuningCompiler(llvm::StringRef cpu);

/// How many times the innermost bodies of `kernel` (lowered) run: the
/// product of its output ranges' bounds times, summed over its reductions,
/// the product of each one's reduce ranges' bounds. What a kernel's part of
/// the model's time budget goes by.
double kernelWork(KernelOp kernel);

/// The seconds of `budgetSeconds` (the model's) that a kernel of `work`
/// gets when `spentSeconds` are gone and it and the kernels after it have
/// `workLeft` together: its part of what is left once the `kernelsAfter`
/// kernels after it have their floor set aside, so that a kernel that ran
/// over takes from the ones after it instead of lengthening the search; at
/// least 2 s (or the whole budget, if smaller) for its starting points.
double kernelBudgetSeconds(double budgetSeconds, double spentSeconds,
                           double work, double workLeft,
                           unsigned kernelsAfter = 0);

/// A lowered kernel with its hash and its key in a tuning database.
struct KeyedKernel {
  KernelOp kernel;
  std::string hash, key;
};

/// Every lowered kernel of `module` (at the lower stage) keyed for
/// `context`, in program order. Hashing prints each kernel, so a tune keys
/// its module once and hands the list to every step after.
std::vector<KeyedKernel> keyKernels(ModuleOp module,
                                    const TuningContext &context);

/// Searches every kernel of `kernels` (of `module`) whose key is not
/// in `db` yet, once per distinct kernel, and adds the results (saving
/// `db` to `options.dbPath`, if set, after each). A progress bar on stderr
/// counts kernels and candidates. `modelMs`, if given, is each key's time
/// inside the model (timeKernelsInModel): the budget is then shared by
/// those times instead of by kernelWork.
LogicalResult
tuneLoweredModule(ModuleOp module, llvm::ArrayRef<KeyedKernel> kernels,
                  TuningDb &db, const TuningContext &context,
                  const TuneOptions &options,
                  const std::map<std::string, double> *modelMs = nullptr);

/// How many distinct keys of `kernels` `db` has entries for, and how many
/// distinct keys there are.
std::pair<unsigned, unsigned>
countTunedKernels(llvm::ArrayRef<KeyedKernel> kernels, const TuningDb &db);

/// `tgc tune MODEL -o DB`: loads the database (if it exists), tunes the
/// model's kernels it lacks and writes it back.
LogicalResult tuneModel(MLIRContext &context, llvm::StringRef modelPath,
                        const TuneOptions &options,
                        DiagnosticPrinter *printer);

/// `tgc tune --report DB`: one line per entry with the heuristic's time,
/// the best time, the speedup and the actions, then the geometric mean.
LogicalResult reportTuningDb(MLIRContext &context, llvm::StringRef dbPath,
                             llvm::raw_ostream &out);

} // namespace mlir::tgc

#endif // TGC_DRIVER_TUNE_H
