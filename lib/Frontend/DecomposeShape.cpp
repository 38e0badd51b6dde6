//===- DecomposeShape.cpp - shape and data-movement ONNX ops ----*- C++ -*-===//
//
// Reshape, Transpose, Flatten, Squeeze, Unsqueeze, Concat, Slice, Gather,
// Expand, Tile, Split, Pad, DepthToSpace/SpaceToDepth, and the ops whose
// value is known from static shapes (Shape, Size, ConstantOfShape, Range).
// Every result type is static, so the target shape of a reshape-like op is
// the node's result type; where the ONNX inputs say the shape too, it is
// checked against it.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"
#include "mlir/IR/BuiltinAttributes.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tgc;

namespace {

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

/// Reshapes `x` to the node's result type after checking that the shape
/// the op computes, `expected`, agrees with it.
LogicalResult reshapeToResult(NodeContext &ctx, Value x,
                              ArrayRef<int64_t> expected) {
  ArrayRef<int64_t> declared = ctx.resultType(0).getShape();
  if (expected != declared) {
    ctx.error() << "computes shape " << shapeString(expected)
                << " but the node declares " << shapeString(declared);
    return failure();
  }
  ctx.setResult(0, ctx.tb().reshape(x, declared));
  return success();
}

LogicalResult decomposeReshape(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "data");
  bool allowZero = ctx.intAttr("allowzero", 0) != 0;
  if (!x)
    return failure();
  std::optional<SmallVector<int64_t>> target;
  if (ctx.opset() < 5) {
    target = ctx.intsAttr("shape");
  } else {
    Value shape = ctx.requiredInput(1, "shape");
    if (!shape)
      return failure();
    if (!shape.getDefiningOp<ConstOp>()) {
      // Computed at run time, but the static result type says what it is.
      ctx.setResult(0, ctx.tb().reshape(x, ctx.resultType(0).getShape()));
      return success();
    }
    auto given = ctx.constInts(1, "shape");
    if (failed(given))
      return failure();
    target = *given;
  }
  if (!target) {
    ctx.error() << "needs a shape";
    return failure();
  }
  // 0 copies the input dim (unless allowzero), -1 takes what is left.
  ArrayRef<int64_t> in = TensorBuilder::shapeOf(x);
  SmallVector<int64_t> shape;
  int64_t known = 1, inferred = -1;
  for (auto [i, d] : llvm::enumerate(*target)) {
    if (d == 0 && !allowZero) {
      if (i >= in.size()) {
        ctx.error() << "shape dim " << i << " copies a dim the input lacks";
        return failure();
      }
      d = in[i];
    }
    if (d == -1) {
      if (inferred >= 0) {
        ctx.error() << "shape has two -1 dims";
        return failure();
      }
      inferred = i;
    } else if (d < 0) {
      ctx.error() << "shape dim " << d << " is negative";
      return failure();
    } else {
      known *= d;
    }
    shape.push_back(d);
  }
  int64_t total = TensorBuilder::numElements(in);
  if (inferred >= 0)
    shape[inferred] = known == 0 ? 0 : total / known;
  return reshapeToResult(ctx, x, shape);
}

LogicalResult decomposeFlatten(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  int64_t axisAttr = ctx.intAttr("axis", 1);
  if (!x)
    return failure();
  ArrayRef<int64_t> in = TensorBuilder::shapeOf(x);
  int64_t rank = in.size();
  // Unlike other axes, this one may equal the rank.
  if (axisAttr < -rank || axisAttr > rank) {
    ctx.error() << "axis " << axisAttr << " is out of range for rank " << rank;
    return failure();
  }
  int64_t a = axisAttr < 0 ? axisAttr + rank : axisAttr;
  return reshapeToResult(ctx, x,
                         {TensorBuilder::numElements(in.take_front(a)),
                          TensorBuilder::numElements(in.drop_front(a))});
}

