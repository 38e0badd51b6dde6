//===- Bench.cpp - tgc bench: latency of a model on this host --*- C++ -*-===//
//
// Compiles the model the way `tgc run` does (this host, the inputs'
// shapes), but builds a timing harness instead (BenchHarness.cpp) with the
// package's thread pool, and leaves the statistics to this side. A CUDA
// package goes to GpuBench.cpp once compiled.
//
//===----------------------------------------------------------------------===//

#include "Driver/Bench.h"
#include "Driver/KernelTimes.h"

#include "Driver/Compile.h"
#include "Driver/GpuBench.h"
#include "Driver/Harness.h"
#include "Driver/HostRunner.h"
#include "Driver/StagingDir.h"
#include "Driver/Statistics.h"
#include "Driver/Subprocess.h"
#include "Runtime/RuntimeFiles.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <optional>

using namespace llvm;
using ::tgc::HostTensor;

namespace mlir::tgc {
namespace {

constexpr StringLiteral kPackageName = "net";
/// The heuristic's build beside a tuned one (--against-heuristic).
constexpr StringLiteral kHeuristicPackageName = "heuristic";

/// A made-up input: uniform in [-1, 1) for floats (from a fixed
/// generator, so runs are comparable), alternating 0 and 1 otherwise.
FailureOr<HostTensor> makeInput(MLIRContext &context, StringRef model,
                                const TensorSpec &spec) {
  HostTensor tensor;
  tensor.name = spec.name;
  tensor.dtype = spec.dtype;
  for (int64_t dim : spec.shape) {
    if (dim < 0)
      return emitError(fileLoc(context, model))
             << "input '" << spec.name << "' has a dynamic shape "
             << formatShape(spec.shape) << ": give it with --input "
             << spec.name << "=FILE";
    tensor.shape.push_back(dim);
  }
  int64_t count = tensor.numElements();
  size_t size = ::tgc::dtypeSize(spec.dtype);
  tensor.data.assign(count * size, 0);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (int64_t i = 0; i < count; ++i) {
    uint8_t *at = &tensor.data[i * size];
    if (spec.dtype == ::tgc::DType::Float) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      float value = (float)((state >> 40) * (1.0 / (1 << 23))) - 1.0f;
      std::memcpy(at, &value, sizeof value);
    } else if (spec.dtype == ::tgc::DType::Double) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      double value = (double)(state >> 11) * (1.0 / (1ull << 52)) - 1.0;
      std::memcpy(at, &value, sizeof value);
    } else if (spec.dtype != ::tgc::DType::Float16 &&
               spec.dtype != ::tgc::DType::BFloat16) {
      at[0] = i % 2; // little-endian 0 or 1 in any integer width, or bool
    }
  }
  return tensor;
}

/// The package's C sources in `dir`, sorted; `skip` names files left out.
std::vector<std::string> packageSources(StringRef dir,
                                        ArrayRef<std::string> skip) {
  std::vector<std::string> sources;
  std::error_code ec;
  for (sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (sys::path::extension(it->path()) == ".c" &&
        !is_contained(skip, sys::path::filename(it->path()).str()))
      sources.push_back(it->path());
  llvm::sort(sources);
  return sources;
}

/// The manifest of package `name` in `dir`, or "" if it has none.
std::string readManifest(StringRef dir, StringRef name) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> text =
      MemoryBuffer::getFile(joinPath(dir, name + ".json"));
  return text ? (*text)->getBuffer().str() : std::string();
}

/// How many of `tuned`'s kernel choices (manifestKernelChoices) are not
/// among `heuristic`'s, each of those counting once.
unsigned countChoicesNotIn(std::vector<std::string> tuned,
                           std::vector<std::string> heuristic) {
  llvm::sort(tuned);
  llvm::sort(heuristic);
  std::vector<std::string> missing;
  std::set_difference(tuned.begin(), tuned.end(), heuristic.begin(),
                      heuristic.end(), std::back_inserter(missing));
  return missing.size();
}

/// The first data set's input_N.pb of a CASE folder, if there is one.
std::string caseInput(StringRef caseDir, size_t index) {
  std::string path = joinPath(joinPath(caseDir, "test_data_set_0"),
                              "input_" + Twine(index) + ".pb");
  return sys::fs::exists(path) ? path : std::string();
}

} // namespace

double pairedSpeedup(ArrayRef<double> baseline, ArrayRef<double> timed) {
  SmallVector<double> ratios;
  for (auto [before, now] : llvm::zip_equal(baseline, timed))
    ratios.push_back(before / now);
  return medianOf(ratios);
}

LatencyStats summarizeLatencies(ArrayRef<double> times) {
  SmallVector<double> sorted(times.begin(), times.end());
  llvm::sort(sorted);
  LatencyStats stats;
  stats.minMs = sorted.front();
  stats.medianMs = medianOfSorted(sorted);
  stats.p90Ms = nearestRank(sorted, 0.9);
  stats.iterations = sorted.size();
  return stats;
}

