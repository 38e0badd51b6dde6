//===- BeamSearch.cpp - BEAM search over a kernel's opt actions -*- C++ -*-===//
//
// A candidate is the kernel alone in a module of its own: its non-constant
// operands become the model's inputs, its constants stay constants (PACK
// needs them), its results the outputs. That module goes through the same
// expand and linearize stages and the same package writer as a whole
// model, so the code timed is the code a tuned compile emits. Candidates
// that render to the same C are timed once.
//
// Every candidate computes on the same made-up inputs and the real
// weights; its outputs must match the heuristic's (to a tolerance that
// allows a reduction summed in another order), so an action that breaks a
// kernel can never win by doing less work.
//
// Compiling dominates the search, so compilers run `jobs` at a time while
// the timing runs one after another: two timed kernels on two cores would
// measure each other. A round's candidates are built (rendered to C) one
// by one as compilers free up, not all before the first compile: a big
// kernel's round has a hundred or more, its time budget often compiles a
// tenth of them, and building the rest took a third of ResNet-18's search.
// For the same reason they are compiled in an order that takes every kind
// of action on every axis once before any twice.
//
//===----------------------------------------------------------------------===//

#include "Driver/BeamSearch.h"

#include "Codegen/Heuristic.h"
#include "Codegen/Package.h"
#include "Codegen/Pipeline.h"
#include "Driver/Harness.h"
#include "Driver/Statistics.h"
#include "Driver/Subprocess.h"
#include "Driver/TuneHarness.h"
#include "Runtime/RuntimeFiles.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <thread>

using namespace llvm;

