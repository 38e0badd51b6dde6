//===- OnnxImport.cpp - ONNX model to the import stage ---------*- C++ -*-===//
//
// Stage 1 of docs/architecture.md. The ONNX library parses, checks and
// infers shapes; tgc binds dynamic input dims, folds shape arithmetic until
// every value has a static shape, then builds `func.func @main` with one
// `tgc.onnx_node` per node and every initializer and Constant as `tgc.const`.
//
//===----------------------------------------------------------------------===//

#include "Frontend/OnnxImport.h"
#include "Frontend/ConstantInputs.h"
#include "Frontend/OnnxContainerInputs.h"
#include "Frontend/OnnxControlFlow.h"
#include "Frontend/OnnxLibrary.h"
#include "Frontend/OnnxShapeFold.h"
#include "Frontend/OnnxTensor.h"
#include "IR/TgcOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include <limits>

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// Shape inference runs again after each round of folding; a chain of
/// shape computations needs one round per data-dependent step, and the
/// loop stops as soon as a round folds nothing. Swin-T's windows are
/// padded to the shape of each block's input: its 12 blocks chain some 40
/// such steps (16 rounds left its third stage's shapes unknown).
constexpr int kMaxFoldRounds = 256;

std::string formatShape(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}

class Importer {
public:
  Importer(MLIRContext &context, StringRef path, const ImportOptions &options)
      : context(context), path(path.str()), options(options),
        fileLoc(FileLineColLoc::get(&context, path, 0, 0)), builder(&context),
        tensors(&context, modelDirOf(path)) {}

  OwningOpRef<ModuleOp> run(StringRef bytes);

private:
  static std::string modelDirOf(StringRef path) {
    StringRef dir = llvm::sys::path::parent_path(path);
    return dir.empty() ? "." : dir.str();
  }

  /// An error about the whole model; the location names the file.
  InFlightDiagnostic fileError() { return emitError(fileLoc); }
  LogicalResult parse(StringRef bytes);
  LogicalResult check();
  LogicalResult bindInputShapes();
  LogicalResult inferStaticShapes();
  LogicalResult collectTypes();
  /// The static type of value `name`; else an error at `loc` that starts
  /// with `what` and says why there is none.
  /// `hint` ends the message when the type depends on data.
  FailureOr<RankedTensorType> staticType(const std::string &name, Location loc,
                                         const llvm::Twine &what,
                                         StringRef hint = "");
  /// How to make the results of `node` static when graph inputs decide
  /// them: "; ... give its value with --bind-input", or "".
  std::string bindHint(const onnx::NodeProto &node);
  LogicalResult buildModule(ModuleOp module);
  LogicalResult importNode(const onnx::NodeProto &node, int index);
  LogicalResult importConstantNode(const onnx::NodeProto &node, Location loc);
  FailureOr<Attribute> convertAttribute(const onnx::AttributeProto &attr,
                                        const onnx::NodeProto &node,
                                        Location loc);
  FailureOr<Value> lookup(const std::string &name, Location loc);
  Location nodeLoc(const onnx::NodeProto &node, int index);

  MLIRContext &context;
  std::string path;
  const ImportOptions &options;
  Location fileLoc;
  OpBuilder builder;
  TensorConverter tensors;

  onnx::ModelProto model;
  /// Opset version by domain ("" for the default domain).
  llvm::StringMap<int64_t> opsets;
  /// Names of initializers, which are weights even when also graph inputs.
  llvm::StringSet<> initializerNames;
  /// ONNX type of every value the graph names (after shape inference).
  llvm::StringMap<const onnx::TypeProto *> onnxTypes;
  /// Values built so far, by ONNX name.
  llvm::StringMap<Value> values;
  /// Outputs of nodes that failed to import; their readers fail silently
  /// rather than repeat the error.
  llvm::StringSet<> failedValues;
};

} // namespace

