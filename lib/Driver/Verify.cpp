//===- Verify.cpp - tgc verify: run against reference outputs --*- C++ -*-===//
//
// Data sets are all read and checked before anything compiles, so a broken
// tensor file is reported at once rather than after minutes of compiling.
//
//===----------------------------------------------------------------------===//

#include "Driver/Verify.h"

#include "Driver/Diagnostics.h"
#include "Driver/GpuRunner.h"
#include "Driver/HostRunner.h"
#include "Driver/Subprocess.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using ::tgc::HostTensor;

namespace mlir::tgc {
namespace {

/// One set of inputs and the outputs expected for them. Sequences and
/// optionals are flattened into the tensors they hold (Support/ValueFile.h),
/// so every tensor is named.
struct DataSet {
  std::string label;
  std::vector<HostTensor> inputs;   ///< in signature order
  std::vector<HostTensor> expected; ///< in signature order
  /// Elements of each sequence or optional input, by container name.
  std::map<std::string, int64_t> containerCounts;
};

/// The first of `candidates` (file names in `dir`) that exists, or "".
std::string findFile(StringRef dir, ArrayRef<std::string> candidates) {
  for (const std::string &name : candidates) {
    std::string path = joinPath(dir, name);
    if (sys::fs::is_regular_file(path))
      return path;
  }
  return "";
}

/// Reads `path` as `role` (e.g. "input 'x'"); errors name the file.
FailureOr<HostTensor> readTensor(MLIRContext &context, StringRef path,
                                 StringRef role) {
  ::tgc::Result<HostTensor> tensor = ::tgc::readTensorFile(path.str());
  if (!tensor)
    return emitError(fileLoc(context, path))
           << role << ": " << withoutFilePrefix(tensor.error(), path);
  return std::move(*tensor);
}

/// numpy has no bfloat16, so the ONNX test generator stores bfloat16 data
/// as its UINT16 bit patterns: read those as what the model declares.
void bitsAsBFloat16(const TensorSpec &spec, HostTensor &tensor) {
  if (spec.dtype == ::tgc::DType::BFloat16 &&
      tensor.dtype == ::tgc::DType::UInt16)
    tensor.dtype = ::tgc::DType::BFloat16;
}

/// Reads the value of `spec` from `path` as the tensors it holds, each
/// named; adds the element counts of its containers to `counts`.
FailureOr<std::vector<HostTensor>>
readValue(MLIRContext &context, const TensorSpec &spec, StringRef path,
          StringRef role, std::map<std::string, int64_t> &counts) {
  if (spec.containers.empty()) {
    FailureOr<HostTensor> tensor = readTensor(context, path, role);
    if (failed(tensor))
      return failure();
    tensor->name = spec.name;
    bitsAsBFloat16(spec, *tensor);
    return std::vector<HostTensor>{std::move(*tensor)};
  }
  ::tgc::Result<::tgc::FlatValue> value =
      ::tgc::readValueFile(path.str(), spec.name, spec.containers);
  if (!value)
    return emitError(fileLoc(context, path))
           << role << ": " << withoutFilePrefix(value.error(), path);
  for (HostTensor &tensor : value->tensors)
    bitsAsBFloat16(spec, tensor);
  counts.insert(value->counts.begin(), value->counts.end());
  return std::move(value->tensors);
}

/// Reads one data set, given a function that finds the file of input or
/// output `i` of the signature in `dir`.
template <typename FindFile>
FailureOr<DataSet> readDataSet(MLIRContext &context, StringRef label,
                               const ModelSignature &signature,
                               StringRef inputsDir, StringRef expectedDir,
                               FindFile findFor) {
  DataSet set;
  set.label = label.str();
  for (auto [i, spec] : enumerate(signature.inputs)) {
    std::string path = findFor(inputsDir, spec, i, /*isInput=*/true);
    if (path.empty())
      return emitError(fileLoc(context, inputsDir))
             << "no file for input " << i << " '" << spec.name << "'";
    FailureOr<std::vector<HostTensor>> tensors = readValue(
        context, spec, path, "input '" + spec.name + "'", set.containerCounts);
    if (failed(tensors))
      return failure();
    for (HostTensor &tensor : *tensors) {
      TensorSpec element = spec;
      element.name = tensor.name;
      if (failed(checkInputTensor(context, element, tensor, path)))
        return failure();
      set.inputs.push_back(std::move(tensor));
    }
  }
  for (auto [i, spec] : enumerate(signature.outputs)) {
    std::string path = findFor(expectedDir, spec, i, /*isInput=*/false);
    if (path.empty())
      return emitError(fileLoc(context, expectedDir))
             << "no reference file for output " << i << " '" << spec.name
             << "'";
    std::map<std::string, int64_t> outputCounts;
    FailureOr<std::vector<HostTensor>> tensors = readValue(
        context, spec, path, "output '" + spec.name + "'", outputCounts);
    if (failed(tensors))
      return failure();
    for (HostTensor &tensor : *tensors)
      set.expected.push_back(std::move(tensor));
  }
  return set;
}

/// The number in "test_data_set_12", for ordering 2 before 10.
unsigned dataSetNumber(StringRef name) {
  unsigned number = 0;
  name.drop_front(strlen("test_data_set_")).getAsInteger(10, number);
  return number;
}

/// Data sets of a CASE folder: test_data_set_*/input_N.pb, output_N.pb.
FailureOr<std::vector<DataSet>> readCase(MLIRContext &context,
                                         StringRef caseDir,
                                         const ModelSignature &signature) {
  std::vector<std::string> dirs;
  std::error_code ec;
  for (sys::fs::directory_iterator it(caseDir, ec), end; it != end && !ec;
       it.increment(ec))
    if (sys::path::filename(it->path()).starts_with("test_data_set_") &&
        sys::fs::is_directory(it->path()))
      dirs.push_back(it->path());
  Location caseLoc = fileLoc(context, caseDir);
  if (ec)
    return emitError(caseLoc) << ec.message();
  if (dirs.empty())
    return emitError(caseLoc) << "no test_data_set_* folders";
  llvm::sort(dirs, [](const std::string &a, const std::string &b) {
    return dataSetNumber(sys::path::filename(a)) <
           dataSetNumber(sys::path::filename(b));
  });

  std::vector<DataSet> sets;
  for (const std::string &dir : dirs) {
    // More input files than real inputs means the mapping by position is
    // off (e.g. the case expects initializers as inputs): refuse to guess.
    std::string extra =
        joinPath(dir, "input_" + Twine(signature.inputs.size()) + ".pb");
    if (sys::fs::exists(extra))
      return emitError(fileLoc(context, extra))
             << "the model has only " << signature.inputs.size()
             << " inputs that are not initializers";
    auto byPosition = [](StringRef dir, const TensorSpec &, size_t i,
                         bool isInput) {
      return findFile(
          dir, {(isInput ? "input_" : "output_") + std::to_string(i) + ".pb"});
    };
    FailureOr<DataSet> set = readDataSet(context, sys::path::filename(dir),
                                         signature, dir, dir, byPosition);
    if (failed(set))
      return failure();
    sets.push_back(std::move(*set));
  }
  return sets;
}

std::string formatUlp(uint64_t ulp) {
  return ulp == std::numeric_limits<uint64_t>::max() ? "nan"
                                                     : std::to_string(ulp);
}

/// Prints one output's line; returns whether it passed.
bool report(raw_ostream &out, const TensorSpec &spec, const Comparison &c,
            int64_t elements) {
  out << formatv("  {0,-24} ", spec.name);
  if (!c.problem.empty()) {
    out << "FAIL (" << c.problem << ")\n";
    return false;
  }
  out << formatv("max abs {0,-10:e2} ", c.maxAbsError);
  if (c.isFloat)
    out << formatv("max ulp {0,-8} ", formatUlp(c.maxUlp));
  else
    out << formatv("mismatches {0,-8} ", c.mismatches);
  if (c.passed()) {
    out << "PASS\n";
    return true;
  }
  out << formatv("FAIL ({0} of {1} elements outside tolerance, first at "
                 "flat index {2})\n",
                 c.mismatches, elements, c.firstMismatch);
  return false;
}

} // namespace

LogicalResult verifyModel(MLIRContext &context, StringRef path,
                          const VerifyOptions &options,
                          DiagnosticPrinter *printer, raw_ostream &out) {
  Location loc = fileLoc(context, path);
  bool isCase = sys::fs::is_directory(path);
  bool haveDirs = !options.inputsDir.empty() || !options.expectedDir.empty();
  if (isCase && haveDirs)
    return emitError(loc) << "--inputs and --expected go with a model file; "
                             "a CASE folder has its own test_data_set_*";
  if (!isCase && (options.inputsDir.empty() || options.expectedDir.empty()))
    return emitError(loc) << "verify needs a CASE folder, or a model file "
                             "with --inputs DIR and --expected DIR";
  std::string modelPath = isCase ? joinPath(path, "model.onnx") : path.str();
  if (printer)
    printer->setFallbackFile(modelPath);
  FailureOr<ModelSignature> signature =
      readSignature(context, modelPath, /*allowContainers=*/true);
  if (failed(signature))
    return failure();

  FailureOr<std::vector<DataSet>> sets = failure();
  if (isCase) {
    sets = readCase(context, path, *signature);
  } else {
    auto byName = [](StringRef dir, const TensorSpec &spec, size_t i,
                     bool isInput) {
      std::string stem = tensorFileStem(spec.name);
      return findFile(
          dir, {stem + ".npy", stem + ".pb",
                (isInput ? "input_" : "output_") + std::to_string(i) + ".pb"});
    };
    FailureOr<DataSet> set =
        readDataSet(context, options.inputsDir, *signature, options.inputsDir,
                    options.expectedDir, byName);
    if (succeeded(set))
      sets = std::vector<DataSet>{std::move(*set)};
  }
  if (failed(sets))
    return failure();
  FailureOr<std::set<std::string>> bound =
      constantInputsOf(context, modelPath);
  if (failed(bound))
    return failure();

  if (options.target != "c")
    out << "target " << options.target << ": "
        << (getGpuRunMode(options.target) == GpuRunMode::Device
                ? "on this machine's GPU"
                : "on the CPU emulation of the GPU (lib/Runtime/gpu_emu)")
        << "\n";

  // One compile per distinct set of input shapes, bound input values and
  // container sizes.
  using RunnerKey = std::tuple<std::vector<std::vector<int64_t>>,
                               std::vector<std::vector<uint8_t>>,
                               std::map<std::string, int64_t>>;
  std::map<RunnerKey, std::unique_ptr<HostRunner>> runners;
  unsigned failures = 0, outputs = 0;
  for (const DataSet &set : *sets) {
    RunnerKey key;
    CompileOptions compileOptions;
    compileOptions.verbose = options.verbose;
    compileOptions.target = options.target;
    compileOptions.kernels = options.kernels;
    compileOptions.containerCounts = set.containerCounts;
    std::get<2>(key) = set.containerCounts;
    std::vector<const HostTensor *> inputs;
    for (const HostTensor &tensor : set.inputs) {
      std::get<0>(key).push_back(tensor.shape);
      if (bound->count(tensor.name)) {
        std::get<1>(key).push_back(tensor.data);
        compileOptions.constantInputs[tensor.name] = tensor;
        continue;
      }
      compileOptions.inputShapes[tensor.name] = tensor.shape;
      inputs.push_back(&tensor);
    }
    std::unique_ptr<HostRunner> &runner = runners[key];
    if (!runner) {
      FailureOr<std::unique_ptr<HostRunner>> created =
          HostRunner::create(context, modelPath, compileOptions, printer);
      if (failed(created))
        return failure();
      runner = std::move(*created);
    }
    FailureOr<std::vector<HostTensor>> got = runner->run(inputs);
    if (failed(got))
      return failure();

    out << set.label << ":\n";
    // Outputs pair up by name: a sequence output is as many tensors as the
    // package computed elements, which may differ from the reference.
    std::map<std::string, const HostTensor *> expectedByName;
    for (const HostTensor &tensor : set.expected)
      expectedByName[tensor.name] = &tensor;
    for (auto [spec, actual] : zip(runner->getSignature().outputs, *got)) {
      ++outputs;
      auto expected = expectedByName.find(spec.name);
      if (expected == expectedByName.end()) {
        out << formatv("  {0,-24} FAIL (the reference has no such output)\n",
                       spec.name);
        ++failures;
        continue;
      }
      Comparison c =
          compareTensors(actual, *expected->second, options.tolerance);
      if (!report(out, spec, c, expected->second->numElements()))
        ++failures;
      expectedByName.erase(expected);
    }
    for (const auto &[name, tensor] : expectedByName) {
      out << formatv("  {0,-24} FAIL (the package does not compute it)\n",
                     name);
      ++outputs;
      ++failures;
    }
  }
  out << formatv("{0}: {1} of {2} outputs passed in {3} data set{4} ",
                 failures ? "FAIL" : "PASS", outputs - failures, outputs,
                 sets->size(), sets->size() == 1 ? "" : "s")
      << format("(rtol %g, atol %g)\n", options.tolerance.rtol,
                options.tolerance.atol);
  out.flush();
  return failure(failures != 0);
}

} // namespace mlir::tgc
