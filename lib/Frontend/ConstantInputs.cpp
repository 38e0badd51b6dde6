//===- ConstantInputs.cpp - graph inputs needed at compile time -*- C++ -*-===//
//
// The table of operands that must be constant, one entry per op type, and
// the search from those operands back to the graph inputs that feed them.
//
//===----------------------------------------------------------------------===//

#include "Frontend/ConstantInputs.h"
#include "Frontend/OnnxTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// ONNX input slots whose values decide a result's shape or an index
/// pattern, by op type. The decompositions read these with
/// NodeContext::constInts / constScalar.
const llvm::StringMap<llvm::SmallVector<unsigned, 4>> &constantOperands() {
  static const llvm::StringMap<llvm::SmallVector<unsigned, 4>> table = {
      {"Reshape", {1}},
      {"Expand", {1}},
      {"Tile", {1}},
      {"Squeeze", {1}},
      {"Unsqueeze", {1}},
      {"Slice", {1, 2, 3, 4}},
      {"Split", {1}},
      {"Pad", {1, 3}},
      {"ConstantOfShape", {0}},
      {"Range", {0, 1, 2}},
      {"OneHot", {1}},
      {"Dropout", {1, 2}},
      {"SequenceAt", {1}},
      {"SequenceInsert", {2}},
      {"SequenceErase", {1}},
      {"SplitToSequence", {1}},
      {"If", {0}},
      {"Loop", {0, 1}},
      {"CumSum", {1}},
      {"TopK", {1}},
      {"Compress", {1}},
      {"Resize", {1, 2, 3}},
      {"Upsample", {1}},
      {"CenterCropPad", {1, 2}},
      {"MaxUnpool", {2}},
      {"BlackmanWindow", {0}},
      {"HannWindow", {0}},
      {"HammingWindow", {0}},
      {"MelWeightMatrix", {0, 1, 2, 3, 4}},
      {"DFT", {1, 2}},
      {"STFT", {1, 3}},
      {"ReduceSum", {1}},
      {"ReduceMean", {1}},
      {"ReduceMax", {1}},
      {"ReduceMin", {1}},
      {"ReduceProd", {1}},
      {"ReduceSumSquare", {1}},
      {"ReduceL1", {1}},
      {"ReduceL2", {1}},
      {"ReduceLogSum", {1}},
      {"ReduceLogSumExp", {1}},
  };
  return table;
}

/// Ops whose results depend only on the static shape of their inputs.
bool readsOnlyShape(llvm::StringRef opType) {
  return opType == "Shape" || opType == "Size";
}

} // namespace

bool mlir::tgc::isConstantOperand(llvm::StringRef opType, unsigned slot) {
  auto it = constantOperands().find(opType);
  return it != constantOperands().end() && llvm::is_contained(it->second, slot);
}

namespace {

void collectOuterReads(const onnx::GraphProto &graph, llvm::StringSet<> &out);

/// Walks back from `seeds` through the nodes of `graph` (not through Shape
/// or Size, which read only the static shape; through the names a node's
/// subgraphs read from outside them). Returns the names reached that no
/// node of `graph` produces and no initializer holds: graph inputs or, in a
/// subgraph, its formal inputs and the names it reads from outside.
llvm::StringSet<> walkBack(const onnx::GraphProto &graph,
                           llvm::ArrayRef<std::string> seeds) {
  llvm::StringMap<const onnx::NodeProto *> producers;
  for (const onnx::NodeProto &node : graph.node())
    for (const std::string &out : node.output())
      if (!out.empty())
        producers[out] = &node;
  llvm::StringSet<> initializers;
  for (const onnx::TensorProto &init : graph.initializer())
    initializers.insert(init.name());

  // `seen` keeps the walk linear.
  llvm::StringSet<> seen, reached;
  llvm::SmallVector<std::string> work(seeds.begin(), seeds.end());
  while (!work.empty()) {
    std::string name = work.pop_back_val();
    if (name.empty() || !seen.insert(name).second ||
        initializers.contains(name))
      continue;
    auto producer = producers.find(name);
    if (producer == producers.end()) {
      reached.insert(name);
      continue;
    }
    const onnx::NodeProto &node = *producer->second;
    if (readsOnlyShape(node.op_type()))
      continue;
    for (const std::string &in : node.input())
      work.push_back(in);
    llvm::StringSet<> outer;
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (attr.has_g())
        collectOuterReads(attr.g(), outer);
      for (const onnx::GraphProto &g : attr.graphs())
        collectOuterReads(g, outer);
    }
    for (const auto &entry : outer)
      work.push_back(entry.getKey().str());
  }
  return reached;
}

/// The names `graph` defines itself: formal inputs, initializers, node
/// outputs.
llvm::StringSet<> localNames(const onnx::GraphProto &graph) {
  llvm::StringSet<> local;
  for (const onnx::ValueInfoProto &in : graph.input())
    local.insert(in.name());
  for (const onnx::TensorProto &init : graph.initializer())
    local.insert(init.name());
  for (const onnx::NodeProto &node : graph.node())
    for (const std::string &out : node.output())
      local.insert(out);
  return local;
}

