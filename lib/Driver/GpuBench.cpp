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

/// The samples the timing main printed: one latency per `run` line, one
/// row of kernel times per `kernels` line; the device after `device`.
struct GpuSamples {
  std::string device;
  SmallVector<double> runs;
  std::vector<std::vector<double>> kernels;
};

GpuSamples parseSamples(StringRef text) {
  GpuSamples samples;
  SmallVector<StringRef> lines;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    auto [word, rest] = line.trim().split(' ');
    double ms;
    if (word == "device")
      samples.device = rest.str();
    else if (word == "run" && !rest.trim().getAsDouble(ms))
      samples.runs.push_back(ms);
  }
  samples.kernels = parseKernelRows(text);
  return samples;
}

} // namespace

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
  GpuSamples samples = parseSamples(text ? (*text)->getBuffer() : "");
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
  double kernelSum = sumKernelMedians(*rates);

  if (options.json) {
    json::Object result{{"model", model.str()},
                        {"target", "cuda"},
                        {"device", samples.device},
                        {"emulated", emulated},
                        {"iterations", (int64_t)latency.iterations},
                        {"min_ms", latency.minMs},
                        {"median_ms", latency.medianMs},
                        {"p90_ms", latency.p90Ms},
                        {"kernels_median_ms", kernelSum},
                        {"kernels", kernelRatesToJson(*rates, /*gpu=*/true)}};
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
  printKernelTable(out, *rates, (name + "_run_timed").str(), /*gpu=*/true);
  return success();
}

} // namespace mlir::tgc
