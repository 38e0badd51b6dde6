//===- DecomposeShape.cpp - reshapes, transposes, known values --*- C++ -*-===//
//
// Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Expand, Tile,
// DepthToSpace/SpaceToDepth, Trilu, and the ops whose value is known from
// static shapes (Shape, Size, ConstantOfShape, Range, EyeLike). Every result
// type is static, so the target shape of a reshape-like op is the node's result
// type; where the ONNX inputs say the shape too, it is checked against it.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"
#include "mlir/IR/BuiltinAttributes.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tgc;

namespace {

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
  return ctx.setReshapedResult(x, shape);
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
  return ctx.setReshapedResult(x,
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
        ctx.error() << "cannot squeeze dim " << axis << " of size " << in[axis];
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
  return ctx.setReshapedResult(x, shape);
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
  return ctx.setReshapedResult(x, shape);
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

/// Trilu: x where the column minus the row is >= k (upper) or <= k (lower)
/// in the last two dims, 0 elsewhere. A run-time k compares index grids.
LogicalResult decomposeTrilu(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  bool upper = ctx.intAttr("upper", 1) != 0;
  Value kInput = ctx.input(1);
  if (!x)
    return failure();
  int64_t rank = TensorBuilder::rankOf(x);
  if (rank < 2) {
    ctx.error() << "needs an input of rank >= 2";
    return failure();
  }
  TensorBuilder &tb = ctx.tb();
  int64_t rows = TensorBuilder::shapeOf(x)[rank - 2];
  int64_t cols = TensorBuilder::shapeOf(x)[rank - 1];
  Type i1 = tb.getBuilder().getI1Type();
  Value mask;
  std::optional<double> k = kInput ? ctx.constScalar(1) : 0.0;
  if (k) {
    SmallVector<bool> keep;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        keep.push_back(upper ? j - i >= *k : j - i <= *k);
    mask = tb.constant(
        DenseElementsAttr::get(RankedTensorType::get({rows, cols}, i1), keep));
  } else {
    Type si64 = TensorBuilder::elementTypeOf(kInput);
    Value r = tb.reshape(tb.arange(rows, si64), {rows, 1});
    Value c = tb.reshape(tb.arange(cols, si64), {1, cols});
    Value diff = tb.sub(c, r);
    Value bound = tb.reshape(kInput, {1, 1});
    mask = upper ? tb.ge(diff, bound) : tb.le(diff, bound);
  }
  ctx.setResult(
      0, tb.where(mask, x, tb.splat(TensorBuilder::elementTypeOf(x), {}, 0)));
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
  Value c =
      intConstant(ctx, {TensorBuilder::numElements(TensorBuilder::shapeOf(x))});
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

/// EyeLike: ones on the k-th diagonal, a constant of the result type.
LogicalResult decomposeEyeLike(NodeContext &ctx) {
  ctx.requiredInput(0, "input"); // its shape is the result type's
  int64_t k = ctx.intAttr("k", 0);
  ctx.intAttr("dtype", 0); // the result type says
  RankedTensorType type = ctx.resultType(0);
  if (type.getRank() != 2) {
    ctx.error() << "needs a 2-D result";
    return failure();
  }
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < type.getDimSize(0); ++i)
    for (int64_t j = 0; j < type.getDimSize(1); ++j)
      values.push_back(
          TensorBuilder::scalarAttr(type.getElementType(), j - i == k));
  ctx.setResult(0, ctx.tb().constant(DenseElementsAttr::get(type, values)));
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
  table["Expand"] = decomposeExpand;
  table["Tile"] = decomposeTile;
  table["DepthToSpace"] = decomposeDepthSpace<true>;
  table["SpaceToDepth"] = decomposeDepthSpace<false>;
  table["Shape"] = decomposeShape;
  table["Size"] = decomposeSize;
  table["ConstantOfShape"] = decomposeConstantOfShape;
  table["Range"] = decomposeRange;
  table["EyeLike"] = decomposeEyeLike;
  table["Trilu"] = decomposeTrilu;
}