/// Adds to `out` every name a subgraph (or one nested in it) reads from the
/// scopes around it.
void collectOuterReads(const onnx::GraphProto &graph, llvm::StringSet<> &out) {
  llvm::StringSet<> local = localNames(graph), nested;
  for (const onnx::NodeProto &node : graph.node()) {
    for (const std::string &in : node.input())
      if (!in.empty() && !local.contains(in))
        out.insert(in);
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (attr.has_g())
        collectOuterReads(attr.g(), nested);
      for (const onnx::GraphProto &g : attr.graphs())
        collectOuterReads(g, nested);
    }
  }
  for (const onnx::ValueInfoProto &o : graph.output())
    if (!local.contains(o.name()))
      out.insert(o.name());
  for (const auto &entry : nested)
    if (!local.contains(entry.getKey()))
      out.insert(entry.getKey());
}

/// The names whose values constant operands in `graph` need: the operands
/// of its nodes, and what the constant operands of their subgraphs read
/// from outside those subgraphs (a Reshape in a Loop body whose shape is a
/// graph input).
std::vector<std::string> constantSeeds(const onnx::GraphProto &graph) {
  std::vector<std::string> seeds;
  for (const onnx::NodeProto &node : graph.node()) {
    for (std::string &name : constantOperandsOf(node))
      seeds.push_back(std::move(name));
    auto addFromSubgraph = [&](const onnx::GraphProto &sub) {
      llvm::StringSet<> formal;
      for (const onnx::ValueInfoProto &in : sub.input())
        formal.insert(in.name());
      for (const auto &entry : walkBack(sub, constantSeeds(sub)))
        if (!formal.contains(entry.getKey()))
          seeds.push_back(entry.getKey().str());
    };
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (attr.has_g())
        addFromSubgraph(attr.g());
      for (const onnx::GraphProto &g : attr.graphs())
        addFromSubgraph(g);
    }
  }
  return seeds;
}

} // namespace

std::vector<std::string>
mlir::tgc::graphInputsFeeding(const onnx::GraphProto &graph,
                              llvm::ArrayRef<std::string> values) {
  llvm::StringSet<> reached = walkBack(graph, values);
  std::vector<std::string> result;
  for (const onnx::ValueInfoProto &input : graph.input())
    if (reached.contains(input.name()))
      result.push_back(input.name());
  return result;
}

std::vector<std::string>
mlir::tgc::constantOperandsOf(const onnx::NodeProto &node) {
  std::vector<std::string> names;
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    return names;
  for (auto [slot, name] : llvm::enumerate(node.input()))
    if (!name.empty() && isConstantOperand(node.op_type(), slot))
      names.push_back(name);
  return names;
}

std::vector<std::string>
mlir::tgc::findConstantInputs(const onnx::GraphProto &graph) {
  return graphInputsFeeding(graph, constantSeeds(graph));
}

LogicalResult mlir::tgc::bindConstantInputs(
    onnx::GraphProto &graph,
    const std::map<std::string, ::tgc::HostTensor> &values, Location loc) {
  for (const auto &[name, tensor] : values) {
    auto fail = [&, name = name]() {
      return emitError(loc) << "the value bound to input '" << name << "' ";
    };
    onnx::ValueInfoProto *input = nullptr;
    for (onnx::ValueInfoProto &candidate : *graph.mutable_input())
      if (candidate.name() == name)
        input = &candidate;
    bool isWeight = llvm::any_of(graph.initializer(),
                                 [&, name = name](const onnx::TensorProto &t) {
                                   return t.name() == name;
                                 });
    if (!input || isWeight)
      return fail() << "names no input of the model";
    if (!tensor.isConsistent())
      return fail() << "holds " << tensor.data.size() << " bytes, which do "
                    << "not fit its shape " << ::tgc::shapeString(tensor.shape);
    const onnx::TypeProto &type = input->type();
    if (!type.has_tensor_type())
      return fail() << "is a tensor, but the input is not";
    int32_t declared = type.tensor_type().elem_type();
    if (declared != static_cast<int32_t>(tensor.dtype))
      return fail() << "is " << ::tgc::dtypeName(tensor.dtype)
                    << ", but the input is " << onnxDataTypeName(declared);
    if (type.tensor_type().has_shape()) {
      const auto &dims = type.tensor_type().shape().dim();
      bool fits = static_cast<size_t>(dims.size()) == tensor.shape.size();
      for (int i = 0; fits && i < dims.size(); ++i)
        fits = !dims[i].has_dim_value() ||
               dims[i].dim_value() == tensor.shape[i];
      if (!fits)
        return fail() << "has shape " << ::tgc::shapeString(tensor.shape)
                      << ", which the input's declared shape does not allow";
    }
    // The input's declared shape becomes the value's, so that shape
    // inference sees a static one.
    onnx::TensorShapeProto *shape =
        input->mutable_type()->mutable_tensor_type()->mutable_shape();
    shape->clear_dim();
    for (int64_t d : tensor.shape)
      shape->add_dim()->set_dim_value(d);
    onnx::TensorProto *init = graph.add_initializer();
    init->set_name(name);
    init->set_data_type(declared);
    for (int64_t d : tensor.shape)
      init->add_dims(d);
    init->set_raw_data(tensor.data.data(), tensor.data.size());
  }
  return success();
}