/// Squeeze/Unsqueeze axes: an attribute before opset 13, an input since.
FailureOr<std::optional<SmallVector<int64_t>>> axesOf(NodeContext &ctx) {
  if (ctx.opset() < 13)
    return ctx.intsAttr("axes");
  return ctx.constInts(1, "axes");
}

/// Squeeze/Unsqueeze whose axes are computed at run time: they only move
/// dims of size 1, so the static result type says everything.
bool reshapesByResultType(NodeContext &ctx, Value x) {
  Value axes = ctx.opset() >= 13 ? ctx.input(1) : Value();
  if (!x || !axes || axes.getDefiningOp<ConstOp>())
    return false;
  ctx.setResult(0, ctx.tb().reshape(x, ctx.resultType(0).getShape()));
  return true;
}

LogicalResult decomposeSqueeze(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "data");
  if (reshapesByResultType(ctx, x))
    return success();
  auto axes = axesOf(ctx);
  if (!x || failed(axes))
    return failure();
  ArrayRef<int64_t> in = TensorBuilder::shapeOf(x);
  SmallVector<int64_t> drop;
  if (*axes) {
    auto normalized = ctx.normalizeAxes(**axes, in.size());
    if (failed(normalized))
      return failure();
    drop = *normalized;
    for (int64_t axis : drop)
      if (in[axis] != 1) {
        ctx.error() << "cannot squeeze dim " << axis << " of size "
                    << in[axis];
        return failure();
      }
  } else {
    for (auto [i, d] : llvm::enumerate(in))
      if (d == 1)
        drop.push_back(i);
  }
  SmallVector<int64_t> shape;
  for (auto [i, d] : llvm::enumerate(in))
    if (!llvm::is_contained(drop, (int64_t)i))
      shape.push_back(d);
  return reshapeToResult(ctx, x, shape);
}

LogicalResult decomposeUnsqueeze(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "data");
  if (reshapesByResultType(ctx, x))
    return success();
  auto axes = axesOf(ctx);
  if (!x || failed(axes))
    return failure();
  if (!*axes) {
    ctx.error() << "needs axes";
    return failure();
  }
  ArrayRef<int64_t> in = TensorBuilder::shapeOf(x);
  int64_t rank = in.size() + (*axes)->size();
  auto normalized = ctx.normalizeAxes(**axes, rank);
  if (failed(normalized))
    return failure();
  SmallVector<int64_t> shape;
  const int64_t *next = in.begin();
  for (int64_t i = 0; i < rank; ++i)
    shape.push_back(llvm::is_contained(*normalized, i) ? 1 : *next++);
  return reshapeToResult(ctx, x, shape);
}

LogicalResult decomposeTranspose(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "data");
  std::optional<SmallVector<int64_t>> perm = ctx.intsAttr("perm");
  if (!x)
    return failure();
  int64_t rank = TensorBuilder::rankOf(x);
  SmallVector<int64_t> order;
  if (perm) {
    auto normalized = ctx.normalizeAxes(*perm, rank);
    if (failed(normalized))
      return failure();
    order = *normalized;
  } else {
    for (int64_t i = rank - 1; i >= 0; --i)
      order.push_back(i);
  }
  ctx.setResult(0, ctx.tb().permute(x, order));
  return success();
}

LogicalResult decomposeConcat(NodeContext &ctx) {
  SmallVector<Value> parts = ctx.allInputs();
  int64_t axisAttr = ctx.intAttr("axis", 0);
  if (!ctx.hasAttr("axis") || parts.empty()) {
    ctx.error() << "needs inputs and an axis";
    return failure();
  }
  auto axis = ctx.normalizeAxis(axisAttr, TensorBuilder::rankOf(parts[0]));
  if (failed(axis))
    return failure();
  ctx.setResult(0, ctx.tb().concat(parts, *axis));
  return success();
}

