//===- EvaluatedTensor.cpp - tensors of the kernel evaluator --*- C++ -*-===//
//
// See EvaluatedTensor.h.
//
//===----------------------------------------------------------------------===//

#include "Schedule/EvaluatedTensor.h"
#include "IR/ConstantData.h"
#include "mlir/IR/BuiltinAttributes.h"
#include <cstring>

using namespace mlir;
using namespace mlir::tgc;

namespace mlir::tgc::evaluator {
namespace {

Domain domainOf(Type element) {
  if (isa<FloatType>(element))
    return Domain::Float;
  if (element.isIndex())
    return Domain::Signed;
  auto integer = cast<IntegerType>(element);
  return integer.isUnsigned() || integer.getWidth() == 1 ? Domain::Unsigned
                                                         : Domain::Signed;
}

unsigned widthOf(Type element) {
  return element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
}

} // namespace

Format::Format(Type element)
    : domain(domainOf(element)), width(widthOf(element)),
      semantics(isa<FloatType>(element) && width != 32 && width != 64
                    ? &cast<FloatType>(element).getFloatSemantics()
                    : nullptr) {}

/// A tensor of `type` filled with zeros.
Tensor zeros(RankedTensorType type) {
  Tensor tensor{type};
  if (tensor.isFloat())
    tensor.floats.assign(type.getNumElements(), 0.0);
  else
    tensor.ints.assign(type.getNumElements(), 0);
  return tensor;
}

/// Elements laid out as in a buffer (host byte order, as the weights are).
void decodeElements(ArrayRef<char> bytes, Tensor &tensor) {
  const Format &format = tensor.format;
  int64_t width = getElementBytes(tensor.element());
  for (int64_t i = 0, e = tensor.size(); i < e; ++i) {
    const char *at = bytes.data() + i * width;
    if (!tensor.isFloat()) {
      uint64_t bits = 0;
      std::memcpy(&bits, at, width);
      tensor.ints[i] = format.wrap(bits);
    } else if (format.width == 32) {
      float value;
      std::memcpy(&value, at, sizeof value);
      tensor.floats[i] = value;
    } else if (format.width == 64) {
      std::memcpy(&tensor.floats[i], at, sizeof(double));
    } else {
      uint64_t bits = 0;
      std::memcpy(&bits, at, width);
      bool lost;
      llvm::APFloat value(*format.semantics, llvm::APInt(format.width, bits));
      value.convert(llvm::APFloat::IEEEdouble(),
                    llvm::APFloat::rmNearestTiesToEven, &lost);
      tensor.floats[i] = value.convertToDouble();
    }
  }
}

std::vector<char> encodeElements(const Tensor &tensor) {
  const Format &format = tensor.format;
  int64_t width = getElementBytes(tensor.element());
  std::vector<char> bytes(tensor.size() * width);
  for (int64_t i = 0, e = tensor.size(); i < e; ++i) {
    char *at = bytes.data() + i * width;
    if (!tensor.isFloat()) {
      uint64_t bits = static_cast<uint64_t>(tensor.ints[i]);
      std::memcpy(at, &bits, width);
    } else if (format.width == 32) {
      float value = static_cast<float>(tensor.floats[i]);
      std::memcpy(at, &value, sizeof value);
    } else if (format.width == 64) {
      std::memcpy(at, &tensor.floats[i], sizeof(double));
    } else {
      bool lost;
      llvm::APFloat value(tensor.floats[i]);
      value.convert(*format.semantics, llvm::APFloat::rmNearestTiesToEven,
                    &lost);
      uint64_t bits = value.bitcastToAPInt().getZExtValue();
      std::memcpy(at, &bits, width);
    }
  }
  return bytes;
}

/// Every element of `tensor` set to the scalar attribute `value`.
static void fill(Tensor &tensor, Attribute value) {
  if (auto f = dyn_cast<FloatAttr>(value))
    tensor.floats.assign(tensor.size(), f.getValueAsDouble());
  else
    tensor.ints.assign(
        tensor.size(),
        tensor.format.wrap(cast<IntegerAttr>(value).getValue().getZExtValue()));
}

FailureOr<Tensor> readConstant(ConstOp constant, std::string &whyNot) {
  auto type = dyn_cast<RankedTensorType>(constant.getType());
  if (!type || !type.hasStaticShape()) {
    whyNot = "a constant that is not a tensor of static shape";
    return failure();
  }
  Tensor tensor = zeros(type);
  if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue())) {
    if (dense.isSplat()) {
      fill(tensor, dense.getSplatValue<Attribute>());
      return tensor;
    }
    if (type.getElementType().isInteger(1)) {
      int64_t i = 0;
      for (bool flag : dense.getValues<bool>())
        tensor.ints[i++] = flag;
      return tensor;
    }
  }
  ArrayRef<char> bytes = getConstantBytes(constant);
  if (static_cast<int64_t>(bytes.size()) != getTensorBytes(type)) {
    whyNot = "a constant whose data is missing";
    return failure();
  }
  decodeElements(bytes, tensor);
  return tensor;
}

} // namespace mlir::tgc::evaluator
