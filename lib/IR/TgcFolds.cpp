//===- TgcFolds.cpp - tgc folders ------------------------------*- C++ -*-===//
//
// Local simplifications and constant folding, as op folders so that
// `-canonicalize` and every greedy rewrite apply them (tinygrad's
// symbolic_simple rules and const folding). Float identities are applied
// only where they are exact for NaN, infinities and -0.0, with one stated
// exception: log2(exp2(x)) -> x.
//
// Constant folding covers scalars, splats and small dense tensors (shape
// computations); weights are resource blobs and are never expanded here.
//
//===----------------------------------------------------------------------===//

#include "IR/TgcOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tgc;

namespace {
using ScalarFn = llvm::function_ref<Attribute(ArrayRef<Attribute>, Type)>;
} // namespace

static double toDouble(Attribute scalar) {
  return cast<FloatAttr>(scalar).getValueAsDouble();
}

static APInt toInt(Attribute scalar) {
  return cast<IntegerAttr>(scalar).getValue();
}

static Attribute makeFloat(Type element, double value) {
  return FloatAttr::get(element, value);
}

static bool isUnsigned(Type element) {
  return element.isUnsignedInteger() || element.isInteger(1);
}

/// Applies `fn` lane by lane to constant operands (scalars, splats or small
/// dense tensors of one shape). Returns null if any operand is not constant.
static Attribute foldElementwise(ArrayRef<Attribute> operands, Type resultType,
                                 ScalarFn fn) {
  if (operands.empty() || llvm::any_of(operands, [](Attribute a) {
        return !a || !(isa<IntegerAttr, FloatAttr>(a) ||
                       isa<DenseElementsAttr>(a));
      }))
    return {};
  Type element = getElementTypeOrSelf(resultType);
  auto shaped = dyn_cast<ShapedType>(resultType);
  if (!shaped) {
    if (llvm::any_of(operands, [](Attribute a) { return isa<ElementsAttr>(a); }))
      return {};
    return fn(operands, element);
  }
  auto allSplat = llvm::all_of(operands, [](Attribute a) {
    return cast<DenseElementsAttr>(a).isSplat();
  });
  if (llvm::any_of(operands, [](Attribute a) { return !isa<DenseElementsAttr>(a); }))
    return {};
  if (allSplat) {
    SmallVector<Attribute> lanes;
    for (Attribute a : operands)
      lanes.push_back(cast<DenseElementsAttr>(a).getSplatValue<Attribute>());
    Attribute value = fn(lanes, element);
    return value ? DenseElementsAttr::get(shaped, value) : Attribute();
  }
  if (shaped.getNumElements() > kMaxFoldedElements)
    return {};
  SmallVector<SmallVector<Attribute>> columns;
  for (Attribute a : operands)
    columns.emplace_back(cast<DenseElementsAttr>(a).getValues<Attribute>());
  SmallVector<Attribute> results;
  for (int64_t i = 0, e = shaped.getNumElements(); i < e; ++i) {
    SmallVector<Attribute> lanes;
    for (auto &column : columns)
      lanes.push_back(column.size() == 1 ? column[0] : column[i]);
    Attribute value = fn(lanes, element);
    if (!value)
      return {};
    results.push_back(value);
  }
  return DenseElementsAttr::get(shaped, results);
}

/// True if `attr` is a constant whose every lane satisfies `pred`.
static bool isConstantWhere(Attribute attr,
                            llvm::function_ref<bool(Attribute)> pred) {
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(attr))
    return dense.isSplat() && pred(dense.getSplatValue<Attribute>());
  return attr && isa<IntegerAttr, FloatAttr>(attr) && pred(attr);
}

