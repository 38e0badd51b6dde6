//===- Tune.cpp - tgc tune: BEAM search into a tuning database -*- C++ -*-===//
//
// The model is lowered exactly as `tgc compile` lowers it (same stages,
// same options), so the kernels hashed here are the kernels the optimize
// stage of a later compile hashes. Kernels that hash alike (the same
// convolution shape in several places of a network) are searched once.
//
//===----------------------------------------------------------------------===//

#include "Driver/Tune.h"

#include "Codegen/Pipeline.h"
#include "Codegen/Target.h"
#include "Driver/BeamSearch.h"
#include "Driver/Model.h"
#include "Driver/StagingDir.h"
#include "Driver/TuneConfirm.h"
#include "Driver/TuneGraph.h"
#include "Support/TensorFile.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Host.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <thread>

using namespace llvm;

namespace mlir::tgc {
namespace {

/// The thread tasks of the pipeline as tgc compile runs it.
int64_t pipelineThreadTasks() { return PipelineOptions().threadTasks; }

std::string ccCommand() {
  const char *cc = std::getenv("CC");
  return cc && *cc ? std::string(cc) : std::string("cc");
}

/// The first line `command --version` prints, or "" if it does not run.
std::string compilerVersion(ArrayRef<std::string> command) {
  ErrorOr<std::string> program = sys::findProgramByName(command.front());
  if (!program)
    return "";
  SmallString<128> output;
  if (sys::fs::createTemporaryFile("tgc-cc-version", "txt", output))
    return "";
  SmallVector<StringRef> args(command.begin(), command.end());
  args.push_back("--version");
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(output),
                                          StringRef(output)};
  int status = sys::ExecuteAndWait(*program, args, std::nullopt, redirects, 30);
  std::string line;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> text =
          MemoryBuffer::getFile(output))
    line = (*text)->getBuffer().split('\n').first.trim().str();
  sys::fs::remove(output);
  return status == 0 ? line : "";
}

/// The CPU model this machine reports, for the record of where the times
/// were taken.
std::string hostCpuModel() {
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> info =
          MemoryBuffer::getFileAsStream("/proc/cpuinfo")) {
    SmallVector<StringRef> lines;
    (*info)->getBuffer().split(lines, '\n');
    for (StringRef line : lines) {
      auto [name, value] = line.split(':');
      name = name.trim();
      if (name == "model name" || name == "Model" || name == "CPU part")
        return value.trim().str();
    }
  }
  return sys::getHostCPUName().str();
}

/// The ISA of code for `cpu`: the host's enabled features, or for a named
/// CPU the facts the optimizer uses (the compiler derives the rest from
/// -march, which the context records).
std::string isaOf(StringRef cpu, const CpuTarget &target) {
  std::string facts = formatv("vector-bytes={0} vector-registers={1} fma={2}",
                              target.vectorBytes, target.vectorRegisters,
                              target.fma ? 1 : 0)
                          .str();
  if (!cpu.empty() && cpu != "native")
    return facts;
  SmallVector<std::string> enabled;
  for (const auto &feature : sys::getHostCPUFeatures())
    if (feature.getValue())
      enabled.push_back(feature.getKey().str());
  llvm::sort(enabled);
  return facts + " " + join(enabled, ",");
}

/// Prints "tune: [####......] 3/15 kernels, 240 candidates, NAME 1.25x" on
/// one line of a terminal, or a plain line per finished kernel elsewhere.
class ProgressBar {
public:
  explicit ProgressBar(unsigned kernels)
      : kernels(kernels), tty(sys::Process::StandardErrIsDisplayed()) {}

  void start(StringRef name) {
    current = name.str();
    kernelCandidates = 0;
    draw(0, 0);
  }
  void update(unsigned timed, double bestMs, double heuristicMs) {
    kernelCandidates = timed;
    draw(bestMs, heuristicMs);
  }
  void finish(double bestMs, double heuristicMs) {
    ++done;
    total += kernelCandidates;
    if (tty) {
      draw(bestMs, heuristicMs);
      if (done == kernels)
        errs() << "\n";
    } else {
      errs() << formatv("tgc: tune: kernel {0}/{1} {2}: heuristic {3:f4} ms, "
                        "best {4:f4} ms ({5:f2}x), {6} candidates\n",
                        done, kernels, current, heuristicMs, bestMs,
                        bestMs > 0 ? heuristicMs / bestMs : 0.0,
                        kernelCandidates);
    }
    kernelCandidates = 0;
  }

private:
  void draw(double bestMs, double heuristicMs) {
    if (!tty)
      return;
    constexpr unsigned width = 20;
    unsigned filled = kernels ? done * width / kernels : width;
    std::string bar(filled, '#');
    bar.resize(width, '.');
    std::string gain = bestMs > 0 && heuristicMs > 0
                           ? formatv(" {0:f2}x", heuristicMs / bestMs).str()
                           : "";
    errs() << formatv("\rtgc: tune [{0}] {1}/{2} kernels, {3} candidates, "
                      "{4}{5}\x1b[K",
                      bar, done, kernels, total + kernelCandidates, current,
                      gain);
    errs().flush();
  }