/// Slice with ONNX's clamping; negative steps read backwards (a flip).
LogicalResult decomposeSlice(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "data");
  if (!x)
    return failure();
  SmallVector<int64_t> starts, ends, axes, steps;
  if (ctx.opset() < 10) {
    auto s = ctx.intsAttr("starts"), e = ctx.intsAttr("ends");
    if (!s || !e) {
      ctx.error() << "needs 'starts' and 'ends'";
      return failure();
    }
    starts = *s;
    ends = *e;
    if (auto a = ctx.intsAttr("axes"))
      axes = *a;
  } else {
    ctx.requiredInput(1, "starts");
    ctx.requiredInput(2, "ends");
    auto s = ctx.constInts(1, "starts"), e = ctx.constInts(2, "ends");
    auto a = ctx.constInts(3, "axes"), st = ctx.constInts(4, "steps");
    if (failed(s) || failed(e) || failed(a) || failed(st) || !*s || !*e)
      return failure();
    starts = **s;
    ends = **e;
    if (*a)
      axes = **a;
    if (*st)
      steps = **st;
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size()) {
    ctx.error() << "starts, ends, axes and steps differ in length";
    return failure();
  }
  int64_t rank = TensorBuilder::rankOf(x);
  auto normalized = ctx.normalizeAxes(axes, rank);
  if (failed(normalized))
    return failure();
  Value result = x;
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t axis = (*normalized)[i], step = steps[i];
    int64_t dim = TensorBuilder::shapeOf(x)[axis];
    if (step == 0) {
      ctx.error() << "step 0 on axis " << axis;
      return failure();
    }
    int64_t start = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t end = ends[i] < 0 ? ends[i] + dim : ends[i];
    int64_t count = 0;
    if (dim > 0 && step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
      count = end > start ? (end - start + step - 1) / step : 0;
    } else if (dim > 0) {
      start = std::clamp<int64_t>(start, 0, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
      count = start > end ? (start - end - step - 1) / -step : 0;
    }
    if (count == 0)
      start = 0;
    result = ctx.tb().stride(result, axis, start, count, count ? step : 1);
  }
  ctx.setResult(0, result);
  return success();
}

