//===- OnnxControlFlow.cpp - static control flow and sequences -*- C++ -*-===//
//
// Subgraph bodies are inlined by copying their nodes with every value they
// define renamed under a unique prefix; their formal inputs become the outer
// names bound to them, and names they read from the enclosing scope stay as
// they are (also inside nested subgraphs, unless shadowed there).
//
//===----------------------------------------------------------------------===//

#include "Frontend/OnnxControlFlow.h"
#include "Frontend/OnnxShapeFold.h"
#include "Support/ValueFile.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace mlir::tgc;
using llvm::ArrayRef;
using llvm::SmallVector;
using onnx::AttributeProto;
using onnx::GraphProto;
using onnx::NodeProto;
using onnx::TensorProto;

namespace {

/// Unrolling stops at this many iterations; beyond, the loop stays.
constexpr int64_t kMaxUnroll = 4096;

const AttributeProto *findAttr(const NodeProto &node, llvm::StringRef name) {
  for (const AttributeProto &attr : node.attribute())
    if (attr.name() == name)
      return &attr;
  return nullptr;
}

int64_t intAttr(const NodeProto &node, llvm::StringRef name, int64_t dflt) {
  const AttributeProto *attr = findAttr(node, name);
  return attr && attr->type() == AttributeProto::INT ? attr->i() : dflt;
}

SmallVector<int64_t> intsAttr(const NodeProto &node, llvm::StringRef name) {
  const AttributeProto *attr = findAttr(node, name);
  if (!attr)
    return {};
  return SmallVector<int64_t>(attr->ints().begin(), attr->ints().end());
}

/// Renames reads of outer names inside a nested subgraph, leaving the
/// names the subgraph defines itself alone.
void renameOuterReads(GraphProto &graph, const llvm::StringMap<std::string> &map) {
  llvm::StringSet<> local;
  for (const auto &in : graph.input())
    local.insert(in.name());
  for (const auto &init : graph.initializer())
    local.insert(init.name());
  for (const NodeProto &node : graph.node())
    for (const std::string &out : node.output())
      local.insert(out);
  for (NodeProto &node : *graph.mutable_node()) {
    for (std::string &in : *node.mutable_input()) {
      auto it = map.find(in);
      if (!in.empty() && !local.contains(in) && it != map.end())
        in = it->second;
    }
    for (AttributeProto &attr : *node.mutable_attribute()) {
      if (attr.has_g())
        renameOuterReads(*attr.mutable_g(), map);
      for (GraphProto &g : *attr.mutable_graphs())
        renameOuterReads(g, map);
    }
  }
  for (auto &out : *graph.mutable_output()) {
    auto it = map.find(out.name());
    if (!local.contains(out.name()) && it != map.end())
      out.set_name(it->second);
  }
}

/// "FLOAT[2,16]" for a tensor of known element type and static shape;
/// with `symbolic`, a dim not known yet reads "?" ("FLOAT[?,16]").
std::optional<std::string> staticTypeName(const onnx::ValueInfoProto &info,
                                          bool symbolic) {
  if (!info.type().has_tensor_type())
    return std::nullopt;
  const onnx::TypeProto::Tensor &tensor = info.type().tensor_type();
  if (!tensor.has_shape() || tensor.elem_type() == TensorProto::UNDEFINED)
    return std::nullopt;
  std::string name = TensorProto::DataType_Name(
                         (TensorProto::DataType)tensor.elem_type()) +
                     "[";
  for (const auto &dim : tensor.shape().dim()) {
    std::string text;
    if (dim.has_dim_value())
      text = std::to_string(dim.dim_value());
    else if (symbolic)
      text = "?";
    else
      return std::nullopt;
    name += (name.back() == '[' ? "" : ",") + text;
  }
  return name + "]";
}

bool isSequenceOp(llvm::StringRef op);
bool isOptionalOp(llvm::StringRef op);

void addIntAttr(NodeProto &node, llvm::StringRef name, int64_t value) {
  AttributeProto *attr = node.add_attribute();
  attr->set_name(name.str());
  attr->set_type(AttributeProto::INT);
  attr->set_i(value);
}

void addIntsAttr(NodeProto &node, llvm::StringRef name,
                 ArrayRef<int64_t> values) {
  AttributeProto *attr = node.add_attribute();
  attr->set_name(name.str());
  attr->set_type(AttributeProto::INTS);
  for (int64_t v : values)
    attr->add_ints(v);
}

/// Whether a node of `graph`, or of a graph nested in it, reads a name for
/// which `test` holds.
template <typename Test>
bool readsAnyOf(const GraphProto &graph, Test test) {
  for (const NodeProto &node : graph.node()) {
    for (const std::string &in : node.input())
      if (test(in))
        return true;
    for (const AttributeProto &attr : node.attribute()) {
      if (attr.has_g() && readsAnyOf(attr.g(), test))
        return true;
      for (const GraphProto &g : attr.graphs())
        if (readsAnyOf(g, test))
          return true;
    }
  }
  return false;
}

class Lowering {
public:
  Lowering(GraphProto &graph, int64_t opset, bool selectDynamicIf)
      : graph(graph), opset(opset), selectDynamicIf(selectDynamicIf) {}

