//===- TensorBuilder.cpp - constants and movement --------------*- C++ -*-===//
//
// TensorBuilder's constants and movement ops (tinygrad's reshape, permute,
// expand, pad, shrink, flip and the views built from them). Each skips
// itself when it would not change its input, and chains of reshapes,
// permutes and expands collapse into one op as they are built.
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
  return IntegerAttr::get(
      element, APInt(width, (uint64_t)(int64_t)v, /*isSigned=*/true));
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

/// -inf or +inf, or the integer's minimum or maximum, as a splat.
static DenseElementsAttr extremeOf(Type element, ArrayRef<int64_t> shape,
                                   bool highest) {
  auto type = RankedTensorType::get(shape, element);
  if (isa<FloatType>(element))
    return DenseElementsAttr::get(
        type,
        TensorBuilder::scalarAttr(element, highest ? INFINITY : -INFINITY));
  auto integer = llvm::cast<IntegerType>(element);
  unsigned width = integer.getWidth();
  APInt value = integer.isSigned() ? (highest ? APInt::getSignedMaxValue(width)
                                              : APInt::getSignedMinValue(width))
                                   : (highest ? APInt::getMaxValue(width)
                                              : APInt::getZero(width));
  return DenseElementsAttr::get(type, IntegerAttr::get(element, value));
}

Value TensorBuilder::lowest(Type element, ArrayRef<int64_t> shape) {
  return constant(extremeOf(element, shape, /*highest=*/false));
}

Value TensorBuilder::highest(Type element, ArrayRef<int64_t> shape) {
  return constant(extremeOf(element, shape, /*highest=*/true));
}

Value TensorBuilder::arange(int64_t n, Type element) {
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(scalarAttr(element, static_cast<double>(i)));
  return constant(
      DenseElementsAttr::get(RankedTensorType::get({n}, element), values));
}

Value TensorBuilder::arangeByDigits(int64_t n, Type element) {
  constexpr int64_t base = 16;
  int64_t digits = 1, span = base;
  while (span < n) {
    ++digits;
    span *= base;
  }
  SmallVector<int64_t> shape(digits, base);
  Value sum;
  for (int64_t d = 0, weight = span / base; d < digits; ++d, weight /= base) {
    SmallVector<Attribute> values;
    for (int64_t i = 0; i < base; ++i)
      values.push_back(scalarAttr(element, static_cast<double>(i * weight)));
    SmallVector<int64_t> along(digits, 1);
    along[d] = base;
    Value digit = reshape(constant(DenseElementsAttr::get(
                              RankedTensorType::get({base}, element), values)),
                          along);
    sum = sum ? add(sum, expand(digit, shape)) : expand(digit, shape);
  }
  return shrink(reshape(sum, {span}), {0}, {n});
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
    if (axis < 0 || axis >= (int64_t)shape.size() ||
        !seen.insert(axis).second) {
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

Value TensorBuilder::contiguous(Value x) {
  if (!x)
    return {};
  return builder.create<ContiguousOp>(loc, x).getResult();
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
      error() << "cannot shrink dim " << i << " of size " << shape[i] << " to ["
              << begin[i] << ", " << end[i] << ")";
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
  Value inside =
      pad(splat(builder.getI1Type(), shapeOf(x), 1), padLow, padHigh);
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

Value TensorBuilder::stride(Value x, int64_t axis, int64_t start, int64_t count,
                            int64_t step) {
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
    error() << "slice of " << count << " elements from " << start << " by step "
            << step << " leaves dim " << axis << " of size " << dim;
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
  int64_t rank = rankOf(parts[0]);
  int64_t total = 0;
  for (Value part : parts) {
    bool fits = rankOf(part) == rank && axis >= 0 && axis < rank &&
                elementTypeOf(part) == elementTypeOf(parts[0]);
    for (int64_t i = 0; fits && i < rank; ++i)
      fits = i == axis || shapeOf(part)[i] == shapeOf(parts[0])[i];
    if (!fits) {
      error() << "cannot concatenate " << typeOf(part) << " with "
              << typeOf(parts[0]) << " along axis " << axis;
      return {};
    }
    total += shapeOf(part)[axis];
  }
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
    if (!result)
      result = pad(part, low, high);
    else if (elementTypeOf(part).isInteger(1))
      result = logicalOr(result, pad(part, low, high));
    else if (isFloat(part))
      // A select, not an add of zeros: exact for -0.0, and where a part's
      // position is known (its axis upcast) the select folds away, while
      // x + 0.0 must stay.
      result = pad(part, low, high, result);
    else
      result = add(result, pad(part, low, high));
  }
  return result;
}
