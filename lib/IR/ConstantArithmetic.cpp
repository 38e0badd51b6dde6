//===- ConstantArithmetic.cpp - elementwise math on weights ----*- C++ -*-===//
//
// See ConstantArithmetic.h. Folds float arithmetic whose operands are all
// constants into a constant when one of them is a weight of the result's size:
// the dequantization of an int8 weight (a cast, minus the zero point, times the
// per-channel scale), a float16 weight cast to float32, a scale multiplied into
// a weight. The op folders stop at small tensors (one attribute per element);
// this reads and writes the bytes, so the kernels load a finished weight,
// which PACK can lay out, instead of recomputing it on every call (in the
// inner loop of a convolution, when the scheduler fuses it there).
//
// Each op is evaluated in double and rounded once to the result type, which
// for +, -, *, / and sqrt gives the correctly rounded float32 result (double
// has more than 2 * 24 + 2 bits), so folding changes no value.
//
//===----------------------------------------------------------------------===//

#include "IR/ConstantArithmetic.h"
#include "IR/ConstantData.h"
#include "IR/TgcOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>
#include <cstring>

namespace mlir::tgc {
namespace {

using ElementReader = double (*)(const char *);

template <typename T> double readAs(const char *p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return static_cast<double>(value);
}

double readBFloat16(const char *p) {
  uint16_t half;
  std::memcpy(&half, p, 2);
  uint32_t bits = static_cast<uint32_t>(half) << 16;
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

double readFloat16(const char *p) {
  uint16_t half;
  std::memcpy(&half, p, 2);
  double sign = half >> 15 ? -1.0 : 1.0;
  int exponent = (half >> 10) & 31;
  int mantissa = half & 1023;
  if (exponent == 31)
    return mantissa ? NAN : sign * INFINITY;
  if (exponent == 0)
    return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(mantissa | 1024, exponent - 25);
}

/// How to read one element of `element` as a double, exactly; null for a
/// type that a double does not hold exactly (64-bit integers) or that
/// has no byte per element (i1).
ElementReader readerFor(Type element) {
  if (element.isF64())
    return readAs<double>;
  if (element.isF32())
    return readAs<float>;
  if (element.isF16())
    return readFloat16;
  if (element.isBF16())
    return readBFloat16;
  auto integer = dyn_cast<IntegerType>(element);
  if (!integer)
    return nullptr;
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 8:
    return isUnsigned ? readAs<uint8_t> : readAs<int8_t>;
  case 16:
    return isUnsigned ? readAs<uint16_t> : readAs<int16_t>;
  case 32:
    return isUnsigned ? readAs<uint32_t> : readAs<int32_t>;
  default:
    return nullptr;
  }
}

/// One operand of the folded op read over the result's shape: a constant
/// of that shape, a splat, or a constant broadcast by an expand (stride 0
/// along the broadcast dims), each maybe reshaped.
struct OperandReader {
  ConstOp constant;
  ArrayRef<char> bytes;
  ElementReader read = nullptr;
  int64_t elementBytes = 0;
  double splat = 0;
  bool isSplat = false;
  /// A cast to float32 on the way from the constant.
  bool roundsToF32 = false;
  SmallVector<int64_t> strides; // in elements, per result dim