  int run();

private:
  // Building nodes.
  std::string fresh(const std::string &hint) {
    // Names from earlier rounds of lowering are in the graph already.
    std::string name;
    do
      name = hint + "#tgc" + std::to_string(counter++);
    while (!taken.insert(name).second);
    return name;
  }
  NodeProto &emit(const std::string &op, ArrayRef<std::string> inputs,
                  ArrayRef<std::string> outputs) {
    NodeProto &node = out.emplace_back();
    node.set_op_type(op);
    node.set_name(fresh(op));
    for (const std::string &in : inputs)
      node.add_input(in);
    for (const std::string &o : outputs)
      node.add_output(o);
    return node;
  }
  std::string constant(TensorProto value);
  std::string constantInts(ArrayRef<int64_t> values, bool scalar);
  std::string unsqueeze(const std::string &x, int64_t axis) {
    return changeRank("Unsqueeze", x, axis);
  }
  std::string squeeze(const std::string &x, int64_t axis) {
    return changeRank("Squeeze", x, axis);
  }
  /// Unsqueeze or Squeeze of one axis, in the form the opset takes.
  std::string changeRank(llvm::StringRef op, const std::string &x,
                         int64_t axis);
  std::string gatherAt(const std::string &x, int64_t index, int64_t axis);
  void identity(const std::string &from, const std::string &to) {
    emit("Identity", {from}, {to});
  }
  /// Stacks `parts` along a new axis `axis` into `result`.
  void stack(ArrayRef<std::string> parts, int64_t axis,
             const std::string &result);

  std::vector<std::string> inlineBody(const GraphProto &body,
                                      ArrayRef<std::string> actuals,
                                      const std::string &prefix);

  bool lowerIf(const NodeProto &node);
  bool lowerDataDependentIf(const NodeProto &node);
  bool lowerLoop(const NodeProto &node);
  bool lowerScan(const NodeProto &node);
  bool lowerSequenceOp(const NodeProto &node);
  bool lowerContainerOp(const NodeProto &node) {
    llvm::StringRef op = node.op_type();
    if (op == "Identity") {
      if (auto seq = sequences.find(node.input(0)); seq != sequences.end())
        sequences[node.output(0)] = std::vector<std::string>(seq->second);
      else
        optionals[node.output(0)] = optionals.lookup(node.input(0));
      return true;
    }
    return isOptionalOp(op) ? lowerOptionalOp(node) : lowerSequenceOp(node);
  }
  bool lowerOptionalOp(const NodeProto &node);
  bool lowerSequenceMap(const NodeProto &node);
  bool isContainerOp(const NodeProto &node) const;
  bool isContainer(const std::string &name) const {
    return sequences.count(name) || optionals.count(name);
  }
  void flattenOutputs();
  void flattenValue(const std::string &value, const std::string &name,
                    const onnx::TypeProto &type,
                    std::vector<onnx::ValueInfoProto> &outputs);
  std::string constantBool(bool value);
  std::optional<int64_t> scalarConstant(const std::string &name);

