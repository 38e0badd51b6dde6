//===- ValueFile.h - sequences and optionals as lists of tensors -*- C++ -*-===//
//
// ONNX graph inputs and outputs may be sequences of tensors or optionals,
// nested (an optional sequence). A tgc package takes and returns tensors
// only, so such a value crosses the package boundary flattened into the
// tensors it holds, named by where they sit:
//   a tensor x                     x
//   a sequence x of length N       x[0] ... x[N-1]
//   an optional x                  nothing when empty, else x[0] (an
//                                  optional is a sequence of at most one)
//   an optional sequence x         x[0][0] ... x[0][N-1]
// How many each container holds is fixed when the package is compiled,
// like a dynamic dimension: run/verify take it from the data they are given.
//
// This file reads the ONNX backend test data for such values (.pb files
// holding an onnx::SequenceProto or onnx::OptionalProto) in that form.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_SUPPORT_VALUEFILE_H
#define TGC_SUPPORT_VALUEFILE_H

#include "Support/TensorFile.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tgc {

/// One level of nesting around a tensor.
enum class Container { Sequence, Optional };

/// The name of the tensor (or inner container) at `index` of container
/// `name`: "x[2]".
std::string elementName(const std::string &name, int64_t index);

/// A value flattened: its tensors in order, each named as above (the name
/// is in HostTensor::name), and how many elements each container holds, by
/// the container's name ("x" -> 3, "x[0]" -> 2, an empty optional -> 0).
struct FlatValue {
  std::vector<HostTensor> tensors;
  std::map<std::string, int64_t> counts;
};

/// Reads `path`, a .pb file with the value `name` nested in `containers`
/// (outermost first; empty for a plain tensor: a TensorProto), as a
/// FlatValue. Never throws; errors name the file.
Result<FlatValue> readValueFile(const std::string &path,
                                const std::string &name,
                                const std::vector<Container> &containers);

} // namespace tgc

#endif // TGC_SUPPORT_VALUEFILE_H
