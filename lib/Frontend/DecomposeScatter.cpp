//===- DecomposeScatter.cpp - data-dependent indexing -----------*- C++ -*-===//
//
// ScatterElements (and the older Scatter), ScatterND and GatherND. The
// indices are run-time values, so every one becomes a one-hot compare with
// an arange over the positions it can address; a gather is then a
// where-select summed over those positions, a scatter a select of the
// update (or its reduction) where any index hit, the data elsewhere.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// Indices below zero wrapped by `n` (a constant or per-element tensor).
Value wrapNegative(TensorBuilder &tb, Value idx, Value n) {
  Value negative = tb.lt(idx, tb.splatLike(idx, 0));
  return tb.where(negative, tb.add(idx, n), idx);
}

enum class Reduction { None, Add, Mul, Max, Min };

FailureOr<Reduction> readReduction(NodeContext &ctx) {
  std::string name = ctx.strAttr("reduction", "none");
  if (name == "none")
    return Reduction::None;
  if (name == "add")
    return Reduction::Add;
  if (name == "mul")
    return Reduction::Mul;
  if (name == "max")
    return Reduction::Max;
  if (name == "min")
    return Reduction::Min;
  ctx.error() << "reduction '" << name << "' is not supported";
  return failure();
}

/// The scattered result: `hit` ([..., P, N, ...] with the update axis
/// `updAxis`, true where update n lands on position p), `updates` viewed to
/// broadcast against it, `data` ([..., P, ...], the update axis absent).
/// Duplicate indices: reduction none keeps their sum (ONNX leaves it
/// undefined), the others combine them all.
Value scatterInto(TensorBuilder &tb, Reduction reduction, Value data,
                  Value hit, Value updates, int64_t updAxis) {
  Type element = TensorBuilder::elementTypeOf(data);
  bool isBool = element.isInteger(1);
  Type u8 = tb.getBuilder().getIntegerType(8, false);
  if (isBool) { // i1 cannot be summed
    data = tb.cast(data, u8);
    updates = tb.cast(updates, u8);
  }
  Type t = TensorBuilder::elementTypeOf(data);
  Value anyHit = tb.cast(
      tb.reduceMax(tb.cast(hit, u8), {updAxis}, false), tb.getBuilder().getI1Type());
  Value result;
  switch (reduction) {
  case Reduction::None:
  case Reduction::Add: {
    Value sum = tb.sum(tb.where(hit, updates, tb.splat(t, {}, 0)), {updAxis},
                       false);
    result = reduction == Reduction::None ? tb.where(anyHit, sum, data)
                                          : tb.add(data, sum);
    break;
  }
  case Reduction::Mul:
    result = tb.mul(data, tb.prod(tb.where(hit, updates, tb.splat(t, {}, 1)),
                                  {updAxis}, false));
    break;
  case Reduction::Max:
    result = tb.where(anyHit,
                      tb.max(data, tb.reduceMax(tb.where(hit, updates,
                                                         tb.lowest(t, {})),
                                                {updAxis}, false)),
                      data);
    break;
  case Reduction::Min: {
    Value highest = tb.neg(tb.lowest(t, {}));
    if (!TensorBuilder::isFloat(data)) {
      auto integer = cast<IntegerType>(t);
      highest = tb.constant(DenseElementsAttr::get(
          RankedTensorType::get({}, t),
          integer.isSigned() ? APInt::getSignedMaxValue(integer.getWidth())
                             : APInt::getMaxValue(integer.getWidth())));
    }
    result = tb.where(anyHit,
                      tb.min(data, tb.reduceMin(tb.where(hit, updates, highest),
                                                {updAxis}, false)),
                      data);
    break;
  }
  }
  return isBool ? tb.cast(result, element) : result;
}