static bool isZero(Attribute a) {
  if (auto f = dyn_cast<FloatAttr>(a))
    return f.getValue().isZero();
  return cast<IntegerAttr>(a).getValue().isZero();
}
static bool isNegZero(Attribute a) {
  auto f = dyn_cast<FloatAttr>(a);
  return f && f.getValue().isNegZero();
}
static bool isPosZeroOrInt(Attribute a) {
  if (auto f = dyn_cast<FloatAttr>(a))
    return f.getValue().isPosZero();
  return isZero(a);
}
static bool isIntZero(Attribute a) { return isa<IntegerAttr>(a) && isZero(a); }
static bool isOne(Attribute a) {
  if (auto f = dyn_cast<FloatAttr>(a))
    return f.getValue().isExactlyValue(1.0);
  return cast<IntegerAttr>(a).getValue().isOne();
}

using LanePredicate = llvm::function_ref<bool(Attribute)>;

/// op(x, e) -> x and op(e, x) -> x for a commutative op whose identity
/// element `e` is a constant satisfying `isIdentity`.
static OpFoldResult foldIdentityOperand(Value lhs, Value rhs,
                                        Attribute lhsConst, Attribute rhsConst,
                                        LanePredicate isIdentity) {
  if (isConstantWhere(rhsConst, isIdentity))
    return lhs;
  if (isConstantWhere(lhsConst, isIdentity))
    return rhs;
  return {};
}

/// op(x, z) -> z and op(z, x) -> z for a commutative op whose absorbing
/// element `z` is a constant satisfying `isAbsorbing`.
static OpFoldResult foldAbsorbingOperand(Attribute lhsConst,
                                         Attribute rhsConst,
                                         LanePredicate isAbsorbing) {
  if (isConstantWhere(rhsConst, isAbsorbing))
    return rhsConst;
  if (isConstantWhere(lhsConst, isAbsorbing))
    return lhsConst;
  return {};
}

//===----------------------------------------------------------------------===//
// Constants and movement
//===----------------------------------------------------------------------===//

OpFoldResult ConstOp::fold(FoldAdaptor) { return getValue(); }

/// A movement op of a splat is a splat of the new shape.
static OpFoldResult foldSplatView(Attribute src, Type resultType) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(src);
  if (dense && dense.isSplat())
    return DenseElementsAttr::get(cast<ShapedType>(resultType),
                                  dense.getSplatValue<Attribute>());
  return {};
}

// reshape(x) -> x if the shape is unchanged; reshape(reshape(x)) -> reshape(x)
OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto inner = getSrc().getDefiningOp<ReshapeOp>()) {
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getSrc()))
    return dense.reshape(cast<ShapedType>(getType()));
  return foldSplatView(adaptor.getSrc(), getType());
}

// permute(x, identity) -> x
OpFoldResult PermuteOp::fold(FoldAdaptor adaptor) {
  if (llvm::all_of(llvm::enumerate(getOrder()),
                   [](auto it) { return (int64_t)it.index() == it.value(); }))
    return getSrc();
  return foldSplatView(adaptor.getSrc(), getType());
}

// expand(x) -> x if the shape is unchanged
OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return foldSplatView(adaptor.getSrc(), getType());
}

// pad(x, 0, 0) -> x
OpFoldResult PadOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

// shrink(x, 0, shape) -> x
OpFoldResult ShrinkOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return foldSplatView(adaptor.getSrc(), getType());
}

// flip(x, []) -> x; flip of a splat is the splat
OpFoldResult FlipOp::fold(FoldAdaptor adaptor) {
  if (getAxes().empty())
    return getSrc();
  auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getSrc());
  if (dense && dense.isSplat())
    return dense;
  return {};
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// Folds a float-only unary op through `fn` on doubles; rounding to the
/// element type happens when the attribute is built.
static OpFoldResult foldFloatUnary(Attribute src, Type type,
                                   double (*fn)(double)) {
  return foldElementwise(src, type, [&](ArrayRef<Attribute> x, Type element) {
    if (!isa<FloatType>(element))
      return Attribute();
    return makeFloat(element, fn(toDouble(x[0])));
  });
}

OpFoldResult Exp2Op::fold(FoldAdaptor adaptor) {
  return foldFloatUnary(adaptor.getSrc(), getType(), [](double x) { return std::exp2(x); });
}

