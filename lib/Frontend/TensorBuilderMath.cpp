//===- TensorBuilderMath.cpp - elementwise math and reductions -*- C++ -*-===//
//
// TensorBuilder's elementwise ops (with numpy broadcasting) and reductions.
// Float semantics are kept where it is cheap: max and min propagate NaN, abs
// clears the sign bit (exact for -0.0 and NaN), sign and comparisons treat
// NaN as IEEE does.
//
//===----------------------------------------------------------------------===//

#include "Frontend/TensorBuilder.h"
#include "IR/ConstantArithmetic.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tgc;

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult TensorBuilder::broadcastAll(MutableArrayRef<Value> values) {
  size_t rank = 0;
  for (Value v : values)
    rank = std::max<size_t>(rank, rankOf(v));
  SmallVector<int64_t> shape(rank, 1);
  for (Value v : values) {
    ArrayRef<int64_t> s = shapeOf(v);
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t &d = shape[rank - s.size() + i];
      if (s[i] == d || s[i] == 1)
        continue;
      if (d != 1) {
        auto diag = error() << "cannot broadcast shapes";
        for (Value w : values)
          diag << " " << shapeString(shapeOf(w));
        return failure();
      }
      d = s[i];
    }
  }
  for (Value &v : values) {
    v = broadcastTo(v, shape);
    if (!v)
      return failure();
  }
  return success();
}

LogicalResult TensorBuilder::broadcastPair(Value &a, Value &b) {
  Value pair[2] = {a, b};
  if (failed(broadcastAll(pair)))
    return failure();
  a = pair[0];
  b = pair[1];
  return success();
}

template <typename OpT> Value TensorBuilder::binary(Value a, Value b) {
  if (!a || !b)
    return {};
  if (elementTypeOf(a) != elementTypeOf(b)) {
    error() << "operands of " << OpT::getOperationName() << " have element "
            << "types " << elementTypeOf(a) << " and " << elementTypeOf(b);
    return {};
  }
  if (failed(broadcastPair(a, b)))
    return {};
  return foldIntoWeight(builder.create<OpT>(loc, a.getType(), a, b));
}

template <typename OpT> Value TensorBuilder::compare(Value a, Value b) {
  if (!a || !b)
    return {};
  if (elementTypeOf(a) != elementTypeOf(b)) {
    error() << "operands of " << OpT::getOperationName() << " have element "
            << "types " << elementTypeOf(a) << " and " << elementTypeOf(b);
    return {};
  }
  if (failed(broadcastPair(a, b)))
    return {};
  return builder.create<OpT>(loc, a, b).getResult();
}

Value TensorBuilder::add(Value a, Value b) { return binary<AddOp>(a, b); }
Value TensorBuilder::sub(Value a, Value b) { return binary<SubOp>(a, b); }
Value TensorBuilder::mul(Value a, Value b) { return binary<MulOp>(a, b); }
Value TensorBuilder::max(Value a, Value b) { return binary<MaxOp>(a, b); }
Value TensorBuilder::pow(Value a, Value b) { return binary<PowOp>(a, b); }

Value TensorBuilder::div(Value a, Value b) {
  if (!a || !b)
    return {};
  if (isFloat(a))
    return binary<FdivOp>(a, b);
  return binary<IdivOp>(a, b);
}

Value TensorBuilder::min(Value a, Value b) {
  if (!a || !b)
    return {};
  // -max(-a, -b) is exact for floats, NaN included; negating integers can
  // overflow, so they select.
  if (isFloat(a)) {
    Value negA = neg(a);
    Value negB = neg(b);
    return neg(max(negA, negB));
  }
  if (failed(broadcastPair(a, b)))
    return {};
  return where(lt(a, b), a, b);
}

template <typename OpT> Value TensorBuilder::unary(Value x) {
  if (!x)
    return {};
  return foldIntoWeight(builder.create<OpT>(loc, x.getType(), x));
}

