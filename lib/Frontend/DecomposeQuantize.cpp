//===- DecomposeQuantize.cpp - linear quantization --------------*- C++ -*-===//
//
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear and the integer
// ops (MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv). Integer
// products accumulate exactly in int32 (through the usual matmul and conv
// decompositions); requantization is round-half-to-even of acc * scale,
// plus the zero point, saturated to the output type, as ONNX Runtime does.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"
#include "IR/ConstantData.h"
#include "mlir/IR/BuiltinAttributes.h"
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// `param` (a scalar, or 1-D with one value per slice of `axis`) shaped to
/// broadcast against a rank-`rank` tensor with `dim` elements along `axis`.
Value alongAxis(NodeContext &ctx, Value param, int64_t axis, int64_t rank,
                int64_t dim) {
  if (!param)
    return {};
  int64_t n = TensorBuilder::numElements(TensorBuilder::shapeOf(param));
  if (TensorBuilder::rankOf(param) == 0 || n == 1)
    return ctx.tb().reshape(param, {});
  if (TensorBuilder::rankOf(param) != 1 || n != dim) {
    ctx.error() << "a scale or zero point must be a scalar or hold one value "
                << "per slice of axis " << axis << " (" << dim << "), not "
                << TensorBuilder::typeOf(param);
    return {};
  }
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = n;
  return ctx.tb().reshape(param, shape);
}

/// saturate(round(value) + zeroPoint) in `element`; `value` is f32.
/// Clamped first, to [lo - zeroPoint, hi - zeroPoint] (whole numbers, so
/// clamping and rounding commute), the value rounded is small for 8- and
/// 16-bit types and rounds with two additions (roundSmall): no op compares
/// or selects, and the quantization fuses into the kernel computing
/// `value` (a convolution's epilogue).
Value requantize(TensorBuilder &tb, Value value, Value zeroPoint,
                 Type element) {
  auto [lo, hi] = integerRange(cast<IntegerType>(element));
  Type f = TensorBuilder::elementTypeOf(value);
  Value zero = zeroPoint ? tb.cast(zeroPoint, f) : Value();
  if (element.getIntOrFloatBitWidth() > 16) {
    Value y = tb.round(value);
    if (zero)
      y = tb.add(y, zero);
    y = tb.clamp(y, lo, hi);
    return tb.cast(y, element);
  }
  Value low = tb.splatLike(value, lo), high = tb.splatLike(value, hi);
  if (zero) {
    low = tb.sub(low, zero);
    high = tb.sub(high, zero);
  }
  Value y = tb.roundSmall(tb.min(tb.max(value, low), high));
  if (zero)
    y = tb.add(y, zero);
  return tb.cast(y, element);
}

/// The normalized `axis` attribute (default 1) of an op whose `scale` may
/// be per axis; 0 when the scale is one value (then the axis is unused).
FailureOr<int64_t> quantAxis(NodeContext &ctx, Value x, Value scale) {
  int64_t rank = TensorBuilder::rankOf(x);
  int64_t axis = ctx.intAttr("axis", 1);
  if (TensorBuilder::numElements(TensorBuilder::shapeOf(scale)) == 1 &&
      TensorBuilder::rankOf(scale) <= 1)
    return 0;
  return ctx.normalizeAxis(axis, rank);
}

/// The scale and (optional) zero point of QuantizeLinear and
/// DequantizeLinear, shaped to broadcast against `x`.
struct ScaleAndZeroPoint {
  Value scale, zeroPoint;
};

/// True for a constant zero point of zeros (symmetric quantization, or
/// activations that are never negative): adding or subtracting it is left
/// out, which changes no value (q - 0 is q, and a whole number plus +0 is
/// cast to the same integer).
bool isZeros(Value zeroPoint) {
  auto constant = zeroPoint ? zeroPoint.getDefiningOp<ConstOp>() : ConstOp();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                        : DenseElementsAttr();
  if (!dense || !dense.isSplat())
    return false;
  Attribute value = dense.getSplatValue<Attribute>();
  if (auto i = dyn_cast<IntegerAttr>(value))
    return i.getValue().isZero();
  auto f = dyn_cast<FloatAttr>(value);
  return f && f.getValue().isZero();
}