  GraphProto &graph;
  int64_t opset;
  bool selectDynamicIf;
  std::vector<NodeProto> out;
  int counter = 0;
  /// Every name the graph defines, so that fresh names are new.
  llvm::StringSet<> taken;
  llvm::StringMap<SmallVector<int64_t>> shapes;
  /// Sequence values as the values they hold (tensors, or containers
  /// tracked here too).
  llvm::StringMap<std::vector<std::string>> sequences;
  /// Optional values: the value held, or nullopt when empty.
  llvm::StringMap<std::optional<std::string>> optionals;
  /// False while run() only checks that every container op can be lowered;
  /// true when it lowers them for real (subgraphs are inlined only then).
  bool emitting = false;
};

/// A Constant node holding `value`; returns its output.
std::string Lowering::constant(TensorProto value) {
  std::string name = fresh("const");
  NodeProto &node = emit("Constant", {}, {name});
  AttributeProto *attr = node.add_attribute();
  attr->set_name("value");
  attr->set_type(AttributeProto::TENSOR);
  *attr->mutable_t() = std::move(value);
  return name;
}

std::string Lowering::constantBool(bool value) {
  TensorProto t;
  t.set_data_type(TensorProto::BOOL);
  t.add_int32_data(value ? 1 : 0);
  return constant(std::move(t));
}

std::string Lowering::constantInts(ArrayRef<int64_t> values, bool scalar) {
  TensorProto t;
  t.set_data_type(TensorProto::INT64);
  if (!scalar)
    t.add_dims(values.size());
  for (int64_t v : values)
    t.add_int64_data(v);
  return constant(std::move(t));
}

std::string Lowering::changeRank(llvm::StringRef op, const std::string &x,
                                 int64_t axis) {
  std::string result = fresh(x);
  if (opset < 13)
    addIntsAttr(emit(op.str(), {x}, {result}), "axes", {axis});
  else
    emit(op.str(), {x, constantInts({axis}, false)}, {result});
  return result;
}

std::string Lowering::gatherAt(const std::string &x, int64_t index,
                               int64_t axis) {
  std::string at = constantInts({index}, /*scalar=*/true);
  std::string result = fresh(x);
  addIntAttr(emit("Gather", {x, at}, {result}), "axis", axis);
  return result;
}

void Lowering::stack(ArrayRef<std::string> parts, int64_t axis,
                     const std::string &result) {
  std::vector<std::string> grown;
  for (const std::string &p : parts)
    grown.push_back(unsqueeze(p, axis));
  addIntAttr(emit("Concat", grown, {result}), "axis", axis);
}

std::vector<std::string> Lowering::inlineBody(const GraphProto &body,
                                              ArrayRef<std::string> actuals,
                                              const std::string &prefix) {
  llvm::StringMap<std::string> map;
  for (auto [formal, actual] : llvm::zip(body.input(), actuals))
    map[formal.name()] = actual;
  for (const TensorProto &init : body.initializer()) {
    TensorProto *copy = graph.add_initializer();
    *copy = init;
    copy->set_name(prefix + init.name());
    map[init.name()] = copy->name();
  }
  for (const NodeProto &node : body.node()) {
    NodeProto copy = node;
    copy.set_name(prefix + node.name());
    for (std::string &in : *copy.mutable_input()) {
      auto it = map.find(in);
      if (!in.empty() && it != map.end())
        in = it->second;
    }
    for (std::string &o : *copy.mutable_output())
      if (!o.empty()) {
        std::string renamed = prefix + o;
        map[o] = renamed;
        o = renamed;
      }
    for (AttributeProto &attr : *copy.mutable_attribute()) {
      if (attr.has_g())
        renameOuterReads(*attr.mutable_g(), map);
      for (GraphProto &g : *attr.mutable_graphs())
        renameOuterReads(g, map);
    }
    out.push_back(std::move(copy));
  }
  std::vector<std::string> results;
  for (const auto &o : body.output()) {
    auto it = map.find(o.name());
    results.push_back(it == map.end() ? o.name() : it->second);
  }
  return results;
}

std::optional<int64_t> Lowering::scalarConstant(const std::string &name) {
  std::optional<SmallVector<int64_t>> values = constantValues(graph, name);
  if (!values || values->size() != 1)
    return std::nullopt;
  return (*values)[0];
}

/// If with a constant condition: the taken branch, inlined.
bool Lowering::lowerIf(const NodeProto &node) {
  std::optional<int64_t> cond =
      node.input_size() ? scalarConstant(node.input(0)) : std::nullopt;
  if (!cond)
    return selectDynamicIf && lowerDataDependentIf(node);
  const AttributeProto *branch =
      findAttr(node, *cond ? "then_branch" : "else_branch");
  if (!branch || !branch->has_g() ||
      branch->g().output_size() != node.output_size())
    return false;
  std::vector<std::string> results =
      inlineBody(branch->g(), {}, fresh(node.name()) + "/");
  for (auto [result, output] : llvm::zip(results, node.output()))
    if (!output.empty())
      identity(result, output);
  return true;
}

/// If whose condition is known only at run time, when both branches agree
/// on every output's type and static shape (see branchMismatch): both
/// branches inlined, each output chosen by Where on the condition. The
/// price is that the branch not taken is computed too, so the node costs
/// the time of both branches and holds both results.
bool Lowering::lowerDataDependentIf(const NodeProto &node) {
  if (node.input_size() != 1 || node.input(0).empty() ||
      !branchMismatch(node).empty())
    return false;
  std::string prefix = fresh(node.name());
  std::vector<std::string> thenResults =
      inlineBody(findAttr(node, "then_branch")->g(), {}, prefix + "/then/");
  std::vector<std::string> elseResults =
      inlineBody(findAttr(node, "else_branch")->g(), {}, prefix + "/else/");
  // The condition holds one element of any rank; as a scalar it broadcasts
  // without changing the shape of the outputs.
  std::string cond = node.input(0);
  auto condShape = shapes.find(cond);
  if (condShape == shapes.end() || !condShape->second.empty()) {
    cond = fresh(node.input(0));
    emit("Reshape", {node.input(0), constantInts({}, false)}, {cond});
  }
  for (int i = 0; i < node.output_size(); ++i)
    if (!node.output(i).empty())
      emit("Where", {cond, thenResults[i], elseResults[i]}, {node.output(i)});
  return true;
}

/// Loop with a constant trip count whose condition stays true: unrolled.
bool Lowering::lowerLoop(const NodeProto &node) {
  const AttributeProto *bodyAttr = findAttr(node, "body");
  if (!bodyAttr || !bodyAttr->has_g() || node.input_size() < 2 ||
      node.input(0).empty())
    return false;
  const GraphProto &body = bodyAttr->g();
  std::optional<int64_t> trips = scalarConstant(node.input(0));
  std::optional<int64_t> cond =
      node.input(1).empty() ? std::optional<int64_t>(1)
                            : scalarConstant(node.input(1));
  int64_t carried = node.input_size() - 2;
  int64_t scans = body.output_size() - 1 - carried;
  if (!trips || *trips < 1 || *trips > kMaxUnroll || !cond || !*cond ||
      body.input_size() != 2 + carried || scans < 0)
    return false;
  // The body must pass its condition through unchanged (or set it true).
  const std::string &condIn = body.input(1).name();
  const std::string &condOut = body.output(0).name();
  bool keepsGoing = condOut == condIn;
  for (const NodeProto &n : body.node()) {
    if (n.output_size() != 1 || n.output(0) != condOut)
      continue;
    if (n.op_type() == "Identity" && n.input_size() == 1 &&
        n.input(0) == condIn)
      keepsGoing = true;
  }
  if (!keepsGoing) { // a Constant true keeps it going too
    std::optional<SmallVector<int64_t>> value = constantValues(body, condOut);
    keepsGoing = value && value->size() == 1 && (*value)[0] != 0;
  }
  if (!keepsGoing)
    return false;
  std::string condName = node.input(1).empty() ? constantInts({1}, true)
                                               : node.input(1);
  std::vector<std::string> state(node.input().begin() + 2,
                                 node.input().end());
  std::vector<std::vector<std::string>> scanned(scans);
  std::string prefix = fresh(node.name());
  for (int64_t t = 0; t < *trips; ++t) {
    std::vector<std::string> actuals{constantInts({t}, true), condName};
    actuals.insert(actuals.end(), state.begin(), state.end());
    std::vector<std::string> results =
        inlineBody(body, actuals, prefix + "/" + std::to_string(t) + "/");
    state.assign(results.begin() + 1, results.begin() + 1 + carried);
    for (int64_t k = 0; k < scans; ++k)
      scanned[k].push_back(results[1 + carried + k]);
  }
  for (int64_t i = 0; i < carried && i < node.output_size(); ++i)
    if (!node.output(i).empty())
      identity(state[i], node.output(i));
  for (int64_t k = 0; k < scans && carried + k < node.output_size(); ++k)
    if (!node.output(carried + k).empty())
      stack(scanned[k], 0, node.output(carried + k));
  return true;
}

/// Scan over static lengths: unrolled (opset 8's batch dim included).
bool Lowering::lowerScan(const NodeProto &node) {
  const AttributeProto *bodyAttr = findAttr(node, "body");
  int64_t numScans = intAttr(node, "num_scan_inputs", -1);
  if (!bodyAttr || !bodyAttr->has_g() || numScans < 1)
    return false;
  const GraphProto &body = bodyAttr->g();
  bool batched = opset < 9;
  std::vector<std::string> inputs(node.input().begin(), node.input().end());
  if (batched) {
    if (inputs.empty() || !inputs[0].empty()) // sequence_lens: all full only
      return false;
    inputs.erase(inputs.begin());
  }
  int64_t numStates = inputs.size() - numScans;
  int64_t numScanOuts = body.output_size() - numStates;
  if (numStates < 0 || numScanOuts < 0 ||
      body.input_size() != (int)inputs.size())
    return false;
  SmallVector<int64_t> inAxes = intsAttr(node, "scan_input_axes");
  SmallVector<int64_t> inDirs = intsAttr(
      node, batched ? "directions" : "scan_input_directions");
  SmallVector<int64_t> outAxes = intsAttr(node, "scan_output_axes");
  SmallVector<int64_t> outDirs = intsAttr(node, "scan_output_directions");
  // Each scan input's axis and length.
  int64_t length = -1;
  SmallVector<int64_t> axes;
  for (int64_t j = 0; j < numScans; ++j) {
    auto shape = shapes.find(inputs[numStates + j]);
    if (shape == shapes.end())
      return false;
    int64_t rank = shape->second.size() - (batched ? 1 : 0);
    int64_t axis = j < (int64_t)inAxes.size() ? inAxes[j] : 0;
    if (axis < 0)
      axis += rank;
    if (axis < 0 || axis >= rank)
      return false;
    int64_t n = shape->second[axis + (batched ? 1 : 0)];
    if (length >= 0 && n != length)
      return false;
    length = n;
    axes.push_back(axis);
  }
  int64_t batch = 1;
  if (batched) {
    auto shape = shapes.find(inputs[numStates]);
    batch = shape->second[0];
  }
  if (length < 1 || length * batch > kMaxUnroll)
    return false;

  std::string prefix = fresh(node.name());
  std::vector<std::vector<std::string>> finalStates(numStates),
      stacked(numScanOuts);
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<std::string> state, scanIn;
    for (int64_t i = 0; i < numStates; ++i)
      state.push_back(batched ? gatherAt(inputs[i], b, 0) : inputs[i]);
    for (int64_t j = 0; j < numScans; ++j)
      scanIn.push_back(batched ? gatherAt(inputs[numStates + j], b, 0)
                               : inputs[numStates + j]);
    std::vector<std::vector<std::string>> steps(numScanOuts);
    for (int64_t t = 0; t < length; ++t) {
      std::vector<std::string> actuals(state);
      for (int64_t j = 0; j < numScans; ++j) {
        bool reverse = j < (int64_t)inDirs.size() && inDirs[j];
        actuals.push_back(
            gatherAt(scanIn[j], reverse ? length - 1 - t : t, axes[j]));
      }
      std::vector<std::string> results = inlineBody(
          body, actuals,
          prefix + "/" + std::to_string(b) + "/" + std::to_string(t) + "/");
      state.assign(results.begin(), results.begin() + numStates);
      for (int64_t k = 0; k < numScanOuts; ++k)
        steps[k].push_back(results[numStates + k]);
    }
    for (int64_t i = 0; i < numStates; ++i)
      finalStates[i].push_back(state[i]);
    for (int64_t k = 0; k < numScanOuts; ++k) {
      if (k < (int64_t)outDirs.size() && outDirs[k])
        std::reverse(steps[k].begin(), steps[k].end());
      int64_t axis = k < (int64_t)outAxes.size() ? outAxes[k] : 0;
      if (!batched) {
        stacked[k] = steps[k];
        continue;
      }
      std::string perBatch = fresh(node.name());
      stack(steps[k], axis, perBatch);
      stacked[k].push_back(perBatch);
    }
  }
  for (int64_t i = 0; i < numStates && i < node.output_size(); ++i) {
    if (node.output(i).empty())
      continue;
    if (batched)
      stack(finalStates[i], 0, node.output(i));
    else
      identity(finalStates[i][0], node.output(i));
  }
  for (int64_t k = 0; k < numScanOuts && numStates + k < node.output_size();
       ++k) {
    if (node.output(numStates + k).empty())
      continue;
    int64_t axis = batched ? 0
                   : k < (int64_t)outAxes.size() ? outAxes[k]
                                                 : 0;
    stack(stacked[k], axis, node.output(numStates + k));
  }
  return true;
}