namespace mlir::tgc {
namespace {

constexpr StringLiteral kName = "k";
/// Samples per candidate at most; the median of them is its time. Five
/// are enough to drop a stray one: the best and the heuristic's choice are
/// timed again at the end anyway.
constexpr unsigned kMaxSamples = 5;
/// A candidate whose fastest sample is this much slower than the best
/// median so far stops being timed.
constexpr double kCutoff = 1.5;
/// A round that does not beat the best by this fraction ends the search:
/// smaller gains are within the noise of a shared machine.
constexpr double kMinGain = 0.02;
/// Rounds of the heuristic's choice and the best, timed in turns in one
/// process at the end of a search; a budget of kRemeasureBudget candidate
/// timings stops a slow kernel's earlier.
constexpr unsigned kRemeasureRounds = 15;
constexpr unsigned kRemeasureBudget = 3;

/// The command a compile starts with: the C compiler (found on PATH) under
/// coreutils' timeout where --compile-timeout-s asks for a limit and
/// timeout is installed (`limited` then set), which runs the compiler in a
/// process group of its own and stops the whole group (the driver, cc1 and
/// as) that killing the driver alone would leave running; else the
/// compiler as given. Empty if the compiler is not found.
std::vector<std::string> limitedCompiler(const BeamOptions &options,
                                         bool &limited) {
  limited = false;
  ErrorOr<std::string> program = sys::findProgramByName(options.compiler[0]);
  if (!program)
    return {};
  std::vector<std::string> command = options.compiler;
  command[0] = *program;
  if (options.compileTimeoutSeconds)
    if (ErrorOr<std::string> timeout = sys::findProgramByName("timeout")) {
      command.insert(command.begin(),
                     {*timeout, "--kill-after=5",
                      std::to_string(options.compileTimeoutSeconds)});
      limited = true;
    }
  return command;
}

/// Seconds a harness run with a time budget of `budgetMs` is waited for
/// before it is killed: the harness stops itself after its budget, so this
/// only catches a run that never ends.
unsigned runLimitSeconds(unsigned budgetMs) { return budgetMs * 3 / 1000 + 2; }

/// True if coreutils' timeout stopped the command it ran: its status 124,
/// or 128 + 9 where it had to kill it.
bool stoppedByTimeout(int status) { return status == 124 || status == 137; }

/// Amounts tried for each kind of action, besides every divisor of the
/// axis up to the largest of them (amountsFor). Register tiles and vectors
/// are rarely worth more than 32 lanes, and the lane cap of OptActions
/// stops deeper products anyway.
constexpr int64_t kUpcastAmounts[] = {2, 3, 4, 8, 16, 32};
constexpr int64_t kUnrollAmounts[] = {2, 3, 4, 8, 16};
constexpr int64_t kPadtoAmounts[] = {8, 16};
constexpr int64_t kPackBlocks[] = {4, 8, 16, 32};
/// Reduce loops of up to this many steps the C compiler may write out
/// (GCC's max-completely-peel-times): ROLL tries both answers on them.
constexpr int64_t kMaxRolledSteps = 16;

/// Tasks THREAD splits an axis of `bound` into: each divisor up to twice
/// the heuristic's cap of `threadTasks`, largest first (a split's tasks
/// are its outermost loop, so more tasks means less per task to keep in
/// cache), that gives each of `threads` threads as many tasks or at least
/// four. An axis of 11 blocks of columns then splits 11 ways, which the
/// heuristic's cap never does.
SmallVector<int64_t> threadAmounts(int64_t bound, int64_t threadTasks,
                                   int64_t threads) {
  SmallVector<int64_t> amounts;
  for (int64_t n = std::min(bound, 2 * threadTasks); n >= 2; --n)
    if (bound % n == 0 && (n % threads == 0 || n >= 4 * threads))
      amounts.push_back(n);
  return amounts;
}

/// `fixed` and the divisors of `bound` up to the largest of `fixed`, in
/// increasing order: a register tile along a row of 28 or 14 pixels takes
/// 7 or 14 of them, amounts no fixed list holds for every shape.
SmallVector<int64_t> amountsFor(ArrayRef<int64_t> fixed, int64_t bound) {
  SmallVector<int64_t> amounts(fixed.begin(), fixed.end());
  for (int64_t d = 2; d <= std::min(bound, fixed.back()); ++d)
    if (bound % d == 0 && !is_contained(amounts, d))
      amounts.push_back(d);
  llvm::sort(amounts);
  return amounts;
}

std::string toText(ArrayRef<OptAction> actions) {
  return join(map_range(actions, [](const OptAction &a) { return toString(a); }),
              " ");
}

/// Adds the wall time of its scope to a counter of seconds.
class PhaseTimer {
public:
  explicit PhaseTimer(double &seconds)
      : seconds(seconds), start(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() {
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             start)
                   .count();
  }

private:
  double &seconds;
  std::chrono::steady_clock::time_point start;
};

/// The kernel alone in a module: inputs for its non-constant operands,
/// copies of its constants, its results the outputs, no arena.
OwningOpRef<ModuleOp> buildStandalone(KernelOp kernel) {
  MLIRContext *context = kernel.getContext();
  Location loc = kernel.getLoc();
  OpBuilder builder(context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  (*module)->setAttr("tgc.arena_bytes", builder.getI64IntegerAttr(0));
  (*module)->setAttr("tgc.arena_align", builder.getI64IntegerAttr(64));

  SmallVector<Value> inputs;
  SmallVector<Type> inputTypes;
  for (Value operand : kernel.getInputs())
    if (!operand.getDefiningOp<ConstOp>() && !is_contained(inputs, operand)) {
      inputs.push_back(operand);
      inputTypes.push_back(operand.getType());
    }
  builder.setInsertionPointToEnd(module->getBody());
  auto main = builder.create<func::FuncOp>(
      loc, "main",
      builder.getFunctionType(inputTypes, kernel.getResultTypes()));
  for (unsigned i = 0; i < inputs.size(); ++i)
    main.setArgAttr(i, "tgc.name", builder.getStringAttr("in" + Twine(i)));
  for (unsigned i = 0; i < kernel.getNumResults(); ++i)
    main.setResultAttr(i, "tgc.name", builder.getStringAttr("out" + Twine(i)));
  Block *entry = main.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping mapping;
  for (auto [input, arg] : llvm::zip(inputs, entry->getArguments()))
    mapping.map(input, arg);
  for (Value operand : kernel.getInputs())
    if (auto constant = operand.getDefiningOp<ConstOp>();
        constant && !mapping.contains(operand))
      mapping.map(operand, builder.clone(*constant)->getResult(0));
  Operation *copy = builder.clone(*kernel, mapping);
  // Every result is an output, written in place.
  copy->setAttr("arena_offset",
                builder.getDenseI64ArrayAttr(
                    SmallVector<int64_t>(kernel.getNumResults(), -1)));
  copy->removeAttr("opts");
  copy->removeAttr("useful_share");
  builder.create<func::ReturnOp>(loc, copy->getResults());
  return module;
}

/// Writes `text` to `path`; false if it cannot.
bool writeText(StringRef path, StringRef text) {
  std::error_code ec;
  raw_fd_ostream file(path, ec);
  if (ec)
    return false;
  file << text;
  file.close();
  return !file.has_error();
}

KernelOp theKernel(ModuleOp module) {
  KernelOp kernel;
  module.walk([&](KernelOp k) { kernel = k; });
  return kernel;
}

/// One action list, built and (once compiled and run) timed.
struct Candidate {
  SmallVector<OptAction> actions;
  std::string dir;
  std::string executable;
  /// SHA-256 of the rendered C: equal hashes time alike.
  std::string sourceHash;
  bool compiled = false;
  std::optional<double> ms;
};

class Search {
public:
  Search(KernelOp kernel, const BeamOptions &options,
         const BeamProgress &progress)
      : kernel(kernel), options(options), progress(progress),
        standalone(buildStandalone(kernel)),
        compiler(limitedCompiler(options, compilerLimited)) {
    theKernel(*standalone)->getParentOfType<func::FuncOp>().walk(
        [&](ConstOp constant) { originalConstants.insert(constant.getValue()); });
    floatOutputs = llvm::all_of(kernel.getResultTypes(), [](Type type) {
      return cast<RankedTensorType>(type).getElementType().isF32();
    });
    describeBuffers();
  }

  FailureOr<BeamResult> run();

private:
  /// A copy of the standalone module with `actions` applied, or null with
  /// `whyNot` set.
  OwningOpRef<ModuleOp> applied(ArrayRef<OptAction> actions,
                                std::string &whyNot);
  /// Frees the weights a copy packed for itself: the search makes hundreds
  /// of copies, and the context keeps every blob it has seen.
  void release(ModuleOp copy);
  /// The actions that apply after `actions`.
  SmallVector<OptAction> expansions(ArrayRef<OptAction> actions);
  /// A round's candidates, unbuilt: every beam member extended by each of
  /// its expansions, ordered so that a round cut short by the time budget
  /// has tried each kind of action on each axis of each member before the
  /// second amount of any (the expansions come axis by axis, and a
  /// convolution's window loops, where ROLL applies, come last).
  std::vector<Candidate> roundCandidates(ArrayRef<Candidate> beam);
  /// The byte sizes and fills of the standalone kernel's inputs and
  /// outputs, which every candidate shares.
  void describeBuffers();
  /// The harness that times the packages `names` of the kernel.
  std::string harness(ArrayRef<std::string> names) const {
    return generateTuneHarness(inputBytes, fills, outputBytes, names);
  }
  /// Builds the candidate's package, named `name`; false if it cannot be
  /// built or (unless `again`) renders to C already seen.
  bool prepare(Candidate &candidate, bool again = false,
               StringRef name = kName);
  /// Builds (prepare) and compiles the candidates in order, `jobs`
  /// compilers at a time, each built while the ones before it compile; if
  /// `bounded`, builds and starts nothing once the time budget is spent
  /// (the rest stay uncompiled and are not timed). A candidate that cannot
  /// be built, or renders to C already seen, is not compiled.
  void compileAll(MutableArrayRef<Candidate> candidates, bool bounded = false);
  /// compileAll's work; compileAll splits its time into the two phases.
  void buildAndCompile(MutableArrayRef<Candidate> candidates, bool bounded);
  /// Whether the kernel's search has used up its time budget.
  bool overBudget() const {
    return options.budgetSeconds > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         started)
                   .count() > options.budgetSeconds;
  }
  /// Writes the harness and compiles it and the pool once, with the first
  /// candidate's header: they are the same for every candidate of the
  /// kernel (same buffers, same API), so each candidate compiles only its
  /// kernel.
  void compileShared(const Candidate &first);
  /// Times a compiled candidate, stopping early when it is slower than
  /// `cutoffMs` (0: no cutoff); removes its folder unless `keep`.
  void time(Candidate &candidate, double cutoffMs, bool keep = false);
  /// Times the heuristic's choice and the best again, in turns within one
  /// process, so that the speedup recorded carries neither the drift of a
  /// long search nor a slowdown of the machine that hit one of them.
  void remeasure(ArrayRef<OptAction> heuristic, ArrayRef<OptAction> best,
                 double &heuristicMs, double &bestMs);
  /// The heuristic's actions for the kernel.
  SmallVector<OptAction> heuristicActions();
  /// The heuristic's THREAD (or the nearest split that applies) for `k`,
  /// whose actions are applied, if they hold no split and the heuristic's
  /// do.
  std::optional<OptAction> threadSplit(KernelOp k);
  /// `actions` and threadSplit's split after them.
  SmallVector<OptAction> withThreads(ArrayRef<OptAction> actions);
  void note(const Twine &text) {
    if (options.verbose)
      errs() << "tgc: tune: " << text << "\n";
  }

  /// Whether the outputs of the timed candidate match the reference (the
  /// first candidate timed, the heuristic's choice); sets it if unset.
  bool matchesReference(StringRef outputsFile);

  KernelOp kernel;
  const BeamOptions &options;
  const BeamProgress &progress;
  OwningOpRef<ModuleOp> standalone;
  DenseSet<Attribute> originalConstants;
  /// The heuristic's actions, THREAD included.
  SmallVector<OptAction> heuristic;
  StringSet<> seenSources;
  /// The outputs of the heuristic's choice, and whether they are all f32
  /// (compared with a tolerance; anything else must match bit for bit).
  std::optional<std::string> reference;
  bool floatOutputs = false;
  SmallVector<int64_t> inputBytes, outputBytes;
  SmallVector<FillKind> fills;
  /// Every compile's command: the C compiler, under coreutils' timeout
  /// where `compilerLimited` (limitedCompiler).
  bool compilerLimited = false;
  std::vector<std::string> compiler;
  /// The harness's and the pool's object files, once compiled.
  SmallVector<std::string> sharedObjects;
  bool triedShared = false;
  unsigned nextId = 0;
  unsigned timed = 0;
  double bestMs = 0, heuristicMs = 0;
  double prepareSeconds = 0, compileSeconds = 0, timeSeconds = 0;
  std::chrono::steady_clock::time_point started;
};

void Search::describeBuffers() {
  auto main = cast<func::FuncOp>(standalone->lookupSymbol("main"));
  auto bytesOf = [](Type type) {
    auto tensor = cast<RankedTensorType>(type);
    Type element = tensor.getElementType();
    int64_t bits =
        element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
    return tensor.getNumElements() * std::max<int64_t>(1, bits / 8);
  };
  for (Type type : main.getFunctionType().getInputs()) {
    inputBytes.push_back(bytesOf(type));
    Type element = cast<RankedTensorType>(type).getElementType();
    fills.push_back(element.isF32()   ? FillKind::Float32
                    : element.isF64() ? FillKind::Float64
                                      : FillKind::Zero);
  }
  for (Type type : main.getFunctionType().getResults())
    outputBytes.push_back(bytesOf(type));
}

OwningOpRef<ModuleOp> Search::applied(ArrayRef<OptAction> actions,
                                      std::string &whyNot) {
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>((*standalone)->clone());
  KernelOp k = theKernel(*copy);
  for (const OptAction &action : actions)
    if (failed(applyOptAction(k, action, &whyNot))) {
      whyNot = toString(action) + ": " + whyNot;
      release(*copy);
      return nullptr;
    }
  return copy;
}

void Search::release(ModuleOp copy) {
  copy.walk([&](ConstOp constant) {
    if (originalConstants.contains(constant.getValue()))
      return;
    if (auto resource =
            dyn_cast<DenseResourceElementsAttr>(constant.getValue()))
      if (auto *entry = resource.getRawHandle().getResource())
        entry->setBlob(AsmResourceBlob());
  });
}

SmallVector<OptAction> Search::expansions(ArrayRef<OptAction> actions) {
  std::string whyNot;
  OwningOpRef<ModuleOp> copy = applied(actions, whyNot);
  SmallVector<OptAction> result;
  if (!copy)
    return result;
  KernelOp k = theKernel(*copy);
  // THREAD is searched on one thread too: its axis becomes the outermost
  // loop, so the split decides what each task keeps in cache, not only how
  // the cores share the work (the transformer block's 256 -> 256
  // projection, its 11 blocks of 24 columns one task each rather than 8
  // tasks of 16 rows, ran 1.2x faster on one thread and 1.07x on two). The
  // check inside the model times the choice at the other thread count.
  bool searchThreads = options.threadTasks > 1;
  auto consider = [&](OptAction action) {
    if (checkOptAction(k, action).empty())
      result.push_back(action);
  };
  for (Operation &op : k.getBlock()) {
    auto range = dyn_cast<RangeOp>(op);
    if (!range)
      continue;
    int64_t axis = range.getId();
    int64_t bound = range.getBound();
    if (range.getAxis() == AxisType::reduce) {
      for (int64_t n : amountsFor(kUnrollAmounts, bound))
        consider({OptKind::Unroll, axis, n});
      // One of the two is what tgc-keep-rolled does anyway: its source is
      // the same as the member's, and the search skips it.
      if (bound <= kMaxRolledSteps)
        for (int64_t keepLoop : {0, 1})
          consider({OptKind::Roll, axis, keepLoop});
      continue;
    }
    for (int64_t n : amountsFor(kUpcastAmounts, bound))
      consider({OptKind::Upcast, axis, n});
    for (int64_t n : kPadtoAmounts)
      consider({OptKind::Padto, axis, n});
    if (searchThreads)
      for (int64_t n :
           threadAmounts(bound, options.threadTasks, options.threads))
        consider({OptKind::Thread, axis, n});
    for (unsigned input = 0; input < k.getInputs().size(); ++input)
      if (k.getInputs()[input].getDefiningOp<ConstOp>())
        for (int64_t n : kPackBlocks)
          consider({OptKind::Pack, axis, n, input});
  }
  release(*copy);
  return result;
}

std::vector<Candidate> Search::roundCandidates(ArrayRef<Candidate> beam) {
  struct Ranked {
    unsigned rank;
    Candidate candidate;
  };
  std::vector<Ranked> ranked;
  for (const Candidate &member : beam) {
    // How many of the member's expansions came before on the same axis
    // with the same kind: 0 for the first UPCAST of axis 2, 1 for its next.
    std::map<std::pair<OptKind, int64_t>, unsigned> seen;
    for (const OptAction &action : expansions(member.actions)) {
      Ranked r{seen[{action.kind, action.axis}]++, Candidate()};
      r.candidate.actions = member.actions;
      r.candidate.actions.push_back(action);
      ranked.push_back(std::move(r));
    }
  }
  llvm::stable_sort(
      ranked, [](const Ranked &a, const Ranked &b) { return a.rank < b.rank; });
  std::vector<Candidate> candidates;
  for (Ranked &r : ranked)
    candidates.push_back(std::move(r.candidate));
  return candidates;
}

bool Search::prepare(Candidate &candidate, bool again, StringRef name) {
  PhaseTimer phase(prepareSeconds);
  // Diagnostics of a candidate that fails are the search's business only.
  std::string firstError;
  ScopedDiagnosticHandler quiet(kernel.getContext(), [&](Diagnostic &diag) {
    if (firstError.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      firstError = diag.str();
    return success();
  });
  std::string whyNot;
  OwningOpRef<ModuleOp> copy = applied(candidate.actions, whyNot);
  if (!copy) {
    note("[" + toText(candidate.actions) + "] does not apply: " + whyNot);
    return false;
  }
  // On one thread a candidate without a split of its own is timed with
  // the heuristic's, as it will ship: a kernel split into tasks is a task
  // function, which the C compiler may optimize otherwise.
  if (options.threads <= 1)
    if (std::optional<OptAction> split = threadSplit(theKernel(*copy)))
      (void)applyOptAction(theKernel(*copy), *split);
  PipelineOptions pipeline;
  pipeline.cpu = options.cpu;
  pipeline.threadTasks = options.threadTasks;
  PassManager pm(kernel.getContext(), ModuleOp::getOperationName());
  for (const Stage &stage : getStages())
    if (stage.name == "expand" || stage.name == "linearize")
      stage.addPasses(pm, pipeline);
  candidate.dir = joinPath(options.workDir, "c" + Twine(nextId++));
  bool built = succeeded(pm.run(*copy)) &&
               !sys::fs::create_directories(candidate.dir);
  if (built) {
    PackageOptions package;
    package.name = name.str();
    package.weightsInFile = true;
    package.cpu = options.cpu;
    built = succeeded(writePackage(*copy, package, candidate.dir));
  }
  release(*copy);
  if (!built) {
    note("[" + toText(candidate.actions) + "] cannot be built: " + firstError);
    return false;
  }

  ErrorOr<std::unique_ptr<MemoryBuffer>> source =
      MemoryBuffer::getFile(joinPath(candidate.dir, name + ".c"));
  if (!source)
    return false;
  std::array<uint8_t, 32> digest =
      SHA256::hash(arrayRefFromStringRef((*source)->getBuffer()));
  candidate.sourceHash = toHex(digest);
  if (!seenSources.insert(candidate.sourceHash).second && !again) {
    sys::fs::remove_directories(candidate.dir);
    return false;
  }
  candidate.executable = joinPath(candidate.dir, "run");
  return true;
}

void Search::compileShared(const Candidate &first) {
  triedShared = true;
  if (compiler.empty())
    return;
  if (!writeText(joinPath(options.workDir, "harness.c"),
                 harness({kName.str()})))
    return;
  SmallVector<std::string> objects;
  for (StringRef source :
       {StringRef("harness.c"), StringRef(kPoolSourceName)}) {
    std::vector<std::string> args = compiler;
    std::string object =
        joinPath(options.workDir, llvm::sys::path::stem(source) + Twine(".o"));
    std::string dir = source == "harness.c" ? options.workDir : first.dir;
    args.insert(args.end(), {"-std=c99", "-I" + first.dir, "-c",
                             joinPath(dir, source), "-o", object});
    std::string error;
    int status = runProgram(args, std::nullopt, std::nullopt, error);
    if (status != 0) {
      // Each candidate compiles them itself then.
      if (compilerLimited && stoppedByTimeout(status))
        note(source + " took over " +
             std::to_string(options.compileTimeoutSeconds) +
             " s to compile; each candidate compiles its own");
      return;
    }
    objects.push_back(object);
  }
  sharedObjects = std::move(objects);
}

void Search::compileAll(MutableArrayRef<Candidate> candidates, bool bounded) {
  // Building runs inside this phase; it counts as building only.
  double prepareBefore = prepareSeconds;
  {
    PhaseTimer phase(compileSeconds);
    buildAndCompile(candidates, bounded);
  }
  compileSeconds -= prepareSeconds - prepareBefore;
}

void Search::buildAndCompile(MutableArrayRef<Candidate> candidates,
                             bool bounded) {
  struct Running {
    sys::ProcessInfo process;
    Candidate *candidate;
  };
  SmallVector<Running> running;
  if (compiler.empty())
    return;
  auto finish = [&](Running &job, int status) {
    job.candidate->compiled = status == 0;
    if (compilerLimited && stoppedByTimeout(status))
      note("[" + toText(job.candidate->actions) + "] took over " +
           std::to_string(options.compileTimeoutSeconds) +
           " s to compile; dropped");
    else if (status != 0)
      note("[" + toText(job.candidate->actions) +
           "] does not compile (see " + job.candidate->dir + "/cc.log)");
  };
  unsigned skipped = 0;
  for (Candidate &candidate : candidates) {
    while (running.size() >= std::max(1u, options.jobs)) {
      bool any = false;
      for (size_t i = 0; i < running.size();) {
        sys::ProcessInfo done = sys::Wait(running[i].process, 0, nullptr,
                                          nullptr, /*Polling=*/true);
        if (done.Pid == 0) {
          ++i;
          continue;
        }
        finish(running[i], done.ReturnCode);
        running.erase(running.begin() + i);
        any = true;
      }
      if (!any)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (bounded && overBudget()) {
      ++skipped;
      continue;
    }
    if (!prepare(candidate))
      continue;
    if (!triedShared)
      compileShared(candidate);
    std::vector<std::string> args = compiler;
    args.push_back("-std=c99");
    // Pipes instead of temporary files between the compiler's stages: the
    // same code, less file traffic.
    args.push_back("-pipe");
    args.push_back("-I" + candidate.dir);
    args.push_back(joinPath(candidate.dir, kName + ".c"));
    if (sharedObjects.empty()) {
      args.push_back(joinPath(options.workDir, "harness.c"));
      args.push_back(joinPath(candidate.dir, kPoolSourceName));
    }
    args.insert(args.end(), sharedObjects.begin(), sharedObjects.end());
    args.insert(args.end(),
                {"-o", candidate.executable, "-lm", "-pthread"});
    SmallVector<StringRef> refs(args.begin(), args.end());
    std::string log = joinPath(candidate.dir, "cc.log");
    std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                            StringRef(log)};
    std::string error;
    sys::ProcessInfo process = sys::ExecuteNoWait(
        compiler[0], refs, std::nullopt, redirects, 0, &error);
    if (process.Pid == sys::ProcessInfo::InvalidPid) {
      note("cannot run the C compiler: " + error);
      continue;
    }
    running.push_back({process, &candidate});
  }
  for (Running &job : running) {
    sys::ProcessInfo done = sys::Wait(job.process, std::nullopt);
    finish(job, done.ReturnCode);
  }
  if (skipped)
    note(formatv("time budget spent: {0} of {1} candidates not compiled",
                 skipped, candidates.size()));
}

void Search::time(Candidate &candidate, double cutoffMs, bool keep) {
  if (!candidate.compiled)
    return;
  PhaseTimer phase(timeSeconds);
  std::string times = joinPath(candidate.dir, "times.txt");
  std::string outputs = joinPath(candidate.dir, "outputs.bin");
  std::string log = joinPath(candidate.dir, "run.log");
  std::vector<std::string> args = {
      candidate.executable, joinPath(candidate.dir, kName + ".safetensors"),
      std::to_string(options.threads), std::to_string(kMaxSamples),
      std::to_string(options.timeoutMs), std::to_string(cutoffMs),
      std::to_string(options.flushBytes), outputs};
  SmallVector<StringRef> refs(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(times),
                                          StringRef(log)};
  unsigned seconds = runLimitSeconds(options.timeoutMs);
  std::string error;
  int status = sys::ExecuteAndWait(candidate.executable, refs, std::nullopt,
                                   redirects, seconds, 0, &error);
  ++timed;
  SmallVector<double> samples;
  if (status == 0)
    samples = readHarnessTimes(times);
  if (samples.empty())
    note("[" + toText(candidate.actions) + "] failed or timed out" +
         (error.empty() ? "" : ": " + error));
  else if (!matchesReference(outputs))
    note("[" + toText(candidate.actions) +
         "] computes other outputs than the heuristic's choice; dropped");
  else
    candidate.ms = medianOf(samples);
  // Only the time is kept: a big kernel's weights are megabytes.
  if (!keep)
    sys::fs::remove_directories(candidate.dir);
  progress(timed, bestMs, heuristicMs);
}

void Search::remeasure(ArrayRef<OptAction> heuristic, ArrayRef<OptAction> best,
                       double &heuristicMs, double &bestMs) {
  std::vector<Candidate> pair(2);
  pair[0].actions.assign(heuristic.begin(), heuristic.end());
  pair[1].actions.assign(best.begin(), best.end());
  const std::string names[] = {"h", "b"};
  for (unsigned i = 0; i < 2; ++i)
    if (!prepare(pair[i], /*again=*/true, names[i]))
      return;
  std::string dir = pair[0].dir;
  std::string executable = joinPath(dir, "pair");
  std::string log = joinPath(dir, "pair.log");
  std::string error;
  {
    PhaseTimer phase(compileSeconds);
    if (!writeText(joinPath(dir, "harness.c"), harness(names)))
      return;
    std::vector<std::string> args = compiler;
    args.insert(args.end(),
                {"-std=c99", "-pipe", "-I" + pair[0].dir, "-I" + pair[1].dir,
                 joinPath(pair[0].dir, "h.c"), joinPath(pair[1].dir, "b.c"),
                 joinPath(dir, "harness.c"), joinPath(dir, kPoolSourceName),
                 "-o", executable, "-lm", "-pthread"});
    int status = runProgram(args, StringRef(log), StringRef(log), error);
    if (compilerLimited && stoppedByTimeout(status)) {
      note("the heuristic's choice and the best took over " +
           std::to_string(options.compileTimeoutSeconds) +
           " s to compile together; their times stand");
      return;
    }
    if (status != 0) {
      note("the heuristic's choice and the best do not compile together "
           "(see " +
           log + ")");
      return;
    }
  }
  SmallVector<SmallVector<double, 2>> rounds;
  {
    PhaseTimer phase(timeSeconds);
    std::string times = joinPath(dir, "times.txt");
    std::vector<std::string> args = {
        executable,
        joinPath(pair[0].dir, "h.safetensors"),
        joinPath(pair[1].dir, "b.safetensors"),
        std::to_string(options.threads),
        std::to_string(kRemeasureRounds),
        std::to_string(options.timeoutMs * kRemeasureBudget),
        "0",
        std::to_string(options.flushBytes)};
    unsigned seconds = runLimitSeconds(options.timeoutMs * kRemeasureBudget);
    if (runProgram(args, StringRef(times), StringRef(log), error, seconds) == 0)
      rounds = readTuneSamples(times, 2);
  }
  for (Candidate &c : pair)
    sys::fs::remove_directories(c.dir);
  if (rounds.size() < 3) {
    note("re-timing the heuristic's choice and the best failed" +
         (error.empty() ? "" : ": " + error));
    return;
  }
  // The best's time is the heuristic's times the median ratio of the two
  // within a round: a round's samples are milliseconds apart, so whatever
  // slowed one slowed the other.
  SmallVector<double> heuristicTimes, ratios;
  for (ArrayRef<double> round : rounds) {
    heuristicTimes.push_back(round[0]);
    ratios.push_back(round[1] / round[0]);
  }
  heuristicMs = medianOf(heuristicTimes);
  bestMs = heuristicMs * medianOf(ratios);
  note(formatv("re-timed in turns ({0} rounds): heuristic {1:f4} ms, best "
               "{2:f4} ms",
               rounds.size(), heuristicMs, bestMs));
}

bool Search::matchesReference(StringRef outputsFile) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(outputsFile);
  if (!file)
    return false;
  StringRef bytes = (*file)->getBuffer();
  if (!reference) {
    reference = bytes.str();
    return true;
  }
  if (bytes.size() != reference->size())
    return false;
  if (!floatOutputs)
    return bytes == *reference;
  size_t count = bytes.size() / sizeof(float);
  std::vector<float> got(count), want(count);
  std::memcpy(got.data(), bytes.data(), count * sizeof(float));
  std::memcpy(want.data(), reference->data(), count * sizeof(float));
  // Relative to the largest output: sums in another order differ by a few
  // ulps of the partial sums, which can be much larger than an output.
  float scale = 1;
  for (float w : want)
    scale = std::max(scale, std::fabs(w));
  for (size_t i = 0; i < count; ++i) {
    bool bothNan = std::isnan(got[i]) && std::isnan(want[i]);
    if (!bothNan && !(std::fabs(got[i] - want[i]) <= 1e-3f * scale))
      return false;
  }
  return true;
}

SmallVector<OptAction> Search::heuristicActions() {
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>((*standalone)->clone());
  KernelOp k = theKernel(*copy);
  HeuristicOptions heuristic;
  heuristic.target = options.target;
  heuristic.threadTasks = options.threadTasks;
  applyHeuristic(k, heuristic);
  SmallVector<OptAction> actions = getAppliedActions(k);
  release(*copy);
  return actions;
}

std::optional<OptAction> Search::threadSplit(KernelOp k) {
  auto isThread = [](const OptAction &a) { return a.kind == OptKind::Thread; };
  const OptAction *split = llvm::find_if(heuristic, isThread);
  if (split == heuristic.end() || any_of(getAppliedActions(k), isThread))
    return std::nullopt;
  // The heuristic's axis first, then the others; the most tasks that fit.
  SmallVector<int64_t> axes = {split->axis};
  for (Operation &op : k.getBlock())
    if (auto range = dyn_cast<RangeOp>(op); range && (int64_t)range.getId() != split->axis)
      axes.push_back(range.getId());
  for (int64_t axis : axes)
    for (int64_t n = split->amount; n >= 2; --n)
      if (checkOptAction(k, {OptKind::Thread, axis, n}).empty())
        return OptAction{OptKind::Thread, axis, n};
  return std::nullopt;
}

SmallVector<OptAction> Search::withThreads(ArrayRef<OptAction> actions) {
  SmallVector<OptAction> result(actions.begin(), actions.end());
  std::string whyNot;
  OwningOpRef<ModuleOp> copy = applied(actions, whyNot);
  if (!copy)
    return result;
  if (std::optional<OptAction> split = threadSplit(theKernel(*copy)))
    result.push_back(*split);
  release(*copy);
  return result;
}

FailureOr<BeamResult> Search::run() {
  started = std::chrono::steady_clock::now();
  BeamResult result;
  heuristic = heuristicActions();
  result.heuristic = heuristic;
  // On one thread the search starts from the heuristic's actions but its
  // split, and prepare() renders each candidate that has not chosen one
  // with the split it would ship with: a split is then an action to try
  // like the others, not one every later action must fit around.
  SmallVector<OptAction> heuristicStart;
  for (const OptAction &action : heuristic)
    if (options.threads > 1 || action.kind != OptKind::Thread)
      heuristicStart.push_back(action);

  // The heuristic's choice (timed first: its outputs are the reference),
  // the unoptimized kernel, and every prefix of the heuristic's actions in
  // between: actions only add lanes, so a beam that holds only the full
  // choice could never try another register tile than the heuristic's.
  std::vector<Candidate> starts(heuristicStart.size() + 1);
  starts[0].actions = heuristicStart;
  for (size_t n = 0; n < heuristicStart.size(); ++n)
    starts[n + 1].actions.assign(heuristicStart.begin(),
                                 heuristicStart.begin() + n);
  compileAll(starts);
  for (Candidate &c : starts)
    time(c, 0);
  std::vector<Candidate> beam;
  for (Candidate &c : starts)
    if (c.ms)
      beam.push_back(c);
  auto heuristicTimed = llvm::find_if(beam, [&](const Candidate &c) {
    return c.actions == heuristicStart;
  });
  if (beam.empty() || heuristicTimed == beam.end())
    return kernel.emitError("tgc tune: the kernel's heuristic candidate "
                            "could not be built or timed (run with -v for "
                            "the reason)");
  heuristicMs = *heuristicTimed->ms;
  auto byTime = [](const Candidate &a, const Candidate &b) {
    return *a.ms < *b.ms;
  };
  llvm::sort(beam, byTime);
  bestMs = *beam.front().ms;

  for (unsigned round = 0; round < options.maxRounds; ++round) {
    if (overBudget()) {
      note(formatv("time budget of {0:f3} s spent after {1} rounds",
                   options.budgetSeconds, round));
      break;
    }
    std::vector<Candidate> candidates = roundCandidates(beam);
    if (candidates.empty())
      break;
    compileAll(candidates, /*bounded=*/true);
    for (Candidate &c : candidates)
      time(c, bestMs * kCutoff);
    double before = bestMs;
    for (Candidate &c : candidates)
      if (c.ms)
        beam.push_back(std::move(c));
    llvm::sort(beam, byTime);
    if (beam.size() > options.beam)
      beam.resize(std::max(1u, options.beam));
    bestMs = *beam.front().ms;
    note(formatv("round {0}: best {1:f4} ms [{2}]", round + 1, bestMs,
                 toText(beam.front().actions)));
    if (bestMs > before * (1 - kMinGain))
      break;
  }

  result.heuristicMs = heuristicMs;
  result.bestMs = bestMs;
  result.best = beam.front().actions;
  if (result.best != heuristicStart)
    remeasure(heuristicStart, result.best, result.heuristicMs, result.bestMs);
  result.candidates = timed;
  result.prepareSeconds = prepareSeconds;
  result.compileSeconds = compileSeconds;
  result.timeSeconds = timeSeconds;
  // A search must never make a kernel slower than the heuristic does.
  if (result.bestMs >= result.heuristicMs) {
    result.best = heuristic;
    result.bestMs = result.heuristicMs;
    return result;
  }
  if (options.threads <= 1)
    result.best = withThreads(result.best);
  return result;
}

} // namespace

FailureOr<BeamResult> searchKernel(KernelOp kernel, const BeamOptions &options,
                                   const BeamProgress &progress) {
  Search search(kernel, options, progress);
  return search.run();
}

} // namespace mlir::tgc