// log2(exp2(x)) -> x: exact on the reals; it also removes exp2's overflow.
OpFoldResult Log2Op::fold(FoldAdaptor adaptor) {
  if (auto exp = getSrc().getDefiningOp<Exp2Op>())
    return exp.getSrc();
  return foldFloatUnary(adaptor.getSrc(), getType(), [](double x) { return std::log2(x); });
}

OpFoldResult SinOp::fold(FoldAdaptor adaptor) {
  return foldFloatUnary(adaptor.getSrc(), getType(), [](double x) { return std::sin(x); });
}

OpFoldResult SqrtOp::fold(FoldAdaptor adaptor) {
  return foldFloatUnary(adaptor.getSrc(), getType(), [](double x) { return std::sqrt(x); });
}

OpFoldResult RecipOp::fold(FoldAdaptor adaptor) {
  return foldFloatUnary(adaptor.getSrc(), getType(), [](double x) { return 1.0 / x; });
}

OpFoldResult TruncOp::fold(FoldAdaptor adaptor) {
  if (isIntegerLike(getElementTypeOrSelf(getType())))
    return getSrc();
  return foldFloatUnary(adaptor.getSrc(), getType(), [](double x) { return std::trunc(x); });
}

// neg(neg(x)) -> x
OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getSrc().getDefiningOp<NegOp>())
    return inner.getSrc();
  return foldElementwise(adaptor.getSrc(), getType(),
                         [](ArrayRef<Attribute> x, Type element) -> Attribute {
                           if (isa<FloatType>(element))
                             return makeFloat(element, -toDouble(x[0]));
                           return IntegerAttr::get(element, -toInt(x[0]));
                         });
}

namespace {
/// The two halves of a binary op's constant folding: on doubles (floats) and
/// on APInts with the signedness of the element type. Either may be absent.
struct BinaryEval {
  std::function<double(double, double)> onFloat;
  std::function<std::optional<APInt>(const APInt &, const APInt &, bool)> onInt;
};
} // namespace

static Attribute foldBinary(Attribute lhs, Attribute rhs, Type type,
                            const BinaryEval &eval) {
  return foldElementwise({lhs, rhs}, type,
                         [&](ArrayRef<Attribute> x, Type element) -> Attribute {
                           if (isa<FloatType>(element)) {
                             if (!eval.onFloat)
                               return {};
                             return makeFloat(element, eval.onFloat(toDouble(x[0]),
                                                                    toDouble(x[1])));
                           }
                           if (!eval.onInt)
                             return {};
                           auto r = eval.onInt(toInt(x[0]), toInt(x[1]),
                                               isUnsigned(element));
                           return r ? IntegerAttr::get(element, *r) : Attribute();
                         });
}

// x + 0 -> x (integers), x + -0.0 -> x (floats: x + +0.0 turns -0.0 into +0.0)
OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  auto isIdentity = [](Attribute a) { return isIntZero(a) || isNegZero(a); };
  if (OpFoldResult operand = foldIdentityOperand(
          getLhs(), getRhs(), adaptor.getLhs(), adaptor.getRhs(), isIdentity))
    return operand;
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    {[](double a, double b) { return a + b; },
                     [](const APInt &a, const APInt &b, bool) {
                       return std::optional<APInt>(a + b);
                     }});
}

// x - 0 -> x (exact for floats too: -0.0 - +0.0 is -0.0)
OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (isConstantWhere(adaptor.getRhs(), isPosZeroOrInt))
    return getLhs();
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    {[](double a, double b) { return a - b; },
                     [](const APInt &a, const APInt &b, bool) {
                       return std::optional<APInt>(a - b);
                     }});
}

// x * 1 -> x; x * 0 -> 0 for integers only (NaN * 0 is NaN, -1 * 0 is -0)
OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult operand = foldIdentityOperand(
          getLhs(), getRhs(), adaptor.getLhs(), adaptor.getRhs(), isOne))
    return operand;
  if (OpFoldResult zero =
          foldAbsorbingOperand(adaptor.getLhs(), adaptor.getRhs(), isIntZero))
    return zero;
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    {[](double a, double b) { return a * b; },
                     [](const APInt &a, const APInt &b, bool) {
                       return std::optional<APInt>(a * b);
                     }});
}

