//===- KernelEvaluator.cpp - a graph-level kernel run at compile time -----===//
//
// See KernelEvaluator.h. Every value of the body is materialized, row-major,
// and freed after its last reader; a movement op is a strided walk over its
// source, a reduce one walk over its source that accumulates into the
// result in row-major order.
//
//===----------------------------------------------------------------------===//

#include "Schedule/KernelEvaluator.h"
#include "IR/ConstantData.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// How a tensor's elements are held and compared.
enum class Domain { Float, Signed, Unsigned };

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

/// An element type's domain and width, looked up once per tensor rather
/// than once per element.
struct Format {
  explicit Format(Type element)
      : domain(domainOf(element)), width(widthOf(element)),
        semantics(isa<FloatType>(element) && width < 32
                      ? &cast<FloatType>(element).getFloatSemantics()
                      : nullptr) {}

  /// The low bits of `bits` as an integer of this type: sign-extended, or
  /// zero-extended for unsigned types and i1 (uint64 keeps its bits).
  int64_t wrap(uint64_t bits) const {
    if (width >= 64)
      return static_cast<int64_t>(bits);
    uint64_t mask = (uint64_t(1) << width) - 1;
    bits &= mask;
    if (domain == Domain::Signed && ((bits >> (width - 1)) & 1))
      bits |= ~mask;
    return static_cast<int64_t>(bits);
  }

  /// `value` rounded to this float type, held as a double.
  double round(double value) const {
    if (width == 64)
      return value;
    if (width == 32)
      return static_cast<float>(value);
    bool lost;
    llvm::APFloat converted(value);
    converted.convert(*semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
    converted.convert(llvm::APFloat::IEEEdouble(),
                      llvm::APFloat::rmNearestTiesToEven, &lost);
    return converted.convertToDouble();
  }

  /// The smallest value of this integer type.
  int64_t minimum() const {
    return domain == Domain::Unsigned ? 0 : wrap(uint64_t(1) << (width - 1));
  }

  Domain domain;
  unsigned width;
  const llvm::fltSemantics *semantics;
};

/// A tensor's elements, row-major: floats as doubles rounded to their type,
/// integers (and i1, 0 or 1) as int64 of their width's value (wrap).
struct Tensor {
  RankedTensorType type;
  Format format{type.getElementType()};
  std::vector<double> floats;
  std::vector<int64_t> ints;

  Type element() const { return type.getElementType(); }
  bool isFloat() const { return format.domain == Domain::Float; }
  int64_t size() const { return type.getNumElements(); }
};

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
  Type element = tensor.element();
  int64_t width = getElementBytes(element);
  for (int64_t i = 0, e = tensor.size(); i < e; ++i) {
    const char *at = bytes.data() + i * width;
    if (element.isF32()) {
      float value;
      std::memcpy(&value, at, sizeof value);
      tensor.floats[i] = value;
    } else if (element.isF64()) {
      std::memcpy(&tensor.floats[i], at, sizeof(double));
    } else if (auto floatType = dyn_cast<FloatType>(element)) {
      uint64_t bits = 0;
      std::memcpy(&bits, at, width);
      bool lost;
      llvm::APFloat value(floatType.getFloatSemantics(),
                          llvm::APInt(widthOf(element), bits));
      value.convert(llvm::APFloat::IEEEdouble(),
                    llvm::APFloat::rmNearestTiesToEven, &lost);
      tensor.floats[i] = value.convertToDouble();
    } else {
      uint64_t bits = 0;
      std::memcpy(&bits, at, width);
      tensor.ints[i] = tensor.format.wrap(bits);
    }
  }
}

std::vector<char> encodeElements(const Tensor &tensor) {
  Type element = tensor.element();
  int64_t width = getElementBytes(element);
  std::vector<char> bytes(tensor.size() * width);
  for (int64_t i = 0, e = tensor.size(); i < e; ++i) {
    char *at = bytes.data() + i * width;
    if (element.isF32()) {
      float value = static_cast<float>(tensor.floats[i]);
      std::memcpy(at, &value, sizeof value);
    } else if (element.isF64()) {
      std::memcpy(at, &tensor.floats[i], sizeof(double));
    } else if (auto floatType = dyn_cast<FloatType>(element)) {
      bool lost;
      llvm::APFloat value(tensor.floats[i]);
      value.convert(floatType.getFloatSemantics(),
                    llvm::APFloat::rmNearestTiesToEven, &lost);
      uint64_t bits = value.bitcastToAPInt().getZExtValue();
      std::memcpy(at, &bits, width);
    } else {
      uint64_t bits = static_cast<uint64_t>(tensor.ints[i]);
      std::memcpy(at, &bits, width);
    }
  }
  return bytes;
}