/// Gather with constant indices in arithmetic progression: a strided
/// slice. Otherwise tinygrad's one-hot: compare the indices with an arange
/// along the gathered axis, select, and sum the axis away.
LogicalResult decomposeGather(NodeContext &ctx) {
  Value data = ctx.requiredInput(0, "data");
  Value indices = ctx.requiredInput(1, "indices");
  int64_t axisAttr = ctx.intAttr("axis", 0);
  if (!data || !indices)
    return failure();
  TensorBuilder &tb = ctx.tb();
  int64_t rank = TensorBuilder::rankOf(data);
  auto axis = ctx.normalizeAxis(axisAttr, rank);
  if (failed(axis))
    return failure();
  ArrayRef<int64_t> dataShape = TensorBuilder::shapeOf(data);
  ArrayRef<int64_t> indexShape = TensorBuilder::shapeOf(indices);
  int64_t n = dataShape[*axis];
  SmallVector<int64_t> outShape(dataShape.take_front(*axis));
  llvm::append_range(outShape, indexShape);
  llvm::append_range(outShape, dataShape.drop_front(*axis + 1));

  if (indices.getDefiningOp<ConstOp>()) {
    auto values = ctx.constInts(1, "indices");
    if (failed(values))
      return failure();
    SmallVector<int64_t> idx = **values;
    for (int64_t &i : idx) {
      if (i < -n || i >= n) {
        ctx.error() << "index " << i << " is out of range for a dim of size "
                    << n;
        return failure();
      }
      if (i < 0)
        i += n;
    }
    int64_t step = idx.size() > 1 ? idx[1] - idx[0] : 1;
    bool progression = !idx.empty();
    for (size_t i = 1; i < idx.size(); ++i)
      progression &= idx[i] - idx[i - 1] == step;
    if (progression) {
      int64_t count = idx.size();
      Value picked = step == 0 ? tb.stride(data, *axis, idx[0], 1, 1)
                               : tb.stride(data, *axis, idx[0], count, step);
      if (step == 0) {
        SmallVector<int64_t> grown(TensorBuilder::shapeOf(picked));
        grown[*axis] = count;
        picked = tb.expand(picked, grown);
      }
      return reshapeToResult(ctx, picked, outShape);
    }
    // Irregular constant indices: the one-hot below, with them normalized
    // here rather than at run time.
    if (idx != **values) {
      auto type = llvm::cast<RankedTensorType>(indices.getType());
      SmallVector<Attribute> normalized;
      for (int64_t i : idx)
        normalized.push_back(IntegerAttr::get(type.getElementType(), i));
      indices = tb.constant(DenseElementsAttr::get(type, normalized));
    }
  }

  // One-hot over [A..., Q..., n, B...], summed over n.
  Value values = data;
  Type element = TensorBuilder::elementTypeOf(data);
  bool isBool = element.isInteger(1);
  if (isBool) // i1 cannot be summed; gather bytes instead
    values = tb.cast(values, tb.getBuilder().getIntegerType(8, false));
  int64_t q = indexShape.size();
  SmallVector<int64_t> dataView(dataShape.take_front(*axis)), indexView,
      rangeView;
  dataView.append(q, 1);
  llvm::append_range(dataView, dataShape.drop_front(*axis));
  indexView.append(*axis, 1);
  llvm::append_range(indexView, indexShape);
  indexView.push_back(1);
  indexView.append(rank - *axis - 1, 1);
  rangeView.append(*axis + q, 1);
  rangeView.push_back(n);
  rangeView.append(rank - *axis - 1, 1);

  Value idx = indices;
  if (!idx.getDefiningOp<ConstOp>()) {
    Value negative = tb.lt(idx, tb.splatLike(idx, 0));
    idx = tb.where(negative, tb.add(idx, tb.splatLike(idx, n)), idx);
  }
  Value range = tb.reshape(
      tb.arange(n, TensorBuilder::elementTypeOf(indices)), rangeView);
  Value hit = tb.eq(tb.reshape(idx, indexView), range);
  Value view = tb.reshape(values, dataView);
  Value picked = tb.where(hit, view, tb.splat(TensorBuilder::elementTypeOf(view),
                                              {}, 0));
  Value result = tb.sum(picked, {*axis + q}, false);
  if (isBool)
    result = tb.cast(result, element);
  return reshapeToResult(ctx, result, outShape);
}

LogicalResult decomposeExpand(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  ctx.requiredInput(1, "shape"); // the result type carries it
  if (!x)
    return failure();
  ctx.setResult(0, ctx.tb().broadcastTo(x, ctx.resultType(0).getShape()));
  return success();
}

LogicalResult decomposeTile(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  ctx.requiredInput(1, "repeats");
  if (!x)
    return failure();
  ArrayRef<int64_t> in = TensorBuilder::shapeOf(x);
  ArrayRef<int64_t> out = ctx.resultType(0).getShape();
  SmallVector<int64_t> repeats;
  if (ctx.getNode().getInputs()[1].getDefiningOp<ConstOp>()) {
    auto given = ctx.constInts(1, "repeats");
    if (failed(given))
      return failure();
    repeats = **given;
  } else {
    // Not constant, but the static result type says what they are.
    for (auto [i, o] : llvm::zip(in, out))
      repeats.push_back(i == 0 ? 0 : o / i);
  }
  if (repeats.size() != in.size()) {
    ctx.error() << "needs one repeat per dim";
    return failure();
  }
  ctx.setResult(0, ctx.tb().repeat(x, repeats));
  return success();
}