// x / 1 -> x
OpFoldResult FdivOp::fold(FoldAdaptor adaptor) {
  if (isConstantWhere(adaptor.getRhs(), isOne))
    return getLhs();
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    {[](double a, double b) { return a / b; }, nullptr});
}

// x // 1 -> x
OpFoldResult IdivOp::fold(FoldAdaptor adaptor) {
  if (isConstantWhere(adaptor.getRhs(), isOne))
    return getLhs();
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    {nullptr, [](const APInt &a, const APInt &b,
                                 bool isUnsigned) -> std::optional<APInt> {
                       if (b.isZero())
                         return std::nullopt;
                       return isUnsigned ? a.udiv(b) : a.sdiv(b);
                     }});
}

// x % 1 -> 0 (integers)
OpFoldResult ModOp::fold(FoldAdaptor adaptor) {
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    {nullptr, [](const APInt &a, const APInt &b,
                                 bool isUnsigned) -> std::optional<APInt> {
                       if (b.isZero())
                         return std::nullopt;
                       return isUnsigned ? a.urem(b) : a.srem(b);
                     }});
}

// max(x, x) -> x
OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    {[](double a, double b) {
                       // As the kernels: b when the two are equal.
                       return std::isnan(a) || std::isnan(b) ? NAN
                              : a > b                        ? a
                                                             : b;
                     },
                     [](const APInt &a, const APInt &b, bool isUnsigned) {
                       return std::optional<APInt>(
                           isUnsigned ? llvm::APIntOps::umax(a, b)
                                      : llvm::APIntOps::smax(a, b));
                     }});
}

OpFoldResult ShlOp::fold(FoldAdaptor adaptor) {
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    {nullptr, [](const APInt &a, const APInt &b, bool) {
                       return std::optional<APInt>(a.shl(b));
                     }});
}

OpFoldResult ShrOp::fold(FoldAdaptor adaptor) {
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    {nullptr, [](const APInt &a, const APInt &b, bool isUnsigned) {
                       return std::optional<APInt>(isUnsigned ? a.lshr(b)
                                                              : a.ashr(b));
                     }});
}

static bool isAllOnes(Attribute a) {
  auto i = dyn_cast<IntegerAttr>(a);
  return i && i.getValue().isAllOnes();
}

// and(x, x) -> x; and(x, ~0) -> x; and(x, 0) -> 0
OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  if (OpFoldResult operand = foldIdentityOperand(
          getLhs(), getRhs(), adaptor.getLhs(), adaptor.getRhs(), isAllOnes))
    return operand;
  if (OpFoldResult zero =
          foldAbsorbingOperand(adaptor.getLhs(), adaptor.getRhs(), isIntZero))
    return zero;
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    {nullptr, [](const APInt &a, const APInt &b, bool) {
                       return std::optional<APInt>(a & b);
                     }});
}

// or(x, x) -> x; or(x, 0) -> x; or(x, ~0) -> ~0
OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  if (OpFoldResult operand = foldIdentityOperand(
          getLhs(), getRhs(), adaptor.getLhs(), adaptor.getRhs(), isIntZero))
    return operand;
  if (OpFoldResult allOnes =
          foldAbsorbingOperand(adaptor.getLhs(), adaptor.getRhs(), isAllOnes))
    return allOnes;
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    {nullptr, [](const APInt &a, const APInt &b, bool) {
                       return std::optional<APInt>(a | b);
                     }});
}

OpFoldResult XorOp::fold(FoldAdaptor adaptor) {
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    {nullptr, [](const APInt &a, const APInt &b, bool) {
                       return std::optional<APInt>(a ^ b);
                     }});
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    {[](double a, double b) { return std::pow(a, b); }, nullptr});
}