/// Gives a name to every omitted output that a named one follows (an LSTM
/// whose Y is omitted but Y_h used), so that shape inference types it too.
static void nameOmittedOutputs(onnx::GraphProto &graph) {
  for (auto [index, node] : llvm::enumerate(*graph.mutable_node())) {
    int last = node.output_size() - 1;
    while (last >= 0 && node.output(last).empty())
      --last;
    for (int i = 0; i < last; ++i)
      if (node.output(i).empty())
        node.set_output(i, "tgc.omitted." + std::to_string(index) + "." +
                               std::to_string(i));
  }
}

LogicalResult Importer::parse(StringRef bytes) {
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()))
    return fileError()
           << "the model is larger than the 2 GB protobuf limit; store "
              "the weights as external data";
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return fileError() << "not an ONNX model, or truncated: the protobuf "
                          "parser rejected it";
  if (!model.has_ir_version() || !model.has_graph())
    return fileError() << "not an ONNX model: it has no "
                       << (model.has_ir_version() ? "graph" : "ir_version");
  for (const auto &opset : model.opset_import()) {
    std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
    opsets[domain] = opset.version();
  }
  std::string flattenError =
      flattenContainerInputs(*model.mutable_graph(), options.containerCounts);
  if (!flattenError.empty())
    return fileError() << flattenError;
  if (failed(bindConstantInputs(*model.mutable_graph(), options.constantInputs,
                                fileLoc)))
    return failure();
  nameOmittedOutputs(*model.mutable_graph());
  for (const auto &init : model.graph().initializer())
    initializerNames.insert(init.name());
  return success();
}

/// Every external data tensor of `graph` (initializers only: tensor
/// attributes of nodes cannot be external in practice).
static SmallVector<onnx::TensorProto *>
externalTensors(onnx::GraphProto &graph) {
  SmallVector<onnx::TensorProto *> external;
  for (onnx::TensorProto &init : *graph.mutable_initializer())
    if (init.data_location() == onnx::TensorProto::EXTERNAL)
      external.push_back(&init);
  return external;
}

LogicalResult Importer::check() {
  // The checker of onnx 1.12 looks for external data files relative to the
  // working directory. tgc checks each path itself (it must stay inside the
  // model's folder) and shows the checker the resolved, absolute paths.
  SmallVector<std::pair<onnx::StringStringEntryProto *, std::string>> saved;
  bool pathsOk = true;
  for (onnx::TensorProto *tensor : externalTensors(*model.mutable_graph())) {
    FailureOr<std::string> real = tensors.resolveExternalPath(*tensor, fileLoc);
    if (failed(real)) {
      pathsOk = false;
      continue;
    }
    for (auto &entry : *tensor->mutable_external_data())
      if (entry.key() == "location") {
        saved.emplace_back(&entry, entry.value());
        entry.set_value(*real);
      }
  }
  if (!pathsOk)
    return failure();
  std::string complaint = onnxlib::checkModel(model);
  for (auto &[entry, original] : saved)
    entry->set_value(original);
  if (!complaint.empty())
    return fileError() << "failed the ONNX checker: " << complaint;
  return success();
}