/// One element of an attribute, into lane `i` of `tensor`.
void setElement(Tensor &tensor, int64_t i, Attribute value) {
  if (auto f = dyn_cast<FloatAttr>(value)) {
    tensor.floats[i] = f.getValueAsDouble();
    return;
  }
  const APInt &bits = cast<IntegerAttr>(value).getValue();
  tensor.ints[i] = tensor.format.wrap(bits.getZExtValue());
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
      Tensor one = zeros(RankedTensorType::get({}, type.getElementType()));
      setElement(one, 0, dense.getSplatValue<Attribute>());
      if (tensor.isFloat())
        tensor.floats.assign(tensor.size(), one.floats[0]);
      else
        tensor.ints.assign(tensor.size(), one.ints[0]);
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

/// Walks the indices of `shape` row-major and calls visit(n, offset) with
/// offset = base + sum of index[d] * strides[d], kept up to date as the
/// index moves (no division per element).
template <typename Visit>
void walk(ArrayRef<int64_t> shape, ArrayRef<int64_t> strides, int64_t base,
          Visit visit) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  if (count == 0)
    return;
  if (shape.empty()) {
    visit(0, base);
    return;
  }
  int64_t rank = shape.size(), inner = shape.back(), step = strides.back();
  SmallVector<int64_t> index(rank, 0);
  int64_t offset = base;
  for (int64_t n = 0; n < count; n += inner) {
    for (int64_t j = 0; j < inner; ++j)
      visit(n + j, offset + j * step);
    for (int64_t d = rank - 2; d >= 0; --d) {
      offset += strides[d];
      if (++index[d] < shape[d])
        break;
      offset -= shape[d] * strides[d];
      index[d] = 0;
    }
  }
}

/// Copies source element `from` to result element `to`.
void copyElement(const Tensor &src, int64_t from, Tensor &result, int64_t to) {
  if (result.isFloat())
    result.floats[to] = src.floats[from];
  else
    result.ints[to] = src.ints[from];
}

/// A movement op: each result element is the source element at `base` +
/// sum of index[d] * strides[d]; a pad instead writes its source into a
/// zero result at an offset.
FailureOr<Tensor> move(Operation *op, const Tensor &src, std::string &whyNot) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  ArrayRef<int64_t> srcShape = src.type.getShape();
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> srcStrides = rowMajorStrides(srcShape);
  Tensor result = zeros(type);
  if (isa<ReshapeOp>(op)) {
    result.floats = src.floats;
    result.ints = src.ints;
    return result;
  }
  if (srcShape.size() != shape.size()) {
    whyNot = "a movement op that changes the rank";
    return failure();
  }
  if (auto pad = dyn_cast<PadOp>(op)) {
    SmallVector<int64_t> strides = rowMajorStrides(shape);
    int64_t base = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (pad.getLow()[d] < 0 || pad.getHigh()[d] < 0) {
        whyNot = "a pad by a negative amount";
        return failure();
      }
      base += pad.getLow()[d] * strides[d];
    }
    walk(srcShape, strides, base,
         [&](int64_t n, int64_t to) { copyElement(src, n, result, to); });
    return result;
  }
  SmallVector<int64_t> strides = srcStrides;
  int64_t base = 0;
  if (auto permute = dyn_cast<PermuteOp>(op)) {
    for (auto [d, from] : llvm::enumerate(permute.getOrder()))
      strides[d] = srcStrides[from];
  } else if (isa<ExpandOp>(op)) {
    for (size_t d = 0; d < shape.size(); ++d)
      if (srcShape[d] != shape[d])
        strides[d] = 0;
  } else if (auto shrink = dyn_cast<ShrinkOp>(op)) {
    for (size_t d = 0; d < shape.size(); ++d)
      base += shrink.getBegin()[d] * srcStrides[d];
  } else {
    for (int64_t d : cast<FlipOp>(op).getAxes()) {
      base += (srcShape[d] - 1) * srcStrides[d];
      strides[d] = -srcStrides[d];
    }
  }
  walk(shape, strides, base,
       [&](int64_t n, int64_t from) { copyElement(src, from, result, n); });
  return result;
}