/// Folds a comparison into i1 lanes.
static OpFoldResult foldCompare(Attribute lhs, Attribute rhs, Type type,
                                llvm::function_ref<bool(double, double)> onFloat,
                                llvm::function_ref<bool(const APInt &, const APInt &, bool)> onInt) {
  // The lanes are compared in the operand type; the result lanes are i1.
  return foldElementwise({lhs, rhs}, type,
                         [&](ArrayRef<Attribute> x, Type i1) -> Attribute {
                           bool r;
                           if (isa<FloatAttr>(x[0]))
                             r = onFloat(toDouble(x[0]), toDouble(x[1]));
                           else
                             r = onInt(toInt(x[0]), toInt(x[1]),
                                       isUnsigned(cast<IntegerAttr>(x[0]).getType()));
                           return IntegerAttr::get(i1, r);
                         });
}

OpFoldResult CmpltOp::fold(FoldAdaptor adaptor) {
  return foldCompare(adaptor.getLhs(), adaptor.getRhs(), getType(),
                     [](double a, double b) { return a < b; },
                     [](const APInt &a, const APInt &b, bool isUnsigned) {
                       return isUnsigned ? a.ult(b) : a.slt(b);
                     });
}

OpFoldResult CmpneOp::fold(FoldAdaptor adaptor) {
  return foldCompare(adaptor.getLhs(), adaptor.getRhs(), getType(),
                     [](double a, double b) { return a != b; },
                     [](const APInt &a, const APInt &b, bool) { return a != b; });
}

OpFoldResult CmpeqOp::fold(FoldAdaptor adaptor) {
  return foldCompare(adaptor.getLhs(), adaptor.getRhs(), getType(),
                     [](double a, double b) { return a == b; },
                     [](const APInt &a, const APInt &b, bool) { return a == b; });
}

// where(true, x, y) -> x; where(false, x, y) -> y; where(c, x, x) -> x
OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  if (getX() == getY())
    return getX();
  if (isConstantWhere(adaptor.getCond(), isOne))
    return getX();
  if (isConstantWhere(adaptor.getCond(), isZero))
    return getY();
  return foldElementwise({adaptor.getCond(), adaptor.getX(), adaptor.getY()},
                         getType(), [](ArrayRef<Attribute> x, Type) {
                           return isOne(x[0]) ? x[1] : x[2];
                         });
}

// cast(x) -> x for the same type; constant casts with C's conversion rules
OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return foldElementwise(
      adaptor.getSrc(), getType(), [](ArrayRef<Attribute> x, Type to) -> Attribute {
        Attribute from = x[0];
        if (auto f = dyn_cast<FloatAttr>(from)) {
          double v = f.getValueAsDouble();
          if (isa<FloatType>(to))
            return makeFloat(to, v);
          if (to.isInteger(1))
            return IntegerAttr::get(to, v != 0.0);
          if (!std::isfinite(v))
            return {};
          unsigned width = to.isIndex() ? 64 : to.getIntOrFloatBitWidth();
          double t = std::trunc(v);
          if (isUnsigned(to) ? (t < 0 || t >= std::ldexp(1.0, width))
                             : (t < -std::ldexp(1.0, width - 1) ||
                                t >= std::ldexp(1.0, width - 1)))
            return {}; // undefined in C: leave it to run time
          return IntegerAttr::get(to, APInt(width, (uint64_t)(int64_t)t,
                                            !isUnsigned(to)));
        }
        auto i = cast<IntegerAttr>(from);
        bool fromUnsigned = isUnsigned(i.getType());
        const APInt &v = i.getValue();
        if (isa<FloatType>(to))
          return makeFloat(to, fromUnsigned ? (double)v.getZExtValue()
                                            : (double)v.getSExtValue());
        if (to.isInteger(1))
          return IntegerAttr::get(to, !v.isZero());
        unsigned width = to.isIndex() ? 64 : to.getIntOrFloatBitWidth();
        return IntegerAttr::get(to, fromUnsigned ? v.zextOrTrunc(width)
                                                 : v.sextOrTrunc(width));
      });
}