/// Gives every dynamic dim of every graph input its value from
/// `options.inputShapes`, writing the shapes into the model.
LogicalResult Importer::bindInputShapes() {
  llvm::StringSet<> inputs;
  for (onnx::ValueInfoProto &input : *model.mutable_graph()->mutable_input()) {
    if (initializerNames.contains(input.name()))
      continue;
    inputs.insert(input.name());
    if (!input.type().has_tensor_type())
      return fileError() << "input '" << input.name()
                         << "' is not a tensor (sequences and maps are not "
                            "supported)";
    onnx::TypeProto_Tensor *tensor =
        input.mutable_type()->mutable_tensor_type();
    auto given = options.inputShapes.find(input.name());
    bool hasShape = tensor->has_shape();
    const auto &dims = tensor->shape().dim();

    if (given == options.inputShapes.end()) {
      if (!hasShape)
        return fileError() << "input '" << input.name()
                           << "' has no shape; give one for it";
      for (auto [i, dim] : llvm::enumerate(dims))
        if (!dim.has_dim_value())
          return fileError()
                 << "input '" << input.name() << "' has dynamic dim " << i
                 << (dim.has_dim_param() ? " ('" + dim.dim_param() + "')"
                                         : std::string())
                 << "; give a shape for it";
      continue;
    }

    const std::vector<int64_t> &shape = given->second;
    if (hasShape && static_cast<size_t>(dims.size()) != shape.size())
      return fileError() << "input '" << input.name() << "' has rank "
                         << dims.size() << " but the shape given for it, "
                         << formatShape(shape) << ", has rank " << shape.size();
    for (auto [i, d] : llvm::enumerate(shape)) {
      if (d < 0)
        return fileError() << "the shape given for input '" << input.name()
                           << "' has a negative dim " << d;
      if (hasShape && dims[i].has_dim_value() && dims[i].dim_value() != d)
        return fileError() << "input '" << input.name() << "' has dim " << i
                           << " = " << dims[i].dim_value()
                           << " but the shape given for it says " << d;
    }
    onnx::TensorShapeProto *bound = tensor->mutable_shape();
    bound->clear_dim();
    for (int64_t d : shape)
      bound->add_dim()->set_dim_value(d);
  }
  for (const auto &[name, shape] : options.inputShapes) {
    if (inputs.contains(name))
      continue;
    // A bound input keeps the shape of its value.
    auto bound = options.constantInputs.find(name);
    if (bound != options.constantInputs.end() && bound->second.shape == shape)
      continue;
    return fileError() << "a shape is given for '" << name
                       << "', which is not an input of the model";
  }
  return success();
}

LogicalResult Importer::inferStaticShapes() {
  onnx::GraphProto &graph = *model.mutable_graph();
  // Hints left by the exporter may carry symbolic dims; inference rebuilds
  // them from the bound inputs.
  graph.clear_value_info();
  for (int round = 0;; ++round) {
    std::string error = onnxlib::inferShapes(model);
    if (!error.empty())
      return fileError() << "ONNX shape inference failed: " << error;
    if (round == kMaxFoldRounds)
      break;
    // Folding can make control flow static, and lowering it can give the
    // folder more to do.
    int changed = foldShapeArithmetic(graph);
    changed += lowerControlFlow(graph, opsets.lookup(""));
    // Only once nothing folds any more is an If left on a run-time
    // condition: it becomes a select between its two branches.
    if (changed == 0)
      changed = lowerControlFlow(graph, opsets.lookup(""),
                                 /*selectDynamicIf=*/true);
    if (changed == 0)
      break;
  }
  removeDeadConstants(graph);
  return success();
}

/// Records the ONNX type of every value named in the graph.
LogicalResult Importer::collectTypes() {
  const onnx::GraphProto &graph = model.graph();
  for (const auto &info : graph.input())
    onnxTypes[info.name()] = &info.type();
  for (const auto &info : graph.value_info())
    onnxTypes[info.name()] = &info.type();
  for (const auto &info : graph.output())
    onnxTypes[info.name()] = &info.type();
  return success();
}

FailureOr<RankedTensorType> Importer::staticType(const std::string &name,
                                                 Location loc,
                                                 const llvm::Twine &what,
                                                 StringRef hint) {
  auto fail = [&](const llvm::Twine &why, bool dependsOnData = false) {
    return emitError(loc) << what << " '" << name << "' " << why
                          << (dependsOnData ? hint : "");
  };
  auto it = onnxTypes.find(name);
  if (it == onnxTypes.end())
    return fail("has a shape ONNX shape inference could not find (it "
                "depends on data, or the op is not one ONNX knows)",
                true);
  const onnx::TypeProto &type = *it->second;
  if (!type.has_tensor_type())
    return fail("is not a tensor (sequences, maps and optionals are not "
                "supported)");
  int32_t dataType = type.tensor_type().elem_type();
  Type element = convertOnnxElementType(&context, dataType);
  if (!element)
    return fail("has element type " + onnxDataTypeName(dataType) +
                ", which tgc does not support");
  if (!type.tensor_type().has_shape())
    return fail("has no shape after ONNX shape inference (it depends on "
                "data)",
                true);
  SmallVector<int64_t> shape;
  for (const auto &dim : type.tensor_type().shape().dim()) {
    if (!dim.has_dim_value() || dim.dim_value() < 0)
      return fail("has a dim that stays unknown after ONNX shape inference "
                  "(it depends on data)",
                  true);
    shape.push_back(dim.dim_value());
  }
  return RankedTensorType::get(shape, element);
}