/// tgc.max of two floats: a where a is NaN or greater, else b.
double maxFloat(double a, double b) { return (a != a || a > b) ? a : b; }

/// Accumulates the source into the result in row-major order, rounding
/// (or wrapping) after every step as the kernel's accumulator does.
Tensor reduce(const Tensor &src, ReduceAxisOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  ReduceKind kind = op.getKind();
  Tensor result = zeros(type);
  const Format &format = result.format;
  if (result.isFloat())
    result.floats.assign(result.size(), kind == ReduceKind::add   ? 0.0
                                        : kind == ReduceKind::mul ? 1.0
                                                                  : -INFINITY);
  else
    result.ints.assign(result.size(), kind == ReduceKind::add ? 0
                                      : kind == ReduceKind::mul
                                          ? 1
                                          : format.minimum());
  // The reduced axes (size 1 in the result) do not move the accumulator.
  SmallVector<int64_t> strides = rowMajorStrides(type.getShape());
  for (int64_t axis : op.getAxes())
    strides[axis] = 0;
  ArrayRef<int64_t> shape = src.type.getShape();
  if (result.isFloat()) {
    walk(shape, strides, 0, [&](int64_t n, int64_t out) {
      double &acc = result.floats[out];
      double value = src.floats[n];
      acc = format.round(kind == ReduceKind::add   ? acc + value
                         : kind == ReduceKind::mul ? acc * value
                                                   : maxFloat(acc, value));
    });
    return result;
  }
  bool isUnsigned = format.domain == Domain::Unsigned;
  walk(shape, strides, 0, [&](int64_t n, int64_t out) {
    int64_t &acc = result.ints[out];
    int64_t value = src.ints[n];
    if (kind == ReduceKind::add)
      acc = format.wrap(uint64_t(acc) + uint64_t(value));
    else if (kind == ReduceKind::mul)
      acc = format.wrap(uint64_t(acc) * uint64_t(value));
    else if (isUnsigned ? uint64_t(value) > uint64_t(acc) : value > acc)
      acc = value;
  });
  return result;
}

/// The elementwise ops. Each sets `undefined` where C gives the result no
/// value; the evaluation then stops.
class Elementwise {
public:
  Elementwise(Operation *op, ArrayRef<const Tensor *> operands)
      : op(op), in(operands),
        type(cast<RankedTensorType>(op->getResult(0).getType())),
        element(type.getElementType()), format(element), domain(format.domain) {
  }

  FailureOr<Tensor> run(std::string &whyNot);

private:
  /// result[i] = fn(i), rounded or wrapped to the result type.
  template <typename Fn> Tensor map(Fn fn) {
    Tensor result = zeros(type);
    if (domain == Domain::Float)
      for (int64_t i = 0, e = result.size(); i < e; ++i)
        result.floats[i] = format.round(fn(i));
    else
      for (int64_t i = 0, e = result.size(); i < e; ++i)
        result.ints[i] = format.wrap(static_cast<uint64_t>(fn(i)));
    return result;
  }
  double f(unsigned k, int64_t i) const { return in[k]->floats[i]; }
  int64_t s(unsigned k, int64_t i) const { return in[k]->ints[i]; }
  uint64_t u(unsigned k, int64_t i) const { return uint64_t(in[k]->ints[i]); }
  bool operandIsFloat() const { return in[0]->isFloat(); }
  bool operandIsUnsigned() const {
    return in[0]->format.domain == Domain::Unsigned;
  }

  FailureOr<Tensor> dispatch(std::string &whyNot);
  FailureOr<Tensor> arithmetic(std::string &whyNot);
  FailureOr<Tensor> integerOnly(std::string &whyNot);
  FailureOr<Tensor> compare();
  FailureOr<Tensor> convert(std::string &whyNot);
  Tensor bitcast();
  Tensor where();

  Operation *op;
  ArrayRef<const Tensor *> in;
  RankedTensorType type;
  Type element;
  Format format;
  Domain domain;
  std::string undefined;
};

FailureOr<Tensor> Elementwise::run(std::string &whyNot) {
  FailureOr<Tensor> result = dispatch(whyNot);
  if (!undefined.empty()) {
    whyNot = undefined;
    return failure();
  }
  return result;
}

