//===- TuneGraph.cpp - graph choices timed on the whole model --*- C++ -*-===//
//
// See TuneGraph.h. Whether a value changes anything is decided on the
// graph (decomposed with it and with auto, then hashed) before anything is
// built, so that a model without a convolution the rule declines costs no
// build.
//
//===----------------------------------------------------------------------===//

#include "Driver/TuneGraph.h"

#include "Codegen/Pipeline.h"
#include "Driver/KernelTimes.h"
#include "Driver/TuneConfirm.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>
#include <vector>

using namespace llvm;

namespace mlir::tgc {
namespace {

/// Each build's runs in a round: about this long, within the bounds.
constexpr double kRoundSeconds = 0.3;
constexpr unsigned kMinRuns = 5, kMaxRuns = 2000;

/// The values other than auto `tgc tune` tries for `option`: Winograd
/// wherever it applies; each layout (auto's own makes auto's graph, and
/// is dropped as such).
SmallVector<std::string> alternativesOf(GraphOption option) {
  if (option == GraphOption::Winograd)
    return {"always"};
  return {"nchw", "nhwc"};
}

/// The hash of `imported` decomposed as `options` say.
FailureOr<std::string> decomposedHash(ModuleOp imported,
                                      const TuneOptions &options) {
  OwningOpRef<ModuleOp> copy = imported.clone();
  PipelineOptions pipeline;
  pipeline.cpu = options.cpu;
  pipeline.winograd = options.winograd;
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

StringRef graphOptionName(GraphOption option) {
  return option == GraphOption::Winograd ? "winograd" : "conv-layout";
}

FailureOr<std::string>
tuneGraphChoice(MLIRContext &context, StringRef modelPath, ModuleOp imported,
                GraphOption option, TuningDb &db, const TuningContext &tuning,
                const TuneOptions &options, DiagnosticPrinter *printer) {
  StringRef name = graphOptionName(option);
  TuneOptions tried = options;
  std::string &value = graphOptionValue(tried, option);
  if (value != "auto")
    return value;
  GraphChoice choice;
  choice.modelHash = hashModelGraph(imported);
  choice.given = otherGraphOptions(options, option);
  choice.key = makeGraphChoiceKey(choice.modelHash, name, choice.given,
                                  tuning.serialize());
  if (const GraphChoice *known = db.lookupGraphChoice(choice.key)) {
    errs() << "tgc: tune: --" << name << " " << known->value
           << " from the tuning database\n";
    return known->value;
  }
  // A CASE folder's model.onnx is known by its folder.
  StringRef file = sys::path::filename(modelPath);
  StringRef folder = sys::path::filename(sys::path::parent_path(modelPath));
  choice.model = file == "model.onnx" && !folder.empty()
                     ? (folder + "/" + file).str()
                     : file.str();
  choice.option = name.str();
  choice.context = tuning;
  choice.value = "auto";

  // The values whose graph is not auto's.
  FailureOr<std::string> autoHash = decomposedHash(imported, tried);
  if (failed(autoHash))
    return failure();
  SmallVector<std::string> alternatives = alternativesOf(option);
  SmallVector<std::string> values{"auto"};
  for (const std::string &alternative : alternatives) {
    value = alternative;
    FailureOr<std::string> hash = decomposedHash(imported, tried);
    if (failed(hash))
      return failure();
    if (*hash != *autoHash)
      values.push_back(alternative);
  }
  if (values.size() == 1) {
    // Nothing to choose: recorded, so that a later tune need not decompose.
    errs() << "tgc: tune: --" << name << " "
           << llvm::join(alternatives, " and ")
           << (alternatives.size() == 1 ? " makes" : " make")
           << " the graph auto makes: auto, untimed\n";
    db.insertGraphChoice(std::move(choice));
    return std::string("auto");
  }
  if (!canTimeModel(options, ("--" + name + " stays auto").str()))
    return std::string("auto");

  std::vector<BenchProgram> programs;
  for (const std::string &each : values) {
    value = each;
    FailureOr<BenchProgram> built = buildBenchProgram(
        context, modelPath, modelBenchOptions(tried), printer);
    if (failed(built))
      return failure();
    programs.push_back(std::move(*built));
  }
  SmallVector<const BenchProgram *> timed;
  for (const BenchProgram &program : programs)
    timed.push_back(&program);
  FailureOr<SmallVector<double>> times = timeInTurns(timed, options.threads);
  if (failed(times))
    return failure();
  // The fastest other value must beat auto by the margin a search's kernel
  // choice must win by inside the model: more than two builds of the same
  // graph differ.
  size_t fastest = 1;
  for (size_t i = 1; i < values.size(); ++i) {
    choice.modelMs[values[i]] = roundMs((*times)[i]);
    if ((*times)[i] < (*times)[fastest])
      fastest = i;
  }
  double autoMs = (*times)[0];
  choice.modelMs["auto"] = roundMs(autoMs);
  if (keepsSearchChoice(ModelTimes{autoMs, (*times)[fastest]}))
    choice.value = values[fastest];
  errs() << formatv("tgc: tune: the model takes {0:f3} ms with --{1} auto",
                    autoMs, name);
  for (size_t i = 1; i < values.size(); ++i)
    errs() << formatv(", {0:f3} ms with {1}", (*times)[i], values[i]);
  errs() << ": " << choice.value << "\n";
  std::string chosen = choice.value;
  db.insertGraphChoice(std::move(choice));
  return chosen;
}

} // namespace mlir::tgc
