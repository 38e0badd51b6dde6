//===- DecomposeElementwise.cpp - elementwise ONNX ops ----------*- C++ -*-===//
//
// Arithmetic, activations, comparisons, logic, casts and the trivial ops
// (Identity, Dropout in inference, Constant). Everything broadcasts the
// numpy way through TensorBuilder.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"
#include "Frontend/OnnxTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tgc;

namespace {

using Unary = Value (TensorBuilder::*)(Value);
using Binary = Value (TensorBuilder::*)(Value, Value);

template <Unary fn> LogicalResult unaryOp(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  if (!x)
    return failure();
  ctx.setResult(0, (ctx.tb().*fn)(x));
  return success();
}

/// Before opset 7, binary ops broadcast only with `broadcast` = 1, and then
/// B's dims line up with A's from `axis` on (by default at the end, which is
/// what numpy broadcasting does).
Value legacyBroadcast(NodeContext &ctx, Value a, Value b) {
  if (ctx.opset() >= 7 || !a || !b)
    return b;
  bool broadcast = ctx.intAttr("broadcast", 0) != 0;
  bool hasAxis = ctx.hasAttr("axis");
  int64_t axisAttr = ctx.intAttr("axis", 0);
  ctx.ignoreAttr("consumed_inputs"); // opset 1 bookkeeping
  ArrayRef<int64_t> sa = TensorBuilder::shapeOf(a),
                    sb = TensorBuilder::shapeOf(b);
  if (!broadcast) {
    if (sa != sb) {
      ctx.error() << "operands differ in shape and 'broadcast' is not set";
      return {};
    }
    return b;
  }
  if (!hasAxis)
    return b;
  FailureOr<int64_t> axis = ctx.normalizeAxis(axisAttr, sa.size());
  if (failed(axis) || *axis + sb.size() > sa.size()) {
    ctx.error() << "B does not fit A from axis " << axisAttr;
    return {};
  }
  SmallVector<int64_t> shape(sb);
  shape.append(sa.size() - *axis - sb.size(), 1);
  return ctx.tb().reshape(b, shape);
}

template <Binary fn> LogicalResult binaryOp(NodeContext &ctx) {
  Value a = ctx.requiredInput(0, "A"), b = ctx.requiredInput(1, "B");
  b = legacyBroadcast(ctx, a, b);
  if (!a || !b)
    return failure();
  ctx.setResult(0, (ctx.tb().*fn)(a, b));
  return success();
}

/// Max, Min, Sum: a left fold over any number of inputs.
template <Binary fn> LogicalResult variadicOp(NodeContext &ctx) {
  SmallVector<Value> inputs = ctx.allInputs();
  if (inputs.empty()) {
    ctx.error() << "needs at least one input";
    return failure();
  }
  Value result = inputs[0];
  for (Value v : ArrayRef<Value>(inputs).drop_front())
    result = (ctx.tb().*fn)(result, v);
  // A single input still takes the broadcast shape of the result.
  ctx.setResult(0, ctx.tb().broadcastTo(result, ctx.resultType(0).getShape()));
  return success();
}

LogicalResult decomposeMean(NodeContext &ctx) {
  if (failed(variadicOp<&TensorBuilder::add>(ctx)))
    return failure();
  Value sum = ctx.getResults()[0];
  ctx.setResult(0, ctx.tb().div(sum, static_cast<double>(
                                         ctx.getNode().getInputs().size())));
  return success();
}

/// Pow(X, Y): Y is cast to the type of X; integer powers go through f64.
LogicalResult decomposePow(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X"), y = ctx.requiredInput(1, "Y");
  y = legacyBroadcast(ctx, x, y);
  if (!x || !y)
    return failure();
  TensorBuilder &tb = ctx.tb();
  Type element = TensorBuilder::elementTypeOf(x);
  if (isa<FloatType>(element)) {
    ctx.setResult(0, tb.pow(x, tb.cast(y, element)));
    return success();
  }
  Type f64 = tb.getBuilder().getF64Type();
  Value base = tb.cast(x, f64);
  Value exponent = tb.cast(y, f64);
  ctx.setResult(0, tb.cast(tb.pow(base, exponent), element));
  return success();
}

LogicalResult decomposeLeakyRelu(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  double alpha = ctx.floatAttr("alpha", 0.01f);
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  Value negative = tb.lt(x, tb.splatLike(x, 0));
  ctx.setResult(0, tb.where(negative, tb.mul(x, alpha), x));
  return success();
}

LogicalResult decomposeThresholdedRelu(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  double alpha = ctx.floatAttr("alpha", 1.0f);
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  Value above = tb.gt(x, tb.splatLike(x, alpha));
  ctx.setResult(0, tb.where(above, x, tb.splatLike(x, 0)));
  return success();
}

LogicalResult decomposePRelu(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X"), slope = ctx.requiredInput(1, "slope");
  ctx.ignoreAttr("consumed_inputs"); // opset 1 bookkeeping
  if (!x || !slope)
    return failure();
  TensorBuilder &tb = ctx.tb();
  // Before opset 7 a 1-D slope is per channel (dim 1), not per last dim.
  int64_t rank = TensorBuilder::rankOf(x);
  if (ctx.opset() < 7 && TensorBuilder::rankOf(slope) == 1 && rank > 2 &&
      TensorBuilder::shapeOf(slope)[0] == TensorBuilder::shapeOf(x)[1]) {
    SmallVector<int64_t> shape(rank - 1, 1);
    shape[0] = TensorBuilder::shapeOf(slope)[0];
    slope = tb.reshape(slope, shape);
  }
  Value negative = tb.lt(x, tb.splatLike(x, 0));
  ctx.setResult(0, tb.where(negative, tb.mul(x, slope), x));
  return success();
}

LogicalResult decomposeElu(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  double alpha = ctx.floatAttr("alpha", 1.0f);
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  Value negative = tb.mul(tb.sub(tb.exp(x), 1.0), alpha);
  Value below = tb.lt(x, tb.splatLike(x, 0));
  ctx.setResult(0, tb.where(below, negative, x));
  return success();
}

LogicalResult decomposeSelu(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  double alpha = ctx.floatAttr("alpha", 1.67326319217681884765625f);
  double gamma = ctx.floatAttr("gamma", 1.05070102214813232421875f);
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  Value negative = tb.sub(tb.mul(tb.exp(x), alpha), alpha);
  Value positive = tb.gt(x, tb.splatLike(x, 0));
  ctx.setResult(0, tb.mul(tb.where(positive, x, negative), gamma));
  return success();
}

/// max(0, min(1, alpha * x + beta))
Value hardSigmoid(TensorBuilder &tb, Value x, double alpha, double beta) {
  Value linear = tb.add(tb.mul(x, alpha), beta);
  Value capped = tb.min(linear, tb.splatLike(x, 1));
  return tb.max(capped, tb.splatLike(x, 0));
}

LogicalResult decomposeHardSigmoid(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  double alpha = ctx.floatAttr("alpha", 0.2f);
  double beta = ctx.floatAttr("beta", 0.5f);
  if (!x)
    return failure();
  ctx.setResult(0, hardSigmoid(ctx.tb(), x, alpha, beta));
  return success();
}

LogicalResult decomposeHardSwish(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  if (!x)
    return failure();
  ctx.setResult(0, ctx.tb().mul(x, hardSigmoid(ctx.tb(), x, 1.0 / 6, 0.5)));
  return success();
}

Value softplus(TensorBuilder &tb, Value x) {
  return tb.log(tb.add(tb.exp(x), 1.0));
}

LogicalResult decomposeSoftplus(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  if (!x)
    return failure();
  ctx.setResult(0, softplus(ctx.tb(), x));
  return success();
}

LogicalResult decomposeSoftsign(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  ctx.setResult(0, tb.div(x, tb.add(tb.abs(x), 1.0)));
  return success();
}

LogicalResult decomposeMish(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  ctx.setResult(0, tb.mul(x, tb.tanh(softplus(tb, x))));
  return success();
}

/// Shrink: x + bias below -lambd, x - bias above lambd, 0 between.
LogicalResult decomposeShrink(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  double lambd = ctx.floatAttr("lambd", 0.5f);
  double bias = ctx.floatAttr("bias", 0.0f);
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  Value below = tb.lt(x, tb.splatLike(x, -lambd));
  Value above = tb.gt(x, tb.splatLike(x, lambd));
  Value inner = tb.where(above, tb.sub(x, bias), tb.splatLike(x, 0));
  ctx.setResult(0, tb.where(below, tb.add(x, bias), inner));
  return success();
}

/// The hyperbolic functions and their inverses, from exp and log.
enum class Hyperbolic { Sinh, Cosh, Asinh, Acosh, Atanh };

template <Hyperbolic kind> LogicalResult decomposeHyperbolic(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  Value y;
  switch (kind) {
  case Hyperbolic::Sinh:
  case Hyperbolic::Cosh: {
    Value up = tb.exp(x);
    Value down = tb.exp(tb.neg(x));
    y = tb.mul(kind == Hyperbolic::Sinh ? tb.sub(up, down) : tb.add(up, down),
               0.5);
    break;
  }
  case Hyperbolic::Asinh: {
    // sign(x) * log(|x| + sqrt(x^2 + 1)): no cancellation for x < 0.
    Value ax = tb.abs(x);
    Value root = tb.sqrt(tb.add(tb.mul(ax, ax), 1.0));
    Value magnitude = tb.log(tb.add(ax, root));
    Value negative = tb.lt(x, tb.splatLike(x, 0));
    y = tb.where(negative, tb.neg(magnitude), magnitude);
    break;
  }
  case Hyperbolic::Acosh: {
    Value root = tb.sqrt(tb.sub(tb.mul(x, x), 1.0));
    y = tb.log(tb.add(x, root));
    break;
  }
  case Hyperbolic::Atanh: {
    Value ratio = tb.div(tb.add(x, 1.0), tb.sub(tb.splatLike(x, 1.0), x));
    y = tb.mul(tb.log(ratio), 0.5);
    break;
  }
  }
  ctx.setResult(0, y);
  return success();
}

/// The inverse trigonometric functions, from atan: asin(x) =
/// atan(x / sqrt((1 - x)(1 + x))), acos(x) = 2 atan(sqrt((1 - x) / (1 + x))),
/// both without cancellation near |x| = 1.
enum class InverseTrig { Asin, Acos, Atan };

template <InverseTrig kind>
LogicalResult decomposeInverseTrig(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  Value one = tb.splatLike(x, 1.0);
  Value y;
  switch (kind) {
  case InverseTrig::Atan:
    y = tb.atan(x);
    break;
  case InverseTrig::Asin:
    y = tb.atan(tb.div(x, tb.sqrt(tb.mul(tb.sub(one, x), tb.add(one, x)))));
    break;
  case InverseTrig::Acos:
    y = tb.mul(tb.atan(tb.sqrt(tb.div(tb.sub(one, x), tb.add(one, x)))), 2.0);
    break;
  }
  ctx.setResult(0, y);
  return success();
}

/// Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
LogicalResult decomposeCelu(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  double alpha = ctx.floatAttr("alpha", 1.0f);
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  Value zero = tb.splatLike(x, 0);
  Value negative = tb.mul(tb.sub(tb.exp(tb.div(x, alpha)), 1.0), alpha);
  ctx.setResult(0, tb.add(tb.max(x, zero), tb.min(negative, zero)));
  return success();
}

LogicalResult decomposeTan(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  Value sine = tb.sin(x);
  ctx.setResult(0, tb.div(sine, tb.cos(x)));
  return success();
}

/// Clip: bounds are attributes before opset 11 and optional inputs since.
LogicalResult decomposeClip(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  Value lo, hi;
  if (ctx.opset() < 11) {
    if (ctx.hasAttr("min"))
      lo = tb.splatLike(x, ctx.floatAttr("min", 0));
    if (ctx.hasAttr("max"))
      hi = tb.splatLike(x, ctx.floatAttr("max", 0));
  } else {
    lo = ctx.input(1);
    hi = ctx.input(2);
  }
  Value result = x;
  if (lo)
    result = tb.max(result, lo);
  if (hi)
    result = tb.min(result, hi);
  ctx.setResult(0, result);
  return success();
}

/// C's fmod: a - trunc(a / b) * b. Narrower floats compute in f64, where the
/// product is exact; a quotient rounded across an integer leaves a
/// remainder of the wrong sign or size, which one more step of b corrects.
Value floatRemainder(TensorBuilder &tb, Value a, Value b) {
  Type element = TensorBuilder::elementTypeOf(a);
  Type f64 = tb.getBuilder().getF64Type();
  Value x = tb.cast(a, f64), y = tb.cast(b, f64);
  Value rem = tb.sub(x, tb.mul(tb.trunc(tb.div(x, y)), y));
  Value zero = tb.splatLike(rem, 0);
  Value ay = tb.abs(y);
  // The remainder has a's sign and |rem| < |b|.
  Value signed_ = tb.where(tb.lt(x, tb.splatLike(x, 0)), tb.neg(ay), ay);
  Value wrongSign = tb.logicalAnd(tb.ne(rem, zero),
                                  tb.logicalXor(tb.lt(rem, zero),
                                                tb.lt(x, tb.splatLike(x, 0))));
  rem = tb.where(wrongSign, tb.add(rem, signed_), rem);
  Value tooBig = tb.le(ay, tb.abs(rem));
  rem = tb.where(tooBig, tb.sub(rem, signed_), rem);
  // fmod(x, inf) = x; fmod(inf, y) and fmod(x, 0) are NaN already.
  rem = tb.where(tb.eq(ay, tb.splatLike(ay, INFINITY)), x, rem);
  return tb.cast(rem, element);
}

/// Mod: C remainder for fmod=1, the divisor's sign for fmod=0 (integers).
LogicalResult decomposeMod(NodeContext &ctx) {
  Value a = ctx.requiredInput(0, "A"), b = ctx.requiredInput(1, "B");
  int64_t fmod = ctx.intAttr("fmod", 0);
  if (!a || !b)
    return failure();
  TensorBuilder &tb = ctx.tb();
  if (TensorBuilder::isFloat(a)) {
    if (fmod != 1) {
      ctx.error() << "floating-point Mod needs fmod = 1";
      return failure();
    }
    ctx.setResult(0, floatRemainder(tb, a, b));
    return success();
  }
  OpBuilder &builder = tb.getBuilder();
  ArrayRef<int64_t> shape = ctx.resultType(0).getShape();
  Value x = tb.broadcastTo(a, shape), y = tb.broadcastTo(b, shape);
  if (!x || !y)
    return failure();
  if (x.getType() != y.getType()) {
    ctx.error() << "operands have different types " << x.getType() << " and "
                << y.getType();
    return failure();
  }
  Value rem = builder.create<ModOp>(tb.getLoc(), x.getType(), x, y);
  if (fmod == 1 || TensorBuilder::elementTypeOf(x).isUnsignedInteger()) {
    ctx.setResult(0, rem);
    return success();
  }
  Value zero = tb.splatLike(x, 0);
  Value remNegative = tb.lt(rem, zero);
  Value signsDiffer = tb.logicalXor(remNegative, tb.lt(y, zero));
  Value adjust = tb.logicalAnd(tb.ne(rem, zero), signsDiffer);
  ctx.setResult(0, tb.where(adjust, tb.add(rem, y), rem));
  return success();
}

LogicalResult decomposeBitShift(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X"), y = ctx.requiredInput(1, "Y");
  std::string direction = ctx.strAttr("direction", "");
  if (!x || !y)
    return failure();
  if (direction != "LEFT" && direction != "RIGHT") {
    ctx.error() << "attribute 'direction' must be LEFT or RIGHT, not '"
                << direction << "'";
    return failure();
  }
  TensorBuilder &tb = ctx.tb();
  Value all[2] = {x, y};
  llvm::ArrayRef<int64_t> shape = ctx.resultType(0).getShape();
  for (Value &v : all)
    v = tb.broadcastTo(v, shape);
  if (!all[0] || !all[1])
    return failure();
  if (all[0].getType() != all[1].getType()) {
    ctx.error() << "operands have different types " << all[0].getType()
                << " and " << all[1].getType();
    return failure();
  }
  ctx.setResult(0, direction == "LEFT" ? tb.shl(all[0], all[1])
                                       : tb.shr(all[0], all[1]));
  return success();
}

LogicalResult decomposeIsInf(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  bool negative = ctx.intAttr("detect_negative", 1);
  bool positive = ctx.intAttr("detect_positive", 1);
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  Value result =
      tb.splat(tb.getBuilder().getI1Type(), TensorBuilder::shapeOf(x), 0);
  if (negative)
    result = tb.logicalOr(result, tb.eq(x, tb.splatLike(x, -INFINITY)));
  if (positive)
    result = tb.logicalOr(result, tb.eq(x, tb.splatLike(x, INFINITY)));
  ctx.setResult(0, result);
  return success();
}

LogicalResult decomposeWhere(NodeContext &ctx) {
  Value c = ctx.requiredInput(0, "condition");
  Value x = ctx.requiredInput(1, "X"), y = ctx.requiredInput(2, "Y");
  if (!c || !x || !y)
    return failure();
  ctx.setResult(0, ctx.tb().where(c, x, y));
  return success();
}

LogicalResult decomposeCast(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  int64_t to = ctx.intAttr("to", -1);
  ctx.ignoreAttr("saturate"); // only affects 8-bit float targets
  if (!x)
    return failure();
  Type element = convertOnnxElementType(x.getContext(), to);
  if (!element) {
    ctx.error() << "cannot cast to " << onnxDataTypeName(to);
    return failure();
  }
  ctx.setResult(0, ctx.tb().cast(x, element));
  return success();
}

LogicalResult decomposeCastLike(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  Value like = ctx.requiredInput(1, "target_type");
  ctx.ignoreAttr("saturate");
  if (!x || !like)
    return failure();
  ctx.setResult(0, ctx.tb().cast(x, TensorBuilder::elementTypeOf(like)));
  return success();
}

LogicalResult decomposeIdentity(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  if (!x)
    return failure();
  ctx.setResult(0, x);
  return success();
}

/// Dropout at inference, or in training with ratio 0, is the identity; its
/// mask is all true. Training with a positive ratio draws random numbers,
/// which tgc does not do.
LogicalResult decomposeDropout(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "data");
  ctx.ignoreAttr("seed");
  if (ctx.intAttr("is_test", 1) == 0) {
    ctx.error() << "training mode (is_test = 0) is not supported";
    return failure();
  }
  if (ctx.input(2)) {
    std::optional<double> training = ctx.constScalar(2);
    if (!training) {
      ctx.error() << "training_mode must be a constant";
      return failure();
    }
    // The ratio: an input since opset 12, else an attribute (default 0.5).
    std::optional<double> ratio =
        ctx.input(1) ? ctx.constScalar(1) : std::optional<double>(0.5);
    if (*training != 0 && (!ratio || *ratio != 0)) {
      ctx.error() << "training mode with a ratio other than a constant 0 "
                     "draws random numbers, which is not supported";
      return failure();
    }
  }
  ctx.input(1); // ratio: unused at inference
  ctx.ignoreAttr("ratio");
  if (!x)
    return failure();
  ctx.setResult(0, x);
  if (ctx.numResults() > 1)
    ctx.setResult(1, ctx.tb().splat(ctx.resultType(1).getElementType(),
                                    ctx.resultType(1).getShape(), 1));
  return success();
}