/// A sequence op whose positions are constants, on sequences tracked as
/// lists of tensors.
bool Lowering::lowerSequenceOp(const NodeProto &node) {
  llvm::StringRef op = node.op_type();
  if (op == "SequenceMap")
    return lowerSequenceMap(node);
  auto list = [&](int i) -> std::vector<std::string> * {
    if (i >= node.input_size())
      return nullptr;
    auto it = sequences.find(node.input(i));
    return it == sequences.end() ? nullptr : &it->second;
  };
  auto position = [&](int i, int64_t size, int64_t dflt,
                      bool allowEnd) -> std::optional<int64_t> {
    if (i >= node.input_size() || node.input(i).empty())
      return dflt;
    std::optional<int64_t> p = scalarConstant(node.input(i));
    if (!p)
      return std::nullopt;
    int64_t v = *p < 0 ? *p + size : *p;
    if (v < 0 || v > size || (v == size && !allowEnd))
      return std::nullopt;
    return v;
  };
  if (op == "SequenceEmpty") {
    sequences[node.output(0)] = {};
    return true;
  }
  if (op == "SequenceConstruct") {
    sequences[node.output(0)] =
        std::vector<std::string>(node.input().begin(), node.input().end());
    return true;
  }
  if (op == "SequenceInsert") {
    std::vector<std::string> *seq = list(0);
    if (!seq || node.input_size() < 2)
      return false;
    std::optional<int64_t> at = position(2, seq->size(), seq->size(), true);
    if (!at)
      return false;
    std::vector<std::string> result = *seq;
    result.insert(result.begin() + *at, node.input(1));
    sequences[node.output(0)] = result;
    return true;
  }
  if (op == "SequenceErase") {
    std::vector<std::string> *seq = list(0);
    if (!seq || seq->empty())
      return false;
    std::optional<int64_t> at =
        position(1, seq->size(), seq->size() - 1, false);
    if (!at)
      return false;
    std::vector<std::string> result = *seq;
    result.erase(result.begin() + *at);
    sequences[node.output(0)] = result;
    return true;
  }
  if (op == "SequenceAt") {
    std::vector<std::string> *seq = list(0);
    if (!seq || node.input_size() < 2)
      return false;
    std::optional<int64_t> at = position(1, seq->size(), -1, false);
    if (!at || *at < 0)
      return false;
    identity((*seq)[*at], node.output(0));
    return true;
  }
  if (op == "SequenceLength") {
    std::vector<std::string> *seq = list(0);
    if (!seq)
      return false;
    identity(constantInts({(int64_t)seq->size()}, true), node.output(0));
    return true;
  }
  if (op == "ConcatFromSequence") {
    std::vector<std::string> *seq = list(0);
    if (!seq || seq->empty() || !findAttr(node, "axis"))
      return false;
    int64_t axis = intAttr(node, "axis", 0);
    if (intAttr(node, "new_axis", 0)) {
      stack(*seq, axis, node.output(0));
      return true;
    }
    addIntAttr(emit("Concat", *seq, {node.output(0)}), "axis", axis);
    return true;
  }
  if (op == "SplitToSequence") {
    auto shape = shapes.find(node.input(0));
    if (shape == shapes.end())
      return false;
    int64_t rank = shape->second.size();
    int64_t axis = intAttr(node, "axis", 0);
    if (axis < 0)
      axis += rank;
    if (axis < 0 || axis >= rank)
      return false;
    int64_t dim = shape->second[axis];
    SmallVector<int64_t> sizes;
    bool squeezeParts = false;
    if (node.input_size() < 2 || node.input(1).empty()) {
      sizes.assign(dim, 1);
      squeezeParts = intAttr(node, "keepdims", 1) == 0;
    } else {
      std::optional<SmallVector<int64_t>> split =
          constantValues(graph, node.input(1));
      if (!split || split->empty())
        return false;
      if (split->size() == 1 && shapes.lookup(node.input(1)).empty()) {
        // A scalar: chunks of that size, the last one smaller.
        int64_t chunk = (*split)[0];
        if (chunk < 1)
          return false;
        for (int64_t done = 0; done < dim; done += chunk)
          sizes.push_back(std::min(chunk, dim - done));
      } else {
        sizes = *split;
      }
    }
    if (sizes.empty())
      return false;
    std::vector<std::string> parts;
    for (size_t i = 0; i < sizes.size(); ++i)
      parts.push_back(fresh(node.output(0)));
    NodeProto *split;
    if (opset < 13) {
      split = &emit("Split", {node.input(0)}, parts);
      addIntsAttr(*split, "split", sizes);
    } else {
      std::string sizesName = constantInts(sizes, false);
      split = &emit("Split", {node.input(0), sizesName}, parts);
    }
    addIntAttr(*split, "axis", axis);
    if (squeezeParts)
      for (std::string &p : parts)
        p = squeeze(p, axis);
    sequences[node.output(0)] = parts;
    return true;
  }
  return false;
}