/// ScatterElements (and Scatter, its name before opset 11): along `axis`,
/// data[.., indices[q], ..] = updates[q] for every update position q.
LogicalResult decomposeScatterElements(NodeContext &ctx) {
  Value data = ctx.requiredInput(0, "data");
  Value indices = ctx.requiredInput(1, "indices");
  Value updates = ctx.requiredInput(2, "updates");
  FailureOr<Reduction> reduction = readReduction(ctx);
  int64_t axisAttr = ctx.intAttr("axis", 0);
  if (!data || !indices || !updates || failed(reduction))
    return failure();
  TensorBuilder &tb = ctx.tb();
  ArrayRef<int64_t> ds = TensorBuilder::shapeOf(data);
  ArrayRef<int64_t> us = TensorBuilder::shapeOf(updates);
  int64_t rank = ds.size();
  auto axis = ctx.normalizeAxis(axisAttr, rank);
  if (failed(axis))
    return failure();
  bool fits = TensorBuilder::shapeOf(indices) == us &&
              (int64_t)us.size() == rank;
  for (int64_t i = 0; fits && i < rank; ++i)
    fits = i == *axis || us[i] <= ds[i];
  if (!fits) {
    ctx.error() << "indices " << TensorBuilder::typeOf(indices)
                << " and updates " << TensorBuilder::typeOf(updates)
                << " do not fit data " << TensorBuilder::typeOf(data);
    return failure();
  }
  int64_t n = ds[*axis];
  // [.., n, m, ..]: position p of the data's axis, update q of the axis.
  SmallVector<int64_t> updView(us), rangeView(rank + 1, 1);
  updView.insert(updView.begin() + *axis, 1);
  rangeView[*axis] = n;
  Type indexType = TensorBuilder::elementTypeOf(indices);
  Value idx = wrapNegative(tb, indices, tb.splatLike(indices, n));
  Value hit = tb.eq(tb.reshape(idx, updView),
                    tb.reshape(tb.arange(n, indexType), rangeView));
  // The data over the updates' extent in the other dims.
  SmallVector<int64_t> begin(rank, 0), end(us);
  end[*axis] = n;
  Value region = tb.shrink(data, begin, end);
  Value scattered = scatterInto(tb, *reduction, region, hit,
                                tb.reshape(updates, updView), *axis + 1);
  // Back into the full data: the rest of it stays.
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  for (int64_t i = 0; i < rank; ++i)
    high[i] = ds[i] - end[i];
  if (llvm::all_of(high, [](int64_t h) { return h == 0; })) {
    ctx.setResult(0, scattered);
    return success();
  }
  Value inside = tb.pad(tb.splat(tb.getBuilder().getI1Type(), end, 1), low,
                        high);
  ctx.setResult(0, tb.where(inside, tb.pad(scattered, low, high), data));
  return success();
}

/// The linear position, within dims `dims`, of each index tuple of `idx`
/// ([N, k]), negative components wrapped: [N].
Value linearIndex(TensorBuilder &tb, Value idx, ArrayRef<int64_t> dims) {
  int64_t k = dims.size(), count = TensorBuilder::shapeOf(idx)[0];
  Type t = TensorBuilder::elementTypeOf(idx);
  Value lin = tb.splat(t, {count}, 0);
  int64_t stride = 1;
  for (int64_t j = k - 1; j >= 0; --j) {
    Value component =
        tb.reshape(tb.shrink(idx, {0, j}, {count, j + 1}), {count});
    component = wrapNegative(tb, component, tb.splatLike(component, dims[j]));
    lin = tb.add(lin, tb.mul(component, tb.splatLike(component, stride)));
    stride *= dims[j];
  }
  return lin;
}