FailureOr<BenchProgram> buildBenchProgram(MLIRContext &context, StringRef path,
                                          const BenchOptions &options,
                                          DiagnosticPrinter *printer) {
  std::string model = path.str(), caseDir;
  if (sys::fs::is_directory(path)) {
    caseDir = path.str();
    model = joinPath(path, "model.onnx");
  }
  FailureOr<ModelSignature> signature = readSignature(context, model);
  if (failed(signature))
    return failure();
  if (options.target != "c" && options.threads > 1)
    return emitError(fileLoc(context, model))
           << "--threads " << options.threads
           << ": only the C target runs on a thread pool";
  if (options.scaling && (options.target != "c" || options.threads < 2))
    return emitError(fileLoc(context, model))
           << "--scaling pairs runs on a pool with runs on one thread: it "
              "needs the C target and --threads 2 or more";
  if (options.againstHeuristic &&
      (options.target != "c" || options.kernels.tuningDb.empty()))
    return emitError(fileLoc(context, model))
           << "--against-heuristic pairs the build a tuning database makes "
              "with the heuristic's: it needs the C target and --tuning-db";
  if (options.againstHeuristic && options.scaling)
    return emitError(fileLoc(context, model))
           << "--against-heuristic and --scaling each pair every run with "
              "another: give one";

  StringMap<std::string> given;
  for (const auto &[name, file] : options.inputs) {
    bool known = any_of(signature->inputs,
                        [&](const TensorSpec &s) { return s.name == name; });
    if (!known)
      return emitError(fileLoc(context, file))
             << "--input " << name << "=" << file
             << ": the model has no input '" << name << "'";
    if (!given.try_emplace(name, file).second)
      return emitError(fileLoc(context, file))
             << "--input " << name << "=" << file << ": input '" << name
             << "' is given twice";
  }

  std::vector<HostTensor> tensors;
  CompileOptions compileOptions;
  compileOptions.name = kPackageName.str();
  compileOptions.target = options.target;
  compileOptions.optimize = options.optimize;
  compileOptions.kernels = options.kernels;
  // A looped batch runs its images side by side, one per thread; a
  // profile needs one sequence of kernels.
  compileOptions.parallelImages = options.profile ? 1 : options.threads;
  compileOptions.verbose = options.verbose;
  for (auto [i, spec] : enumerate(signature->inputs)) {
    std::string file = given.lookup(spec.name);
    if (file.empty() && !caseDir.empty())
      file = caseInput(caseDir, i);
    FailureOr<HostTensor> tensor = failure();
    if (file.empty()) {
      tensor = makeInput(context, model, spec);
    } else {
      ::tgc::Result<HostTensor> read = ::tgc::readTensorFile(file);
      if (!read)
        return emitError(fileLoc(context, file))
               << "input '" << spec.name
               << "': " << withoutFilePrefix(read.error(), file);
      if (failed(checkInputTensor(context, spec, *read, file)))
        return failure();
      tensor = std::move(*read);
    }
    if (failed(tensor))
      return failure();
    compileOptions.inputShapes[spec.name] = tensor->shape;
    tensors.push_back(std::move(*tensor));
  }

  Location loc = fileLoc(context, model);
  Expected<ScratchDir> scratch = ScratchDir::create("tgc-bench");
  if (!scratch)
    return emitError(loc) << toString(scratch.takeError());
  std::string packageDir = joinPath(scratch->path(), "package");
  if (std::error_code ec = sys::fs::create_directory(packageDir))
    return emitError(loc) << packageDir << ": " << ec.message();
  ModelSignature compiled;
  if (failed(compileIntoFolder(context, model, packageDir, compileOptions,
                               printer, &compiled)))
    return failure();
  // The same model and options, but no database: the heuristic's actions.
  std::string heuristicDir;
  if (options.againstHeuristic) {
    heuristicDir = joinPath(scratch->path(), "heuristic");
    if (std::error_code ec = sys::fs::create_directory(heuristicDir))
      return emitError(loc) << heuristicDir << ": " << ec.message();
    CompileOptions heuristic = compileOptions;
    heuristic.name = kHeuristicPackageName.str();
    heuristic.kernels.tuningDb.clear();
    if (failed(compileIntoFolder(context, model, heuristicDir, heuristic,
                                 printer, /*signature=*/nullptr)))
      return failure();
  }
  std::vector<std::string> inputFiles;
  for (auto [i, tensor] : enumerate(tensors)) {
    inputFiles.push_back(
        joinPath(scratch->path(), "input_" + Twine(i) + ".bin"));
    StringRef bytes(reinterpret_cast<const char *>(tensor.data.data()),
                    tensor.data.size());
    if (failed(writeFile(context, inputFiles.back(), bytes)))
      return failure();
  }
  BenchProgram program{loc, std::move(*scratch)};
  program.packageDir = packageDir;
  program.compiled = std::move(compiled);
  program.inputFiles = std::move(inputFiles);
  if (options.target == "cuda")
    return program;
  StringRef scratchPath = program.scratch.path();

  // The manifest, where the kernels are timed or compared.
  std::string manifest;
  if (options.profile || options.againstHeuristic) {
    manifest = readManifest(packageDir, kPackageName);
    if (manifest.empty())
      return emitError(loc) << "the package has no manifest";
  }
  unsigned profiledKernels = 0;
  if (options.profile) {
    profiledKernels = countManifestKernels(manifest);
    if (!profiledKernels)
      return emitError(loc) << "--profile: the package has no kernels to time";
  }
  if (options.againstHeuristic) {
    std::vector<std::string> tuned = manifestKernelChoices(manifest);
    program.kernelCount = tuned.size();
    program.tunedKernels = countChoicesNotIn(
        std::move(tuned),
        manifestKernelChoices(
            readManifest(heuristicDir, kHeuristicPackageName)));
  }

  // The harness and its build: the package's sources, the pool, this CPU.
  std::string harness = joinPath(scratchPath, "bench.c");
  if (failed(writeFile(
          context, harness,
          generateBenchHarness(program.compiled, kPackageName, profiledKernels,
                               heuristicDir.empty()
                                   ? StringRef()
                                   : StringRef(kHeuristicPackageName)))))
    return failure();
  const char *ccEnv = std::getenv("CC");
  StringRef cc = ccEnv && *ccEnv ? StringRef(ccEnv) : StringRef("cc");
  SmallVector<StringRef> ccWords;
  cc.split(ccWords, ' ', -1, false);
  std::vector<std::string> args(ccWords.begin(), ccWords.end());
  for (StringRef flag : {"-std=c99", "-O3", "-march=native"})
    args.push_back(flag.str());
  args.push_back("-I" + packageDir);
  if (!heuristicDir.empty())
    args.push_back("-I" + heuristicDir);
  args.push_back(harness);
  // A profiling harness includes the model's source itself.
  std::vector<std::string> skipped;
  if (profiledKernels)
    skipped.push_back((kPackageName + ".c").str());
  std::vector<std::string> sources = packageSources(packageDir, skipped);
  args.insert(args.end(), sources.begin(), sources.end());
  if (!heuristicDir.empty()) {
    // One pool for both: the first package's copy of the runtime.
    sources = packageSources(heuristicDir, {kPoolSourceName.str()});
    args.insert(args.end(), sources.begin(), sources.end());
  }
  std::string executable = joinPath(scratchPath, "bench");
  args.insert(args.end(), {"-o", executable, "-lm", "-pthread"});
  if (options.verbose)
    errs() << "tgc: " << join(args, " ") << "\n";
  std::string ccLog = joinPath(scratchPath, "cc.log"), error;
  int status = runProgram(args, ccLog, ccLog, error);
  if (status == -1)
    return emitError(loc) << "cannot run the C compiler: " << error;
  if (status != 0)
    return emitError(loc) << "the C compiler ('" << cc << "') failed on the "
                          << "generated code (exit status " << status << "):\n"
                          << readFileTail(ccLog);

  program.executable = executable;
  program.manifest = std::move(manifest);
  program.profiledKernels = profiledKernels;
  program.hasHeuristicBuild = !heuristicDir.empty();
  return program;
}

