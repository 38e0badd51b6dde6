//===- DecomposeIndexing.cpp - slicing, gathering, joining ----*- C++ -*-===//
//
// Concat, Slice, Gather, GatherElements, OneHot, Split and Pad: the ops
// that select or place elements. Slices and constant gathers are shrinks and
// strides (a flip for negative steps); other gathers are tinygrad's one-hot
// select and sum; joins pad each part to the full size and add them.
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

/// Indices made non-negative: adds `n` to the negative ones, at compile
/// time for a constant.
Value wrapIndices(TensorBuilder &tb, Value idx, int64_t n) {
  if (!idx)
    return {};
  if (auto constant = idx.getDefiningOp<ConstOp>()) {
    auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (dense && !dense.getElementType().isUnsignedInteger()) {
      SmallVector<APInt> wrapped;
      bool changed = false;
      for (APInt v : dense.getValues<APInt>()) {
        if (v.isNegative()) {
          v += APInt(v.getBitWidth(), n, /*isSigned=*/true);
          changed = true;
        }
        wrapped.push_back(v);
      }
      if (!changed)
        return idx;
      return tb.constant(DenseElementsAttr::get(dense.getType(), wrapped));
    }
  }
  Value negative = tb.lt(idx, tb.splatLike(idx, 0));
  return tb.where(negative, tb.add(idx, tb.splatLike(idx, n)), idx);
}

/// The operands of Gather and GatherElements: the data, the indices and
/// the normalized `axis` (default 0) they index along.
struct GatherOperands {
  Value data, indices;
  int64_t axis;
};

/// Reads the GatherOperands; nullopt after an error.
std::optional<GatherOperands> readGatherOperands(NodeContext &ctx) {
  Value data = ctx.requiredInput(0, "data");
  Value indices = ctx.requiredInput(1, "indices");
  int64_t axisAttr = ctx.intAttr("axis", 0);
  if (!data || !indices)
    return std::nullopt;
  FailureOr<int64_t> axis =
      ctx.normalizeAxis(axisAttr, TensorBuilder::rankOf(data));
  if (failed(axis))
    return std::nullopt;
  return GatherOperands{data, indices, *axis};
}

/// tinygrad's one-hot gather, which Gather and GatherElements both reduce
/// to: sum over `sumAxis` of where(wrap(indices) == arange(n), data, 0),
/// with data, indices and the arange reshaped to `dataView`, `indexView`
/// and `rangeView` so that they broadcast. Booleans are gathered as bytes,
/// since i1 cannot be summed.
Value oneHotGather(TensorBuilder &tb, Value data, Value indices, int64_t n,
                   ArrayRef<int64_t> dataView, ArrayRef<int64_t> indexView,
                   ArrayRef<int64_t> rangeView, int64_t sumAxis) {
  Type element = TensorBuilder::elementTypeOf(data);
  bool isBool = element.isInteger(1);
  Value values = data;
  if (isBool)
    values = tb.cast(values, tb.getBuilder().getIntegerType(8, false));
  Value idx = wrapIndices(tb, indices, n);
  Value range = tb.reshape(tb.arange(n, TensorBuilder::elementTypeOf(indices)),
                           rangeView);
  Value hit = tb.eq(tb.reshape(idx, indexView), range);
  Value view = tb.reshape(values, dataView);
  Value zero = tb.splat(TensorBuilder::elementTypeOf(view), {}, 0);
  Value result = tb.sum(tb.where(hit, view, zero), {sumAxis}, false);
  return isBool ? tb.cast(result, element) : result;
}

