//===- EvaluateElementwise.cpp - elementwise ops at compile time -*- C++
//-*-===//
//
// The elementwise ops of the tensor graph as the C renderer writes them:
// integers wrap to their width (C's conversions), / and % truncate toward
// zero, >> is arithmetic on signed types, tgc.max keeps a NaN, a compare
// with a NaN is false but for !=; floats are computed in double and rounded
// to their type. Where C gives a result no value (a division by zero, a
// shift past the width, a float converted to an integer that cannot hold
// it) the evaluation fails rather than pick one.
//
//===----------------------------------------------------------------------===//

#include "Schedule/EvaluatedTensor.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>
#include <functional>

using namespace mlir;
using namespace mlir::tgc;
using namespace mlir::tgc::evaluator;

namespace {

/// The elementwise ops. Each sets `undefined` where C gives the result no
/// value; the evaluation then stops.
class Elementwise {
public:
  Elementwise(Operation *op, ArrayRef<const Tensor *> operands)
      : op(op), in(operands),
        type(cast<RankedTensorType>(op->getResult(0).getType())),
        element(type.getElementType()), format(element) {}

  FailureOr<Tensor> run(std::string &whyNot);

private:
  /// result[i] = fn(i), rounded or wrapped to the result type.
  template <typename Fn> Tensor map(Fn fn) {
    Tensor result = zeros(type);
    if (format.domain == Domain::Float)
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
  if (format.domain == Domain::Float) {
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
  bool isUnsigned = format.domain == Domain::Unsigned;
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
  if (format.domain == Domain::Float) {
    whyNot = "an integer op on floats: " + op->getName().getStringRef().str();
    return failure();
  }
  bool isUnsigned = format.domain == Domain::Unsigned;
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
  if (format.domain == Domain::Float)
    return map([&](int64_t i) {
      if (fromFloat)
        return f(0, i);
      return fromUnsigned ? static_cast<double>(u(0, i))
                          : static_cast<double>(s(0, i));
    });
  unsigned width = format.width;
  bool toBool = element.isInteger(1);
  // The range of the integer type, as doubles (powers of two, exact).
  double low =
      format.domain == Domain::Unsigned ? 0.0 : -std::ldexp(1.0, width - 1);
  double high =
      std::ldexp(1.0, format.domain == Domain::Unsigned ? width : width - 1);
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
  for (int64_t i = 0, e = result.size(); i < e; ++i)
    copyElement(in[0]->ints[i] ? *in[1] : *in[2], i, result, i);
  return result;
}

} // namespace

FailureOr<Tensor> mlir::tgc::evaluator::evaluateElementwise(
    Operation *op, ArrayRef<const Tensor *> operands, std::string &whyNot) {
  return Elementwise(op, operands).run(whyNot);
}