Value TensorBuilder::foldIntoWeight(Operation *op) {
  ElementsAttr folded = foldWeightArithmetic(op);
  if (!folded)
    return op->getResult(0);
  op->erase();
  return constant(folded);
}

Value TensorBuilder::neg(Value x) {
  // -(-y) = y, exactly (min of floats negates twice).
  if (auto inner = x ? x.getDefiningOp<NegOp>() : NegOp())
    return inner.getSrc();
  return unary<NegOp>(x);
}
Value TensorBuilder::recip(Value x) { return unary<RecipOp>(x); }
Value TensorBuilder::sqrt(Value x) { return unary<SqrtOp>(x); }
Value TensorBuilder::exp2(Value x) { return unary<Exp2Op>(x); }
Value TensorBuilder::log2(Value x) { return unary<Log2Op>(x); }
Value TensorBuilder::sin(Value x) { return unary<SinOp>(x); }
Value TensorBuilder::trunc(Value x) {
  if (x && !isFloat(x))
    return x;
  return unary<TruncOp>(x);
}

Value TensorBuilder::exp(Value x) { return exp2(mul(x, M_LOG2E)); }
Value TensorBuilder::log(Value x) { return mul(log2(x), M_LN2); }
Value TensorBuilder::cos(Value x) { return sin(sub(splatLike(x, M_PI_2), x)); }

Value TensorBuilder::floor(Value x) {
  if (!x || !isFloat(x))
    return x;
  Value t = trunc(x);
  Value below = lt(x, t);
  return where(below, sub(t, 1.0), t);
}

Value TensorBuilder::ceil(Value x) {
  if (!x || !isFloat(x))
    return x;
  Value t = trunc(x);
  Value above = lt(t, x);
  return where(above, add(t, 1.0), t);
}

Value TensorBuilder::round(Value x) {
  if (!x || !isFloat(x))
    return x;
  // x - floor(x) is exact; only an exact half needs the parity of floor(x).
  Value f = floor(x);
  Value frac = sub(x, f);
  Value up = add(f, 1.0);
  Value half = splatLike(x, 0.5);
  Value parity = sub(f, mul(floor(mul(f, 0.5)), 2.0));
  Value odd = eq(parity, splatLike(x, 1.0));
  Value tie = where(odd, up, f);
  Value roundDown = where(lt(frac, half), f, tie);
  return where(gt(frac, half), up, roundDown);
}

Value TensorBuilder::roundSmall(Value x) {
  if (!x || !isFloat(x))
    return x;
  // x + 1.5 * 2^(p-1), p the precision, lies in [2^(p-1), 2^p) for
  // |x| <= 2^(p-2): there the floats are the whole numbers, so the addition
  // rounds x half to even, and taking the constant off again is exact.
  Value magic =
      splatLike(x, roundingMagic(llvm::cast<FloatType>(elementTypeOf(x))));
  return sub(add(x, magic), magic);
}

Value TensorBuilder::abs(Value x) {
  if (!x)
    return {};
  Type element = elementTypeOf(x);
  if (auto fl = dyn_cast<FloatType>(element)) {
    // Clear the sign bit: exact for -0.0, infinities and NaN.
    unsigned width = fl.getWidth();
    auto bitsType =
        IntegerType::get(builder.getContext(), width, IntegerType::Unsigned);
    Type bitsTensor = typeOf(x).clone(bitsType);
    Value bits = builder.create<BitcastOp>(loc, bitsTensor, x);
    Value mask = constant(DenseElementsAttr::get(
        llvm::cast<ShapedType>(bitsTensor),
        IntegerAttr::get(bitsType, APInt::getSignedMaxValue(width))));
    Value cleared = builder.create<AndOp>(loc, bitsTensor, bits, mask);
    return builder.create<BitcastOp>(loc, x.getType(), cleared).getResult();
  }
  if (element.isUnsignedInteger() || element.isInteger(1))
    return x;
  Value negative = lt(x, splatLike(x, 0));
  return where(negative, neg(x), x);
}

