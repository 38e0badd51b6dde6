//===- TensorBuilder.cpp - constants, movement, elementwise, reduce -*- C++ -*-//
//
// The primitive layer of TensorBuilder. Float semantics are kept where it is
// cheap: max and min propagate NaN, abs clears the sign bit (exact for -0.0
// and NaN), sign and comparisons treat NaN as IEEE does.
//
//===----------------------------------------------------------------------===//

#include "Frontend/TensorBuilder.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tgc;

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

TensorBuilder::TensorBuilder(OpBuilder &builder, Location loc, ErrorFn error)
    : builder(builder), loc(loc), errorFn(std::move(error)) {
  if (!errorFn)
    errorFn = [loc] { return emitError(loc); };
}

RankedTensorType TensorBuilder::typeOf(Value value) {
  return llvm::cast<RankedTensorType>(value.getType());
}
ArrayRef<int64_t> TensorBuilder::shapeOf(Value value) {
  return typeOf(value).getShape();
}
Type TensorBuilder::elementTypeOf(Value value) {
  return typeOf(value).getElementType();
}
int64_t TensorBuilder::rankOf(Value value) { return typeOf(value).getRank(); }
bool TensorBuilder::isFloat(Value value) {
  return isa<FloatType>(elementTypeOf(value));
}
int64_t TensorBuilder::numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

TypedAttr TensorBuilder::scalarAttr(Type element, double value) {
  if (isa<FloatType>(element))
    return FloatAttr::get(element, value);
  auto integer = llvm::cast<IntegerType>(element);
  unsigned width = integer.getWidth();
  if (width == 1)
    return IntegerAttr::get(element, APInt(1, value != 0));
  // Out-of-range doubles saturate rather than invoke undefined conversions.
  if (integer.isUnsigned()) {
    double max = std::ldexp(1.0, width) - 1;
    double v = std::isnan(value) ? 0 : std::clamp(value, 0.0, max);
    return IntegerAttr::get(element, APInt(width, (uint64_t)v));
  }
  double max = std::ldexp(1.0, width - 1);
  double v = std::isnan(value) ? 0 : std::clamp(value, -max, max - 1);
  return IntegerAttr::get(element,
                          APInt(width, (uint64_t)(int64_t)v, /*isSigned=*/true));
}

Value TensorBuilder::constant(ElementsAttr value) {
  // One op per distinct constant of a node (they all precede it).
  Value &cached = constants[value];
  if (!cached)
    cached = builder.create<ConstOp>(loc, value).getResult();
  return cached;
}

Value TensorBuilder::splat(Type element, ArrayRef<int64_t> shape,
                           double value) {
  auto type = RankedTensorType::get(shape, element);
  return constant(DenseElementsAttr::get(type, scalarAttr(element, value)));
}

Value TensorBuilder::splatLike(Value like, double value) {
  if (!like)
    return {};
  return splat(elementTypeOf(like), shapeOf(like), value);
}

Value TensorBuilder::lowest(Type element, ArrayRef<int64_t> shape) {
  if (isa<FloatType>(element))
    return splat(element, shape, -INFINITY);
  auto integer = llvm::cast<IntegerType>(element);
  APInt value = integer.isSigned()
                    ? APInt::getSignedMinValue(integer.getWidth())
                    : APInt::getZero(integer.getWidth());
  return constant(DenseElementsAttr::get(RankedTensorType::get(shape, element),
                                         IntegerAttr::get(element, value)));
}

Value TensorBuilder::arange(int64_t n, Type element) {
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(scalarAttr(element, static_cast<double>(i)));
  return constant(
      DenseElementsAttr::get(RankedTensorType::get({n}, element), values));
}

//===----------------------------------------------------------------------===//
// Movement
//===----------------------------------------------------------------------===//

Value TensorBuilder::reshape(Value x, ArrayRef<int64_t> shape) {
  if (!x)
    return {};
  // reshape(reshape(y)) = reshape(y): emit one.
  if (auto inner = x.getDefiningOp<ReshapeOp>())
    x = inner.getSrc();
  if (shapeOf(x) == shape)
    return x;
  if (numElements(shapeOf(x)) != numElements(shape)) {
    error() << "cannot reshape " << shapeString(shapeOf(x)) << " to "
            << shapeString(shape);
    return {};
  }
  auto type = RankedTensorType::get(shape, elementTypeOf(x));
  return builder.create<ReshapeOp>(loc, type, x).getResult();
}