std::string Importer::bindHint(const onnx::NodeProto &node) {
  std::vector<std::string> inputs =
      graphInputsFeeding(model.graph(), constantOperandsOf(node));
  if (inputs.empty())
    return "";
  std::string names, flags;
  for (const std::string &name : inputs) {
    names += (names.empty() ? "'" : ", '") + name + "'";
    flags += " --bind-input " + name + "=FILE";
  }
  return "; the graph input" + std::string(inputs.size() > 1 ? "s " : " ") +
         names + " decide" + (inputs.size() > 1 ? "" : "s") +
         " it: compile with" + flags;
}

Location Importer::nodeLoc(const onnx::NodeProto &node, int index) {
  std::string name = node.name().empty()
                         ? node.op_type() + "_" + std::to_string(index)
                         : node.name();
  return NameLoc::get(StringAttr::get(&context, name), fileLoc);
}

FailureOr<Value> Importer::lookup(const std::string &name, Location loc) {
  auto it = values.find(name);
  if (it == values.end())
    return emitError(loc) << "reads '" << name << "', which is not defined";
  return it->second;
}

FailureOr<Attribute>
Importer::convertAttribute(const onnx::AttributeProto &attr,
                           const onnx::NodeProto &node, Location loc) {
  using onnx::AttributeProto;
  switch (attr.type()) {
  case AttributeProto::INT:
    return Attribute(builder.getI64IntegerAttr(attr.i()));
  case AttributeProto::FLOAT:
    return Attribute(builder.getF32FloatAttr(attr.f()));
  case AttributeProto::STRING:
    return Attribute(builder.getStringAttr(attr.s()));
  case AttributeProto::INTS:
    return Attribute(builder.getDenseI64ArrayAttr(
        SmallVector<int64_t>(attr.ints().begin(), attr.ints().end())));
  case AttributeProto::FLOATS:
    return Attribute(builder.getDenseF32ArrayAttr(
        SmallVector<float>(attr.floats().begin(), attr.floats().end())));
  case AttributeProto::STRINGS: {
    SmallVector<Attribute> strings;
    for (const std::string &s : attr.strings())
      strings.push_back(builder.getStringAttr(s));
    return Attribute(builder.getArrayAttr(strings));
  }
  case AttributeProto::TENSOR: {
    FailureOr<ElementsAttr> value =
        tensors.convert(attr.t(), loc, /*allowResource=*/false);
    if (failed(value))
      return failure();
    return Attribute(*value);
  }
  case AttributeProto::GRAPH:
  case AttributeProto::GRAPHS:
    // Kept as a marker so that decompose names the node and the attribute.
    return Attribute(builder.getUnitAttr());
  default:
    return emitError(loc) << "node '" << node.name() << "' (" << node.op_type()
                          << "): attribute '" << attr.name()
                          << "' is of a kind tgc does not import ("
                          << AttributeProto::AttributeType_Name(attr.type())
                          << ")";
  }
}