/// Shapes `scale` and `zeroPoint` (null when absent or all zeros) along the
/// node's quantization axis of `x`; nullopt after an error.
std::optional<ScaleAndZeroPoint>
alongQuantAxis(NodeContext &ctx, Value x, Value scale, Value zeroPoint) {
  FailureOr<int64_t> axis = quantAxis(ctx, x, scale);
  if (failed(axis))
    return std::nullopt;
  int64_t rank = TensorBuilder::rankOf(x);
  int64_t dim = rank ? TensorBuilder::shapeOf(x)[*axis] : 1;
  Value s = alongAxis(ctx, scale, *axis, rank, dim);
  Value z = alongAxis(ctx, zeroPoint, *axis, rank, dim);
  if (!s || (zeroPoint && !z))
    return std::nullopt;
  return ScaleAndZeroPoint{s, isZeros(zeroPoint) ? Value() : z};
}

/// y = saturate(round(x / scale) + zero_point)
LogicalResult decomposeQuantizeLinear(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "x");
  Value scale = ctx.requiredInput(1, "y_scale");
  Value zeroPoint = ctx.input(2);
  ctx.ignoreAttr("saturate"); // only for 8-bit float outputs
  if (!x || !scale)
    return failure();
  Type element = ctx.resultType(0).getElementType();
  if (!isa<IntegerType>(element) || element.isInteger(1)) {
    ctx.error() << "quantizing to " << element << " is not supported";
    return failure();
  }
  std::optional<ScaleAndZeroPoint> params =
      alongQuantAxis(ctx, x, scale, zeroPoint);
  if (!params)
    return failure();
  TensorBuilder &tb = ctx.tb();
  Type f32 = tb.getBuilder().getF32Type();
  Value scaled = tb.div(tb.cast(x, f32), tb.cast(params->scale, f32));
  ctx.setResult(0, requantize(tb, scaled, params->zeroPoint, element));
  return success();
}

/// y = (x - zero_point) * scale
LogicalResult decomposeDequantizeLinear(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "x");
  Value scale = ctx.requiredInput(1, "x_scale");
  Value zeroPoint = ctx.input(2);
  if (!x || !scale)
    return failure();
  std::optional<ScaleAndZeroPoint> params =
      alongQuantAxis(ctx, x, scale, zeroPoint);
  if (!params)
    return failure();
  Value s = params->scale, z = params->zeroPoint;
  TensorBuilder &tb = ctx.tb();
  Type out = ctx.resultType(0).getElementType();
  Value v = tb.cast(x, out);
  if (z)
    v = tb.sub(v, tb.cast(z, out));
  ctx.setResult(0, tb.mul(v, tb.cast(s, out)));
  return success();
}

/// DynamicQuantizeLinear: uint8 quantization over [min(0, min x),
/// max(0, max x)]; also returns the scale and zero point.
LogicalResult decomposeDynamicQuantizeLinear(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "x");
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  SmallVector<int64_t> all;
  for (int64_t i = 0; i < TensorBuilder::rankOf(x); ++i)
    all.push_back(i);
  Value zero = tb.splat(TensorBuilder::elementTypeOf(x), {}, 0);
  Value lo = tb.min(tb.reduceMin(x, all, false), zero);
  Value hi = tb.max(tb.reduceMax(x, all, false), zero);
  Value scale = tb.div(tb.sub(hi, lo), 255.0);
  Type u8 = ctx.resultType(0).getElementType();
  Value zeroPoint = requantize(tb, tb.neg(tb.div(lo, scale)), {}, u8);
  ctx.setResult(0, requantize(tb, tb.div(x, scale), zeroPoint, u8));
  if (ctx.numResults() > 1)
    ctx.setResult(1, scale);
  if (ctx.numResults() > 2)
    ctx.setResult(2, zeroPoint);
  return success();
}

/// `v` - `zeroPoint` in `element` (int32 or float32, which hold it
/// exactly; `zeroPoint` already shaped to broadcast, or null).
Value centered(TensorBuilder &tb, Value v, Value zeroPoint, Type element) {
  Value wide = tb.cast(v, element);
  return zeroPoint ? tb.sub(wide, tb.cast(zeroPoint, element)) : wide;
}

/// Largest whole number up to which float32 holds every integer: sums of
/// products below it are exact in any order.
constexpr double kExactInFloat32 = 16777216.0; // 2^24

/// The largest |v - zeroPoint| for v of `element` (an integer type): from
/// the zero point's values when it is a constant, else the type's span.
double largestCentered(Type element, Value zeroPoint) {
  auto [lo, hi] = integerRange(cast<IntegerType>(element));
  if (!zeroPoint)
    return std::max(std::abs(lo), std::abs(hi));
  while (auto reshape = zeroPoint.getDefiningOp<ReshapeOp>())
    zeroPoint = reshape.getSrc();
  auto constant = zeroPoint.getDefiningOp<ConstOp>();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                        : DenseElementsAttr();
  if (!dense)
    return hi - lo;
  double largest = 0;
  for (APInt z : dense.getValues<APInt>()) {
    double v =
        element.isUnsignedInteger() ? z.getZExtValue() : z.getSExtValue();
    largest = std::max({largest, std::abs(lo - v), std::abs(hi - v)});
  }
  return largest;
}