bool isSequenceOp(llvm::StringRef op) {
  return op == "SequenceEmpty" || op == "SequenceConstruct" ||
         op == "SequenceInsert" || op == "SequenceErase" ||
         op == "SequenceAt" || op == "SequenceLength" ||
         op == "ConcatFromSequence" || op == "SplitToSequence" ||
         op == "SequenceMap";
}

bool isOptionalOp(llvm::StringRef op) {
  return op == "Optional" || op == "OptionalHasElement" ||
         op == "OptionalGetElement";
}

/// A node that makes, reads or passes on a sequence or optional. Identity
/// counts when its input is one (it passes the container on).
bool Lowering::isContainerOp(const NodeProto &node) const {
  bool isDefault = node.domain().empty() || node.domain() == "ai.onnx";
  if (!isDefault)
    return false;
  llvm::StringRef op = node.op_type();
  return isSequenceOp(op) || isOptionalOp(op) ||
         (op == "Identity" && node.input_size() == 1 &&
          isContainer(node.input(0)));
}

/// Optional ops on optionals whose emptiness is known at compile time (an
/// optional graph input is flattened by whether the data holds a value).
bool Lowering::lowerOptionalOp(const NodeProto &node) {
  llvm::StringRef op = node.op_type();
  if (op == "Optional") {
    if (node.input_size() == 0 || node.input(0).empty())
      optionals[node.output(0)] = std::nullopt;
    else
      optionals[node.output(0)] = node.input(0);
    return true;
  }
  if (node.input_size() != 1)
    return false;
  // A sequence where an optional is expected (a Loop's carried optional
  // after its first iteration) is an optional holding it.
  std::optional<std::string> value;
  if (auto it = optionals.find(node.input(0)); it != optionals.end())
    value = it->second;
  else if (sequences.count(node.input(0)))
    value = node.input(0);
  else
    return false;
  if (op == "OptionalHasElement") {
    identity(constantBool(value.has_value()), node.output(0));
    return true;
  }
  // OptionalGetElement of an empty optional is an error at run time in
  // ONNX; here it is known at compile time, and refused.
  if (!value)
    return false;
  if (auto seq = sequences.find(*value); seq != sequences.end())
    sequences[node.output(0)] = std::vector<std::string>(seq->second);
  else if (auto opt = optionals.find(*value); opt != optionals.end())
    optionals[node.output(0)] = std::optional<std::string>(opt->second);
  else
    identity(*value, node.output(0));
  return true;
}