/// ScatterND: data[indices[n]] = updates[n] for each index tuple n (a
/// tuple of k components addresses a slice of the last rank-k dims).
LogicalResult decomposeScatterND(NodeContext &ctx) {
  Value data = ctx.requiredInput(0, "data");
  Value indices = ctx.requiredInput(1, "indices");
  Value updates = ctx.requiredInput(2, "updates");
  FailureOr<Reduction> reduction = readReduction(ctx);
  if (!data || !indices || !updates || failed(reduction))
    return failure();
  TensorBuilder &tb = ctx.tb();
  ArrayRef<int64_t> ds = TensorBuilder::shapeOf(data);
  ArrayRef<int64_t> is = TensorBuilder::shapeOf(indices);
  if (is.empty() || is.back() > (int64_t)ds.size()) {
    ctx.error() << "indices " << TensorBuilder::typeOf(indices)
                << " do not address data " << TensorBuilder::typeOf(data);
    return failure();
  }
  int64_t k = is.back();
  int64_t count = TensorBuilder::numElements(is.drop_back());
  int64_t positions = TensorBuilder::numElements(ds.take_front(k));
  int64_t slice = TensorBuilder::numElements(ds.drop_front(k));
  if (TensorBuilder::numElements(TensorBuilder::shapeOf(updates)) !=
      count * slice) {
    ctx.error() << "updates " << TensorBuilder::typeOf(updates)
                << " do not fit indices " << TensorBuilder::typeOf(indices)
                << " into data " << TensorBuilder::typeOf(data);
    return failure();
  }
  Value lin = linearIndex(tb, tb.reshape(indices, {count, k}), ds.take_front(k));
  Type indexType = TensorBuilder::elementTypeOf(indices);
  // hit [P, N, 1]; updates [1, N, R]; data [P, R].
  Value hit = tb.eq(tb.reshape(lin, {1, count, 1}),
                    tb.reshape(tb.arange(positions, indexType),
                               {positions, 1, 1}));
  Value scattered = scatterInto(
      tb, *reduction, tb.reshape(data, {positions, slice}), hit,
      tb.reshape(updates, {1, count, slice}), 1);
  ctx.setResult(0, tb.reshape(scattered, ds));
  return success();
}

/// GatherND: out[b, n] = data[b][indices[b, n]] for the batch_dims leading
/// dims b shared by data and indices.
LogicalResult decomposeGatherND(NodeContext &ctx) {
  Value data = ctx.requiredInput(0, "data");
  Value indices = ctx.requiredInput(1, "indices");
  int64_t batchDims = ctx.intAttr("batch_dims", 0);
  if (!data || !indices)
    return failure();
  TensorBuilder &tb = ctx.tb();
  ArrayRef<int64_t> ds = TensorBuilder::shapeOf(data);
  ArrayRef<int64_t> is = TensorBuilder::shapeOf(indices);
  if (is.empty() || batchDims < 0 || batchDims >= (int64_t)is.size() ||
      batchDims + is.back() > (int64_t)ds.size() ||
      is.take_front(batchDims) != ds.take_front(batchDims)) {
    ctx.error() << "indices " << TensorBuilder::typeOf(indices)
                << " with batch_dims " << batchDims << " do not address data "
                << TensorBuilder::typeOf(data);
    return failure();
  }
  int64_t k = is.back();
  int64_t batch = TensorBuilder::numElements(ds.take_front(batchDims));
  int64_t count =
      TensorBuilder::numElements(is.drop_back().drop_front(batchDims));
  ArrayRef<int64_t> addressed = ds.slice(batchDims, k);
  int64_t positions = TensorBuilder::numElements(addressed);
  int64_t slice = TensorBuilder::numElements(ds.drop_front(batchDims + k));
  Value lin = linearIndex(tb, tb.reshape(indices, {batch * count, k}),
                          addressed);
  Type indexType = TensorBuilder::elementTypeOf(indices);
  // hit [B, N, P, 1]; data [B, 1, P, R]; summed over P.
  Value hit = tb.eq(tb.reshape(lin, {batch, count, 1, 1}),
                    tb.reshape(tb.arange(positions, indexType),
                               {1, 1, positions, 1}));
  Value values = data;
  Type element = TensorBuilder::elementTypeOf(data);
  if (element.isInteger(1))
    values = tb.cast(values, tb.getBuilder().getIntegerType(8, false));
  values = tb.reshape(values, {batch, 1, positions, slice});
  Value zero = tb.splat(TensorBuilder::elementTypeOf(values), {}, 0);
  Value picked = tb.sum(tb.where(hit, values, zero), {2}, false);
  SmallVector<int64_t> outShape(is.drop_back());
  llvm::append_range(outShape, ds.drop_front(batchDims + k));
  return ctx.setReshapedResult(tb.cast(picked, element), outShape);
}

