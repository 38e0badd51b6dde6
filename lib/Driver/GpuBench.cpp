//===- GpuBench.cpp - tgc bench --target cuda -------------------*- C++ -*-===//
//
// The timing main does the measuring (cudaEvents on the stream, so that
// the GPU's time is measured and not the host's); this side reads its
// samples, joins them with the manifest's costs and reports. Where the
// package runs on the CPU emulation, the report says so first: the events
// there read the host clock around kernels executed one thread at a time,
// which tells nothing about a GPU. It proves the path end to end.
//
//===----------------------------------------------------------------------===//

#include "Driver/GpuBench.h"

#include "Driver/GpuRunner.h"
#include "Driver/Subprocess.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <optional>

using namespace llvm;

namespace mlir::tgc {
namespace {

constexpr StringLiteral kEmulationNote =
    "the CPU emulation of the CUDA runtime (no NVIDIA GPU here): these times "
    "are the emulator's and mean nothing for a GPU";

/// "XxYxZ" of a manifest's [x, y, z], or "?".
std::string formatDims(const json::Array *dims) {
  if (!dims)
    return "?";
  SmallVector<std::string> parts;
  for (const json::Value &dim : *dims)
    parts.push_back(std::to_string(dim.getAsInteger().value_or(0)));
  return join(parts, "x");
}

/// The samples the timing main printed: one latency per `run` line, one
/// row of kernel times per `kernels` line; the device after `device`.
struct BenchSamples {
  std::string device;
  SmallVector<double> runs;
  std::vector<std::vector<double>> kernels;
};

BenchSamples parseSamples(StringRef text) {
  BenchSamples samples;
  SmallVector<StringRef> lines;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    auto [word, rest] = line.trim().split(' ');
    if (word == "device") {
      samples.device = rest.str();
      continue;
    }
    SmallVector<StringRef> fields;
    rest.split(fields, ' ', -1, /*KeepEmpty=*/false);
    std::vector<double> values;
    for (StringRef field : fields) {
      double ms;
      if (!field.getAsDouble(ms))
        values.push_back(ms);
    }
    if (word == "run" && values.size() == 1)
      samples.runs.push_back(values.front());
    else if (word == "kernels")
      samples.kernels.push_back(std::move(values));
  }
  return samples;
}

} // namespace

FailureOr<std::vector<KernelRate>>
computeKernelRates(Location loc, StringRef manifestText,
                   ArrayRef<std::vector<double>> kernelTimes) {
  Expected<json::Value> parsed = json::parse(manifestText);
  if (!parsed) {
    consumeError(parsed.takeError());
    return emitError(loc) << "the package's manifest is not JSON";
  }
  const json::Object *root = parsed->getAsObject();
  const json::Array *kernels = root ? root->getArray("kernels") : nullptr;
  if (!kernels)
    return emitError(loc) << "the package's manifest lists no kernels";
  std::vector<KernelRate> rates;
  for (const json::Value &value : *kernels) {
    const json::Object *kernel = value.getAsObject();
    std::optional<StringRef> function =
        kernel ? kernel->getString("function") : std::nullopt;
    if (!function)
      return emitError(loc) << "a kernel of the manifest has no function";
    KernelRate rate;
    rate.function = function->str();
    rate.flops = kernel->getInteger("flops").value_or(0);
    rate.bytes = kernel->getInteger("bytes").value_or(0);
    rate.grid = formatDims(kernel->getArray("grid"));
    rate.block = formatDims(kernel->getArray("block"));
    rates.push_back(std::move(rate));
  }
  if (kernelTimes.empty())
    return emitError(loc) << "the timing program reported no kernel times";
  for (auto [run, row] : enumerate(kernelTimes))
    if (row.size() != rates.size())
      return emitError(loc) << "timed run " << run << " reported "
                            << row.size() << " kernel times for "
                            << rates.size() << " kernels";
  for (auto [k, rate] : enumerate(rates)) {
    SmallVector<double> times;
    for (const std::vector<double> &row : kernelTimes)
      times.push_back(row[k]);
    rate.time = summarizeLatencies(times);
    double seconds = rate.time.medianMs * 1e-3;
    if (seconds > 0) {
      rate.gbPerS = rate.bytes / seconds * 1e-9;
      rate.gflopPerS = rate.flops / seconds * 1e-9;
    }
  }
  return rates;
}

