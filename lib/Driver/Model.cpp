//===- Model.cpp - open a model: .onnx or a stage's .mlir ------*- C++ -*-===//

#include "Driver/Model.h"

#include "Driver/OnnxSignature.h"
#include "IR/Images.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using ::tgc::DType;

namespace mlir::tgc {

Location fileLoc(MLIRContext &context, StringRef path) {
  return FileLineColLoc::get(&context, path, 0, 0);
}

std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (auto [i, dim] : enumerate(shape)) {
    text += i ? "," : "";
    text += dim < 0 ? "?" : std::to_string(dim);
  }
  return text + "]";
}

namespace {

FailureOr<DType> dtypeOf(Type type) {
  if (type.isF32())
    return DType::Float;
  if (type.isF64())
    return DType::Double;
  if (type.isF16())
    return DType::Float16;
  if (type.isBF16())
    return DType::BFloat16;
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return failure();
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 1:
    return DType::Bool;
  case 8:
    return isUnsigned ? DType::UInt8 : DType::Int8;
  case 16:
    return isUnsigned ? DType::UInt16 : DType::Int16;
  case 32:
    return isUnsigned ? DType::UInt32 : DType::Int32;
  case 64:
    return isUnsigned ? DType::UInt64 : DType::Int64;
  default:
    return failure();
  }
}

LogicalResult readSpec(Location loc, Type type, StringAttr name,
                       StringRef fallbackName, TensorSpec &spec) {
  spec.name = name ? name.str() : fallbackName.str();
  auto tensor = dyn_cast<RankedTensorType>(type);
  FailureOr<DType> dtype =
      tensor ? dtypeOf(tensor.getElementType()) : FailureOr<DType>(failure());
  if (failed(dtype))
    return emitError(loc) << "@main: '" << spec.name << "' has type " << type
                          << ", not a ranked tensor of a supported type";
  spec.dtype = *dtype;
  spec.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  for (int64_t &dim : spec.shape)
    if (ShapedType::isDynamic(dim))
      dim = -1;
  return success();
}

/// A dump's shapes are fixed; --input-shape may only restate them.
LogicalResult checkShapesMatch(MLIRContext &context, StringRef path,
                               ModuleOp module, const ImportOptions &options) {
  if (options.inputShapes.empty())
    return success();
  FailureOr<ModelSignature> signature = getModuleSignature(module);
  if (failed(signature))
    return failure();
  for (const auto &[name, shape] : options.inputShapes) {
    const TensorSpec *input = find_if(
        signature->inputs, [&](const TensorSpec &s) { return s.name == name; });
    if (input == signature->inputs.end())
      return emitError(fileLoc(context, path))
             << "the model has no input '" << name << "'";
    if (ArrayRef<int64_t>(input->shape) != ArrayRef<int64_t>(shape))
      return emitError(fileLoc(context, path))
             << "input '" << name << "' has the fixed shape "
             << formatShape(input->shape) << " in this IR, not "
             << formatShape(shape);
  }
  return success();
}

} // namespace

FailureOr<ModelKind> classifyModel(MLIRContext &context, StringRef path) {
  Location loc = fileLoc(context, path);
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(path, status))
    return emitError(loc) << "cannot open the model: " << ec.message();
  if (sys::fs::is_directory(status))
    return emitError(loc) << "is a folder, not a model file";
  StringRef ext = sys::path::extension(path);
  FailureOr<ModelKind> kind = failure();
  if (ext.equals_insensitive(".onnx"))
    kind = ModelKind::Onnx;
  else if (ext.equals_insensitive(".mlir"))
    kind = ModelKind::Mlir;
  else
    return emitError(loc) << "not a model file: the name must end in .onnx "
                             "(an ONNX model) or .mlir (tgc IR)";
  int fd;
  if (std::error_code ec = sys::fs::openFileForRead(path, fd))
    return emitError(loc) << "cannot read the model: " << ec.message();
  sys::fs::closeFile(fd);
  return kind;
}

OwningOpRef<ModuleOp> openModel(MLIRContext &context, StringRef path,
                                const ImportOptions &options) {
  FailureOr<ModelKind> kind = classifyModel(context, path);
  if (failed(kind))
    return nullptr;
  if (*kind == ModelKind::Onnx)
    return importOnnx(context, path, options);
  if (!options.constantInputs.empty()) {
    emitError(fileLoc(context, path))
        << "inputs of a .mlir model cannot be bound to values; bind them "
           "when compiling the .onnx model";
    return nullptr;
  }
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(path, ParserConfig(&context));
  if (!module || failed(checkShapesMatch(context, path, *module, options)))
    return nullptr;
  return module;
}

FailureOr<ModelSignature> readSignature(MLIRContext &context, StringRef path,
                                        bool allowContainers) {
  FailureOr<ModelKind> kind = classifyModel(context, path);
  if (failed(kind))
    return failure();
  if (*kind == ModelKind::Mlir) {
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(path, ParserConfig(&context));
    if (!module)
      return failure();
    return getModuleSignature(*module);
  }
  ModelSignature signature;
  std::string error;
  if (!readOnnxSignature(path, signature, error))
    return emitError(fileLoc(context, path)) << error;
  if (!allowContainers)
    for (const auto *specs : {&signature.inputs, &signature.outputs})
      for (const TensorSpec &spec : *specs)
        if (!spec.containers.empty())
          return emitError(fileLoc(context, path))
                 << (specs == &signature.inputs ? "input '" : "output '")
                 << spec.name << "' is "
                 << (spec.containers[0] == ::tgc::Container::Sequence
                         ? "a sequence"
                         : "an optional")
                 << ", not a tensor; only tgc verify takes sequences and "
                    "optionals (from ONNX .pb test data)";
  return signature;
}

FailureOr<ModelSignature> getModuleSignature(ModuleOp module) {
  auto main = dyn_cast_or_null<func::FuncOp>(
      SymbolTable::lookupSymbolIn(module, "main"));
  if (!main)
    return emitError(module.getLoc()) << "the module has no func.func @main";
  ModelSignature signature;
  FunctionType type = main.getFunctionType();
  // Past tgc-image-loop the graph computes one image; callers pass them all.
  int64_t images = getModelImages(module);
  auto asCalled = [&](Type type) -> Type {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor ? getBatchedType(tensor, images) : type;
  };
  for (auto [i, input] : enumerate(type.getInputs()))
    if (failed(readSpec(main.getLoc(), asCalled(input),
                        main.getArgAttrOfType<StringAttr>(i, "tgc.name"),
                        "input_" + std::to_string(i),
                        signature.inputs.emplace_back())))
      return failure();
  for (auto [i, output] : enumerate(type.getResults()))
    if (failed(readSpec(main.getLoc(), asCalled(output),
                        main.getResultAttrOfType<StringAttr>(i, "tgc.name"),
                        "output_" + std::to_string(i),
                        signature.outputs.emplace_back())))
      return failure();
  return signature;
}

} // namespace mlir::tgc
