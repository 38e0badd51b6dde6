//===- OnnxSignature.cpp - an ONNX graph's inputs and outputs --*- C++ -*-===//
//
// Protobuf's parser reports malformed input through its return value and
// never throws, so this file needs no exception boundary.
//
//===----------------------------------------------------------------------===//

#include "Driver/OnnxSignature.h"

#include "llvm/ADT/StringSet.h"

#include <fstream>
#include <onnx/onnx_pb.h>

namespace mlir::tgc {
namespace {

/// The kind of a non-tensor ONNX type, for messages.
const char *typeKind(const onnx::TypeProto &type) {
  if (type.has_sequence_type())
    return "a sequence";
  if (type.has_map_type())
    return "a map";
  if (type.has_optional_type())
    return "an optional";
  if (type.has_sparse_tensor_type())
    return "a sparse tensor";
  return "of no type";
}

bool readValueInfo(const onnx::ValueInfoProto &info, const char *role,
                   TensorSpec &spec, std::string &error) {
  spec.name = info.name();
  // Sequences and optionals of tensors cross the package boundary
  // flattened; maps and sparse tensors do not.
  const onnx::TypeProto *type = &info.type();
  while (type->has_sequence_type() || type->has_optional_type()) {
    bool isSequence = type->has_sequence_type();
    spec.containers.push_back(isSequence ? ::tgc::Container::Sequence
                                         : ::tgc::Container::Optional);
    type = isSequence ? &type->sequence_type().elem_type()
                      : &type->optional_type().elem_type();
  }
  if (!type->has_tensor_type()) {
    error = std::string(role) + " '" + info.name() + "' is " +
            typeKind(*type) + (spec.containers.empty() ? "" : " inside") +
            ", not a tensor; tgc takes tensors, and sequences and optionals "
            "of tensors";
    return false;
  }
  const onnx::TypeProto::Tensor &tensor = type->tensor_type();
  std::optional<::tgc::DType> dtype = ::tgc::dtypeFromOnnx(tensor.elem_type());
  if (!dtype) {
    error = std::string(role) + " '" + info.name() +
            "' has an element type tgc does not support (ONNX type " +
            std::to_string(tensor.elem_type()) + ")";
    return false;
  }
  spec.dtype = *dtype;
  spec.rankKnown = tensor.has_shape();
  for (const onnx::TensorShapeProto::Dimension &dim : tensor.shape().dim())
    spec.shape.push_back(dim.has_dim_value() ? dim.dim_value() : -1);
  return true;
}

} // namespace

bool readOnnxSignature(llvm::StringRef path, ModelSignature &signature,
                       std::string &error) {
  std::ifstream in(path.str(), std::ios::binary);
  if (!in) {
    error = "cannot open the file";
    return false;
  }
  onnx::ModelProto model;
  if (!model.ParseFromIstream(&in)) {
    error = "not a valid ONNX model (the protobuf does not parse)";
    return false;
  }
  const onnx::GraphProto &graph = model.graph();
  llvm::StringSet<> initializers;
  for (const onnx::TensorProto &init : graph.initializer())
    initializers.insert(init.name());
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initializers.contains(input.name()))
      continue; // a weight with a default value, not a real input
    if (!readValueInfo(input, "input", signature.inputs.emplace_back(), error))
      return false;
  }
  for (const onnx::ValueInfoProto &output : graph.output())
    if (!readValueInfo(output, "output", signature.outputs.emplace_back(),
                       error))
      return false;
  return true;
}

} // namespace mlir::tgc