  unsigned kernels;
  bool tty;
  unsigned done = 0, total = 0, kernelCandidates = 0;
  std::string current;
};

/// A kernel to tune: the first of its key in program order, its hash, and
/// how many kernels of the model share the key (a block repeated three
/// times runs its convolution's kernel three times).
struct DistinctKernel {
  KernelOp kernel;
  std::string hash;
  unsigned uses = 0;
};

/// Kernels by key, in program order.
using KernelsByKey =
    MapVector<std::string, DistinctKernel, std::map<std::string, unsigned>>;

/// The kernels to tune, one per key, in program order.
KernelsByKey distinctKernels(ArrayRef<KeyedKernel> keyed) {
  KernelsByKey kernels;
  for (const KeyedKernel &kernel : keyed)
    ++kernels.insert({kernel.key, {kernel.kernel, kernel.hash}})
          .first->second.uses;
  return kernels;
}

/// The sums of the database's times over every kernel of `module` (a
/// kernel used twice counts twice): what the model would take with the
/// heuristic's actions and with the tuned ones, if a kernel inside the
/// model took what it took alone. Compared with `tgc bench --threads 1`,
/// it says how well the timing in the search predicts the model.
void printModelEstimate(ArrayRef<KeyedKernel> keyed, const TuningDb &db) {
  double heuristicMs = 0, bestMs = 0;
  unsigned kernels = keyed.size(), missing = 0;
  for (const KeyedKernel &kernel : keyed) {
    const TuningEntry *entry = db.lookup(kernel.key);
    if (!entry || entry->heuristicMs <= 0 || entry->bestMs <= 0) {
      ++missing;
      continue;
    }
    heuristicMs += entry->heuristicMs;
    bestMs += entry->bestMs;
  }
  if (kernels == missing)
    return;
  errs() << formatv("tgc: tune: the model's {0} kernels timed alone add up "
                    "to {1:f3} ms with the heuristic's actions, {2:f3} ms "
                    "tuned ({3:f2}x){4}\n",
                    kernels - missing, heuristicMs, bestMs,
                    heuristicMs / bestMs,
                    missing ? formatv(", {0} kernels without times", missing)
                                  .str()
                            : std::string());
}

/// Seconds every kernel gets at least (its starting points take a few).
constexpr double kMinKernelSeconds = 2;

std::string joinActions(ArrayRef<OptAction> actions) {
  return join(map_range(actions, [](const OptAction &a) { return toString(a); }),
              " ");
}

} // namespace

// Sums the reductions' loops: a convolution with its shortcut's fused in
// runs two reduce loops one after the other, not one inside the other. The
// big convolutions get rounds, the pads little more than their starting
// points.
double kernelWork(KernelOp kernel) {
  auto boundOf = [](Value range) {
    auto op = range.getDefiningOp<RangeOp>();
    return double(op ? std::max<int64_t>(1, op.getBound()) : 1);
  };
  DenseSet<Value> reduced;
  double reduceIterations = 0;
  kernel.walk([&](ReduceOp reduce) {
    double iterations = 1;
    for (Value range : reduce.getRanges()) {
      reduced.insert(range);
      iterations *= boundOf(range);
    }
    reduceIterations += iterations;
  });
  double work = std::max(1.0, reduceIterations);
  kernel.walk([&](RangeOp range) {
    if (!reduced.contains(range.getResult()))
      work *= boundOf(range.getResult());
  });
  return work;
}

double kernelBudgetSeconds(double budgetSeconds, double spentSeconds,
                           double work, double workLeft,
                           unsigned kernelsAfter) {
  double floor = std::min(budgetSeconds, kMinKernelSeconds);
  double left =
      std::max(0.0, budgetSeconds - spentSeconds - floor * kernelsAfter);
  double share = workLeft > 0 ? left * std::min(1.0, work / workLeft) : left;
  return std::max(floor, share);
}