/// ReverseSequence: within each batch entry's length, the time axis runs
/// backwards; past it, it stays. The source time of every (t, b) is a
/// run-time index, read with a one-hot select over the time axis.
LogicalResult decomposeReverseSequence(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  Value lengths = ctx.requiredInput(1, "sequence_lens");
  int64_t batchAxis = ctx.intAttr("batch_axis", 1);
  int64_t timeAxis = ctx.intAttr("time_axis", 0);
  if (!x || !lengths)
    return failure();
  TensorBuilder &tb = ctx.tb();
  int64_t rank = TensorBuilder::rankOf(x);
  if (rank < 2 || !((batchAxis == 0 && timeAxis == 1) ||
                    (batchAxis == 1 && timeAxis == 0))) {
    ctx.error() << "needs rank >= 2 and batch_axis, time_axis 0 and 1";
    return failure();
  }
  // Work as [T, B, rest].
  if (batchAxis == 0) {
    SmallVector<int64_t> order{1, 0};
    for (int64_t i = 2; i < rank; ++i)
      order.push_back(i);
    x = tb.permute(x, order);
  }
  ArrayRef<int64_t> shape = TensorBuilder::shapeOf(x);
  int64_t steps = shape[0], batch = shape[1];
  if (TensorBuilder::shapeOf(lengths) != ArrayRef<int64_t>{batch}) {
    ctx.error() << "sequence_lens must hold one length per batch entry";
    return failure();
  }
  Type t = TensorBuilder::elementTypeOf(lengths);
  Value time = tb.reshape(tb.arange(steps, t), {steps, 1});
  Value len = tb.reshape(lengths, {1, batch});
  Value reversed = tb.sub(tb.sub(len, tb.splatLike(len, 1)), time);
  Value source = tb.where(tb.lt(time, len), reversed,
                          tb.broadcastTo(time, {steps, batch})); // [T, B]
  // hit[t, s, b] = source[t, b] == s.
  SmallVector<int64_t> view{steps, 1, batch}, range{1, steps, 1};
  Value hit = tb.eq(tb.reshape(source, view),
                    tb.reshape(tb.arange(steps, t), range));
  SmallVector<int64_t> hitView{steps, steps, batch}, valueView{1};
  llvm::append_range(valueView, shape);
  hitView.append(rank - 2, 1);
  Value values = x;
  Type element = TensorBuilder::elementTypeOf(x);
  if (element.isInteger(1))
    values = tb.cast(values, tb.getBuilder().getIntegerType(8, false));
  Value zero = tb.splat(TensorBuilder::elementTypeOf(values), {}, 0);
  Value y = tb.sum(tb.where(tb.reshape(hit, hitView),
                            tb.reshape(values, valueView), zero),
                   {1}, false);
  y = tb.cast(y, element);
  if (batchAxis == 0) {
    SmallVector<int64_t> order{1, 0};
    for (int64_t i = 2; i < rank; ++i)
      order.push_back(i);
    y = tb.permute(y, order);
  }
  ctx.setResult(0, y);
  return success();
}

