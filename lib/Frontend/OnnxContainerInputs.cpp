//===- OnnxContainerInputs.cpp - sequence and optional graph inputs ------===//
//
// The rebuilding nodes go first in the graph, innermost container first, so
// the graph stays topologically sorted.
//
//===----------------------------------------------------------------------===//

#include "Frontend/OnnxContainerInputs.h"
#include "Support/ValueFile.h"

#include <vector>

using onnx::AttributeProto;
using onnx::GraphProto;
using onnx::NodeProto;
using onnx::TypeProto;
using onnx::ValueInfoProto;

namespace {

class Flattener {
public:
  explicit Flattener(const std::map<std::string, int64_t> &counts)
      : counts(counts) {}

  /// Adds the tensor inputs that make up `name` of `type`, and the nodes
  /// that rebuild it, to `inputs` and `nodes`.
  bool flatten(const std::string &name, const TypeProto &type) {
    if (type.has_tensor_type()) {
      ValueInfoProto &input = inputs.emplace_back();
      input.set_name(name);
      *input.mutable_type() = type;
      return true;
    }
    bool isSequence = type.has_sequence_type();
    if (!isSequence && !type.has_optional_type()) {
      error = "input '" + name + "' holds neither tensors, sequences nor "
              "optionals";
      return false;
    }
    auto count = counts.find(name);
    if (count == counts.end()) {
      error = "input '" + name + "' is " +
              (isSequence ? "a sequence: its length" : "an optional: whether it holds a value") +
              " must be known at compile time (tgc verify takes it from the "
              "test data)";
      return false;
    }
    const TypeProto &elem = isSequence ? type.sequence_type().elem_type()
                                       : type.optional_type().elem_type();
    if (!isSequence && count->second > 1) {
      error = "input '" + name + "' is an optional: it holds 0 or 1 values";
      return false;
    }
    std::vector<std::string> elements;
    for (int64_t i = 0; i < count->second; ++i) {
      elements.push_back(::tgc::elementName(name, i));
      if (!flatten(elements.back(), elem))
        return false;
    }
    NodeProto &node = nodes.emplace_back();
    node.set_name(name + "/rebuild");
    node.add_output(name);
    for (const std::string &element : elements)
      node.add_input(element);
    if (!isSequence) {
      node.set_op_type("Optional");
      if (elements.empty()) {
        AttributeProto *attr = node.add_attribute();
        attr->set_name("type");
        attr->set_type(AttributeProto::TYPE_PROTO);
        *attr->mutable_tp() = elem;
      }
    } else if (!elements.empty()) {
      node.set_op_type("SequenceConstruct");
    } else {
      if (!elem.has_tensor_type()) {
        error = "input '" + name + "' is an empty sequence of non-tensors";
        return false;
      }
      node.set_op_type("SequenceEmpty");
      AttributeProto *attr = node.add_attribute();
      attr->set_name("dtype");
      attr->set_type(AttributeProto::INT);
      attr->set_i(elem.tensor_type().elem_type());
    }
    return true;
  }

  const std::map<std::string, int64_t> &counts;
  std::vector<ValueInfoProto> inputs;
  std::vector<NodeProto> nodes;
  std::string error;
};

} // namespace

std::string
mlir::tgc::flattenContainerInputs(GraphProto &graph,
                                  const std::map<std::string, int64_t> &counts) {
  bool any = false;
  for (const ValueInfoProto &input : graph.input())
    any |= !input.type().has_tensor_type();
  if (!any)
    return "";
  Flattener flattener(counts);
  for (const ValueInfoProto &input : graph.input())
    if (!flattener.flatten(input.name(), input.type()))
      return flattener.error;
  graph.clear_input();
  for (ValueInfoProto &input : flattener.inputs)
    *graph.add_input() = std::move(input);
  std::vector<NodeProto> body(graph.node().begin(), graph.node().end());
  graph.clear_node();
  for (NodeProto &node : flattener.nodes)
    *graph.add_node() = std::move(node);
  for (NodeProto &node : body)
    *graph.add_node() = std::move(node);
  return "";
}
