//===- DecomposeReduce.cpp - ONNX reductions --------------------*- C++ -*-===//
//
// ReduceSum/Mean/Max/Min/Prod/SumSquare/L1/L2/LogSum/LogSumExp,
// ArgMax/ArgMin and CumSum, all on tgc.reduce_axis (add, mul, max). The axes
// are an attribute until opset 13 (ReduceSum) or 18 (the others), then an
// optional constant input.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

enum class Reduction {
  Sum,
  Mean,
  Max,
  Min,
  Prod,
  SumSquare,
  L1,
  L2,
  LogSum,
  LogSumExp
};

/// Reduces `x` over `axes` (normalized, non-empty).
Value reduceBy(TensorBuilder &tb, Reduction kind, Value x,
               ArrayRef<int64_t> axes, bool keepdim) {
  switch (kind) {
  case Reduction::Sum:
    return tb.sum(x, axes, keepdim);
  case Reduction::Mean:
    return tb.mean(x, axes, keepdim);
  case Reduction::Max:
    return tb.reduceMax(x, axes, keepdim);
  case Reduction::Min:
    return tb.reduceMin(x, axes, keepdim);
  case Reduction::Prod:
    return tb.prod(x, axes, keepdim);
  case Reduction::SumSquare:
    return tb.sum(tb.mul(x, x), axes, keepdim);
  case Reduction::L1:
    return tb.sum(tb.abs(x), axes, keepdim);
  default:
    break;
  }
  // The rest need logarithms or roots: integers are computed in f32.
  Type element = TensorBuilder::elementTypeOf(x);
  if (!isa<FloatType>(element))
    return tb.cast(reduceBy(tb, kind, tb.cast(x, tb.getBuilder().getF32Type()),
                            axes, keepdim),
                   element);
  switch (kind) {
  case Reduction::L2:
    return tb.sqrt(tb.sum(tb.mul(x, x), axes, keepdim));
  case Reduction::LogSum:
    return tb.log(tb.sum(x, axes, keepdim));
  default: {
    // log(sum(exp(x - m))) + m, with m the max: no overflow in exp.
    Value m = tb.reduceMax(x, axes, /*keepdim=*/true);
    Value lse = tb.add(tb.log(tb.sum(tb.exp(tb.sub(x, m)), axes, true)), m);
    if (keepdim || !lse)
      return lse;
    SmallVector<int64_t> shape;
    for (auto [i, d] : llvm::enumerate(TensorBuilder::shapeOf(lse)))
      if (!llvm::is_contained(axes, (int64_t)i))
        shape.push_back(d);
    return tb.reshape(lse, shape);
  }
  }
}

template <Reduction kind> LogicalResult decomposeReduce(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "data");
  if (!x)
    return failure();
  int64_t rank = TensorBuilder::rankOf(x);
  bool keepdim = ctx.intAttr("keepdims", 1) != 0;
  bool noop = ctx.intAttr("noop_with_empty_axes", 0) != 0;
  int64_t axesAsInputSince = kind == Reduction::Sum ? 13 : 18;

  SmallVector<int64_t> axes;
  if (ctx.opset() >= axesAsInputSince) {
    auto given = ctx.constInts(1, "axes");
    if (failed(given))
      return failure();
    if (*given)
      axes = **given;
  } else if (auto given = ctx.intsAttr("axes")) {
    axes = *given;
  }
  if (axes.empty()) {
    if (noop) {
      ctx.setResult(0, x);
      return success();
    }
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  }
  auto normalized = ctx.normalizeAxes(axes, rank);
  if (failed(normalized))
    return failure();
  ctx.setResult(0, reduceBy(ctx.tb(), kind, x, *normalized, keepdim));
  return success();
}

/// ArgMax/ArgMin as tinygrad does it: where x equals the extreme, keep a
/// descending index, take the max, and turn it back into an index.
template <bool isMax> LogicalResult decomposeArg(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "data");
  if (!x)
    return failure();
  int64_t rank = TensorBuilder::rankOf(x);
  auto axis = ctx.normalizeAxis(ctx.intAttr("axis", 0), rank);
  bool keepdim = ctx.intAttr("keepdims", 1) != 0;
  bool last = ctx.intAttr("select_last_index", 0) != 0;
  if (failed(axis))
    return failure();
  Type index = ctx.resultType(0).getElementType();
  ctx.setResult(0, ctx.tb().argExtreme(x, *axis, keepdim, isMax, last, index));
  return success();
}

/// CumSum along a constant axis, optionally exclusive and reversed.
LogicalResult decomposeCumSum(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "x");
  ctx.requiredInput(1, "axis");
  bool exclusive = ctx.intAttr("exclusive", 0) != 0;
  bool reverse = ctx.intAttr("reverse", 0) != 0;
  auto axisInput = ctx.constInts(1, "axis");
  if (!x || failed(axisInput) || !*axisInput)
    return failure();
  if ((*axisInput)->size() != 1) {
    ctx.error() << "axis must be a single value";
    return failure();
  }
  auto axis = ctx.normalizeAxis((**axisInput)[0], TensorBuilder::rankOf(x));
  if (failed(axis))
    return failure();
  TensorBuilder &tb = ctx.tb();
  Value v = reverse ? tb.flip(x, {*axis}) : x;
  v = tb.cumsum(v, *axis, exclusive);
  ctx.setResult(0, reverse ? tb.flip(v, {*axis}) : v);
  return success();
}

} // namespace

void mlir::tgc::addReduceDecompositions(DecompositionTable &table) {
  table["ReduceSum"] = decomposeReduce<Reduction::Sum>;
  table["ReduceMean"] = decomposeReduce<Reduction::Mean>;
  table["ReduceMax"] = decomposeReduce<Reduction::Max>;
  table["ReduceMin"] = decomposeReduce<Reduction::Min>;
  table["ReduceProd"] = decomposeReduce<Reduction::Prod>;
  table["ReduceSumSquare"] = decomposeReduce<Reduction::SumSquare>;
  table["ReduceL1"] = decomposeReduce<Reduction::L1>;
  table["ReduceL2"] = decomposeReduce<Reduction::L2>;
  table["ReduceLogSum"] = decomposeReduce<Reduction::LogSum>;
  table["ReduceLogSumExp"] = decomposeReduce<Reduction::LogSumExp>;
  table["ArgMax"] = decomposeArg<true>;
  table["ArgMin"] = decomposeArg<false>;
  table["CumSum"] = decomposeCumSum;
}