/// MaxUnpool: zeros, with each value of X at the flat position its index
/// gives (as MaxPool's Indices output computes it), plane by plane. The
/// indices count in the default output shape (what the pooling's input
/// was); an output_shape that differs pads it at the end of each dim.
LogicalResult decomposeMaxUnpool(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X"), indices = ctx.requiredInput(1, "I");
  ctx.input(2); // output_shape: the result type carries it
  std::optional<SmallVector<int64_t>> kernel = ctx.intsAttr("kernel_shape");
  std::optional<SmallVector<int64_t>> pads = ctx.intsAttr("pads");
  std::optional<SmallVector<int64_t>> strides = ctx.intsAttr("strides");
  if (!x || !indices)
    return failure();
  TensorBuilder &tb = ctx.tb();
  ArrayRef<int64_t> xs = TensorBuilder::shapeOf(x);
  ArrayRef<int64_t> out = ctx.resultType(0).getShape();
  if (xs.size() < 3 || out.size() != xs.size() ||
      TensorBuilder::shapeOf(indices) != xs || out[0] != xs[0] ||
      out[1] != xs[1]) {
    ctx.error() << "needs X and I of one shape [N, C, ...] and a result of "
                   "its rank";
    return failure();
  }
  size_t n = xs.size() - 2;
  if (!kernel || kernel->size() != n || (strides && strides->size() != n) ||
      (pads && pads->size() != 2 * n)) {
    ctx.error() << "needs kernel_shape, strides and pads for " << n
                << " spatial dims";
    return failure();
  }
  SmallVector<int64_t> defaults;
  for (size_t i = 0; i < n; ++i)
    defaults.push_back((xs[2 + i] - 1) * (strides ? (*strides)[i] : 1) +
                       (*kernel)[i] - (pads ? (*pads)[i] + (*pads)[n + i] : 0));
  int64_t planes = xs[0] * xs[1];
  int64_t inPlane = TensorBuilder::numElements(xs.drop_front(2));
  int64_t defaultPlane = TensorBuilder::numElements(defaults);
  int64_t outPlane = TensorBuilder::numElements(out.drop_front(2));
  Type t = TensorBuilder::elementTypeOf(indices);
  // Indices count across planes; within its plane, position p.
  Value planeStart = tb.mul(tb.reshape(tb.arange(planes, t), {planes, 1}),
                            tb.splat(t, {}, defaultPlane));
  Value local = tb.sub(tb.reshape(indices, {planes, inPlane}), planeStart);
  if (ArrayRef<int64_t>(defaults) != out.drop_front(2)) {
    // Coordinates in the default shape, linearized in the output's.
    Value rest = local, relinear = tb.splatLike(local, 0);
    int64_t stride = 1;
    for (int64_t i = n - 1; i >= 0; --i) {
      Value d = tb.splatLike(rest, defaults[i]);
      Value coordinate = tb.sub(rest, tb.mul(tb.div(rest, d), d));
      relinear = tb.add(relinear,
                        tb.mul(coordinate, tb.splatLike(coordinate, stride)));
      rest = tb.div(rest, d);
      stride *= out[2 + i];
    }
    local = relinear;
  }
  // hit[plane, p, m] = local[plane, m] == p.
  Value hit = tb.eq(tb.reshape(local, {planes, 1, inPlane}),
                    tb.reshape(tb.arange(outPlane, t), {1, outPlane, 1}));
  Value values = tb.reshape(x, {planes, 1, inPlane});
  Value zero = tb.splat(TensorBuilder::elementTypeOf(x), {}, 0);
  Value y = tb.sum(tb.where(hit, values, zero), {2}, false);
  ctx.setResult(0, tb.reshape(y, out));
  return success();
}

} // namespace

void mlir::tgc::addScatterDecompositions(DecompositionTable &table) {
  table["ScatterElements"] = decomposeScatterElements;
  table["Scatter"] = decomposeScatterElements;
  table["ScatterND"] = decomposeScatterND;
  table["GatherND"] = decomposeGatherND;
  table["ReverseSequence"] = decomposeReverseSequence;
  table["MaxUnpool"] = decomposeMaxUnpool;
}