/// The values of a float32 constant; nullopt for anything else.
std::optional<std::vector<float>> floatsOf(Value value) {
  auto constant = value.getDefiningOp<ConstOp>();
  if (!constant || !TensorBuilder::elementTypeOf(value).isF32())
    return std::nullopt;
  int64_t count = TensorBuilder::numElements(TensorBuilder::shapeOf(value));
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (dense && dense.isSplat())
    return std::vector<float>(count, dense.getSplatValue<float>());
  ArrayRef<char> bytes = getConstantBytes(constant);
  if (static_cast<int64_t>(bytes.size()) != count * 4)
    return std::nullopt;
  std::vector<float> values(count);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

/// The largest sum of |w| over one output channel (dim 0) of a float32
/// weight constant; nullopt if `weight` is not one.
std::optional<double> largestChannelSum(Value weight) {
  std::optional<std::vector<float>> values = floatsOf(weight);
  if (!values)
    return std::nullopt;
  int64_t channels = TensorBuilder::shapeOf(weight)[0];
  int64_t perChannel = static_cast<int64_t>(values->size()) / channels;
  double largest = 0;
  for (int64_t c = 0; c < channels; ++c) {
    double sum = 0;
    for (int64_t i = 0; i < perChannel; ++i)
      sum += std::abs((*values)[c * perChannel + i]);
    largest = std::max(largest, sum);
  }
  return largest;
}

/// The largest |v| of a float32 constant; nullopt if `value` is not one.
std::optional<double> largestMagnitude(Value value) {
  std::optional<std::vector<float>> values = floatsOf(value);
  if (!values)
    return std::nullopt;
  double largest = 0;
  for (float v : *values)
    largest = std::max(largest, static_cast<double>(std::abs(v)));
  return largest;
}

/// The largest sum of |b| over one column (the second-to-last dim) of a
/// float32 constant [..., K, N]; nullopt if `b` is not one.
std::optional<double> largestColumnSum(Value b) {
  std::optional<std::vector<float>> values = floatsOf(b);
  if (!values)
    return std::nullopt;
  ArrayRef<int64_t> shape = TensorBuilder::shapeOf(b);
  int64_t columns = shape.size() >= 2 ? shape.back() : 1;
  int64_t rows = shape.size() >= 2 ? shape[shape.size() - 2] : shape.back();
  int64_t batches = static_cast<int64_t>(values->size()) / (rows * columns);
  double largest = 0;
  for (int64_t batch = 0; batch < batches; ++batch)
    for (int64_t n = 0; n < columns; ++n) {
      double sum = 0;
      for (int64_t k = 0; k < rows; ++k)
        sum += std::abs((*values)[(batch * rows + k) * columns + n]);
      largest = std::max(largest, sum);
    }
  return largest;
}

/// (A - a_zp) @ (B - b_zp): a_zp per row of A (or scalar), b_zp per column
/// of B (or scalar). In float32 where that is exact, else in int32.
Value integerMatMul(NodeContext &ctx, Value a, Value aZero, Value b,
                    Value bZero) {
  int64_t ra = TensorBuilder::rankOf(a), rb = TensorBuilder::rankOf(b);
  if (ra < 1 || rb < 1) {
    ctx.error() << "needs operands of rank >= 1";
    return {};
  }
  Value az = aZero ? alongAxis(ctx, aZero, ra == 1 ? 0 : ra - 2, ra,
                               TensorBuilder::shapeOf(a)[ra == 1 ? 0 : ra - 2])
                   : Value();
  Value bz = bZero ? alongAxis(ctx, bZero, rb - 1, rb,
                               TensorBuilder::shapeOf(b)[rb - 1])
                   : Value();
  if ((aZero && !az) || (bZero && !bz))
    return {};
  TensorBuilder &tb = ctx.tb();
  Type f32 = tb.getBuilder().getF32Type();
  Type aElement = TensorBuilder::elementTypeOf(a);
  if (isa<IntegerType>(aElement) && aElement.getIntOrFloatBitWidth() <= 16) {
    // As integerConv: in float32 where B is a constant whose columns keep
    // every partial sum a whole number below 2^24.
    Value rhs = centered(tb, b, bz, f32);
    std::optional<double> sum = largestColumnSum(rhs);
    if (sum && *sum * largestCentered(aElement, az) < kExactInFloat32)
      return tb.matmul(centered(tb, a, az, f32), rhs);
  }
  // Named in order: the ops are created as the arguments are evaluated.
  Type i32 = tb.getBuilder().getIntegerType(32, /*isSigned=*/true);
  Value lhs = centered(tb, a, az, i32);
  Value rhs = centered(tb, b, bz, i32);
  return tb.matmul(lhs, rhs);
}

LogicalResult decomposeMatMulInteger(NodeContext &ctx) {
  Value a = ctx.requiredInput(0, "A"), b = ctx.requiredInput(1, "B");
  Value aZero = ctx.input(2), bZero = ctx.input(3);
  if (!a || !b)
    return failure();
  Value acc = integerMatMul(ctx, a, aZero, b, bZero);
  ctx.setResult(0, ctx.tb().cast(acc, ctx.resultType(0).getElementType()));
  return success();
}

/// The eight inputs QLinearMatMul and QLinearConv share, in this order: two
/// quantized operands, each with its scale and zero point, then the
/// output's scale and zero point.
struct QLinearInputs {
  Value lhs, lhsScale, lhsZero, rhs, rhsScale, rhsZero, yScale, yZero;
};

/// Reads the QLinearInputs of a node whose operands ONNX names `lhsName`
/// and `rhsName` ("a" and "b", "x" and "w"); reports every missing one and
/// returns nullopt if any is.
std::optional<QLinearInputs> readQLinearInputs(NodeContext &ctx,
                                               StringRef lhsName,
                                               StringRef rhsName) {
  std::string lhs = lhsName.str(), rhs = rhsName.str();
  // Braced initialization reads the slots in order, so the errors come out
  // in slot order.
  QLinearInputs in{ctx.requiredInput(0, lhs),
                   ctx.requiredInput(1, lhs + "_scale"),
                   ctx.requiredInput(2, lhs + "_zero_point"),
                   ctx.requiredInput(3, rhs),
                   ctx.requiredInput(4, rhs + "_scale"),
                   ctx.requiredInput(5, rhs + "_zero_point"),
                   ctx.requiredInput(6, "y_scale"),
                   ctx.requiredInput(7, "y_zero_point")};
  if (!in.lhs || !in.lhsScale || !in.lhsZero || !in.rhs || !in.rhsScale ||
      !in.rhsZero || !in.yScale || !in.yZero)
    return std::nullopt;
  return in;
}

/// The int32 product `acc` of two quantized operands requantized to the
/// result type: acc * (lhsScale * rhsScale / yScale) + yZero. The operand
/// scales come shaped to broadcast against `acc` (null if that failed);
/// the output's scale and zero point are scalars.
Value requantizeProduct(NodeContext &ctx, Value acc, Value lhsScale,
                        Value rhsScale, Value yScale, Value yZero) {
  Value ys = alongAxis(ctx, yScale, 0, 1, 1);
  Value yz = alongAxis(ctx, yZero, 0, 1, 1);
  if (!lhsScale || !rhsScale || !ys || !yz)
    return {};
  TensorBuilder &tb = ctx.tb();
  Type f32 = tb.getBuilder().getF32Type();
  Value factor = tb.div(tb.mul(tb.cast(lhsScale, f32), tb.cast(rhsScale, f32)),
                        tb.cast(ys, f32));
  Value value = tb.mul(tb.cast(acc, f32), factor);
  return requantize(tb, value, yz, ctx.resultType(0).getElementType());
}

/// QLinearMatMul: requantized integer matmul, the combined scale
/// a_scale * b_scale / y_scale (per row of A, per column of B).
LogicalResult decomposeQLinearMatMul(NodeContext &ctx) {
  std::optional<QLinearInputs> in = readQLinearInputs(ctx, "a", "b");
  if (!in)
    return failure();
  Value acc = integerMatMul(ctx, in->lhs, in->lhsZero, in->rhs, in->rhsZero);
  if (!acc)
    return failure();
  int64_t rank = TensorBuilder::rankOf(acc);
  ArrayRef<int64_t> shape = TensorBuilder::shapeOf(acc);
  Value as = alongAxis(ctx, in->lhsScale, rank - 2, rank, shape[rank - 2]);
  Value bs = alongAxis(ctx, in->rhsScale, rank - 1, rank, shape[rank - 1]);
  Value y = requantizeProduct(ctx, acc, as, bs, in->yScale, in->yZero);
  if (!y)
    return failure();
  ctx.setResult(0, y);
  return success();
}

/// conv(x - x_zp, w - w_zp) (w_zp per output channel or scalar): in
/// float32 where the weight is a constant small enough that every partial
/// sum is a whole number below 2^24 (exact in any order, so the float
/// kernels compute what int32 would, at their speed), else in int32.
/// `bound` gets the largest |sum| in the float case, infinity otherwise.
Value integerConv(NodeContext &ctx, Value x, Value xZero, Value w, Value wZero,
                  double &bound) {
  bound = INFINITY;
  int64_t rank = TensorBuilder::rankOf(w);
  if (rank < 3) {
    ctx.error() << "needs a weight of rank >= 3";
    return {};
  }
  Value xz = xZero ? alongAxis(ctx, xZero, 0, 1, 1) : Value();
  Value wz = wZero ? alongAxis(ctx, wZero, 0, rank,
                               TensorBuilder::shapeOf(w)[0])
                   : Value();
  if ((xZero && !xz) || (wZero && !wz))
    return {};
  TensorBuilder &tb = ctx.tb();
  Type f32 = tb.getBuilder().getF32Type();
  Type xElement = TensorBuilder::elementTypeOf(x);
  if (isa<IntegerType>(xElement) && xElement.getIntOrFloatBitWidth() <= 16) {
    // The weight less its zero point folds into a float constant (when both
    // are constants), whose channel sums bound the convolution's.
    Value weight = centered(tb, w, wz, f32);
    std::optional<double> sum = largestChannelSum(weight);
    double largest = sum ? *sum * largestCentered(xElement, xz) : INFINITY;
    if (largest < kExactInFloat32) {
      bound = largest;
      return convolveWithAttrs(ctx, centered(tb, x, xz, f32), weight,
                               /*exactProducts=*/true);
    }
  }
  Type i32 = tb.getBuilder().getIntegerType(32, /*isSigned=*/true);
  Value input = centered(tb, x, xz, i32);
  Value weight = centered(tb, w, wz, i32);
  return convolveWithAttrs(ctx, input, weight);
}

LogicalResult decomposeConvInteger(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "x"), w = ctx.requiredInput(1, "w");
  Value xZero = ctx.input(2), wZero = ctx.input(3);
  if (!x || !w)
    return failure();
  double bound;
  Value acc = integerConv(ctx, x, xZero, w, wZero, bound);
  ctx.setResult(0, ctx.tb().cast(acc, ctx.resultType(0).getElementType()));
  return success();
}