/// SequenceMap: its body inlined once per position of the sequences it
/// maps over (which must have the same length); tensor inputs go to every
/// copy as they are.
bool Lowering::lowerSequenceMap(const NodeProto &node) {
  const AttributeProto *bodyAttr = findAttr(node, "body");
  if (!bodyAttr || !bodyAttr->has_g() || node.input_size() == 0)
    return false;
  const GraphProto &body = bodyAttr->g();
  if (body.input_size() != node.input_size() ||
      body.output_size() != node.output_size())
    return false;
  auto first = sequences.find(node.input(0));
  if (first == sequences.end())
    return false;
  size_t length = first->second.size();
  for (const std::string &in : node.input())
    if (auto seq = sequences.find(in);
        seq != sequences.end() && seq->second.size() != length)
      return false;
  std::vector<std::vector<std::string>> results(node.output_size());
  std::string prefix = fresh(node.name());
  for (size_t i = 0; i < length; ++i) {
    std::vector<std::string> actuals;
    for (const std::string &in : node.input()) {
      auto seq = sequences.find(in);
      actuals.push_back(seq == sequences.end() ? in : seq->second[i]);
    }
    std::vector<std::string> step =
        emitting ? inlineBody(body, actuals,
                              prefix + "/" + std::to_string(i) + "/")
                 : std::vector<std::string>(node.output_size(),
                                            fresh(prefix));
    for (int k = 0; k < node.output_size(); ++k)
      results[k].push_back(step[k]);
  }
  for (int k = 0; k < node.output_size(); ++k)
    sequences[node.output(k)] = results[k];
  return true;
}