LogicalResult Importer::importConstantNode(const onnx::NodeProto &node,
                                           Location loc) {
  if (node.output_size() != 1 || node.attribute_size() != 1)
    return emitError(loc) << "Constant node needs one output and one value";
  const onnx::AttributeProto &attr = node.attribute(0);
  StringRef name = attr.name();
  ElementsAttr value;
  auto f32 = builder.getF32Type();
  auto si64 = builder.getIntegerType(64, /*isSigned=*/true);
  if (name == "value") {
    FailureOr<ElementsAttr> tensor =
        tensors.convert(attr.t(), loc, /*allowResource=*/true);
    if (failed(tensor))
      return failure();
    value = *tensor;
  } else if (name == "value_float") {
    value = DenseElementsAttr::get(RankedTensorType::get({}, f32), attr.f());
  } else if (name == "value_floats") {
    // Like a tensor value: more than 64 floats become a blob.
    ArrayRef<float> data(attr.floats().data(), attr.floats().size());
    FailureOr<ElementsAttr> tensor = tensors.fromBytes(
        RankedTensorType::get({(int64_t)data.size()}, f32), node.output(0),
        ArrayRef<char>(reinterpret_cast<const char *>(data.data()),
                       data.size() * sizeof(float)),
        loc, /*allowResource=*/true);
    if (failed(tensor))
      return failure();
    value = *tensor;
  } else if (name == "value_int") {
    value = DenseElementsAttr::get(RankedTensorType::get({}, si64),
                                   APInt(64, attr.i(), /*isSigned=*/true));
  } else if (name == "value_ints") {
    SmallVector<APInt> data;
    for (int64_t v : attr.ints())
      data.push_back(APInt(64, v, /*isSigned=*/true));
    value = DenseElementsAttr::get(
        RankedTensorType::get({(int64_t)data.size()}, si64), data);
  } else {
    return emitError(loc) << "node '" << node.name()
                          << "' (Constant): attribute '" << name
                          << "' is not supported (string and sparse "
                             "constants cannot be imported)";
  }
  FailureOr<RankedTensorType> type = staticType(
      node.output(0), loc, "node '" + node.name() + "' (Constant): output");
  if (failed(type))
    return failure();
  if (*type != value.getType())
    return emitError(loc) << "node '" << node.name() << "' (Constant): value "
                          << value.getType() << " differs from the inferred "
                          << *type;
  values[node.output(0)] = builder.create<ConstOp>(loc, value).getResult();
  return success();
}

LogicalResult Importer::importNode(const onnx::NodeProto &node, int index) {
  Location loc = nodeLoc(node, index);
  std::string domain = node.domain() == "ai.onnx" ? "" : node.domain();
  StringRef nodeName = cast<NameLoc>(loc).getName().getValue();
  auto nodeError = [&]() {
    return emitError(loc) << "node '" << nodeName << "' (" << node.op_type()
                          << "): ";
  };
  if (domain.empty() && node.op_type() == "Constant")
    return importConstantNode(node, loc);

  auto opset = opsets.find(domain);
  if (opset == opsets.end())
    return nodeError() << "its domain '" << domain << "' has no opset import";

  SmallVector<Value> operands;
  SmallVector<int64_t> slots;
  bool needSlots = false;
  for (auto [i, name] : llvm::enumerate(node.input())) {
    if (name.empty())
      continue;
    FailureOr<Value> value = lookup(name, loc);
    if (failed(value))
      return failure();
    needSlots |= static_cast<int64_t>(i) != (int64_t)operands.size();
    operands.push_back(*value);
    slots.push_back(i);
  }

  // An If still here has a run-time condition and branches that cannot be
  // selected between; its outputs have no static type to report instead.
  if (domain.empty() && node.op_type() == "If") {
    std::string why = branchMismatch(node);
    if (!why.empty())
      return nodeError() << "its condition is not a compile-time constant "
                            "and "
                         << why
                         << " (tgc selects between the branches of a run-time "
                            "condition only when every output has the same "
                            "type and static shape in both)"
                         << bindHint(node);
  }

  // Omitted trailing outputs are dropped; nameOmittedOutputs named the
  // others.
  int numOutputs = node.output_size();
  while (numOutputs > 0 && node.output(numOutputs - 1).empty())
    --numOutputs;
  SmallVector<Type> resultTypes;
  for (int i = 0; i < numOutputs; ++i) {
    const std::string &name = node.output(i);
    if (name.empty())
      return nodeError() << "output " << i
                         << " is omitted but a later one is used";
    FailureOr<RankedTensorType> type =
        staticType(name, loc,
                   "node '" + nodeName + "' (" + node.op_type() + "): output",
                   bindHint(node));
    if (failed(type))
      return failure();
    resultTypes.push_back(*type);
  }

  SmallVector<NamedAttribute> attrs;
  for (const onnx::AttributeProto &attr : node.attribute()) {
    FailureOr<Attribute> value = convertAttribute(attr, node, loc);
    if (failed(value))
      return failure();
    attrs.push_back(builder.getNamedAttr(attr.name(), *value));
  }

  auto op = builder.create<OnnxNodeOp>(
      loc, resultTypes, builder.getStringAttr(node.op_type()), operands,
      domain.empty() ? StringAttr() : builder.getStringAttr(domain),
      builder.getI64IntegerAttr(opset->second),
      attrs.empty() ? DictionaryAttr() : builder.getDictionaryAttr(attrs),
      needSlots ? builder.getDenseI64ArrayAttr(slots) : DenseI64ArrayAttr());
  for (int i = 0; i < numOutputs; ++i)
    values[node.output(i)] = op.getResult(i);
  return success();
}