/// Split: the sizes are the result types' dims along the axis; a given
/// split (attribute, input or num_outputs) must agree with them.
LogicalResult decomposeSplit(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  int64_t axisAttr = ctx.intAttr("axis", 0);
  ctx.intAttr("num_outputs", 0);
  if (!x)
    return failure();
  int64_t rank = TensorBuilder::rankOf(x);
  auto axis = ctx.normalizeAxis(axisAttr, rank);
  if (failed(axis))
    return failure();
  std::optional<SmallVector<int64_t>> given;
  if (ctx.opset() < 13) {
    given = ctx.intsAttr("split");
  } else if (Value split = ctx.input(1);
             split && split.getDefiningOp<ConstOp>()) {
    auto values = ctx.constInts(1, "split");
    if (failed(values))
      return failure();
    given = *values;
  }
  SmallVector<int64_t> sizes;
  for (unsigned i = 0; i < ctx.numResults(); ++i)
    sizes.push_back(ctx.resultType(i).getShape()[*axis]);
  if (given && *given != sizes) {
    ctx.error() << "split " << shapeString(*given)
                << " differs from the output sizes " << shapeString(sizes);
    return failure();
  }
  int64_t offset = 0;
  for (unsigned i = 0; i < ctx.numResults(); ++i) {
    SmallVector<int64_t> begin(rank, 0), end(TensorBuilder::shapeOf(x));
    begin[*axis] = offset;
    end[*axis] = offset + sizes[i];
    offset += sizes[i];
    if (offset > TensorBuilder::shapeOf(x)[*axis]) {
      ctx.error() << "outputs are larger than the input along axis "
                  << *axis;
      return failure();
    }
    ctx.setResult(i, ctx.tb().shrink(x, begin, end));
  }
  return success();
}

/// Edge and reflect padding of one axis: the borders are views of `x`
/// (repeated edge elements, or mirrored ones) concatenated around it.
Value padBorders(TensorBuilder &tb, Value x, int64_t axis, int64_t low,
                 int64_t high, bool reflect) {
  int64_t dim = TensorBuilder::shapeOf(x)[axis];
  auto piece = [&](int64_t begin, int64_t end) {
    SmallVector<int64_t> b(TensorBuilder::rankOf(x), 0),
        e(TensorBuilder::shapeOf(x));
    b[axis] = begin;
    e[axis] = end;
    return tb.shrink(x, b, e);
  };
  auto border = [&](int64_t count, bool atStart) -> Value {
    if (reflect)
      return atStart ? tb.flip(piece(1, 1 + count), {axis})
                     : tb.flip(piece(dim - 1 - count, dim - 1), {axis});
    Value edge = atStart ? piece(0, 1) : piece(dim - 1, dim);
    SmallVector<int64_t> shape(TensorBuilder::shapeOf(x));
    shape[axis] = count;
    return tb.expand(edge, shape);
  };
  SmallVector<Value> parts;
  if (low > 0)
    parts.push_back(border(low, true));
  parts.push_back(x);
  if (high > 0)
    parts.push_back(border(high, false));
  return tb.concat(parts, axis);
}