LogicalResult benchCudaPackage(Location loc, StringRef model,
                               StringRef packageDir, StringRef workDir,
                               StringRef name, const ModelSignature &signature,
                               ArrayRef<std::string> inputFiles,
                               const BenchOptions &options, raw_ostream &out) {
  GpuRunMode mode = getGpuRunMode("cuda");
  std::string executable, compileLine;
  if (failed(buildGpuProgram(loc, packageDir, workDir, name, "cuda", mode,
                             generateCudaBenchHarness(signature, name),
                             options.verbose, executable, &compileLine)))
    return failure();

  std::vector<std::string> args = {executable,
                                   std::to_string(options.iterations)};
  args.insert(args.end(), inputFiles.begin(), inputFiles.end());
  std::string samplesPath = joinPath(workDir, "samples.txt");
  std::string logPath = joinPath(workDir, "bench.log");
  std::string error;
  int status = runProgram(args, samplesPath, logPath, error);
  if (status < 0)
    return emitError(loc) << "the timing program did not finish: " << error;
  if (status != 0)
    return emitError(loc) << "the timing program failed (exit status " << status
                          << "): " << readFileTail(logPath);

  ErrorOr<std::unique_ptr<MemoryBuffer>> text =
      MemoryBuffer::getFile(samplesPath);
  BenchSamples samples = parseSamples(text ? (*text)->getBuffer() : "");
  if (samples.runs.empty())
    return emitError(loc) << "the timing program reported no runs";
  ErrorOr<std::unique_ptr<MemoryBuffer>> manifest =
      MemoryBuffer::getFile(joinPath(packageDir, name + ".json"));
  if (!manifest)
    return emitError(loc) << "the package has no manifest";
  FailureOr<std::vector<KernelRate>> rates =
      computeKernelRates(loc, (*manifest)->getBuffer(), samples.kernels);
  if (failed(rates))
    return failure();
  LatencyStats latency = summarizeLatencies(samples.runs);
  bool emulated = mode == GpuRunMode::Emulation;
  double kernelSum = 0;
  for (const KernelRate &rate : *rates)
    kernelSum += rate.time.medianMs;

  if (options.json) {
    json::Array kernels;
    for (const KernelRate &rate : *rates)
      kernels.push_back(json::Object{{"function", rate.function},
                                     {"grid", rate.grid},
                                     {"block", rate.block},
                                     {"min_ms", rate.time.minMs},
                                     {"median_ms", rate.time.medianMs},
                                     {"bytes", rate.bytes},
                                     {"flops", rate.flops},
                                     {"gb_per_s", rate.gbPerS},
                                     {"gflop_per_s", rate.gflopPerS}});
    json::Object result{{"model", model.str()},
                        {"target", "cuda"},
                        {"device", samples.device},
                        {"emulated", emulated},
                        {"iterations", (int64_t)latency.iterations},
                        {"min_ms", latency.minMs},
                        {"median_ms", latency.medianMs},
                        {"p90_ms", latency.p90Ms},
                        {"kernels_median_ms", kernelSum},
                        {"kernels", std::move(kernels)}};
    if (emulated)
      result["note"] = kEmulationNote.str();
    out << formatv("{0}", json::Value(std::move(result))) << "\n";
    return success();
  }

  if (emulated)
    out << "NOTE: " << model << " ran on " << kEmulationNote << ".\n";
  out << formatv("{0}: CUDA on {1}\n  built with {2}\n", model, samples.device,
                 emulated ? StringRef("the emulation (a C++ compiler)")
                          : StringRef(compileLine));
  out << formatv("latency: min {0:f4} ms, median {1:f4} ms, p90 {2:f4} ms "
                 "({3} runs, cudaEvents around {4}_run)\n",
                 latency.minMs, latency.medianMs, latency.p90Ms,
                 latency.iterations, name);
  size_t width = StringRef("all kernels").size();
  for (const KernelRate &rate : *rates)
    width = std::max(width, rate.function.size());
  out << "per kernel (median of " << rates->front().time.iterations
      << " runs of " << name
      << "_run_timed; GB/s and GFLOP/s from the manifest's bytes and "
         "FLOPs):\n";
  out << formatv("  {0}  {1,-12} {2,-12} {3,10} {4,6} {5,10} {6,10}\n",
                 left_justify("kernel", width), "grid", "block", "ms", "share",
                 "GB/s", "GFLOP/s");
  for (const KernelRate &rate : *rates)
    out << formatv("  {0}  {1,-12} {2,-12} {3,10:f4} {4,5:f1}% {5,10:f2} "
                   "{6,10:f2}\n",
                   left_justify(rate.function, width), rate.grid, rate.block,
                   rate.time.medianMs,
                   kernelSum > 0 ? 100 * rate.time.medianMs / kernelSum : 0.0,
                   rate.gbPerS, rate.gflopPerS);
  out << formatv("  {0}  {1,-12} {2,-12} {3,10:f4}\n",
                 left_justify("all kernels", width), "", "", kernelSum);
  return success();
}

} // namespace mlir::tgc