/// A sequence or optional value `value`, a graph output declared `type`,
/// as the tensor outputs it holds (named as Support/ValueFile.h says).
void Lowering::flattenValue(const std::string &value, const std::string &name,
                            const onnx::TypeProto &type,
                            std::vector<onnx::ValueInfoProto> &outputs) {
  auto add = [&](const std::string &from, const std::string &to,
                 const onnx::TypeProto &elemType) {
    if (isContainer(from)) {
      flattenValue(from, to, elemType, outputs);
      return;
    }
    identity(from, to);
    onnx::ValueInfoProto &info = outputs.emplace_back();
    info.set_name(to);
    *info.mutable_type() = elemType;
  };
  if (auto seq = sequences.find(value); seq != sequences.end()) {
    const onnx::TypeProto &elemType = type.sequence_type().elem_type();
    std::vector<std::string> elements = seq->second;
    for (auto [i, element] : llvm::enumerate(elements))
      add(element, ::tgc::elementName(name, i), elemType);
    return;
  }
  std::optional<std::string> held = optionals.lookup(value);
  if (held)
    add(*held, ::tgc::elementName(name, 0), type.optional_type().elem_type());
}

/// Sequence and optional graph outputs become the tensors they hold.
void Lowering::flattenOutputs() {
  std::vector<onnx::ValueInfoProto> outputs;
  for (const onnx::ValueInfoProto &o : graph.output()) {
    if (isContainer(o.name()))
      flattenValue(o.name(), o.name(), o.type(), outputs);
    else
      outputs.push_back(o);
  }
  graph.clear_output();
  for (onnx::ValueInfoProto &o : outputs)
    *graph.add_output() = std::move(o);
}