Value TensorBuilder::sign(Value x) {
  if (!x)
    return {};
  // The last branch returns x itself: +-0 keep their sign and NaN stays NaN.
  Value zero = splatLike(x, 0);
  Value positive = gt(x, zero);
  Value one = splatLike(x, 1);
  if (elementTypeOf(x).isUnsignedInteger())
    return where(positive, one, x);
  Value negative = lt(x, zero);
  Value notPositive = where(negative, splatLike(x, -1), x);
  return where(positive, one, notPositive);
}

Value TensorBuilder::relu(Value x) { return max(x, splatLike(x, 0)); }

Value TensorBuilder::sigmoid(Value x) { return recip(add(exp(neg(x)), 1.0)); }

Value TensorBuilder::clamp(Value x, double low, double high) {
  return min(max(x, splatLike(x, low)), splatLike(x, high));
}

Value TensorBuilder::oddRational(Value x, double limit,
                                 ArrayRef<double> numerator,
                                 ArrayRef<double> denominator) {
  if (!x)
    return {};
  // Coefficients down to 1e-8 would lose their digits (or flush to zero)
  // in half precision, and every step there rounds: compute in float.
  Type element = elementTypeOf(x);
  if (element.isF16() || element.isBF16())
    return cast(oddRational(cast(x, builder.getF32Type()), limit, numerator,
                            denominator),
                element);
  auto horner = [&](Value t, ArrayRef<double> c) {
    Value poly = splatLike(t, c.back());
    for (double coefficient : llvm::reverse(c.drop_back()))
      poly = add(mul(poly, t), coefficient);
    return poly;
  };
  // max and min keep NaN; the infinities become +-limit.
  Value clamped = clamp(x, -limit, limit);
  Value t = mul(clamped, clamped);
  Value p = horner(t, numerator);
  Value q = horner(t, denominator);
  Value y = div(mul(clamped, p), q);
  // Rounding can take the quotient an ulp past 1 near the limit.
  return clamp(y, -1.0, 1.0);
}

// erf and tanh are odd, and flat (1.0f to the last bit) beyond 3.92 and
// 9.02: each is x P(x^2) / Q(x^2) there, a rational function fitted to the
// relative error by scripts/fit_odd_rational.py (erf 3.92 5 5, tanh 9.02 4
// 4). Against libm in double on every positive float, evaluated in float
// with and without FMA: erf within 6.7 ulps (at x = 3.33), tanh within 6.4
// (at 5.92), the worst just below 1, where the ulp is 6e-8; the sign and the
// relative precision are kept near 0, where 1 - P(t) exp(-x^2) (Abramowitz &
// Stegun) and 2 sigmoid(2x) - 1 lost every digit. One division and a dozen
// multiply-adds, where erf took a reciprocal, an exp2 and a select on the sign,
// and tanh an exp2 and a reciprocal; nothing compared or selected, so GELU
// stays vector code in the epilogue of the matmul before it.
Value TensorBuilder::tanh(Value x) {
  static constexpr double p[] = {0.9999999790285423, 0.13379719469081924,
                                 0.0034940363192037813, 2.0583507962731854e-05,
                                 1.3319104546633245e-08};
  static constexpr double q[] = {1.0, 0.4671303471262387, 0.025871080037658412,
                                 0.00032830956202727963, 7.762033724945338e-07};
  return oddRational(x, 9.02, p, q);
}

Value TensorBuilder::erf(Value x) {
  static constexpr double p[] = {
      1.128379146144243,     0.1904070264792509,     0.05274880086928403,
      0.0037656419902223114, 0.00028488345932293655, 2.0500851676394397e-06};
  static constexpr double q[] = {1.0,
                                 0.5020765744825559,
                                 0.11410934647435869,
                                 0.014969266562472655,
                                 0.0011625419021928881,
                                 3.809173164165815e-05};
  return oddRational(x, 3.92, p, q);
}