LogicalResult Importer::buildModule(ModuleOp module) {
  const onnx::GraphProto &graph = model.graph();
  module->setAttr("tgc.source", builder.getStringAttr(path));

  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  for (const auto &input : graph.input()) {
    if (initializerNames.contains(input.name()))
      continue;
    FailureOr<RankedTensorType> type =
        staticType(input.name(), fileLoc, "input");
    if (failed(type))
      return failure();
    argTypes.push_back(*type);
    argNames.push_back(input.name());
  }
  // The result types are set once the nodes are built, so that a value
  // without a static type is reported at the node that makes it.
  builder.setInsertionPointToEnd(module.getBody());
  auto func = builder.create<func::FuncOp>(
      fileLoc, "main", builder.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  for (auto [i, name] : llvm::enumerate(argNames)) {
    func.setArgAttr(i, "tgc.name", builder.getStringAttr(name));
    values[name] = entry->getArgument(i);
  }
  builder.setInsertionPointToStart(entry);

  // Initializers nothing reads (e.g. inputs of folded shape arithmetic)
  // are left out.
  llvm::StringSet<> used;
  collectUsedNames(graph, used);
  for (const auto &init : graph.initializer()) {
    if (!used.contains(init.name()))
      continue;
    // Errors name the tensor and are about the file; the constant itself
    // is located at its name.
    FailureOr<ElementsAttr> value =
        tensors.convert(init, fileLoc, /*allowResource=*/true);
    if (failed(value))
      return failure();
    Location loc = NameLoc::get(builder.getStringAttr(init.name()), fileLoc);
    values[init.name()] = builder.create<ConstOp>(loc, *value).getResult();
  }

  // Every node is tried so that all problems of a model are reported at once.
  bool failedAny = false;
  for (auto [i, node] : llvm::enumerate(graph.node())) {
    bool readsFailed = llvm::any_of(node.input(), [&](const std::string &in) {
      return failedValues.contains(in);
    });
    if (readsFailed || failed(importNode(node, i))) {
      failedAny = true;
      for (const std::string &out : node.output())
        failedValues.insert(out);
    }
  }
  if (failedAny)
    return failure();

  SmallVector<Value> results;
  for (const auto &output : graph.output()) {
    FailureOr<Value> value = lookup(output.name(), fileLoc);
    if (failed(value))
      return failure();
    results.push_back(*value);
  }
  builder.create<func::ReturnOp>(fileLoc, results);
  func.setFunctionType(
      builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  for (auto [i, output] : llvm::enumerate(graph.output()))
    func.setResultAttr(i, "tgc.name", builder.getStringAttr(output.name()));
  return success();
}

OwningOpRef<ModuleOp> Importer::run(StringRef bytes) {
  context.getOrLoadDialect<TgcDialect>();
  context.getOrLoadDialect<func::FuncDialect>();
  // Inputs are bound before the checker runs: it rejects inputs without a
  // shape, which a given shape makes valid.
  if (failed(parse(bytes)) || failed(bindInputShapes()) || failed(check()) ||
      failed(inferStaticShapes()) || failed(collectTypes()))
    return {};
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  if (failed(buildModule(*module)) || failed(verify(*module)))
    return {};
  return module;
}

namespace mlir::tgc {

OwningOpRef<ModuleOp> importOnnxBuffer(MLIRContext &context, StringRef bytes,
                                       StringRef path,
                                       const ImportOptions &options) {
  return Importer(context, path, options).run(bytes);
}

OwningOpRef<ModuleOp> importOnnx(MLIRContext &context, StringRef path,
                                 const ImportOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    emitError(FileLineColLoc::get(&context, path, 0, 0))
        << "cannot open the model: " << buffer.getError().message();
    return {};
  }
  return importOnnxBuffer(context, (*buffer)->getBuffer(), path, options);
}

FailureOr<std::vector<std::string>>
findModelConstantInputs(MLIRContext &context, StringRef path) {
  Location loc = FileLineColLoc::get(&context, path, 0, 0);
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return emitError(loc) << "cannot open the model: "
                          << buffer.getError().message();
  StringRef bytes = (*buffer)->getBuffer();
  onnx::ModelProto model;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return emitError(loc) << "not an ONNX model, or truncated: the protobuf "
                             "parser rejected it";
  // An If whose branches agree needs no constant condition: import selects
  // between them at run time, so the inputs deciding it stay inputs. Dims
  // are not bound yet: one not known in a branch counts as agreeing (and
  // if the bound shapes differ, import says so and names the inputs to
  // bind).
  for (onnx::NodeProto &node : *model.mutable_graph()->mutable_node())
    if ((node.domain().empty() || node.domain() == "ai.onnx") &&
        node.op_type() == "If" &&
        branchMismatch(node, /*symbolicDims=*/true).empty())
      node.clear_input();
  return findConstantInputs(model.graph());
}

void registerOnnxImportTranslation() {
  static llvm::cl::list<std::string> inputShapes(
      "onnx-input-shape",
      llvm::cl::desc("bind the dynamic dims of an ONNX input: NAME=D0xD1..."),
      llvm::cl::value_desc("NAME=SHAPE"));
  static TranslateToMLIRRegistration registration(
      "import-onnx", "import an ONNX model (the import stage)",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        Location loc =
            FileLineColLoc::get(context, buffer->getBufferIdentifier(), 0, 0);
        ImportOptions options;
        for (StringRef spec : inputShapes) {
          if (!spec.contains('=')) {
            emitError(loc) << "bad --onnx-input-shape '" << spec
                           << "': expected NAME=D0xD1...";
            return {};
          }
          auto [name, dims] = spec.rsplit('=');
          std::vector<int64_t> shape;
          SmallVector<StringRef> parts;
          if (!dims.empty())
            dims.split(parts, 'x');
          for (StringRef part : parts) {
            int64_t d;
            if (part.getAsInteger(10, d) || d < 0) {
              emitError(loc) << "bad --onnx-input-shape '" << spec
                             << "': expected NAME=D0xD1...";
              return {};
            }
            shape.push_back(d);
          }
          options.inputShapes[name.str()] = shape;
        }
        return importOnnxBuffer(*context, buffer->getBuffer(),
                                buffer->getBufferIdentifier(), options);
      },
      [](DialectRegistry &registry) {
        registry.insert<TgcDialect, func::FuncDialect>();
      });
}

} // namespace mlir::tgc