FailureOr<Tensor> Elementwise::dispatch(std::string &whyNot) {
  if (isa<CmpltOp, CmpneOp, CmpeqOp>(op))
    return compare();
  if (isa<CastOp>(op))
    return convert(whyNot);
  if (isa<BitcastOp>(op))
    return bitcast();
  if (isa<WhereOp>(op))
    return where();
  if (isa<IdivOp, ModOp, ShlOp, ShrOp, XorOp, OrOp, AndOp>(op))
    return integerOnly(whyNot);
  return arithmetic(whyNot);
}

/// Ops on floats and integers alike, and the float-only math.
FailureOr<Tensor> Elementwise::arithmetic(std::string &whyNot) {
  if (domain == Domain::Float) {
    auto floatOp =
        TypeSwitch<Operation *, std::function<double(int64_t)>>(op)
            .Case<Exp2Op>([&](auto) {
              return [&](int64_t i) { return std::exp2(f(0, i)); };
            })
            .Case<Log2Op>([&](auto) {
              return [&](int64_t i) { return std::log2(f(0, i)); };
            })
            .Case<SinOp>([&](auto) {
              return [&](int64_t i) { return std::sin(f(0, i)); };
            })
            .Case<SqrtOp>([&](auto) {
              return [&](int64_t i) { return std::sqrt(f(0, i)); };
            })
            .Case<RecipOp>(
                [&](auto) { return [&](int64_t i) { return 1.0 / f(0, i); }; })
            .Case<NegOp>(
                [&](auto) { return [&](int64_t i) { return -f(0, i); }; })
            .Case<TruncOp>([&](auto) {
              return [&](int64_t i) { return std::trunc(f(0, i)); };
            })
            .Case<AddOp>([&](auto) {
              return [&](int64_t i) { return f(0, i) + f(1, i); };
            })
            .Case<SubOp>([&](auto) {
              return [&](int64_t i) { return f(0, i) - f(1, i); };
            })
            .Case<MulOp>([&](auto) {
              return [&](int64_t i) { return f(0, i) * f(1, i); };
            })
            .Case<FdivOp>([&](auto) {
              return [&](int64_t i) { return f(0, i) / f(1, i); };
            })
            .Case<PowOp>([&](auto) {
              return [&](int64_t i) { return std::pow(f(0, i), f(1, i)); };
            })
            .Case<MaxOp>([&](auto) {
              return [&](int64_t i) { return maxFloat(f(0, i), f(1, i)); };
            })
            // One rounding, as the fused multiply-add C compilers make of
            // it.
            .Case<MulaccOp>([&](auto) {
              return [&](int64_t i) {
                return std::fma(f(0, i), f(1, i), f(2, i));
              };
            })
            .Default([](Operation *) { return nullptr; });
    if (!floatOp) {
      whyNot = "an op it cannot evaluate on floats: " +
               op->getName().getStringRef().str();
      return failure();
    }
    return map(floatOp);
  }
  bool isUnsigned = domain == Domain::Unsigned;
  auto intOp =
      TypeSwitch<Operation *, std::function<uint64_t(int64_t)>>(op)
          .Case<NegOp>([&](auto) {
            return [&](int64_t i) { return uint64_t(0) - u(0, i); };
          })
          .Case<TruncOp>(
              [&](auto) { return [&](int64_t i) { return u(0, i); }; })
          .Case<AddOp>([&](auto) {
            return [&](int64_t i) { return u(0, i) + u(1, i); };
          })
          .Case<SubOp>([&](auto) {
            return [&](int64_t i) { return u(0, i) - u(1, i); };
          })
          .Case<MulOp>([&](auto) {
            return [&](int64_t i) { return u(0, i) * u(1, i); };
          })
          .Case<MaxOp>([&](auto) {
            return [&, isUnsigned](int64_t i) {
              bool first = isUnsigned ? u(0, i) > u(1, i) : s(0, i) > s(1, i);
              return first ? u(0, i) : u(1, i);
            };
          })
          .Case<MulaccOp>([&](auto) {
            return [&](int64_t i) { return u(0, i) * u(1, i) + u(2, i); };
          })
          .Default([](Operation *) { return nullptr; });
  if (!intOp) {
    whyNot = "an op it cannot evaluate on integers: " +
             op->getName().getStringRef().str();
    return failure();
  }
  return map(intOp);
}