/// Pad: constant, edge or reflect mode; negative pads shrink.
LogicalResult decomposePad(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "data");
  std::string mode = ctx.strAttr("mode", "constant");
  if (!x)
    return failure();
  if (mode != "constant" && mode != "edge" && mode != "reflect") {
    ctx.error() << "mode '" << mode << "' is not supported";
    return failure();
  }
  TensorBuilder &tb = ctx.tb();
  int64_t rank = TensorBuilder::rankOf(x);
  SmallVector<int64_t> pads, axes;
  Value fill;
  double fillValue = 0;
  if (ctx.opset() < 11) {
    std::optional<SmallVector<int64_t>> given = ctx.intsAttr("pads");
    if (!given) {
      ctx.error() << "needs 'pads'";
      return failure();
    }
    pads = *given;
    fillValue = ctx.floatAttr("value", 0);
  } else {
    ctx.requiredInput(1, "pads");
    auto given = ctx.constInts(1, "pads");
    auto axesGiven = ctx.constInts(3, "axes");
    if (failed(given) || failed(axesGiven) || !*given)
      return failure();
    pads = **given;
    if (*axesGiven) {
      auto normalized = ctx.normalizeAxes(**axesGiven, rank);
      if (failed(normalized))
        return failure();
      axes = *normalized;
    }
    // A constant zero needs no mask; any other value is selected as is.
    if (Value value = ctx.input(2)) {
      std::optional<double> c = ctx.constScalar(2);
      if (!c || *c != 0 || std::signbit(*c))
        fill = value;
    }
  }
  if (axes.empty())
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  if (pads.size() != 2 * axes.size()) {
    ctx.error() << "'pads' has " << pads.size() << " values for "
                << axes.size() << " axes";
    return failure();
  }
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  for (auto [i, axis] : llvm::enumerate(axes)) {
    low[axis] = pads[i];
    high[axis] = pads[axes.size() + i];
  }
  if (mode == "constant") {
    ctx.setResult(0, fill ? tb.pad(x, low, high, fill)
                          : tb.pad(x, low, high, fillValue));
    return success();
  }
  // Negative pads shrink first; then each axis grows its borders.
  SmallVector<int64_t> shrinkLow, shrinkHigh;
  for (int64_t i = 0; i < rank; ++i) {
    shrinkLow.push_back(std::min<int64_t>(0, low[i]));
    shrinkHigh.push_back(std::min<int64_t>(0, high[i]));
  }
  Value result = tb.pad(x, shrinkLow, shrinkHigh);
  bool reflect = mode == "reflect";
  for (int64_t axis = 0; axis < rank && result; ++axis) {
    int64_t l = std::max<int64_t>(0, low[axis]);
    int64_t h = std::max<int64_t>(0, high[axis]);
    int64_t dim = TensorBuilder::shapeOf(result)[axis];
    if (l == 0 && h == 0)
      continue;
    if (dim == 0 || (reflect && (l >= dim || h >= dim))) {
      ctx.error() << mode << " padding of " << l << " and " << h
                  << " does not fit dim " << axis << " of size " << dim;
      return failure();
    }
    result = padBorders(tb, result, axis, l, h, reflect);
  }
  ctx.setResult(0, result);
  return success();
}

/// DepthToSpace (DCR or CRD) and SpaceToDepth: a reshape, a permute and a
/// reshape.
template <bool toSpace> LogicalResult decomposeDepthSpace(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  int64_t b = ctx.intAttr("blocksize", 0);
  std::string mode = toSpace ? ctx.strAttr("mode", "DCR") : "DCR";
  if (!x)
    return failure();
  if (TensorBuilder::rankOf(x) != 4 || b < 1 ||
      (mode != "DCR" && mode != "CRD")) {
    ctx.error() << "needs a 4-D input, a positive blocksize and mode DCR or "
                   "CRD";
    return failure();
  }
  ArrayRef<int64_t> s = TensorBuilder::shapeOf(x);
  int64_t n = s[0], c = s[1], h = s[2], w = s[3];
  TensorBuilder &tb = ctx.tb();
  Value y;
  if (toSpace && mode == "DCR")
    y = tb.permute(tb.reshape(x, {n, b, b, c / (b * b), h, w}),
                   {0, 3, 4, 1, 5, 2});
  else if (toSpace)
    y = tb.permute(tb.reshape(x, {n, c / (b * b), b, b, h, w}),
                   {0, 1, 4, 2, 5, 3});
  else
    y = tb.permute(tb.reshape(x, {n, c, h / b, b, w / b, b}),
                   {0, 3, 5, 1, 2, 4});
  ctx.setResult(0, tb.reshape(y, ctx.resultType(0).getShape()));
  return success();
}

//===----------------------------------------------------------------------===//
// Values known from static shapes
//===----------------------------------------------------------------------===//

Value intConstant(NodeContext &ctx, ArrayRef<int64_t> values) {
  RankedTensorType type = ctx.resultType(0);
  SmallVector<Attribute> attrs;
  for (int64_t v : values)
    attrs.push_back(IntegerAttr::get(type.getElementType(), v));
  if (type.getNumElements() != (int64_t)attrs.size())
    return {};
  return ctx.tb().constant(DenseElementsAttr::get(type, attrs));
}