/// QLinearConv: the integer conv plus the int32 bias, requantized by
/// x_scale * w_scale / y_scale (w_scale per output channel or scalar).
LogicalResult decomposeQLinearConv(NodeContext &ctx) {
  std::optional<QLinearInputs> in = readQLinearInputs(ctx, "x", "w");
  Value bias = ctx.input(8);
  if (!in)
    return failure();
  double bound;
  Value acc =
      integerConv(ctx, in->lhs, in->lhsZero, in->rhs, in->rhsZero, bound);
  if (!acc)
    return failure();
  int64_t rank = TensorBuilder::rankOf(acc);
  int64_t channels = TensorBuilder::shapeOf(acc)[1];
  if (bias) {
    Value b = alongAxis(ctx, bias, 1, rank, channels);
    if (!b)
      return failure();
    TensorBuilder &tb = ctx.tb();
    // The bias joins a float sum where the total stays exact, else the
    // sum goes back to int32 (exactly: it is whole) to take it.
    Type f32 = tb.getBuilder().getF32Type();
    Value fb = tb.cast(b, f32);
    std::optional<double> largestBias = largestMagnitude(fb);
    bool exact = TensorBuilder::elementTypeOf(acc).isF32() && largestBias &&
                 bound + *largestBias < kExactInFloat32;
    if (!exact)
      acc = tb.cast(acc, TensorBuilder::elementTypeOf(b));
    acc = tb.add(acc, exact ? fb : b);
  }
  Value xs = alongAxis(ctx, in->lhsScale, 0, 1, 1);
  Value ws = alongAxis(ctx, in->rhsScale, 1, rank, channels);
  Value y = requantizeProduct(ctx, acc, xs, ws, in->yScale, in->yZero);
  if (!y)
    return failure();
  ctx.setResult(0, y);
  return success();
}

} // namespace

void mlir::tgc::addQuantizeDecompositions(DecompositionTable &table) {
  table["QuantizeLinear"] = decomposeQuantizeLinear;
  table["DequantizeLinear"] = decomposeDequantizeLinear;
  table["DynamicQuantizeLinear"] = decomposeDynamicQuantizeLinear;
  table["MatMulInteger"] = decomposeMatMulInteger;
  table["QLinearMatMul"] = decomposeQLinearMatMul;
  table["ConvInteger"] = decomposeConvInteger;
  table["QLinearConv"] = decomposeQLinearConv;
}