FailureOr<BenchSamples> runBenchProgram(const BenchProgram &program,
                                        unsigned iterations, unsigned threads,
                                        BenchPairing pairing) {
  Location loc = program.loc;
  assert(
      (pairing != BenchPairing::heuristicBuild || program.hasHeuristicBuild) &&
      "the harness has no heuristic's build to pair with");
  std::vector<std::string> run = {
      program.executable, std::to_string(iterations), std::to_string(threads),
      std::to_string(static_cast<int>(pairing))};
  run.insert(run.end(), program.inputFiles.begin(), program.inputFiles.end());
  StringRef scratchPath = program.scratch.path();
  std::string times = joinPath(scratchPath, "times.txt");
  std::string runLog = joinPath(scratchPath, "run.log"), error;
  int status = runProgram(run, times, runLog, error);
  if (status == -1)
    return emitError(loc) << "the compiled model did not finish: " << error;
  if (status != 0)
    return emitError(loc) << "the compiled model failed (exit status " << status
                          << "): " << readFileTail(runLog);

  BenchSamples samples;
  ErrorOr<std::unique_ptr<MemoryBuffer>> file = MemoryBuffer::getFile(times);
  StringRef text = file ? (*file)->getBuffer() : "";
  samples.runs = parseHarnessTimes(text);
  if (samples.runs.empty())
    return emitError(loc) << "the timing harness reported no runs";
  if (pairing != BenchPairing::none) {
    bool oneThread = pairing == BenchPairing::oneThread;
    samples.pairedRuns = parseHarnessTimes(text, oneThread ? "one" : "other");
    if (samples.pairedRuns.size() != samples.runs.size())
      return emitError(loc)
             << "the timing harness paired " << samples.pairedRuns.size()
             << " of " << samples.runs.size() << " runs with a run "
             << (oneThread ? "on one thread" : "of the heuristic's build");
  }
  if (program.profiledKernels) {
    FailureOr<std::vector<KernelRate>> measured =
        computeKernelRates(loc, program.manifest, parseKernelRows(text));
    if (failed(measured))
      return failure();
    samples.kernels = std::move(*measured);
  }
  return samples;
}

