//===- TuneConfirm.cpp - search choices checked in the model ----*- C++ -*-===//
//
// See TuneConfirm.h.
//
//===----------------------------------------------------------------------===//

#include "Driver/TuneConfirm.h"

#include "Driver/Statistics.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <thread>

using namespace llvm;

namespace mlir::tgc {
namespace {

/// Runs of a build per round.
constexpr unsigned kRunsPerRound = 20;
/// The most a BuildNoise margin asks: past it, the timing says nothing.
constexpr double kMaxMargin = 0.15;
/// Fewer shared keys than this say nothing about the noise.
constexpr size_t kMinSharedKeys = 5;

/// The entries this model's check concerns: in the model, not yet measured
/// inside it, and with other actions than the heuristic's.
SmallVector<TuningEntry *>
unconfirmedEntries(TuningDb &db, const StringMap<std::string> &keyOfKernel) {
  SmallVector<TuningEntry *> entries;
  for (const auto &item : keyOfKernel) {
    TuningEntry *entry = db.lookup(item.getValue());
    if (!entry || entry->modelTunedMs > 0 ||
        entry->actions == entry->heuristicActions ||
        llvm::is_contained(entries, entry))
      continue;
    entries.push_back(entry);
  }
  return entries;
}

} // namespace

std::map<std::string, ModelTimes>
sumModelTimesByKey(const StringMap<std::string> &keyOfKernel, StringRef prefix,
                   ArrayRef<KernelRate> heuristic, ArrayRef<KernelRate> tuned) {
  std::map<std::string, ModelTimes> times;
  auto add = [&](ArrayRef<KernelRate> rates, double ModelTimes::*field) {
    for (const KernelRate &rate : rates) {
      StringRef name = rate.function;
      if (!name.consume_front(prefix) || !name.consume_front("_"))
        continue;
      auto key = keyOfKernel.find(name);
      if (key != keyOfKernel.end())
        times[key->getValue()].*field += rate.time.medianMs;
    }
  };
  add(heuristic, &ModelTimes::heuristicMs);
  add(tuned, &ModelTimes::tunedMs);
  return times;
}

bool canTimeModel(const TuneOptions &options, StringRef consequence) {
  if (!options.cpu.empty() && options.cpu != "native") {
    errs() << "tgc: tune: tuned for --cpu " << options.cpu
           << ", not this CPU: " << consequence << "\n";
    return false;
  }
  if (!options.inputShapes.empty() && options.inputs.empty()) {
    errs() << "tgc: tune: no --input files for the model's dynamic inputs: "
           << consequence << "\n";
    return false;
  }
  return true;
}

BenchOptions modelBenchOptions(const TuneOptions &options) {
  BenchOptions bench;
  bench.inputs = options.inputs;
  bench.threads = options.threads;
  bench.kernels.imageLoop = options.imageLoop;
  bench.kernels.winograd = options.winograd;
  bench.kernels.convLayout = options.convLayout;
  return bench;
}

double roundMs(double ms) { return std::round(ms * 1e6) / 1e6; }

StringMap<std::string> kernelKeys(ArrayRef<KeyedKernel> kernels) {
  StringMap<std::string> keyOfKernel;
  for (const KeyedKernel &keyed : kernels) {
    KernelOp kernel = keyed.kernel;
    keyOfKernel[kernel.getName()] = keyed.key;
  }
  return keyOfKernel;
}

FailureOr<BenchProgram> buildHeuristicModel(MLIRContext &context,
                                            StringRef modelPath,
                                            const TuneOptions &options,
                                            DiagnosticPrinter *printer) {
  BenchOptions bench = modelBenchOptions(options);
  bench.profile = true;
  return buildBenchProgram(context, modelPath, bench, printer);
}

FailureOr<std::map<std::string, double>>
timeKernelsInModel(const StringMap<std::string> &keyOfKernel,
                   const BenchProgram &heuristic, const TuneOptions &options) {
  FailureOr<BenchSamples> samples =
      runBenchProgram(heuristic, kRunsPerRound, options.threads);
  if (failed(samples))
    return failure();
  std::map<std::string, double> times;
  for (const auto &[key, both] :
       sumModelTimesByKey(keyOfKernel, "net", samples->kernels, {}))
    times[key] = both.heuristicMs;
  return times;
}

BuildNoise sharedKernelNoise(const std::map<std::string, ModelTimes> &times,
                             function_ref<bool(StringRef)> changed) {
  SmallVector<double> logRatios;
  for (const auto &[key, both] : times)
    if (!changed(key) && both.heuristicMs > 0 && both.tunedMs > 0)
      logRatios.push_back(std::log(both.tunedMs / both.heuristicMs));
  BuildNoise noise;
  if (logRatios.size() < kMinSharedKeys)
    return noise;
  double center = medianOf(logRatios);
  SmallVector<double> apart;
  for (double logRatio : logRatios)
    apart.push_back(std::abs(logRatio - center));
  llvm::sort(apart);
  double percentile80 = nearestRank(apart, 0.8);
  noise.shift = std::exp(center);
  noise.margin =
      std::clamp(std::exp(percentile80) - 1, kModelTimingMargin, kMaxMargin);
  return noise;
}

bool keepsSearchChoice(const ModelTimes &times, const BuildNoise &noise) {
  return times.tunedMs > 0 &&
         times.tunedMs / noise.shift < times.heuristicMs * (1 - noise.margin);
}

bool slowsSearchChoice(const ModelTimes &times, const BuildNoise &noise) {
  return times.tunedMs <= 0 ||
         times.tunedMs / noise.shift > times.heuristicMs * (1 + noise.margin);
}

SmallVector<unsigned> confirmThreadCounts(unsigned searched, unsigned cpus) {
  SmallVector<unsigned> counts{searched};
  unsigned other = searched > 1 ? 1 : cpus;
  if (other != searched && other >= 1)
    counts.push_back(other);
  return counts;
}

LogicalResult confirmInModel(MLIRContext &context, StringRef modelPath,
                             const StringMap<std::string> &keyOfKernel,
                             TuningDb &db, const TuneOptions &options,
                             DiagnosticPrinter *printer,
                             const BenchProgram *heuristic) {
  SmallVector<TuningEntry *> entries = unconfirmedEntries(db, keyOfKernel);
  if (entries.empty())
    return success();
  if (!canTimeModel(options, "the choices are not checked inside the model"))
    return success();

  std::optional<BenchProgram> built;
  if (!heuristic) {
    FailureOr<BenchProgram> program =
        buildHeuristicModel(context, modelPath, options, printer);
    if (failed(program))
      return failure();
    built.emplace(std::move(*program));
    heuristic = &*built;
  }
  BenchOptions bench = modelBenchOptions(options);
  bench.profile = true;
  bench.kernels.tuningDb = options.dbPath;
  FailureOr<BenchProgram> tuned =
      buildBenchProgram(context, modelPath, bench, printer);
  if (failed(tuned))
    return failure();

  // Each kernel's lowest round median, build by build, at each thread
  // count the package may run at.
  SmallVector<unsigned> threadCounts = confirmThreadCounts(
      options.threads, std::max(1u, std::thread::hardware_concurrency()));
  SmallVector<std::map<std::string, ModelTimes>> timesByThreads;
  for (unsigned threads : threadCounts) {
    std::vector<KernelRate> best[2];
    for (int round = 0; round < kModelTimingRounds; ++round) {
      for (int build = 0; build < 2; ++build) {
        FailureOr<BenchSamples> samples = runBenchProgram(
            build ? *tuned : *heuristic, kRunsPerRound, threads);
        if (failed(samples))
          return failure();
        if (best[build].empty()) {
          best[build] = std::move(samples->kernels);
          continue;
        }
        for (auto [kept, now] : llvm::zip(best[build], samples->kernels))
          if (now.time.medianMs < kept.time.medianMs)
            kept = now;
      }
    }
    timesByThreads.push_back(
        sumModelTimesByKey(keyOfKernel, "net", best[0], best[1]));
  }

  // What a choice is read against at each count: this very timing's
  // noise on the kernels both builds run unchanged.
  auto changed = [&](StringRef key) {
    const TuningEntry *entry = db.lookup(key);
    return entry && entry->actions != entry->heuristicActions;
  };
  SmallVector<BuildNoise> noises;
  for (auto [threads, times] : llvm::zip(threadCounts, timesByThreads)) {
    noises.push_back(sharedKernelNoise(times, changed));
    errs() << formatv("tgc: tune: on {0} thread{1}, the kernels both builds "
                      "run unchanged took {2:f3}x as long in the tuned one "
                      "(median), {3:f1}% either side (80th percentile): "
                      "a choice must beat that\n",
                      threads, threads == 1 ? "" : "s", noises.back().shift,
                      noises.back().margin * 100);
  }

  unsigned kept = 0;
  double before = 0, after = 0;
  for (TuningEntry *entry : entries) {
    auto it = timesByThreads.front().find(entry->key);
    if (it == timesByThreads.front().end())
      continue;
    entry->modelHeuristicMs = roundMs(it->second.heuristicMs);
    entry->modelTunedMs = roundMs(it->second.tunedMs);
    entry->modelShift = roundMs(noises[0].shift);
    entry->modelMargin = roundMs(noises[0].margin);
    before += it->second.heuristicMs;
    // Faster where it was searched, and no slower at the other count.
    bool slower = false;
    std::string other;
    if (threadCounts.size() > 1)
      if (auto found = timesByThreads[1].find(entry->key);
          found != timesByThreads[1].end()) {
        slower = slowsSearchChoice(found->second, noises[1]);
        entry->modelOtherShift = roundMs(noises[1].shift);
        entry->modelOtherMargin = roundMs(noises[1].margin);
        entry->modelOtherThreads = threadCounts[1];
        entry->modelOtherHeuristicMs = roundMs(found->second.heuristicMs);
        entry->modelOtherTunedMs = roundMs(found->second.tunedMs);
        other = formatv("; on {0} thread{1}: {2:f4} and {3:f4} ms",
                        threadCounts[1], threadCounts[1] == 1 ? "" : "s",
                        found->second.heuristicMs, found->second.tunedMs);
      }
    bool keep = keepsSearchChoice(it->second, noises[0]) && !slower;
    if (keep) {
      ++kept;
      after += it->second.tunedMs;
    } else {
      entry->actions = entry->heuristicActions;
      after += it->second.heuristicMs;
    }
    if (options.verbose)
      errs() << formatv("tgc: tune: {0} inside the model: {1:f4} ms with "
                        "the heuristic's actions, {2:f4} ms with the "
                        "search's{3}: {4}\n",
                        entry->kernelName, it->second.heuristicMs,
                        it->second.tunedMs, other, keep ? "kept" : "dropped");
  }
  std::string checked =
      threadCounts.size() > 1
          ? formatv(" (and no slower on {0} thread{1})", threadCounts[1],
                    threadCounts[1] == 1 ? "" : "s")
                .str()
          : std::string();
  errs() << formatv("tgc: tune: inside the model, {0} of {1} choices of the "
                    "search are faster{4} and kept; their kernels take {2:f3} "
                    "ms instead of {3:f3} ms\n",
                    kept, entries.size(), after, before, checked);
  return success();
}

} // namespace mlir::tgc