  double at(int64_t offset) const {
    if (isSplat)
      return splat;
    double value = read(bytes.data() + offset * elementBytes);
    return roundsToF32 ? static_cast<float>(value) : value;
  }
  /// A weight of the result's size (not a splat, nothing broadcast).
  bool isWhole() const {
    return !isSplat && llvm::all_of(strides, [](int64_t s) { return s != 0; });
  }
};

std::optional<OperandReader> readerOf(Value operand,
                                      RankedTensorType resultType) {
  OperandReader reader;
  // expand(reshape or cast(...(constant))): reshapes keep the bytes, so the
  // constant is read with the outermost one's shape; casts to float32 or
  // float64 (a zero point made float) round the value read, or nothing.
  Value source = operand;
  if (auto expand = operand.getDefiningOp<ExpandOp>())
    source = expand.getSrc();
  auto sourceType = dyn_cast<RankedTensorType>(source.getType());
  for (;;) {
    if (auto reshape = source.getDefiningOp<ReshapeOp>()) {
      source = reshape.getSrc();
    } else if (auto cast = source.getDefiningOp<CastOp>()) {
      Type to = getElementTypeOrSelf(cast.getType());
      if (!to.isF32() && !to.isF64())
        return std::nullopt;
      reader.roundsToF32 |= to.isF32();
      source = cast.getSrc();
    } else {
      break;
    }
  }
  auto constant = source.getDefiningOp<ConstOp>();
  if (!constant || !sourceType || sourceType.getRank() != resultType.getRank())
    return std::nullopt;
  reader.constant = constant;
  Type element = getElementTypeOrSelf(constant.getType());
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (dense && dense.isSplat()) {
    std::optional<double> value =
        elementAsDouble(dense.getSplatValue<Attribute>());
    if (!value)
      return std::nullopt;
    reader.splat = reader.roundsToF32 ? static_cast<float>(*value) : *value;
    reader.isSplat = true;
    return reader;
  }
  reader.read = readerFor(element);
  reader.bytes = getConstantBytes(constant);
  if (!reader.read || reader.bytes.empty())
    return std::nullopt;
  reader.elementBytes = getElementBytes(element);
  SmallVector<int64_t> strides = rowMajorStrides(sourceType.getShape());
  for (int64_t d = 0; d < resultType.getRank(); ++d) {
    int64_t dim = sourceType.getDimSize(d);
    if (dim != resultType.getDimSize(d) && dim != 1)
      return std::nullopt;
    reader.strides.push_back(
        dim == 1 && resultType.getDimSize(d) != 1 ? 0 : strides[d]);
  }
  return reader;
}

/// The op's value on one lane, in double; the caller rounds it.
double evaluate(Operation *op, ArrayRef<double> lanes) {
  return TypeSwitch<Operation *, double>(op)
      .Case([&](CastOp) { return lanes[0]; })
      .Case([&](NegOp) { return -lanes[0]; })
      .Case([&](RecipOp) { return 1.0 / lanes[0]; })
      .Case([&](SqrtOp) { return std::sqrt(lanes[0]); })
      .Case([&](AddOp) { return lanes[0] + lanes[1]; })
      .Case([&](SubOp) { return lanes[0] - lanes[1]; })
      .Case([&](MulOp) { return lanes[0] * lanes[1]; })
      .Case([&](FdivOp) { return lanes[0] / lanes[1]; })
      .Case([&](MaxOp) {
        // As the kernels compute it: NaN from either side, and b when the
        // two are equal (max(-0.0, +0.0) is +0.0).
        double a = lanes[0], b = lanes[1];
        return a != a || a > b ? a : b;
      });
}

} // namespace

ElementsAttr foldWeightArithmetic(Operation *op) {
  if (!isa<CastOp, NegOp, RecipOp, SqrtOp, AddOp, SubOp, MulOp, FdivOp, MaxOp>(
          op))
    return {};
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType || !resultType.hasStaticShape() ||
      !(resultType.getElementType().isF32() ||
        resultType.getElementType().isF64()))
    return {};
  SmallVector<OperandReader> readers;
  for (Value operand : op->getOperands()) {
    std::optional<OperandReader> reader = readerOf(operand, resultType);
    if (!reader)
      return {};
    readers.push_back(std::move(*reader));
  }
  // The result takes the form of a whole operand, a resource blob's if one
  // is: a small dense constant next to it is a broadcast scale folded.
  OperandReader *whole = nullptr;
  for (OperandReader &reader : readers)
    if (reader.isWhole() &&
        (!whole || isa<DenseResourceElementsAttr>(reader.constant.getValue())))
      whole = &reader;
  // Splats and broadcasts alone are the op folders' (a splat result), or
  // would make a weight bigger than any operand.
  if (!whole)
    return {};

  bool isF32 = resultType.getElementType().isF32();
  int64_t count = resultType.getNumElements();
  std::vector<char> bytes(count * (isF32 ? 4 : 8));
  ArrayRef<int64_t> shape = resultType.getShape();
  int64_t rank = resultType.getRank();
  SmallVector<int64_t> index(rank, 0), offsets(readers.size(), 0);
  SmallVector<double> lanes(readers.size());
  for (int64_t n = 0; n < count; ++n) {
    for (size_t i = 0; i < readers.size(); ++i)
      lanes[i] = readers[i].at(offsets[i]);
    double value = evaluate(op, lanes);
    if (isF32) {
      float narrow = static_cast<float>(value);
      std::memcpy(bytes.data() + n * 4, &narrow, 4);
    } else {
      std::memcpy(bytes.data() + n * 8, &value, 8);
    }
    // Step the row-major index and every operand's offset with it.
    for (int64_t d = rank - 1; d >= 0; --d) {
      for (size_t i = 0; i < readers.size(); ++i)
        if (!readers[i].isSplat)
          offsets[i] += readers[i].strides[d];
      if (++index[d] < shape[d])
        break;
      for (size_t i = 0; i < readers.size(); ++i)
        if (!readers[i].isSplat)
          offsets[i] -= readers[i].strides[d] * shape[d];
      index[d] = 0;
    }
  }
  // A weight of more than a few thousand elements is a resource blob, as
  // the importer makes float weights, even when it comes from an attribute
  // (ONNX int8 initializers are imported as attributes): the reshape
  // folder would otherwise fold a convolution's view of it into the
  // attribute, and the kernel would read a weight shaped like its loops
  // rather than the [K, C, kh, kw] that PACK lays out.
  if (!isa<DenseResourceElementsAttr>(whole->constant.getValue()) &&
      count > kMaxFoldedElements)
    return makeBlobConstant(resultType, "folded", bytes);
  return makeConstantLike(whole->constant, resultType, bytes, "_folded");
}

} // namespace mlir::tgc