/// Gather with constant indices that a view reads: TensorBuilder::take's
/// view. Otherwise tinygrad's one-hot: compare the indices with an arange
/// along the gathered axis, select, and sum the axis away.
LogicalResult decomposeGather(NodeContext &ctx) {
  std::optional<GatherOperands> operands = readGatherOperands(ctx);
  if (!operands)
    return failure();
  auto [data, indices, axis] = *operands;
  TensorBuilder &tb = ctx.tb();
  int64_t rank = TensorBuilder::rankOf(data);
  ArrayRef<int64_t> dataShape = TensorBuilder::shapeOf(data);
  ArrayRef<int64_t> indexShape = TensorBuilder::shapeOf(indices);
  int64_t n = dataShape[axis];
  SmallVector<int64_t> outShape(dataShape.take_front(axis));
  llvm::append_range(outShape, indexShape);
  llvm::append_range(outShape, dataShape.drop_front(axis + 1));

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
    // Indices a view reads (a progression, runs along one): take's view.
    if (TensorBuilder::matchIndexRuns(idx))
      return ctx.setReshapedResult(tb.take(data, axis, idx), outShape);
    // Irregular constant indices: the one-hot below (wrapIndices makes
    // them non-negative at compile time).
  }

  // One-hot over [A..., Q..., n, B...], summed over n.
  int64_t q = indexShape.size();
  SmallVector<int64_t> dataView(dataShape.take_front(axis)), indexView,
      rangeView;
  dataView.append(q, 1);
  llvm::append_range(dataView, dataShape.drop_front(axis));
  indexView.append(axis, 1);
  llvm::append_range(indexView, indexShape);
  indexView.push_back(1);
  indexView.append(rank - axis - 1, 1);
  rangeView.append(axis + q, 1);
  rangeView.push_back(n);
  rangeView.append(rank - axis - 1, 1);
  Value result = oneHotGather(tb, data, indices, n, dataView, indexView,
                              rangeView, axis + q);
  return ctx.setReshapedResult(result, outShape);
}

/// GatherElements: out[.., i, ..] = data[.., idx[.., i, ..], ..] along
/// `axis`, as a one-hot select over a new axis of the data's size there.
LogicalResult decomposeGatherElements(NodeContext &ctx) {
  std::optional<GatherOperands> operands = readGatherOperands(ctx);
  if (!operands)
    return failure();
  auto [data, indices, axis] = *operands;
  TensorBuilder &tb = ctx.tb();
  int64_t rank = TensorBuilder::rankOf(data);
  ArrayRef<int64_t> dataShape = TensorBuilder::shapeOf(data);
  ArrayRef<int64_t> indexShape = TensorBuilder::shapeOf(indices);
  bool fits = (int64_t)indexShape.size() == rank;
  for (int64_t i = 0; fits && i < rank; ++i)
    fits = i == axis || indexShape[i] <= dataShape[i];
  if (!fits) {
    ctx.error() << "indices " << TensorBuilder::typeOf(indices)
                << " do not fit data " << TensorBuilder::typeOf(data);
    return failure();
  }
  int64_t n = dataShape[axis];
  // The data over the index's extent, with the index's axis as a new dim:
  // [.., 1, n, ..]; the indices as [.., m, 1, ..]; the range as [.., 1, n, ..].
  SmallVector<int64_t> begin(rank, 0), end(indexShape);
  end[axis] = n;
  Value values = tb.shrink(data, begin, end);
  SmallVector<int64_t> dataView(end), indexView(indexShape),
      rangeView(rank + 1, 1);
  dataView.insert(dataView.begin() + axis, 1);
  indexView.insert(indexView.begin() + axis + 1, 1);
  rangeView[axis + 1] = n;
  ctx.setResult(0, oneHotGather(tb, values, indices, n, dataView, indexView,
                                rangeView, axis + 1));
  return success();
}