Value TensorBuilder::permute(Value x, ArrayRef<int64_t> order) {
  if (!x)
    return {};
  // permute(permute(y, inner), order) = permute(y, inner[order[i]]).
  SmallVector<int64_t> composed;
  if (auto inner = x.getDefiningOp<PermuteOp>();
      inner && order.size() == inner.getOrder().size() &&
      llvm::all_of(order, [&](int64_t a) {
        return a >= 0 && a < (int64_t)order.size();
      })) {
    for (int64_t axis : order)
      composed.push_back(inner.getOrder()[axis]);
    x = inner.getSrc();
    order = composed;
  }
  ArrayRef<int64_t> shape = shapeOf(x);
  llvm::SmallSet<int64_t, 8> seen;
  bool identity = true;
  SmallVector<int64_t> result;
  for (auto [i, axis] : llvm::enumerate(order)) {
    if (axis < 0 || axis >= (int64_t)shape.size() || !seen.insert(axis).second) {
      error() << "invalid permutation " << shapeString(order) << " of rank "
              << shape.size();
      return {};
    }
    identity &= axis == (int64_t)i;
    result.push_back(shape[axis]);
  }
  if (order.size() != shape.size()) {
    error() << "permutation " << shapeString(order) << " does not fit rank "
            << shape.size();
    return {};
  }
  if (identity)
    return x;
  auto type = RankedTensorType::get(result, elementTypeOf(x));
  return builder.create<PermuteOp>(loc, type, x, order).getResult();
}

Value TensorBuilder::expand(Value x, ArrayRef<int64_t> shape) {
  if (!x)
    return {};
  // expand(expand(y)) = expand(y)
  if (auto inner = x.getDefiningOp<ExpandOp>())
    x = inner.getSrc();
  ArrayRef<int64_t> from = shapeOf(x);
  if (from == shape)
    return x;
  bool ok = from.size() == shape.size();
  for (size_t i = 0; ok && i < shape.size(); ++i)
    ok = from[i] == shape[i] || from[i] == 1;
  if (!ok) {
    error() << "cannot expand " << shapeString(from) << " to "
            << shapeString(shape);
    return {};
  }
  auto type = RankedTensorType::get(shape, elementTypeOf(x));
  return builder.create<ExpandOp>(loc, type, x).getResult();
}

Value TensorBuilder::broadcastTo(Value x, ArrayRef<int64_t> shape) {
  if (!x)
    return {};
  ArrayRef<int64_t> from = shapeOf(x);
  if (from.size() > shape.size()) {
    error() << "cannot broadcast " << shapeString(from) << " to "
            << shapeString(shape);
    return {};
  }
  SmallVector<int64_t> padded(shape.size() - from.size(), 1);
  llvm::append_range(padded, from);
  return expand(reshape(x, padded), shape);
}

Value TensorBuilder::shrink(Value x, ArrayRef<int64_t> begin,
                            ArrayRef<int64_t> end) {
  if (!x)
    return {};
  ArrayRef<int64_t> shape = shapeOf(x);
  SmallVector<int64_t> result;
  bool full = true;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (begin[i] < 0 || begin[i] > end[i] || end[i] > shape[i]) {
      error() << "cannot shrink dim " << i << " of size " << shape[i]
              << " to [" << begin[i] << ", " << end[i] << ")";
      return {};
    }
    full &= begin[i] == 0 && end[i] == shape[i];
    result.push_back(end[i] - begin[i]);
  }
  if (full)
    return x;
  auto type = RankedTensorType::get(result, elementTypeOf(x));
  return builder.create<ShrinkOp>(loc, type, x, begin, end).getResult();
}