/// Division, remainder, shifts and bitwise logic: integers (and i1) only.
FailureOr<Tensor> Elementwise::integerOnly(std::string &whyNot) {
  if (domain == Domain::Float) {
    whyNot = "an integer op on floats: " + op->getName().getStringRef().str();
    return failure();
  }
  bool isUnsigned = domain == Domain::Unsigned;
  unsigned width = format.width;
  int64_t minimum = format.minimum();
  // C's / and % are undefined for a zero divisor and where the quotient
  // overflows (the smallest value divided by -1).
  auto checkDivisor = [&](int64_t i) {
    if (s(1, i) == 0)
      undefined = "an integer division by zero";
    else if (!isUnsigned && s(0, i) == minimum && s(1, i) == -1)
      undefined = "an integer division that overflows";
    return undefined.empty();
  };
  auto checkShift = [&](int64_t i) {
    if (s(1, i) < 0 || u(1, i) >= width)
      undefined = "a shift by a count outside the type's width";
    return undefined.empty();
  };
  auto intOp = TypeSwitch<Operation *, std::function<uint64_t(int64_t)>>(op)
                   .Case<IdivOp>([&](auto) {
                     return [&](int64_t i) -> uint64_t {
                       if (!checkDivisor(i))
                         return 0;
                       return isUnsigned ? u(0, i) / u(1, i)
                                         : uint64_t(s(0, i) / s(1, i));
                     };
                   })
                   .Case<ModOp>([&](auto) {
                     return [&](int64_t i) -> uint64_t {
                       if (!checkDivisor(i))
                         return 0;
                       return isUnsigned ? u(0, i) % u(1, i)
                                         : uint64_t(s(0, i) % s(1, i));
                     };
                   })
                   .Case<ShlOp>([&](auto) {
                     return [&](int64_t i) -> uint64_t {
                       return checkShift(i) ? u(0, i) << u(1, i) : 0;
                     };
                   })
                   .Case<ShrOp>([&](auto) {
                     return [&](int64_t i) -> uint64_t {
                       if (!checkShift(i))
                         return 0;
                       return isUnsigned ? u(0, i) >> u(1, i)
                                         : uint64_t(s(0, i) >> s(1, i));
                     };
                   })
                   .Case<XorOp>([&](auto) {
                     return [&](int64_t i) { return u(0, i) ^ u(1, i); };
                   })
                   .Case<OrOp>([&](auto) {
                     return [&](int64_t i) { return u(0, i) | u(1, i); };
                   })
                   .Case<AndOp>([&](auto) {
                     return [&](int64_t i) { return u(0, i) & u(1, i); };
                   })
                   .Default([](Operation *) { return nullptr; });
  return map(intOp);
}

/// cmplt, cmpne and cmpeq: an i1 result. A NaN is unequal to everything.
FailureOr<Tensor> Elementwise::compare() {
  bool isFloat = operandIsFloat(), isUnsigned = operandIsUnsigned();
  bool lessThan = isa<CmpltOp>(op), equal = isa<CmpeqOp>(op);
  return map([&](int64_t i) -> uint64_t {
    if (lessThan)
      return isFloat      ? f(0, i) < f(1, i)
             : isUnsigned ? u(0, i) < u(1, i)
                          : s(0, i) < s(1, i);
    bool same = isFloat ? f(0, i) == f(1, i) : s(0, i) == s(1, i);
    return equal ? same : !same;
  });
}

/// C's conversions: a float to an integer truncates toward zero and is
/// undefined where the integer cannot hold it; anything to i1 is `!= 0`.
FailureOr<Tensor> Elementwise::convert(std::string &whyNot) {
  bool fromFloat = operandIsFloat(), fromUnsigned = operandIsUnsigned();
  if (domain == Domain::Float)
    return map([&](int64_t i) {
      if (fromFloat)
        return f(0, i);
      return fromUnsigned ? static_cast<double>(u(0, i))
                          : static_cast<double>(s(0, i));
    });
  unsigned width = format.width;
  bool toBool = element.isInteger(1);
  // The range of the integer type, as doubles (powers of two, exact).
  double low = domain == Domain::Unsigned ? 0.0 : -std::ldexp(1.0, width - 1);
  double high = std::ldexp(1.0, domain == Domain::Unsigned ? width : width - 1);
  return map([&](int64_t i) -> uint64_t {
    if (!fromFloat)
      return toBool ? s(0, i) != 0 : u(0, i);
    double value = f(0, i);
    if (toBool)
      return value != 0.0;
    double whole = std::trunc(value);
    if (std::isnan(value) || whole < low || whole >= high) {
      undefined = "a float converted to an integer type that cannot hold it";
      return 0;
    }
    return whole < 0 ? uint64_t(static_cast<int64_t>(whole))
                     : static_cast<uint64_t>(whole);
  });
}