Value TensorBuilder::atan(Value x) {
  if (!x)
    return {};
  // On |x|: above tan(3pi/8) atan = pi/2 - atan(1/|x|); above tan(pi/8)
  // atan = pi/4 + atan((|x| - 1) / (|x| + 1)); then a minimax polynomial
  // (Cephes' atanf) on what is left, and the sign of x restored.
  Value ax = abs(x);
  Value one = splatLike(x, 1.0);
  Value big = lt(splatLike(x, 2.414213562373095), ax);
  Value mid = lt(splatLike(x, 0.4142135623730950), ax);
  Value reduced =
      where(big, neg(recip(ax)),
            where(mid, div(sub(ax, one), add(ax, one)), ax));
  Value offset = where(big, splatLike(x, M_PI_2),
                       where(mid, splatLike(x, M_PI_4), splatLike(x, 0.0)));
  Value z = mul(reduced, reduced);
  static constexpr double c[4] = {8.05374449538e-2, -1.38776856032e-1,
                                  1.99777106478e-1, -3.33329491539e-1};
  Value poly = splatLike(x, c[0]);
  for (int i = 1; i < 4; ++i)
    poly = add(mul(poly, z), c[i]);
  Value y = add(offset, add(mul(mul(poly, z), reduced), reduced));
  Value negative = lt(x, splatLike(x, 0));
  return where(negative, neg(y), y);
}

Value TensorBuilder::lt(Value a, Value b) { return compare<CmpltOp>(a, b); }
Value TensorBuilder::eq(Value a, Value b) { return compare<CmpeqOp>(a, b); }
Value TensorBuilder::ne(Value a, Value b) { return compare<CmpneOp>(a, b); }

Value TensorBuilder::le(Value a, Value b) {
  if (!a || !b)
    return {};
  // not(b < a) would be true for NaN.
  if (isFloat(a)) {
    Value less = lt(a, b);
    return logicalOr(less, eq(a, b));
  }
  return logicalNot(lt(b, a));
}

Value TensorBuilder::logicalNot(Value x) {
  return binary<XorOp>(x, splatLike(x, 1));
}
Value TensorBuilder::logicalAnd(Value a, Value b) {
  return binary<AndOp>(a, b);
}
Value TensorBuilder::logicalOr(Value a, Value b) { return binary<OrOp>(a, b); }
Value TensorBuilder::logicalXor(Value a, Value b) {
  return binary<XorOp>(a, b);
}

Value TensorBuilder::shl(Value a, Value b) { return binary<ShlOp>(a, b); }
Value TensorBuilder::shr(Value a, Value b) { return binary<ShrOp>(a, b); }

Value TensorBuilder::where(Value cond, Value x, Value y) {
  if (!cond || !x || !y)
    return {};
  if (!elementTypeOf(cond).isInteger(1) ||
      elementTypeOf(x) != elementTypeOf(y)) {
    error() << "where needs an i1 condition and values of one type, not "
            << elementTypeOf(cond) << ", " << elementTypeOf(x) << ", "
            << elementTypeOf(y);
    return {};
  }
  Value all[3] = {cond, x, y};
  if (failed(broadcastAll(all)))
    return {};
  return builder.create<WhereOp>(loc, all[1].getType(), all[0], all[1], all[2])
      .getResult();
}

Value TensorBuilder::cast(Value x, Type element) {
  if (!x || elementTypeOf(x) == element)
    return x;
  return foldIntoWeight(
      builder.create<CastOp>(loc, typeOf(x).clone(element), x));
}

