//===- Run.cpp - tgc run: compile for this host, run, write outputs -*- C++
//-*-=//
//
// Everything that can be checked without compiling is checked first, so a
// wrong file name or shape costs nothing and names the file at fault.
//
//===----------------------------------------------------------------------===//

#include "Driver/Run.h"

#include "Driver/HostRunner.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using ::tgc::HostTensor;

namespace mlir::tgc {

LogicalResult runModel(MLIRContext &context, StringRef modelPath,
                       const RunOptions &options, DiagnosticPrinter *printer,
                       raw_ostream &out) {
  Location modelLoc = fileLoc(context, modelPath);
  if (options.outputFormat != "npy" && options.outputFormat != "pb")
    return emitError(modelLoc) << "--output-format " << options.outputFormat
                               << ": expected npy or pb";
  FailureOr<ModelSignature> signature = readSignature(context, modelPath);
  if (failed(signature))
    return failure();

  // Names first: every --input must be a model input, given once.
  StringMap<std::string> files;
  for (const auto &[name, file] : options.inputs) {
    Location loc = fileLoc(context, file);
    bool known = any_of(signature->inputs,
                        [&](const TensorSpec &s) { return s.name == name; });
    if (!known) {
      std::string names;
      for (const TensorSpec &spec : signature->inputs)
        names += (names.empty() ? "'" : ", '") + spec.name + "'";
      return emitError(loc) << "--input " << name << "=" << file
                            << ": the model has no input '" << name
                            << "' (its inputs: " << names << ")";
    }
    if (!files.try_emplace(name, file).second)
      return emitError(loc) << "--input " << name << "=" << file << ": input '"
                            << name << "' is given twice";
  }
  for (const TensorSpec &spec : signature->inputs)
    if (!files.count(spec.name))
      return emitError(modelLoc)
             << "input '" << spec.name << "' is not given: add --input "
             << spec.name << "=FILE";

  FailureOr<std::set<std::string>> bound =
      constantInputsOf(context, modelPath);
  if (failed(bound))
    return failure();
  std::vector<HostTensor> tensors;
  CompileOptions compileOptions;
  compileOptions.verbose = options.verbose;
  compileOptions.kernels = options.kernels;
  for (const TensorSpec &spec : signature->inputs) {
    StringRef file = files[spec.name];
    ::tgc::Result<HostTensor> tensor = ::tgc::readTensorFile(file.str());
    if (!tensor)
      return emitError(fileLoc(context, file))
             << "input '" << spec.name
             << "': " << withoutFilePrefix(tensor.error(), file);
    if (failed(checkInputTensor(context, spec, *tensor, file)))
      return failure();
    // Inputs whose values decide shapes are compiled in.
    if (bound->count(spec.name)) {
      compileOptions.constantInputs[spec.name] = std::move(*tensor);
      continue;
    }
    compileOptions.inputShapes[spec.name] = tensor->shape;
    tensors.push_back(std::move(*tensor));
  }

  FailureOr<std::unique_ptr<HostRunner>> runner =
      HostRunner::create(context, modelPath, compileOptions, printer,
                         options.threads);
  if (failed(runner))
    return failure();
  std::vector<const HostTensor *> inputs;
  for (const HostTensor &tensor : tensors)
    inputs.push_back(&tensor);
  FailureOr<std::vector<HostTensor>> outputs = (*runner)->run(inputs);
  if (failed(outputs))
    return failure();

  if (std::error_code ec = sys::fs::create_directories(options.outputDir))
    return emitError(fileLoc(context, options.outputDir))
           << "cannot create the output folder: " << ec.message();
  for (const HostTensor &output : *outputs) {
    SmallString<256> path(options.outputDir);
    sys::path::append(path,
                      tensorFileStem(output.name) + "." + options.outputFormat);
    ::tgc::Status written = ::tgc::writeTensorFile(path.str().str(), output);
    if (!written)
      return emitError(fileLoc(context, path))
             << withoutFilePrefix(written.error(), path);
    out << path << ": " << output.name << " " << ::tgc::dtypeName(output.dtype)
        << " " << ::tgc::shapeString(output.shape) << "\n";
  }
  return success();
}

} // namespace mlir::tgc