/// OneHot: values[1] where the index (wrapped by depth) equals the position
/// along the new axis, values[0] elsewhere.
LogicalResult decomposeOneHot(NodeContext &ctx) {
  Value indices = ctx.requiredInput(0, "indices");
  ctx.requiredInput(1, "depth");
  Value values = ctx.requiredInput(2, "values");
  int64_t axisAttr = ctx.intAttr("axis", -1);
  std::optional<double> depthValue = ctx.constScalar(1);
  if (!indices || !values)
    return failure();
  if (TensorBuilder::shapeOf(values) != ArrayRef<int64_t>{2}) {
    ctx.error() << "values must hold two elements, [off, on]";
    return failure();
  }
  TensorBuilder &tb = ctx.tb();
  int64_t rank = TensorBuilder::rankOf(indices) + 1;
  auto axis = ctx.normalizeAxis(axisAttr, rank);
  if (failed(axis))
    return failure();
  if (ctx.resultType(0).getRank() != rank) {
    ctx.error() << "declares a result of rank " << ctx.resultType(0).getRank()
                << " for indices of rank " << rank - 1;
    return failure();
  }
  // A depth computed at run time is still the result type's dim.
  int64_t depth = ctx.resultType(0).getDimSize(*axis);
  if (depthValue && static_cast<int64_t>(*depthValue) != depth) {
    ctx.error() << "depth " << *depthValue << " differs from the declared "
                << depth;
    return failure();
  }
  Type si64 = tb.getBuilder().getIntegerType(64, /*isSigned=*/true);
  // Float indices truncate, as a cast does.
  Value idx = wrapIndices(tb, tb.cast(indices, si64), depth);
  SmallVector<int64_t> indexView(TensorBuilder::shapeOf(indices)),
      rangeView(rank, 1);
  indexView.insert(indexView.begin() + *axis, 1);
  rangeView[*axis] = depth;
  Value hit = tb.eq(tb.reshape(idx, indexView),
                    tb.reshape(tb.arange(depth, si64), rangeView));
  Value off = tb.reshape(tb.shrink(values, {0}, {1}), {});
  Value on = tb.reshape(tb.shrink(values, {1}, {2}), {});
  ctx.setResult(0, tb.where(hit, on, off));
  return success();
}

/// Compress: the slices along `axis` (of the flattened input without one)
/// where the constant condition is true.
LogicalResult decomposeCompress(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  Value condition = ctx.requiredInput(1, "condition");
  if (!x || !condition)
    return failure();
  auto values = ctx.constValues(1, "condition");
  if (failed(values))
    return failure();
  TensorBuilder &tb = ctx.tb();
  int64_t axis = 0;
  if (ctx.hasAttr("axis")) {
    auto normalized =
        ctx.normalizeAxis(ctx.intAttr("axis", 0), TensorBuilder::rankOf(x));
    if (failed(normalized))
      return failure();
    axis = *normalized;
  } else {
    x = tb.reshape(x, {TensorBuilder::numElements(TensorBuilder::shapeOf(x))});
  }
  SmallVector<int64_t> kept;
  int64_t dim = TensorBuilder::shapeOf(x)[axis];
  for (auto [i, v] : llvm::enumerate(**values)) {
    if (v != 0 && (int64_t)i >= dim) {
      ctx.error() << "condition selects slice " << i << " of a dim of size "
                  << dim;
      return failure();
    }
    if (v != 0)
      kept.push_back(i);
  }
  ctx.setResult(0, tb.take(x, axis, kept));
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
  for (unsigned i = 0; i < ctx.numResults(); ++i) {
    if (ctx.resultType(i).getRank() != rank) {
      ctx.error() << "output " << i << " does not have the input's rank";
      return failure();
    }
    sizes.push_back(ctx.resultType(i).getShape()[*axis]);
  }
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
      ctx.error() << "outputs are larger than the input along axis " << *axis;
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
    ctx.error() << "'pads' has " << pads.size() << " values for " << axes.size()
                << " axes";
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

} // namespace

void mlir::tgc::addIndexingDecompositions(DecompositionTable &table) {
  table["Concat"] = decomposeConcat;
  table["Slice"] = decomposeSlice;
  table["Gather"] = decomposeGather;
  table["GatherElements"] = decomposeGatherElements;
  table["OneHot"] = decomposeOneHot;
  table["Split"] = decomposeSplit;
  table["Compress"] = decomposeCompress;
  table["Pad"] = decomposePad;
}