/// The operand's bytes read as the result type.
Tensor Elementwise::bitcast() {
  Tensor result = zeros(type);
  decodeElements(encodeElements(*in[0]), result);
  return result;
}

Tensor Elementwise::where() {
  Tensor result = zeros(type);
  for (int64_t i = 0, e = result.size(); i < e; ++i) {
    const Tensor &chosen = in[0]->ints[i] ? *in[1] : *in[2];
    if (result.isFloat())
      result.floats[i] = chosen.floats[i];
    else
      result.ints[i] = chosen.ints[i];
  }
  return result;
}

FailureOr<Tensor> evaluateOp(Operation *op, ArrayRef<const Tensor *> operands,
                             std::string &whyNot) {
  if (auto constant = dyn_cast<ConstOp>(op))
    return readConstant(constant, whyNot);
  if (isa<ContiguousOp>(op))
    return *operands[0];
  if (auto reduceOp = dyn_cast<ReduceAxisOp>(op))
    return reduce(*operands[0], reduceOp);
  if (isGraphMovement(op))
    return move(op, *operands[0], whyNot);
  if (isGraphElementwise(op))
    return Elementwise(op, operands).run(whyNot);
  whyNot = "an op it cannot evaluate: " + op->getName().getStringRef().str();
  return failure();
}

/// Fails where the body's ops together would produce more than
/// `maxElementOps` elements.
LogicalResult checkWork(Block &body, int64_t maxElementOps,
                        std::string &whyNot) {
  int64_t work = 0;
  for (Operation &op : body.without_terminator()) {
    if (op.getNumResults() != 1) {
      whyNot = "an op with other than one result";
      return failure();
    }
    auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (!type || !type.hasStaticShape()) {
      whyNot = "a value that is not a tensor of static shape";
      return failure();
    }
    work += type.getNumElements();
    if (auto reduceOp = dyn_cast<ReduceAxisOp>(op))
      work +=
          cast<RankedTensorType>(reduceOp.getSrc().getType()).getNumElements();
  }
  if (work > maxElementOps) {
    whyNot = std::to_string(work) + " element operations, more than " +
             std::to_string(maxElementOps);
    return failure();
  }
  return success();
}

} // namespace

FailureOr<SmallVector<std::vector<char>>>
mlir::tgc::evaluateKernel(KernelOp kernel, ArrayRef<ConstOp> inputs,
                          int64_t maxElementOps, std::string &whyNot) {
  Block &body = kernel.getBlock();
  if (kernel.isLowered() || failed(checkWork(body, maxElementOps, whyNot)))
    return failure();

  // Each value is freed after its last reader.
  llvm::DenseMap<Value, Operation *> lastReader;
  for (Operation &op : body)
    for (Value operand : op.getOperands())
      lastReader[operand] = &op;

  llvm::DenseMap<Value, Tensor> values;
  for (auto [argument, input] : llvm::zip(body.getArguments(), inputs)) {
    if (argument.use_empty())
      continue;
    FailureOr<Tensor> tensor = readConstant(input, whyNot);
    if (failed(tensor))
      return failure();
    values.try_emplace(argument, std::move(*tensor));
  }
  for (Operation &op : body.without_terminator()) {
    SmallVector<const Tensor *> operands;
    for (Value operand : op.getOperands())
      operands.push_back(&values.find(operand)->second);
    FailureOr<Tensor> result = evaluateOp(&op, operands, whyNot);
    if (failed(result))
      return failure();
    for (Value operand : op.getOperands())
      if (lastReader.lookup(operand) == &op)
        values.erase(operand);
    values.try_emplace(op.getResult(0), std::move(*result));
  }
  SmallVector<std::vector<char>> results;
  for (Value src : body.getTerminator()->getOperands())
    results.push_back(encodeElements(values.find(src)->second));
  return results;
}