/// A Constant node that was not turned into tgc.const at import (e.g.
/// written by hand).
LogicalResult decomposeConstant(NodeContext &ctx) {
  RankedTensorType type = ctx.resultType(0);
  TensorBuilder &tb = ctx.tb();
  Builder &b = tb.getBuilder();
  Attribute value;
  if (Attribute v = ctx.attr("value")) {
    value = v;
  } else if (Attribute v = ctx.attr("value_float")) {
    if (auto f = dyn_cast<FloatAttr>(v))
      value = DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                     f.getValue());
  } else if (Attribute v = ctx.attr("value_int")) {
    if (auto i = dyn_cast<IntegerAttr>(v))
      value = DenseElementsAttr::get(
          RankedTensorType::get({}, b.getIntegerType(64, true)),
          APInt(64, i.getInt(), true));
  } else if (auto floats = ctx.floatsAttr("value_floats")) {
    value = DenseElementsAttr::get(
        RankedTensorType::get({(int64_t)floats->size()}, b.getF32Type()),
        ArrayRef<float>(*floats));
  } else if (auto ints = ctx.intsAttr("value_ints")) {
    SmallVector<APInt> data;
    for (int64_t v : *ints)
      data.push_back(APInt(64, v, true));
    value = DenseElementsAttr::get(
        RankedTensorType::get({(int64_t)data.size()},
                              b.getIntegerType(64, true)),
        data);
  }
  auto elements = dyn_cast_or_null<ElementsAttr>(value);
  if (!elements) {
    ctx.error() << "needs a tensor, float or int value";
    return failure();
  }
  if (elements.getType() != type) {
    ctx.error() << "value " << elements.getType() << " differs from the "
                << "declared " << type;
    return failure();
  }
  ctx.setResult(0, tb.constant(elements));
  return success();
}

} // namespace

