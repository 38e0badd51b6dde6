//===- BeamSearch.h - BEAM search over a kernel's opt actions --*- C++ -*-===//
//
// tinygrad's BEAM for the C target: a beam of action lists, each round
// extended by every action that applies, every candidate built as a
// one-kernel package with a timing harness, compiled by the system C
// compiler in parallel and timed one at a time on real-size buffers; the
// fastest `beam` lists survive, until a round brings no gain. The best and
// the heuristic's choice are then timed again in turns, in one process.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_BEAMSEARCH_H
#define TGC_DRIVER_BEAMSEARCH_H

#include "Codegen/OptActions.h"
#include "Codegen/Target.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <string>
#include <vector>

namespace mlir::tgc {

/// Four times the L2 of a core of the machines tgc tunes on (2 MiB here):
/// enough to evict a kernel's weights from L1 and L2, as the other layers
/// of a model do between two runs of one kernel.
constexpr uint64_t kDefaultFlushBytes = 8 << 20;

struct BeamOptions {
  /// Action lists kept each round.
  unsigned beam = 2;
  /// Threads of the pool the candidates run on. THREAD is searched on one
  /// too (its axis becomes the outermost loop, which decides what a task
  /// keeps in cache); a candidate that has not chosen a split is built and
  /// timed with the heuristic's (or the nearest that applies) and keeps
  /// it, so the package still uses every core it is given and the code
  /// timed is the code shipped.
  unsigned threads = 1;
  /// Time budget of one candidate's measurement; a candidate whose run
  /// takes much longer is killed and dropped.
  unsigned timeoutMs = 1000;
  /// Bytes read between timed runs to evict the kernel's weights from the
  /// caches, as the rest of a model does (TuneHarness.h, tgc tune --cold);
  /// 0 times every run with the weights warm from the run before.
  uint64_t flushBytes = 0;
  /// Compilers run at once.
  unsigned jobs = 2;
  /// Seconds one candidate may take to compile (0: no limit); a slower one
  /// is stopped, its compiler's own processes too, and dropped. GCC 12
  /// vectorizing a 16x16 tile of scalar copies (a transpose upcast by a
  /// padded axis, whose gated lanes tgc-transpose-lanes leaves alone) ran
  /// over 10 minutes, and the search waited for it.
  unsigned compileTimeoutSeconds = 60;
  /// Rounds at most (each adds one action).
  unsigned maxRounds = 6;
  /// Seconds a kernel's search may take, from its start: no round and no
  /// candidate's compile starts after them (0: no limit); the starting
  /// points and the final re-timing are always done. Bounds a model's
  /// tuning time on a busy machine, where compiling and timing take several
  /// times longer.
  double budgetSeconds = 0;
  /// The CPU and the thread tasks the pipeline uses (the heuristic's start
  /// and the expand stage need them).
  std::string cpu;
  CpuTarget target;
  int64_t threadTasks = 8;
  /// The C compiler and its flags (-O3 -march=...).
  std::vector<std::string> compiler;
  /// A folder for the candidates (removed by the caller).
  std::string workDir;
  /// Each compiler command and each dropped candidate on stderr.
  bool verbose = false;
};

struct BeamResult {
  /// The fastest actions found (with the heuristic's THREAD added when
  /// searching on one thread), and what the heuristic chose.
  SmallVector<OptAction> best, heuristic;
  /// Median times in milliseconds of the best and of the heuristic's
  /// choice, as timed (on one thread, their tasks run one after another).
  double bestMs = 0, heuristicMs = 0;
  /// Candidates timed.
  unsigned candidates = 0;
  /// Where the search's wall time went, in seconds: building candidates
  /// (actions, expand, linearize, C), compiling them, timing them.
  double prepareSeconds = 0, compileSeconds = 0, timeSeconds = 0;
};

/// Called after every candidate timed, with the count so far.
using BeamProgress = std::function<void(unsigned timed, double bestMs,
                                        double heuristicMs)>;

/// Searches actions for `kernel` (lowered, no actions yet; it is left
/// unchanged). Fails, with an error emitted at the kernel, only when
/// neither starting point can be built or timed (no C compiler, a kernel
/// the renderer rejects).
FailureOr<BeamResult> searchKernel(KernelOp kernel, const BeamOptions &options,
                                   const BeamProgress &progress);

} // namespace mlir::tgc

#endif // TGC_DRIVER_BEAMSEARCH_H