std::vector<std::string> getTuningCompiler(StringRef cpu) {
  SmallVector<StringRef> words;
  std::string cc = ccCommand();
  StringRef(cc).split(words, ' ', -1, false);
  std::vector<std::string> command(words.begin(), words.end());
  command.push_back("-O3");
  command.push_back("-march=" +
                    (cpu.empty() ? std::string("native") : cpu.str()));
  return command;
}

LogicalResult checkCpu(Location loc, StringRef cpu) {
  if (succeeded(getCpuTarget(cpu)))
    return success();
  return emitError(loc) << "--cpu " << cpu << ": unknown CPU (" << kCpuNamesHint
                        << ")";
}

FailureOr<TuningContext> getTuningContext(Location loc, StringRef cpu,
                                          int64_t threadTasks) {
  if (failed(checkCpu(loc, cpu)))
    return failure();
  FailureOr<CpuTarget> target = getCpuTarget(cpu);
  std::vector<std::string> compiler = getTuningCompiler(cpu);
  std::vector<std::string> ccWords(compiler.begin(), compiler.end() - 2);
  std::string version = compilerVersion(ccWords);
  if (version.empty())
    return emitError(loc) << "the C compiler ('" << join(ccWords, " ")
                          << "') does not run; tuning needs it (set CC)";
  TuningContext context;
  context.target = "c";
  context.cpu = target->cpu;
  context.cpuModel = hostCpuModel();
  context.isa = isaOf(cpu, *target);
  context.compiler = join(ccWords, " ") + ": " + version;
  context.cflags = join(compiler.end() - 2, compiler.end(), " ");
  context.options = "thread-tasks=" + std::to_string(threadTasks);
  return context;
}

std::vector<KeyedKernel> keyKernels(ModuleOp module,
                                    const TuningContext &context) {
  std::vector<KeyedKernel> kernels;
  std::string serialized = context.serialize();
  module.walk([&](KernelOp kernel) {
    if (!kernel.isLowered())
      return;
    std::string hash = hashKernel(kernel);
    std::string key = makeTuningKey(hash, serialized);
    kernels.push_back({kernel, std::move(hash), std::move(key)});
  });
  return kernels;
}

std::pair<unsigned, unsigned> countTunedKernels(ArrayRef<KeyedKernel> keyed,
                                                const TuningDb &db) {
  auto kernels = distinctKernels(keyed);
  unsigned found = count_if(kernels, [&](const auto &item) {
    return db.lookup(item.first) != nullptr;
  });
  return {found, (unsigned)kernels.size()};
}