LogicalResult decomposeShape(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "data");
  int64_t start = ctx.intAttr("start", 0);
  if (!x)
    return failure();
  ArrayRef<int64_t> shape = TensorBuilder::shapeOf(x);
  int64_t rank = shape.size();
  int64_t end = ctx.intAttr("end", rank);
  auto clampDim = [&](int64_t v) {
    return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank);
  };
  start = clampDim(start);
  end = std::max(start, clampDim(end));
  Value c = intConstant(ctx, shape.slice(start, end - start));
  if (!c) {
    ctx.error() << "result type does not fit the shape";
    return failure();
  }
  ctx.setResult(0, c);
  return success();
}

LogicalResult decomposeSize(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "data");
  if (!x)
    return failure();
  Value c = intConstant(
      ctx, {TensorBuilder::numElements(TensorBuilder::shapeOf(x))});
  if (!c) {
    ctx.error() << "result must be a scalar";
    return failure();
  }
  ctx.setResult(0, c);
  return success();
}

LogicalResult decomposeConstantOfShape(NodeContext &ctx) {
  ctx.requiredInput(0, "shape"); // the result type carries it
  RankedTensorType type = ctx.resultType(0);
  Attribute fill = FloatAttr::get(Float32Type::get(type.getContext()), 0.0);
  if (Attribute value = ctx.attr("value")) {
    auto dense = dyn_cast<DenseElementsAttr>(value);
    if (!dense || dense.getNumElements() != 1) {
      ctx.error() << "'value' must be a one-element tensor";
      return failure();
    }
    fill = *dense.value_begin<Attribute>();
  }
  if (cast<TypedAttr>(fill).getType() != type.getElementType()) {
    ctx.error() << "'value' has type " << cast<TypedAttr>(fill).getType()
                << " but the result is " << type;
    return failure();
  }
  ctx.setResult(0, ctx.tb().constant(DenseElementsAttr::get(type, fill)));
  return success();
}

LogicalResult decomposeRange(NodeContext &ctx) {
  std::optional<double> start = ctx.constScalar(0);
  std::optional<double> limit = ctx.constScalar(1);
  std::optional<double> delta = ctx.constScalar(2);
  if (!start || !limit || !delta || *delta == 0) {
    ctx.error() << "start, limit and delta must be constant scalars, "
                   "delta non-zero";
    return failure();
  }
  RankedTensorType type = ctx.resultType(0);
  int64_t count = std::max<int64_t>(
      0, static_cast<int64_t>(std::ceil((*limit - *start) / *delta)));
  if (type.getRank() != 1 || type.getDimSize(0) != count) {
    ctx.error() << "gives " << count << " values but the node declares "
                << type;
    return failure();
  }
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < count; ++i)
    values.push_back(
        TensorBuilder::scalarAttr(type.getElementType(), *start + i * *delta));
  ctx.setResult(0, ctx.tb().constant(DenseElementsAttr::get(type, values)));
  return success();
}

} // namespace

void mlir::tgc::addShapeDecompositions(DecompositionTable &table) {
  table["Reshape"] = decomposeReshape;
  table["Flatten"] = decomposeFlatten;
  table["Squeeze"] = decomposeSqueeze;
  table["Unsqueeze"] = decomposeUnsqueeze;
  table["Transpose"] = decomposeTranspose;
  table["Concat"] = decomposeConcat;
  table["Slice"] = decomposeSlice;
  table["Gather"] = decomposeGather;
  table["Expand"] = decomposeExpand;
  table["Tile"] = decomposeTile;
  table["Split"] = decomposeSplit;
  table["Pad"] = decomposePad;
  table["DepthToSpace"] = decomposeDepthSpace<true>;
  table["SpaceToDepth"] = decomposeDepthSpace<false>;
  table["Shape"] = decomposeShape;
  table["Size"] = decomposeSize;
  table["ConstantOfShape"] = decomposeConstantOfShape;
  table["Range"] = decomposeRange;
}