Value TensorBuilder::pad(Value x, ArrayRef<int64_t> low,
                         ArrayRef<int64_t> high) {
  if (!x)
    return {};
  ArrayRef<int64_t> shape = shapeOf(x);
  SmallVector<int64_t> begin, end, padLow, padHigh, result;
  for (size_t i = 0; i < shape.size(); ++i) {
    begin.push_back(std::max<int64_t>(0, -low[i]));
    end.push_back(shape[i] - std::max<int64_t>(0, -high[i]));
    if (end[i] < begin[i]) {
      error() << "negative pads remove more than dim " << i << " of size "
              << shape[i];
      return {};
    }
    padLow.push_back(std::max<int64_t>(0, low[i]));
    padHigh.push_back(std::max<int64_t>(0, high[i]));
    result.push_back(end[i] - begin[i] + padLow[i] + padHigh[i]);
  }
  x = shrink(x, begin, end);
  if (!x || llvm::all_of(llvm::concat<int64_t>(padLow, padHigh),
                         [](int64_t p) { return p == 0; }))
    return x;
  auto type = RankedTensorType::get(result, elementTypeOf(x));
  return builder.create<PadOp>(loc, type, x, padLow, padHigh).getResult();
}

Value TensorBuilder::pad(Value x, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                         Value fill) {
  if (!x || !fill)
    return {};
  // Shrink first, so that the mask covers exactly what is kept of x.
  SmallVector<int64_t> shrinkLow, shrinkHigh, padLow, padHigh;
  for (size_t i = 0; i < low.size(); ++i) {
    shrinkLow.push_back(std::min<int64_t>(0, low[i]));
    shrinkHigh.push_back(std::min<int64_t>(0, high[i]));
    padLow.push_back(std::max<int64_t>(0, low[i]));
    padHigh.push_back(std::max<int64_t>(0, high[i]));
  }
  x = pad(x, shrinkLow, shrinkHigh);
  if (!x)
    return {};
  Value padded = pad(x, padLow, padHigh);
  if (padded == x)
    return x;
  Value inside = pad(splat(builder.getI1Type(), shapeOf(x), 1), padLow,
                     padHigh);
  return where(inside, padded, fill);
}

Value TensorBuilder::pad(Value x, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                         double fill) {
  if (!x)
    return {};
  // Zero pads need no mask (but -0.0 does: pad writes +0.0).
  if (fill == 0 && !std::signbit(fill))
    return pad(x, low, high);
  return pad(x, low, high, splat(elementTypeOf(x), {}, fill));
}

Value TensorBuilder::flip(Value x, ArrayRef<int64_t> axes) {
  if (!x || axes.empty())
    return x;
  SmallVector<int64_t> kept;
  for (int64_t axis : axes)
    if (shapeOf(x)[axis] > 1)
      kept.push_back(axis);
  if (kept.empty())
    return x;
  return builder.create<FlipOp>(loc, x.getType(), x, kept).getResult();
}

Value TensorBuilder::stride(Value x, int64_t axis, int64_t start,
                            int64_t count, int64_t step) {
  if (!x)
    return {};
  int64_t dim = shapeOf(x)[axis];
  if (step < 0) {
    x = flip(x, {axis});
    start = dim - 1 - start;
    step = -step;
  }
  int64_t rank = rankOf(x);
  SmallVector<int64_t> begin(rank, 0), end(shapeOf(x));
  if (count == 0) {
    begin[axis] = end[axis] = 0;
    return shrink(x, begin, end);
  }
  if (step == 0 || start < 0 || start + (count - 1) * step >= dim) {
    error() << "slice of " << count << " elements from " << start
            << " by step " << step << " leaves dim " << axis << " of size "
            << dim;
    return {};
  }
  // Take count*step elements (padding past the end: those are never read),
  // view them as [count, step] and keep the first column.
  int64_t span = std::min(dim - start, count * step);
  begin[axis] = start;
  end[axis] = start + span;
  x = shrink(x, begin, end);
  if (step == 1)
    return x;
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  high[axis] = count * step - span;
  x = pad(x, low, high);
  if (!x)
    return {};
  SmallVector<int64_t> split(shapeOf(x));
  split[axis] = step;
  split.insert(split.begin() + axis, count);
  x = reshape(x, split);
  SmallVector<int64_t> keepBegin(rank + 1, 0), keepEnd(split);
  keepEnd[axis + 1] = 1;
  x = shrink(x, keepBegin, keepEnd);
  split.erase(split.begin() + axis + 1);
  return reshape(x, split);
}