LogicalResult tuneLoweredModule(ModuleOp module, ArrayRef<KeyedKernel> keyed,
                                TuningDb &db, const TuningContext &context,
                                const TuneOptions &options,
                                const std::map<std::string, double> *modelMs) {
  auto kernels = distinctKernels(keyed);
  SmallVector<std::pair<std::string, DistinctKernel>> todo;
  for (auto &item : kernels)
    if (!db.lookup(item.first))
      todo.push_back(item);
  errs() << formatv("tgc: tune: {0} distinct kernels, {1} in the tuning "
                    "database, {2} to search\n",
                    kernels.size(), kernels.size() - todo.size(), todo.size());
  if (todo.empty()) {
    printModelEstimate(keyed, db);
    return success();
  }

  Expected<ScratchDir> scratch = ScratchDir::create("tgc-tune");
  if (!scratch)
    return emitError(module.getLoc()) << toString(scratch.takeError());
  BeamOptions beam;
  beam.beam = std::max(1u, options.beam);
  beam.threads = std::max(1u, options.threads);
  beam.timeoutMs = std::max(1u, options.timeoutMs);
  beam.compileTimeoutSeconds = options.compileTimeoutSeconds;
  beam.flushBytes = options.cold ? kDefaultFlushBytes : 0;
  beam.jobs = std::max(1u, std::thread::hardware_concurrency());
  beam.cpu = options.cpu;
  beam.target = *getCpuTarget(options.cpu); // checked by getTuningContext
  beam.threadTasks = pipelineThreadTasks();
  beam.compiler = getTuningCompiler(options.cpu);
  beam.verbose = options.verbose;

  // A kernel's share is its time inside the model where that was measured:
  // its work (kernelWork) says how often its loop bodies run, not how long
  // each takes, and gave ResNet-18's pads and Winograd transforms, 10% of
  // its time at 1 to 3 loads per FLOP, a few seconds beside 100 for a
  // convolution of the same time. Either counts once for every kernel of
  // the model it stands for: ResNet-18's Winograd products, a third of its
  // time in kernels used 3 or 4 times, were left 5 to 40 candidates when
  // their work counted once.
  bool measured = modelMs && llvm::all_of(todo, [&](const auto &item) {
                    auto it = modelMs->find(item.first);
                    return it != modelMs->end() && it->second > 0;
                  });
  SmallVector<double> works;
  double totalWork = 0;
  for (auto &item : todo) {
    works.push_back(measured
                        ? modelMs->at(item.first)
                        : kernelWork(item.second.kernel) * item.second.uses);
    totalWork += works.back();
  }
  ProgressBar bar(todo.size());
  double prepareSeconds = 0, compileSeconds = 0, timeSeconds = 0;
  auto searchStarted = std::chrono::steady_clock::now();
  double workLeft = totalWork;
  // The most work first: a kernel whose search runs over its share takes
  // from the kernels after it, and those are then the ones that need the
  // least (in program order, ResNet-18's last convolutions, 20% of its
  // time, were left a third of their share).
  SmallVector<unsigned> order(todo.size());
  std::iota(order.begin(), order.end(), 0u);
  llvm::stable_sort(
      order, [&](unsigned a, unsigned b) { return works[a] > works[b]; });
  for (auto [position, index] : llvm::enumerate(order)) {
    auto &item = todo[index];
    const std::string &key = item.first;
    KernelOp kernel = item.second.kernel;
    const std::string &hash = item.second.hash;
    beam.workDir = (scratch->path() + "/k" + Twine(index)).str();
    if (options.budgetSeconds > 0) {
      std::chrono::duration<double> spent =
          std::chrono::steady_clock::now() - searchStarted;
      beam.budgetSeconds = kernelBudgetSeconds(
          options.budgetSeconds, spent.count(), works[index], workLeft,
          order.size() - position - 1);
    }
    workLeft -= works[index];
    if (options.verbose)
      errs() << (measured ? formatv("tgc: tune: {0}: {1:f4} ms in the model, "
                                    "budget {2:f1} s\n",
                                    kernel.getName(), works[index],
                                    beam.budgetSeconds)
                          : formatv("tgc: tune: {0}: work {1:e}, budget "
                                    "{2:f1} s\n",
                                    kernel.getName(), works[index],
                                    beam.budgetSeconds));
    bar.start(kernel.getName());
    FailureOr<BeamResult> result = searchKernel(
        kernel, beam, [&](unsigned timed, double bestMs, double heuristicMs) {
          bar.update(timed, bestMs, heuristicMs);
        });
    if (failed(result))
      return failure();
    bar.finish(result->bestMs, result->heuristicMs);
    prepareSeconds += result->prepareSeconds;
    compileSeconds += result->compileSeconds;
    timeSeconds += result->timeSeconds;
    if (options.verbose)
      errs() << "tgc: tune: " << kernel.getName() << ": ["
             << joinActions(result->best) << "] (heuristic ["
             << joinActions(result->heuristic) << "])\n";

    TuningEntry entry;
    entry.key = key;
    entry.kernelName = kernel.getName().str();
    entry.kernelHash = hash;
    entry.context = context;
    for (const OptAction &action : result->best)
      entry.actions.push_back(toString(action));
    entry.searchActions = entry.actions;
    for (const OptAction &action : result->heuristic)
      entry.heuristicActions.push_back(toString(action));
    entry.heuristicMs = roundMs(result->heuristicMs);
    entry.bestMs = roundMs(result->bestMs);
    entry.threads = beam.threads;
    entry.beam = beam.beam;
    entry.candidates = result->candidates;
    db.insert(std::move(entry));
    // Saved kernel by kernel: an interrupted search keeps what it found.
    std::string error;
    if (!options.dbPath.empty() && !db.save(options.dbPath, error))
      return emitError(module.getLoc()) << error;
  }
  // Where the time went, to see what a faster search must cut.
  errs() << formatv("tgc: tune: {0:f1} s building candidates, {1:f1} s "
                    "compiling, {2:f1} s timing\n",
                    prepareSeconds, compileSeconds, timeSeconds);
  printModelEstimate(keyed, db);
  return success();
}