int Lowering::run() {
  auto collect = [&](const onnx::ValueInfoProto &info) {
    if (!info.type().has_tensor_type() ||
        !info.type().tensor_type().has_shape())
      return;
    SmallVector<int64_t> dims;
    for (const auto &dim : info.type().tensor_type().shape().dim()) {
      if (!dim.has_dim_value())
        return;
      dims.push_back(dim.dim_value());
    }
    shapes[info.name()] = dims;
  };
  for (const auto &info : graph.input())
    collect(info);
  for (const auto &info : graph.value_info())
    collect(info);
  for (const auto &info : graph.output())
    collect(info);
  for (const TensorProto &init : graph.initializer())
    shapes[init.name()] = SmallVector<int64_t>(init.dims().begin(),
                                                init.dims().end());

  for (const auto &info : graph.input())
    taken.insert(info.name());
  for (const TensorProto &init : graph.initializer())
    taken.insert(init.name());
  for (const NodeProto &node : graph.node())
    for (const std::string &o : node.output())
      taken.insert(o);

  // Container ops are lowered all together or not at all (one that cannot
  // be leaves every one in place). A container that a node staying in the
  // graph still reads (a Loop's carried sequence, a body reading one from
  // outside) keeps the nodes that produce it, so it keeps its producer,
  // while the reads that give tensors (SequenceLength, SequenceAt, ...)
  // are lowered: a Loop's trip count can become a constant that way.
  int rewritten = 0;
  bool sequencesOk = true;
  bool anySequenceOp = false;
  llvm::StringSet<> needed;
  for (const NodeProto &node : graph.node()) {
    if (isContainerOp(node)) {
      anySequenceOp = true;
      if (!lowerContainerOp(node)) {
        sequencesOk = false;
        break;
      }
      continue;
    }
    auto need = [&](const std::string &name) {
      if (isContainer(name))
        needed.insert(name);
      return false;
    };
    for (const std::string &in : node.input())
      need(in);
    for (const AttributeProto &attr : node.attribute())
      if (attr.has_g())
        readsAnyOf(attr.g(), need);
  }
  // Producers of what is needed, and of what they read, stay.
  std::set<const NodeProto *> kept;
  for (auto it = graph.node().rbegin(); it != graph.node().rend(); ++it) {
    if (!isContainerOp(*it) ||
        llvm::none_of(it->output(), [&](const std::string &o) {
          return needed.contains(o);
        }))
      continue;
    kept.insert(&*it);
    for (const std::string &in : it->input())
      if (isContainer(in))
        needed.insert(in);
  }
  std::vector<NodeProto> lowered;
  if (anySequenceOp && sequencesOk) {
    // Replay, now emitting: container ops become what they stand for, and
    // container outputs the tensors they hold.
    out.clear();
    sequences.clear();
    optionals.clear();
    emitting = true;
    for (const NodeProto &node : graph.node()) {
      if (!isContainerOp(node)) {
        out.push_back(node);
        continue;
      }
      lowerContainerOp(node);
      if (kept.count(&node))
        out.push_back(node);
      else
        ++rewritten;
    }
    if (rewritten)
      flattenOutputs();
    lowered = std::move(out);
  } else {
    lowered.assign(graph.node().begin(), graph.node().end());
  }

  out.clear();
  for (const NodeProto &node : lowered) {
    bool isDefault = node.domain().empty() || node.domain() == "ai.onnx";
    llvm::StringRef op = node.op_type();
    size_t mark = out.size();
    int initializers = graph.initializer_size();
    bool done = isDefault && ((op == "If" && lowerIf(node)) ||
                              (op == "Loop" && lowerLoop(node)) ||
                              (op == "Scan" && lowerScan(node)));
    if (done) {
      ++rewritten;
      continue;
    }
    // A failed attempt leaves nothing behind.
    out.resize(mark);
    while (graph.initializer_size() > initializers)
      graph.mutable_initializer()->RemoveLast();
    out.push_back(node);
  }
  if (rewritten) {
    graph.clear_node();
    for (NodeProto &node : out)
      *graph.add_node() = std::move(node);
  }
  return rewritten;
}

} // namespace

int mlir::tgc::lowerControlFlow(onnx::GraphProto &graph, int64_t opset,
                                bool selectDynamicIf) {
  return Lowering(graph, opset, selectDynamicIf).run();
}

std::string mlir::tgc::branchMismatch(const onnx::NodeProto &node,
                                      bool symbolicDims) {
  const AttributeProto *thenAttr = findAttr(node, "then_branch");
  const AttributeProto *elseAttr = findAttr(node, "else_branch");
  if (!thenAttr || !thenAttr->has_g() || !elseAttr || !elseAttr->has_g())
    return "it needs a then_branch and an else_branch graph";
  const GraphProto &thenG = thenAttr->g(), &elseG = elseAttr->g();
  if (thenG.output_size() != node.output_size() ||
      elseG.output_size() != node.output_size())
    return "its then_branch gives " + std::to_string(thenG.output_size()) +
           " outputs and its else_branch " +
           std::to_string(elseG.output_size()) + ", the node has " +
           std::to_string(node.output_size());
  for (int i = 0; i < node.output_size(); ++i) {
    std::optional<std::string> thenType =
        staticTypeName(thenG.output(i), symbolicDims);
    std::optional<std::string> elseType =
        staticTypeName(elseG.output(i), symbolicDims);
    if (!thenType || !elseType)
      return "output " + std::to_string(i) + " of its " +
             (thenType ? "else_branch" : "then_branch") +
             " has no static shape";
    if (*thenType != *elseType)
      return "its branches give output " + std::to_string(i) +
             " different types: then_branch " + *thenType +
             ", else_branch " + *elseType;
  }
  return "";
}
