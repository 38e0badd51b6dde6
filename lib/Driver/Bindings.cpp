//===- Bindings.cpp - NAME=VALUE command-line arguments --------*- C++ -*-===//

#include "Driver/Bindings.h"

#include "llvm/ADT/SmallVector.h"

using namespace llvm;

namespace mlir::tgc {

Expected<std::pair<std::string, std::string>> splitBinding(StringRef argument,
                                                           StringRef option) {
  auto [name, value] = argument.split('=');
  if (name.empty() || value.empty() || name.size() == argument.size())
    return createStringError(option + " '" + argument +
                             "': expected NAME=VALUE");
  return std::make_pair(name.str(), value.str());
}

Expected<std::vector<int64_t>> parseShape(StringRef text) {
  std::vector<int64_t> shape;
  if (text.empty())
    return shape;
  SmallVector<StringRef> dims;
  text.split(dims, 'x');
  for (StringRef dim : dims) {
    uint64_t value;
    // getAsInteger accepts "0x.." prefixes with radix 0; radix 10 does not.
    if (dim.empty() || dim.getAsInteger(10, value) || value > (1ull << 62))
      return createStringError("shape '" + text +
                               "': expected dimensions like 1x3x224x224");
    shape.push_back(int64_t(value));
  }
  return shape;
}

} // namespace mlir::tgc
