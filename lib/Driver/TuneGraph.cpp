//===- TuneGraph.cpp - graph choices timed on the whole model --*- C++ -*-===//
//
// See TuneGraph.h. Whether "always" changes anything is decided on the
// graph (decomposed both ways, then hashed) before anything is built, so
// that a model without a convolution the rule declines costs no build.
//
//===----------------------------------------------------------------------===//

#include "Driver/TuneGraph.h"

#include "Codegen/Pipeline.h"
#include "Driver/KernelTimes.h"
#include "Driver/TuneConfirm.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>

using namespace llvm;

namespace mlir::tgc {
namespace {

constexpr const char *kWinograd = "winograd";

/// Each build's runs in a round: about this long, within the bounds.
constexpr double kRoundSeconds = 0.3;
constexpr unsigned kMinRuns = 5, kMaxRuns = 2000;

/// The hash of `imported` decomposed with --winograd `winograd`.
FailureOr<std::string> decomposedHash(ModuleOp imported, StringRef winograd,
                                      const TuneOptions &options) {
  OwningOpRef<ModuleOp> copy = imported.clone();
  PipelineOptions pipeline;
  pipeline.cpu = options.cpu;
  pipeline.winograd = winograd.str();
  pipeline.convLayout = options.convLayout;
  PassManager pm(imported.getContext(), ModuleOp::getOperationName());
  for (const Stage &stage : getStages())
    if (stage.name == "decompose")
      stage.addPasses(pm, pipeline);
  if (failed(pm.run(*copy)))
    return failure();
  return hashModelGraph(*copy);
}

/// The lowest of the rounds' median run times of `program`, one entry per
/// build, the builds run in turns.
FailureOr<SmallVector<double>>
timeInTurns(ArrayRef<const BenchProgram *> programs, unsigned threads) {
  // One short run of the first build sizes the rounds.
  FailureOr<BenchSamples> probe = runBenchProgram(*programs[0], 3, threads);
  if (failed(probe))
    return failure();
  double probeMs = summarizeLatencies(probe->runs).medianMs;
  unsigned runs = std::clamp<unsigned>(
      probeMs > 0 ? unsigned(kRoundSeconds * 1e3 / probeMs) : kMaxRuns,
      kMinRuns, kMaxRuns);
  SmallVector<double> best(programs.size(),
                           std::numeric_limits<double>::infinity());
  for (int round = 0; round < kModelTimingRounds; ++round)
    for (auto [index, program] : llvm::enumerate(programs)) {
      FailureOr<BenchSamples> samples =
          runBenchProgram(*program, runs, threads);
      if (failed(samples))
        return failure();
      best[index] =
          std::min(best[index], summarizeLatencies(samples->runs).medianMs);
    }
  return best;
}

} // namespace

std::string winogradChoiceKey(ModuleOp imported, const TuningContext &tuning) {
  return makeGraphChoiceKey(hashModelGraph(imported), kWinograd,
                            tuning.serialize());
}

std::optional<std::string> lookupWinogradChoice(ModuleOp imported,
                                                const TuningDb &db,
                                                const TuningContext &tuning) {
  if (const GraphChoice *choice =
          db.lookupGraphChoice(winogradChoiceKey(imported, tuning)))
    return choice->value;
  return std::nullopt;
}

FailureOr<std::string>
tuneWinogradChoice(MLIRContext &context, StringRef modelPath, ModuleOp imported,
                   TuningDb &db, const TuningContext &tuning,
                   const TuneOptions &options, DiagnosticPrinter *printer) {
  if (options.winograd != "auto")
    return options.winograd;
  GraphChoice choice;
  choice.modelHash = hashModelGraph(imported);
  choice.key =
      makeGraphChoiceKey(choice.modelHash, kWinograd, tuning.serialize());
  if (const GraphChoice *known = db.lookupGraphChoice(choice.key)) {
    errs() << "tgc: tune: --winograd " << known->value
           << " from the tuning database\n";
    return known->value;
  }
  // A CASE folder's model.onnx is known by its folder.
  StringRef name = sys::path::filename(modelPath);
  StringRef folder = sys::path::filename(sys::path::parent_path(modelPath));
  choice.model = name == "model.onnx" && !folder.empty()
                     ? (folder + "/" + name).str()
                     : name.str();
  choice.option = kWinograd;
  choice.context = tuning;
  choice.value = "auto";

  FailureOr<std::string> autoHash = decomposedHash(imported, "auto", options);
  FailureOr<std::string> alwaysHash =
      decomposedHash(imported, "always", options);
  if (failed(autoHash) || failed(alwaysHash))
    return failure();
  if (*autoHash == *alwaysHash) {
    // Nothing to choose: recorded, so that a later tune need not decompose.
    errs() << "tgc: tune: --winograd always makes the graph auto makes: "
              "auto, untimed\n";
    db.insertGraphChoice(std::move(choice));
    return std::string("auto");
  }
  if (!canTimeModel(options, "--winograd stays auto"))
    return std::string("auto");

  BenchOptions bench = modelBenchOptions(options);
  bench.kernels.winograd = "auto";
  FailureOr<BenchProgram> withAuto =
      buildBenchProgram(context, modelPath, bench, printer);
  bench.kernels.winograd = "always";
  FailureOr<BenchProgram> withAlways =
      buildBenchProgram(context, modelPath, bench, printer);
  if (failed(withAuto) || failed(withAlways))
    return failure();
  FailureOr<SmallVector<double>> times =
      timeInTurns({&*withAuto, &*withAlways}, options.threads);
  if (failed(times))
    return failure();
  double autoMs = (*times)[0], alwaysMs = (*times)[1];
  choice.modelMs["auto"] = roundMs(autoMs);
  choice.modelMs["always"] = roundMs(alwaysMs);
  // "always" must win by the margin a search's kernel choice must win by
  // inside the model: more than two builds of the same graph differ.
  if (keepsSearchChoice(ModelTimes{autoMs, alwaysMs}))
    choice.value = "always";
  errs() << formatv("tgc: tune: the model takes {0:f3} ms with --winograd "
                    "auto, {1:f3} ms with always: {2}\n",
                    autoMs, alwaysMs, choice.value);
  std::string value = choice.value;
  db.insertGraphChoice(std::move(choice));
  return value;
}

} // namespace mlir::tgc