Value TensorBuilder::bitcast(Value x, Type element) {
  if (!x || elementTypeOf(x) == element)
    return x;
  return builder.create<BitcastOp>(loc, typeOf(x).clone(element), x)
      .getResult();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

Value TensorBuilder::dropReduced(Value x, ArrayRef<int64_t> axes,
                                 bool keepdim) {
  if (!x || keepdim)
    return x;
  SmallVector<int64_t> shape;
  for (auto [i, d] : llvm::enumerate(shapeOf(x)))
    if (!llvm::is_contained(axes, (int64_t)i))
      shape.push_back(d);
  return reshape(x, shape);
}

Value TensorBuilder::reduce(ReduceKind kind, Value x, ArrayRef<int64_t> axes,
                            bool keepdim) {
  if (!x)
    return {};
  SmallVector<int64_t> sorted(axes);
  llvm::sort(sorted);
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  SmallVector<int64_t> shape(shapeOf(x));
  for (int64_t axis : sorted) {
    if (axis < 0 || axis >= (int64_t)shape.size()) {
      error() << "reduction axis " << axis << " out of range for rank "
              << shape.size();
      return {};
    }
    shape[axis] = 1;
  }
  Value result = x;
  if (!sorted.empty()) {
    auto type = RankedTensorType::get(shape, elementTypeOf(x));
    result = builder.create<ReduceAxisOp>(loc, type, kind, x, sorted);
  }
  return dropReduced(result, sorted, keepdim);
}

/// Half-precision floats accumulate in f32.
static bool accumulatesWider(Type element) {
  return element.isF16() || element.isBF16();
}

Value TensorBuilder::sum(Value x, ArrayRef<int64_t> axes, bool keepdim) {
  if (!x)
    return {};
  Type element = elementTypeOf(x);
  if (accumulatesWider(element))
    return cast(sum(cast(x, builder.getF32Type()), axes, keepdim), element);
  return reduce(ReduceKind::add, x, axes, keepdim);
}

Value TensorBuilder::prod(Value x, ArrayRef<int64_t> axes, bool keepdim) {
  if (!x)
    return {};
  Type element = elementTypeOf(x);
  if (accumulatesWider(element))
    return cast(prod(cast(x, builder.getF32Type()), axes, keepdim), element);
  return reduce(ReduceKind::mul, x, axes, keepdim);
}

Value TensorBuilder::reduceMax(Value x, ArrayRef<int64_t> axes, bool keepdim) {
  return reduce(ReduceKind::max, x, axes, keepdim);
}

Value TensorBuilder::reduceMin(Value x, ArrayRef<int64_t> axes, bool keepdim) {
  if (!x)
    return {};
  if (isFloat(x))
    return neg(reduceMax(neg(x), axes, keepdim));
  // ~x reverses the order of signed and unsigned integers alike, without
  // the overflow of -x.
  auto bitNot = [&](Value v) -> Value {
    if (!v)
      return {};
    auto integer = llvm::cast<IntegerType>(elementTypeOf(v));
    Value ones = constant(DenseElementsAttr::get(
        typeOf(v),
        IntegerAttr::get(integer, APInt::getAllOnes(integer.getWidth()))));
    return binary<XorOp>(v, ones);
  };
  return bitNot(reduceMax(bitNot(x), axes, keepdim));
}

Value TensorBuilder::argExtreme(Value x, int64_t axis, bool keepdim, bool isMax,
                                bool last, Type index) {
  if (!x)
    return {};
  int64_t rank = rankOf(x), n = shapeOf(x)[axis];
  Value extreme =
      isMax ? reduceMax(x, {axis}, true) : reduceMin(x, {axis}, true);
  Value hit = eq(x, extreme);
  // First index: the max of (n-1-i) over the hits, turned back into i.
  // Last index: the max of i over the hits.
  Value positions = arange(n, index);
  if (!last)
    positions = sub(splatLike(positions, n - 1), positions);
  SmallVector<int64_t> along(rank, 1);
  along[axis] = n;
  positions = reshape(positions, along);
  Value picked = where(hit, positions, splat(index, along, 0));
  Value best = reduceMax(picked, {axis}, keepdim);
  if (!last)
    best = sub(splatLike(best, n - 1), best);
  return best;
}

Value TensorBuilder::mean(Value x, ArrayRef<int64_t> axes, bool keepdim) {
  if (!x)
    return {};
  int64_t count = 1;
  for (int64_t axis : axes)
    if (axis >= 0 && axis < rankOf(x))
      count *= shapeOf(x)[axis];
  Value total = sum(x, axes, keepdim);
  return total ? div(total, splatLike(total, count)) : Value();
}