LogicalResult tuneModel(MLIRContext &context, StringRef modelPath,
                        const TuneOptions &options,
                        DiagnosticPrinter *printer) {
  std::string model = modelPath.str();
  if (sys::fs::is_directory(modelPath))
    model = (modelPath + "/model.onnx").str();
  Location loc = fileLoc(context, model);
  if (options.dbPath.empty())
    return emitError(loc) << "tgc tune needs -o DB.json";
  TuningDb db;
  std::string error;
  if (!db.load(options.dbPath, error, /*missingIsEmpty=*/true))
    return emitError(fileLoc(context, options.dbPath)) << error;

  int64_t threadTasks = pipelineThreadTasks();
  FailureOr<TuningContext> tuning =
      getTuningContext(loc, options.cpu, threadTasks);
  if (failed(tuning))
    return failure();

  ImportOptions import;
  import.inputShapes = options.inputShapes;
  for (const auto &[name, file] : options.inputs) {
    ::tgc::Result<::tgc::HostTensor> tensor = ::tgc::readTensorFile(file);
    if (!tensor)
      return emitError(fileLoc(context, file))
             << "--input " << name << "=" << file << ": " << tensor.error();
    import.inputShapes[name] = tensor->shape;
  }
  OwningOpRef<ModuleOp> module = openModel(context, model, import);
  if (!module)
    return failure();
  StringRef reached = getModuleStage(*module);
  ArrayRef<StringRef> names = getStageNames();
  auto position = [&](StringRef stage) {
    return std::distance(names.begin(), llvm::find(names, stage));
  };
  if (position(reached) > position("lower"))
    return emitError(loc) << "the model is at stage '" << reached
                          << "'; tuning needs it at 'lower' or before";
  (*module)->removeAttr("tgc.stage");
  auto started = std::chrono::steady_clock::now();
  // The graph first: the kernels to search are those of the graph chosen.
  TuneOptions chosen = options;
  if (position(reached) < position("decompose"))
    for (GraphOption option : kGraphOptions) {
      FailureOr<std::string> value = tuneGraphChoice(
          context, model, *module, option, db, *tuning, chosen, printer);
      if (failed(value))
        return failure();
      graphOptionValue(chosen, option) = *value;
      if (!db.save(options.dbPath, error))
        return emitError(fileLoc(context, options.dbPath)) << error;
    }
  PipelineOptions pipeline;
  pipeline.cpu = options.cpu;
  pipeline.threadTasks = threadTasks;
  pipeline.imageLoop = options.imageLoop;
  pipeline.winograd = chosen.winograd;
  pipeline.convLayout = chosen.convLayout;
  PassManager pm(&context, ModuleOp::getOperationName());
  for (const Stage &stage : getStages())
    if (position(stage.name) > position(reached) &&
        position(stage.name) <= position("lower"))
      stage.addPasses(pm, pipeline);
  if (failed(pm.run(*module)))
    return failure();

  // The heuristic's build, timed before the search to share its budget by
  // each kernel's time and after it to check the search's choices against.
  std::optional<BenchProgram> heuristic;
  std::map<std::string, double> modelMs;
  std::vector<KeyedKernel> kernels = keyKernels(*module, *tuning);
  StringMap<std::string> keyOfKernel = kernelKeys(kernels);
  auto [tunedKernels, distinct] = countTunedKernels(kernels, db);
  if (tunedKernels < distinct && options.budgetSeconds > 0 &&
      canTimeModel(chosen, "the budget is shared by each kernel's work")) {
    FailureOr<BenchProgram> built =
        buildHeuristicModel(context, model, chosen, printer);
    if (failed(built))
      return failure();
    heuristic.emplace(std::move(*built));
    FailureOr<std::map<std::string, double>> times =
        timeKernelsInModel(keyOfKernel, *heuristic, chosen);
    if (failed(times))
      return failure();
    modelMs = std::move(*times);
  }
  LogicalResult tuned = tuneLoweredModule(*module, kernels, db, *tuning, chosen,
                                          heuristic ? &modelMs : nullptr);
  if (succeeded(tuned))
    tuned = confirmInModel(context, model, keyOfKernel, db, chosen, printer,
                           heuristic ? &*heuristic : nullptr);
  // What was found is kept even if a later kernel failed.
  if (!db.save(options.dbPath, error))
    return emitError(fileLoc(context, options.dbPath)) << error;
  std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - started;
  errs() << formatv("tgc: tune: {0} entries in {1} ({2:f1} s)\n",
                    db.getEntries().size(), options.dbPath, elapsed.count());
  return tuned;
}

