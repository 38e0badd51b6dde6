//===- HostRunner.cpp - compile a model for this host and run it -*- C++ -*-=//
//
// Tensors cross into the harness as raw files rather than .npy so the C side
// stays a few lines of fread/fwrite; the driver owns every format question.
//
//===----------------------------------------------------------------------===//

#include "Driver/HostRunner.h"

#include "Driver/GpuRunner.h"
#include "Driver/Harness.h"
#include "Driver/Subprocess.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <optional>

using namespace llvm;
using ::tgc::HostTensor;

namespace mlir::tgc {
namespace {

/// The package name inside the scratch folder; users never see it.
constexpr StringLiteral kPackageName = "net";

} // namespace

StringRef withoutFilePrefix(StringRef message, StringRef file) {
  message.consume_front((file + ": ").str());
  return message;
}

std::string tensorFileStem(StringRef name) {
  std::string stem = name.str();
  for (char &c : stem)
    if (sys::path::is_separator(c))
      c = '_';
  if (stem.empty() || stem == "." || stem == "..")
    stem = "_" + stem;
  return stem;
}

LogicalResult checkInputTensor(MLIRContext &context, const TensorSpec &spec,
                               const HostTensor &tensor, StringRef file) {
  Location loc = fileLoc(context, file);
  if (tensor.dtype != spec.dtype)
    return emitError(loc) << "input '" << spec.name << "': dtype "
                          << ::tgc::dtypeName(tensor.dtype)
                          << ", but the model expects "
                          << ::tgc::dtypeName(spec.dtype);
  bool matches =
      !spec.rankKnown || (tensor.shape.size() == spec.shape.size() &&
                          all_of(zip(tensor.shape, spec.shape), [](auto dims) {
                            auto [given, expected] = dims;
                            return expected < 0 || given == expected;
                          }));
  if (!matches)
    return emitError(loc) << "input '" << spec.name << "': shape "
                          << ::tgc::shapeString(tensor.shape)
                          << " does not match the model's "
                          << formatShape(spec.shape);
  return success();
}

FailureOr<std::set<std::string>> constantInputsOf(MLIRContext &context,
                                                  StringRef modelPath) {
  FailureOr<ModelKind> kind = classifyModel(context, modelPath);
  if (failed(kind))
    return failure();
  if (*kind != ModelKind::Onnx)
    return std::set<std::string>();
  FailureOr<std::vector<std::string>> names =
      findModelConstantInputs(context, modelPath);
  if (failed(names))
    return failure();
  return std::set<std::string>(names->begin(), names->end());
}

FailureOr<std::unique_ptr<HostRunner>>
HostRunner::create(MLIRContext &context, StringRef modelPath,
                   const CompileOptions &options, DiagnosticPrinter *printer,
                   unsigned threads) {
  Location loc = fileLoc(context, modelPath);
  Expected<ScratchDir> scratch = ScratchDir::create("tgc-run");
  if (!scratch)
    return emitError(loc) << toString(scratch.takeError());
  std::unique_ptr<HostRunner> runner(
      new HostRunner(context, modelPath.str(), std::move(*scratch)));
  runner->threads = threads;

  std::string packageDir = joinPath(runner->scratch.path(), "package");
  if (std::error_code ec = sys::fs::create_directory(packageDir))
    return emitError(loc) << packageDir << ": " << ec.message();
  // This host's C: the options that only shape the package a user ships
  // (prefix, weights file, dumps, target CPU) take their defaults.
  CompileOptions hostOptions;
  hostOptions.name = kPackageName.str();
  hostOptions.optimize = options.optimize;
  // The tuned actions and the other kernel choices are part of the
  // package a user ships: a run of it must apply them too.
  hostOptions.kernels = options.kernels;
  // A looped batch runs its images side by side, one per thread.
  hostOptions.parallelImages = threads;
  hostOptions.verbose = options.verbose;
  hostOptions.inputShapes = options.inputShapes;
  hostOptions.target = options.target;
  runner->target = options.target;
  hostOptions.constantInputs = options.constantInputs;
  hostOptions.containerCounts = options.containerCounts;
  if (failed(compileIntoFolder(context, modelPath, packageDir, hostOptions,
                               printer, &runner->signature)))
    return failure();
  if (failed(runner->build(options.verbose)))
    return failure();
  return runner;
}

LogicalResult HostRunner::build(bool verbose) {
  Location loc = fileLoc(context, modelPath);
  std::string packageDir = joinPath(scratch.path(), "package");
  if (target != "c")
    return buildGpuHarness(loc, packageDir, scratch.path(), kPackageName,
                           target, getGpuRunMode(target), signature, verbose,
                           executable);
  std::string harness = joinPath(scratch.path(), "harness.c");
  if (failed(writeFile(context, harness,
                       generateHarness(signature, kPackageName, threads))))
    return failure();

  // $CC may carry flags ("ccache gcc", "clang -m64").
  const char *ccEnv = std::getenv("CC");
  StringRef cc = ccEnv && *ccEnv ? StringRef(ccEnv) : StringRef("cc");
  SmallVector<StringRef> ccWords;
  cc.split(ccWords, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::vector<std::string> args(ccWords.begin(), ccWords.end());
  // The package is for this host (run never takes --cpu), so let the C
  // compiler use all of this CPU.
  for (StringRef flag : {"-std=c99", "-O2", "-march=native"})
    args.push_back(flag.str());
  args.push_back("-I" + packageDir);
  args.push_back(harness);
  std::error_code ec;
  std::vector<std::string> sources;
  for (sys::fs::directory_iterator it(packageDir, ec), end; it != end && !ec;
       it.increment(ec))
    if (sys::path::extension(it->path()) == ".c")
      sources.push_back(it->path());
  if (ec)
    return emitError(loc) << packageDir << ": " << ec.message();
  llvm::sort(sources); // a stable command line, whatever the file system
  args.insert(args.end(), sources.begin(), sources.end());
  executable = joinPath(scratch.path(), "harness");
  args.insert(args.end(), {"-o", executable, "-lm", "-pthread"});

  if (verbose) {
    errs() << "tgc: " << join(args, " ") << "\n";
    if (threads > 1)
      errs() << "tgc: the harness runs " << kPackageName
             << "_run_parallel on a pool of " << threads << " threads\n";
  }
  auto start = std::chrono::steady_clock::now();
  std::string log = joinPath(scratch.path(), "cc.log");
  std::string error;
  int status = runProgram(args, log, log, error);
  if (verbose)
    errs() << formatv("tgc: {0,-10} {1,10:f1} ms\n", "cc",
                      std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count());
  if (status == -1)
    return emitError(loc) << "cannot run the C compiler: " << error;
  if (status != 0)
    return emitError(loc) << "the C compiler ('" << cc << "') failed on the "
                          << "generated code (exit status " << status << "):\n"
                          << readFileTail(log);
  return success();
}

FailureOr<std::vector<HostTensor>>
HostRunner::run(ArrayRef<const HostTensor *> inputs) {
  Location loc = fileLoc(context, modelPath);
  if (inputs.size() != signature.inputs.size())
    return emitError(loc) << "expected " << signature.inputs.size()
                          << " inputs, got " << inputs.size();
  std::string dir = joinPath(scratch.path(), "run-" + Twine(runs++));
  if (std::error_code ec = sys::fs::create_directory(dir))
    return emitError(loc) << dir << ": " << ec.message();

  std::vector<std::string> args = {executable};
  for (auto [i, input] : enumerate(inputs)) {
    args.push_back(joinPath(dir, "input_" + Twine(i) + ".bin"));
    StringRef bytes(reinterpret_cast<const char *>(input->data.data()),
                    input->data.size());
    if (failed(writeFile(context, args.back(), bytes)))
      return failure();
  }
  for (size_t i = 0; i < signature.outputs.size(); ++i)
    args.push_back(joinPath(dir, "output_" + Twine(i) + ".bin"));

  std::string log = joinPath(dir, "run.log");
  std::string error;
  int status = runProgram(args, log, log, error);
  if (status == -1)
    return emitError(loc) << "the compiled model did not finish: " << error;
  if (status != 0)
    return emitError(loc) << "the compiled model failed (exit status " << status
                          << "): " << readFileTail(log);

  std::vector<HostTensor> outputs;
  for (auto [i, spec] : enumerate(signature.outputs)) {
    std::string path = args[1 + inputs.size() + i];
    ErrorOr<std::unique_ptr<MemoryBuffer>> raw =
        MemoryBuffer::getFile(path, /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!raw || int64_t((*raw)->getBufferSize()) != tensorBytes(spec))
      return emitError(loc) << "output '" << spec.name
                            << "': the compiled model wrote no or a "
                               "wrongly sized result";
    HostTensor &out = outputs.emplace_back();
    out.name = spec.name;
    out.dtype = spec.dtype;
    out.shape.assign(spec.shape.begin(), spec.shape.end());
    StringRef bytes = (*raw)->getBuffer();
    out.data.assign(bytes.begin(), bytes.end());
  }
  sys::fs::remove_directories(dir); // verify may run many data sets
  return outputs;
}

} // namespace mlir::tgc
