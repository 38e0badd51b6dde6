//===- ValueFile.cpp - sequences and optionals as lists of tensors -------===//
//
// The nested protos are walked against the nesting the model declares, so a
// file whose structure differs from the model's type is an error that says
// where, rather than tensors silently taken from the wrong level.
//
//===----------------------------------------------------------------------===//

#include "Support/ValueFile.h"

#include <onnx/onnx-data_pb.h>

#include <exception>
#include <fstream>
#include <sstream>

namespace tgc {
namespace {

using Containers = std::vector<Container>;

class Flattener {
public:
  Flattener(const std::string &path, FlatValue &out) : path(path), out(out) {}

  bool tensor(const onnx::TensorProto &proto, const std::string &name) {
    Result<HostTensor> tensor =
        parseTensorProto(proto.SerializeAsString(), path);
    if (!tensor)
      return fail(tensor.error());
    tensor->name = name;
    out.tensors.push_back(std::move(*tensor));
    return true;
  }

  bool sequence(const onnx::SequenceProto &proto, const std::string &name,
                Containers::const_iterator inner, Containers::const_iterator end) {
    bool ofTensors = inner == end;
    int64_t size = 0;
    if (ofTensors) {
      if (proto.sequence_values_size() || proto.optional_values_size())
        return fail("'" + name + "' is a sequence of tensors in the model, "
                    "not in the file");
      for (const onnx::TensorProto &element : proto.tensor_values())
        if (!tensor(element, elementName(name, size++)))
          return false;
    } else if (*inner == Container::Sequence) {
      for (const onnx::SequenceProto &element : proto.sequence_values())
        if (!sequence(element, elementName(name, size++), inner + 1, end))
          return false;
    } else {
      for (const onnx::OptionalProto &element : proto.optional_values())
        if (!optional(element, elementName(name, size++), inner + 1, end))
          return false;
    }
    out.counts[name] = size;
    return true;
  }

  bool optional(const onnx::OptionalProto &proto, const std::string &name,
                Containers::const_iterator inner, Containers::const_iterator end) {
    std::string element = elementName(name, 0);
    bool present = false;
    if (inner == end) {
      present = proto.has_tensor_value();
      if (present && !tensor(proto.tensor_value(), element))
        return false;
    } else if (*inner == Container::Sequence) {
      present = proto.has_sequence_value();
      if (present &&
          !sequence(proto.sequence_value(), element, inner + 1, end))
        return false;
    } else {
      present = proto.has_optional_value();
      if (present &&
          !optional(proto.optional_value(), element, inner + 1, end))
        return false;
    }
    out.counts[name] = present ? 1 : 0;
    return true;
  }

  const std::string &error() const { return message; }

private:
  bool fail(const std::string &problem) {
    message = problem.rfind(path, 0) == 0 ? problem : path + ": " + problem;
    return false;
  }

  const std::string &path;
  FlatValue &out;
  std::string message;
};

Result<FlatValue> readValueFileImpl(const std::string &path,
                                    const std::string &name,
                                    const Containers &containers) {
  if (containers.empty()) {
    Result<HostTensor> tensor = readTensorFile(path);
    if (!tensor)
      return Error{tensor.error()};
    tensor->name = name;
    FlatValue value;
    value.tensors.push_back(std::move(*tensor));
    return value;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Error{path + ": cannot open the file"};
  std::stringstream bytes;
  bytes << in.rdbuf();
  FlatValue value;
  Flattener flattener(path, value);
  bool ok;
  if (containers.front() == Container::Sequence) {
    onnx::SequenceProto proto;
    if (!proto.ParseFromString(bytes.str()))
      return Error{path + ": not a valid ONNX SequenceProto"};
    ok = flattener.sequence(proto, name, containers.begin() + 1,
                            containers.end());
  } else {
    onnx::OptionalProto proto;
    if (!proto.ParseFromString(bytes.str()))
      return Error{path + ": not a valid ONNX OptionalProto"};
    ok = flattener.optional(proto, name, containers.begin() + 1,
                            containers.end());
  }
  if (!ok)
    return Error{flattener.error()};
  return value;
}

} // namespace

std::string elementName(const std::string &name, int64_t index) {
  return name + "[" + std::to_string(index) + "]";
}

Result<FlatValue> readValueFile(const std::string &path,
                                const std::string &name,
                                const Containers &containers) {
  try {
    return readValueFileImpl(path, name, containers);
  } catch (const std::exception &e) {
    return Error{path + ": " + e.what()};
  }
}

} // namespace tgc