LogicalResult reportTuningDb(MLIRContext &context, StringRef dbPath,
                             raw_ostream &out) {
  TuningDb db;
  std::string error;
  if (!db.load(dbPath, error))
    return emitError(fileLoc(context, dbPath)) << error;
  out << formatv("{0,-28} {1,12} {2,12} {3,8}  {4}\n", "kernel",
                 "heuristic ms", "tuned ms", "speedup", "actions");
  double logSum = 0;
  unsigned count = 0, measured = 0, kept = 0;
  double modelHeuristicMs = 0, modelAppliedMs = 0;
  // One line: the heuristic's time, the tuned one and the speedup (0 where
  // the tuned one was not measured).
  auto row = [&](const Twine &label, double heuristicMs, double tunedMs,
                 StringRef note) {
    out << formatv("{0,-28} {1,12:f4} {2,12:f4} {3,7:f2}x  {4}\n",
                   label.str(), heuristicMs, tunedMs,
                   tunedMs > 0 ? heuristicMs / tunedMs : 0.0, note);
  };
  for (const auto &[key, entry] : db.getEntries()) {
    double speedup = entry.bestMs > 0 ? entry.heuristicMs / entry.bestMs : 0;
    bool dropped = entry.modelTunedMs > 0 &&
                   entry.actions == entry.heuristicActions &&
                   entry.searchActions != entry.heuristicActions;
    row(entry.kernelName, entry.heuristicMs, entry.bestMs,
        join(dropped ? entry.searchActions : entry.actions, " "));
    if (entry.modelTunedMs > 0) {
      ++measured;
      modelHeuristicMs += entry.modelHeuristicMs;
      modelAppliedMs += dropped ? entry.modelHeuristicMs : entry.modelTunedMs;
      kept += !dropped;
      // Why a choice went: not faster where it was searched, or slower at
      // the other thread count.
      bool faster =
          keepsSearchChoice({entry.modelHeuristicMs, entry.modelTunedMs},
                            {entry.modelShift, entry.modelMargin});
      auto verdict = [&](bool lost, const std::string &why) {
        return !dropped ? std::string("kept")
               : lost ? formatv("{0}: the heuristic's actions apply", why).str()
                      : std::string();
      };
      row("  inside the model", entry.modelHeuristicMs, entry.modelTunedMs,
          verdict(!faster, formatv("not faster there by the noise ({0:f1}%)",
                                   entry.modelMargin * 100)));
      if (entry.modelOtherThreads)
        row(formatv("  on {0} thread{1}", entry.modelOtherThreads,
                    entry.modelOtherThreads == 1 ? "" : "s"),
            entry.modelOtherHeuristicMs, entry.modelOtherTunedMs,
            verdict(slowsSearchChoice(
                        {entry.modelOtherHeuristicMs, entry.modelOtherTunedMs},
                        {entry.modelOtherShift, entry.modelOtherMargin}),
                    formatv("slower there by the noise ({0:f1}%)",
                            entry.modelOtherMargin * 100)));
    }
    if (speedup > 0) {
      logSum += std::log(speedup);
      ++count;
    }
  }
  if (count)
    out << formatv("geometric mean speedup over the heuristic: {0:f3}x "
                   "({1} kernels, timed alone)\n",
                   std::exp(logSum / count), count);
  if (measured)
    out << formatv("inside the model: the search's choice stays for {0} of "
                   "the {1} kernels it chose differently for; these take "
                   "{2:f4} ms instead of {3:f4} ms ({4:f3}x)\n",
                   kept, measured, modelAppliedMs, modelHeuristicMs,
                   modelAppliedMs > 0 ? modelHeuristicMs / modelAppliedMs
                                      : 0.0);
  for (const auto &[key, choice] : db.getGraphChoices()) {
    out << formatv("graph: --{0} {1} for {2}", choice.option, choice.value,
                   choice.model);
    for (const auto &[name, value] : choice.given)
      out << formatv(" with --{0} {1}", name, value);
    auto autoMs = choice.modelMs.find("auto"),
         chosenMs = choice.modelMs.find(choice.value);
    if (autoMs == choice.modelMs.end() || chosenMs == choice.modelMs.end())
      out << " (nothing else to choose)\n";
    else
      out << formatv(" (the model {0:f3} ms, {1:f3} ms with auto: {2:f3}x)\n",
                     chosenMs->second, autoMs->second,
                     autoMs->second / chosenMs->second);
  }
  return success();
}

} // namespace mlir::tgc