LogicalResult benchModel(MLIRContext &context, StringRef path,
                         const BenchOptions &options,
                         DiagnosticPrinter *printer, raw_ostream &out) {
  FailureOr<BenchProgram> program =
      buildBenchProgram(context, path, options, printer);
  if (failed(program))
    return failure();
  if (options.target == "cuda")
    return benchCudaPackage(
        program->loc, path, program->packageDir, program->scratch.path(),
        kPackageName, program->compiled, program->inputFiles, options, out);
  BenchPairing pairing = options.scaling ? BenchPairing::oneThread
                         : options.againstHeuristic
                             ? BenchPairing::heuristicBuild
                             : BenchPairing::none;
  FailureOr<BenchSamples> samples =
      runBenchProgram(*program, options.iterations, options.threads, pairing);
  if (failed(samples))
    return failure();
  LatencyStats stats = summarizeLatencies(samples->runs);
  const std::vector<KernelRate> &rates = samples->kernels;
  bool profiled = program->profiledKernels > 0;
  // The paired runs' statistics, and the median over the pairs of the
  // paired run's time over the timed one's.
  std::optional<LatencyStats> paired;
  double speedup = 0;
  if (pairing != BenchPairing::none) {
    paired = summarizeLatencies(samples->pairedRuns);
    speedup = pairedSpeedup(samples->pairedRuns, samples->runs);
  }
  auto statsJson = [](const LatencyStats &s) {
    return json::Object{
        {"min_ms", s.minMs}, {"median_ms", s.medianMs}, {"p90_ms", s.p90Ms}};
  };
  if (options.json) {
    json::Object result{{"model", path.str()},
                        {"threads", (int64_t)options.threads},
                        {"iterations", (int64_t)stats.iterations},
                        {"min_ms", stats.minMs},
                        {"median_ms", stats.medianMs},
                        {"p90_ms", stats.p90Ms}};
    if (pairing == BenchPairing::oneThread) {
      result["one_thread"] = statsJson(*paired);
      result["speedup"] = speedup;
    } else if (pairing == BenchPairing::heuristicBuild) {
      result["heuristic"] = statsJson(*paired);
      result["tuned_speedup"] = speedup;
      result["tuned_kernels"] = (int64_t)program->tunedKernels;
    }
    if (profiled) {
      result["kernels_median_ms"] = sumKernelMedians(rates);
      result["kernels"] = kernelRatesToJson(rates, /*gpu=*/false);
    }
    out << formatv("{0}", json::Value(std::move(result))) << "\n";
    return success();
  }
  out << formatv("{0}: min {1:f3} ms, median {2:f3} ms, p90 {3:f3} ms "
                 "({4} runs, {5} thread{6})\n",
                 path, stats.minMs, stats.medianMs, stats.p90Ms,
                 stats.iterations, options.threads,
                 options.threads == 1 ? "" : "s");
  if (pairing == BenchPairing::oneThread)
    out << formatv("  paired with 1 thread: min {0:f3} ms, median {1:f3} ms, "
                   "p90 {2:f3} ms; {3} threads {4:f2}x as fast (the median "
                   "over the pairs)\n",
                   paired->minMs, paired->medianMs, paired->p90Ms,
                   options.threads, speedup);
  else if (pairing == BenchPairing::heuristicBuild)
    out << formatv("  paired with the heuristic's build: min {0:f3} ms, "
                   "median {1:f3} ms, p90 {2:f3} ms; the tuned build {3:f2}x "
                   "as fast (the median over the pairs; {4} of its {5} "
                   "kernels are not the heuristic's)\n",
                   paired->minMs, paired->medianMs, paired->p90Ms, speedup,
                   program->tunedKernels, program->kernelCount);
  if (profiled)
    printKernelTable(out, rates,
                     (kPackageName + "_run with " + kPackageName.upper() +
                      "_KERNEL_DONE reading the clock")
                         .str(),
                     /*gpu=*/false);
  return success();
}

} // namespace mlir::tgc