void mlir::tgc::addElementwiseDecompositions(DecompositionTable &table) {
  using TB = TensorBuilder;
  table["Add"] = binaryOp<&TB::add>;
  table["Sub"] = binaryOp<&TB::sub>;
  table["Mul"] = binaryOp<&TB::mul>;
  table["Div"] = binaryOp<&TB::div>;
  table["Pow"] = decomposePow;
  table["Mod"] = decomposeMod;
  table["BitShift"] = decomposeBitShift;
  table["Max"] = variadicOp<&TB::max>;
  table["Min"] = variadicOp<&TB::min>;
  table["Sum"] = variadicOp<&TB::add>;
  table["Mean"] = decomposeMean;

  table["Neg"] = unaryOp<&TB::neg>;
  table["Abs"] = unaryOp<&TB::abs>;
  table["Sqrt"] = unaryOp<&TB::sqrt>;
  table["Reciprocal"] = unaryOp<&TB::recip>;
  table["Exp"] = unaryOp<&TB::exp>;
  table["Log"] = unaryOp<&TB::log>;
  table["Erf"] = unaryOp<&TB::erf>;
  table["Tanh"] = unaryOp<&TB::tanh>;
  table["Sigmoid"] = unaryOp<&TB::sigmoid>;
  table["Relu"] = unaryOp<&TB::relu>;
  table["Floor"] = unaryOp<&TB::floor>;
  table["Ceil"] = unaryOp<&TB::ceil>;
  table["Round"] = unaryOp<&TB::round>;
  table["Sign"] = unaryOp<&TB::sign>;
  table["Sin"] = unaryOp<&TB::sin>;
  table["Cos"] = unaryOp<&TB::cos>;
  table["Tan"] = decomposeTan;
  table["Sinh"] = decomposeHyperbolic<Hyperbolic::Sinh>;
  table["Cosh"] = decomposeHyperbolic<Hyperbolic::Cosh>;
  table["Asinh"] = decomposeHyperbolic<Hyperbolic::Asinh>;
  table["Acosh"] = decomposeHyperbolic<Hyperbolic::Acosh>;
  table["Atanh"] = decomposeHyperbolic<Hyperbolic::Atanh>;
  table["Asin"] = decomposeInverseTrig<InverseTrig::Asin>;
  table["Acos"] = decomposeInverseTrig<InverseTrig::Acos>;
  table["Atan"] = decomposeInverseTrig<InverseTrig::Atan>;
  table["Celu"] = decomposeCelu;
  table["Shrink"] = decomposeShrink;
  table["IsNaN"] = unaryOp<&TB::isNan>;
  table["IsInf"] = decomposeIsInf;

  table["LeakyRelu"] = decomposeLeakyRelu;
  table["ThresholdedRelu"] = decomposeThresholdedRelu;
  table["PRelu"] = decomposePRelu;
  table["Elu"] = decomposeElu;
  table["Selu"] = decomposeSelu;
  table["Clip"] = decomposeClip;
  table["HardSigmoid"] = decomposeHardSigmoid;
  table["HardSwish"] = decomposeHardSwish;
  table["Softplus"] = decomposeSoftplus;
  table["Softsign"] = decomposeSoftsign;
  table["Mish"] = decomposeMish;

  table["Equal"] = binaryOp<&TB::eq>;
  table["Less"] = binaryOp<&TB::lt>;
  table["Greater"] = binaryOp<&TB::gt>;
  table["LessOrEqual"] = binaryOp<&TB::le>;
  table["GreaterOrEqual"] = binaryOp<&TB::ge>;
  table["Not"] = unaryOp<&TB::logicalNot>;
  table["And"] = binaryOp<&TB::logicalAnd>;
  table["Or"] = binaryOp<&TB::logicalOr>;
  table["Xor"] = binaryOp<&TB::logicalXor>;
  table["Where"] = decomposeWhere;

  table["Cast"] = decomposeCast;
  table["CastLike"] = decomposeCastLike;
  table["Identity"] = decomposeIdentity;
  table["Dropout"] = decomposeDropout;
  table["Constant"] = decomposeConstant;
}