Value TensorBuilder::repeat(Value x, ArrayRef<int64_t> repeats) {
  if (!x)
    return {};
  if (llvm::all_of(repeats, [](int64_t r) { return r == 1; }))
    return x;
  // [.., d, ..] -> [.., 1, d, ..] -> [.., r, d, ..] -> [.., r*d, ..]
  SmallVector<int64_t> interleaved, expanded, result;
  for (auto [d, r] : llvm::zip(shapeOf(x), repeats)) {
    if (r != 1) {
      interleaved.push_back(1);
      expanded.push_back(r);
    }
    interleaved.push_back(d);
    expanded.push_back(d);
    result.push_back(r * d);
  }
  return reshape(expand(reshape(x, interleaved), expanded), result);
}

Value TensorBuilder::concat(ArrayRef<Value> parts, int64_t axis) {
  if (parts.empty() || llvm::any_of(parts, [](Value v) { return !v; }))
    return {};
  int64_t total = 0;
  for (Value part : parts)
    total += shapeOf(part)[axis];
  int64_t rank = rankOf(parts[0]);
  Value result;
  int64_t offset = 0;
  for (Value part : parts) {
    int64_t dim = shapeOf(part)[axis];
    SmallVector<int64_t> low(rank, 0), high(rank, 0);
    low[axis] = offset;
    high[axis] = total - offset - dim;
    offset += dim;
    if (dim == 0 && parts.size() > 1)
      continue;
    Value padded = pad(part, low, high);
    if (!result)
      result = padded;
    else if (elementTypeOf(part).isInteger(1))
      result = logicalOr(result, padded);
    else
      result = add(result, padded);
  }
  return result;
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
  return builder.create<OpT>(loc, a.getType(), a, b).getResult();
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

template <typename OpT> static Value unary(OpBuilder &builder, Location loc,
                                           Value x) {
  if (!x)
    return {};
  return builder.create<OpT>(loc, x.getType(), x).getResult();
}

Value TensorBuilder::neg(Value x) {
  // -(-y) = y, exactly (min of floats negates twice).
  if (auto inner = x ? x.getDefiningOp<NegOp>() : NegOp())
    return inner.getSrc();
  return unary<NegOp>(builder, loc, x);
}
Value TensorBuilder::recip(Value x) { return unary<RecipOp>(builder, loc, x); }
Value TensorBuilder::sqrt(Value x) { return unary<SqrtOp>(builder, loc, x); }
Value TensorBuilder::exp2(Value x) { return unary<Exp2Op>(builder, loc, x); }
Value TensorBuilder::log2(Value x) { return unary<Log2Op>(builder, loc, x); }
Value TensorBuilder::sin(Value x) { return unary<SinOp>(builder, loc, x); }
Value TensorBuilder::trunc(Value x) {
  if (x && !isFloat(x))
    return x;
  return unary<TruncOp>(builder, loc, x);
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

Value TensorBuilder::abs(Value x) {
  if (!x)
    return {};
  Type element = elementTypeOf(x);
  if (auto fl = dyn_cast<FloatType>(element)) {
    // Clear the sign bit: exact for -0.0, infinities and NaN.
    unsigned width = fl.getWidth();
    auto bitsType = IntegerType::get(builder.getContext(), width,
                                     IntegerType::Unsigned);
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

Value TensorBuilder::sigmoid(Value x) {
  return recip(add(exp(neg(x)), 1.0));
}

Value TensorBuilder::tanh(Value x) {
  return sub(mul(sigmoid(mul(x, 2.0)), 2.0), 1.0);
}

Value TensorBuilder::erf(Value x) {
  if (!x)
    return {};
  // Abramowitz & Stegun 7.1.26 on |x|, sign restored at the end.
  static constexpr double p = 0.3275911;
  static constexpr double a[5] = {0.254829592, -0.284496736, 1.421413741,
                                  -1.453152027, 1.061405429};
  Value ax = abs(x);
  Value t = recip(add(mul(ax, p), 1.0));
  Value poly = splatLike(x, a[4]);
  for (int i = 3; i >= 0; --i)
    poly = add(mul(poly, t), a[i]);
  poly = mul(poly, t);
  Value gauss = exp(neg(mul(ax, ax)));
  Value one = splatLike(x, 1.0);
  Value y = sub(one, mul(poly, gauss));
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
  return builder.create<CastOp>(loc, typeOf(x).clone(element), x).getResult();
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
