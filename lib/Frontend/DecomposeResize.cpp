//===- DecomposeResize.cpp - Resize and Upsample ----------------*- C++ -*-===//
//
// Every shape is static, so where each output element samples its input is
// known at compile time: for each resized axis, the source taps and their
// weights are computed here (the coordinate transformation, the nearest
// rounding, the linear or cubic kernel, edge clamping, exclude_outside)
// and become constants. Nearest is then a gather along the axis (a strided
// or expanded view where the taps allow). Linear and cubic are a weighted
// sum of 2 or 4 such gathers, one per tap (views for scales of 2, 1/2, 3,
// ...; else one load per output once tgc-collapse-gather has run), or a
// constant [out, in] weight matrix applied along the axis where some
// outputs lie outside a tf_crop_and_resize roi. Axes are resized one at a
// time, the last first, as the ONNX reference does.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"
#include "mlir/IR/BuiltinAttributes.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tgc;

namespace {

enum class Mode { Nearest, Linear, Cubic };

struct ResizeOptions {
  Mode mode = Mode::Nearest;
  std::string coordinates = "half_pixel";
  std::string nearest = "round_prefer_floor";
  double cubicA = -0.75;
  bool excludeOutside = false;
};

/// Where output position `x` of an axis samples its input, in input
/// coordinates; nullopt outside a tf_crop_and_resize region.
std::optional<double> sourceCoordinate(const ResizeOptions &opts, int64_t x,
                                       int64_t in, double scale,
                                       double roiStart, double roiEnd) {
  // The reference computes with the real-valued output width, not the
  // integer output size, when a scale is given.
  double outWidth = scale * in;
  const std::string &mode = opts.coordinates;
  if (mode == "half_pixel")
    return (x + 0.5) / scale - 0.5;
  if (mode == "asymmetric")
    return x / scale;
  if (mode == "pytorch_half_pixel")
    return outWidth == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
  if (mode == "tf_half_pixel_for_nn")
    return (x + 0.5) / scale;
  if (mode == "align_corners")
    return outWidth == 1 ? 0.0 : x * (in - 1) / (outWidth - 1);
  // tf_crop_and_resize: the roi is in normalized coordinates.
  double span = (roiEnd - roiStart) * (in - 1);
  double source = outWidth == 1 ? span / 2 : x * span / (outWidth - 1);
  source += roiStart * (in - 1);
  if (source < 0 || source > in - 1)
    return std::nullopt;
  return source;
}

/// The kernel weights for the taps at base-1 .. base+2 (cubic) or base,
/// base+1 (linear, nearest), `ratio` in (0, 1] past base.
SmallVector<double, 4> tapWeights(const ResizeOptions &opts, double ratio) {
  switch (opts.mode) {
  case Mode::Nearest: {
    bool up;
    if (ratio == 1)
      up = true;
    else if (opts.nearest == "round_prefer_ceil")
      up = ratio >= 0.5;
    else if (opts.nearest == "floor")
      up = false;
    else if (opts.nearest == "ceil")
      up = true;
    else // round_prefer_floor
      up = ratio > 0.5;
    return {up ? 0.0 : 1.0, up ? 1.0 : 0.0};
  }
  case Mode::Linear:
    return {1 - ratio, ratio};
  case Mode::Cubic: {
    double a = opts.cubicA, r = ratio, s = 1 - ratio;
    return {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
            ((a + 2) * r - (a + 3)) * r * r + 1,
            ((a + 2) * s - (a + 3)) * s * s + 1,
            ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a};
  }
  }
  return {};
}

/// The interpolation of one axis: weights[o * in + i] is how much input i
/// contributes to output o; `outside` marks outputs that take the
/// extrapolation value. The same as taps: output o reads inputs first[o]
/// + t for t < tapCount, with weight tapWeights[o * tapCount + t], the
/// indices before the edges are clamped (positions past an edge read the
/// edge element).
struct AxisPlan {
  SmallVector<double> weights;
  SmallVector<bool> outside;
  bool isIdentity = true;
  int64_t tapCount = 0;
  SmallVector<int64_t> first;
  SmallVector<double> tapWeights;
};

AxisPlan planAxis(const ResizeOptions &opts, int64_t in, int64_t out,
                  double scale, double roiStart, double roiEnd) {
  AxisPlan plan;
  plan.weights.assign(out * in, 0.0);
  plan.outside.assign(out, false);
  plan.tapCount = tapWeights(opts, 0.5).size();
  plan.first.assign(out, 0);
  plan.tapWeights.assign(out * plan.tapCount, 0.0);
  for (int64_t x = 0; x < out; ++x) {
    std::optional<double> source =
        sourceCoordinate(opts, x, in, scale, roiStart, roiEnd);
    if (!source) {
      plan.outside[x] = true;
      plan.isIdentity = false;
      continue;
    }
    // Taps are the neighbours of `source`, the left one preferred when it
    // is an integer (then the ratio is 1).
    double floorSource = std::floor(*source);
    bool integral = floorSource == *source;
    int64_t base = static_cast<int64_t>(floorSource) - (integral ? 1 : 0);
    double ratio = integral ? 1.0 : *source - floorSource;
    SmallVector<double, 4> w = tapWeights(opts, ratio);
    int64_t first = base - (static_cast<int64_t>(w.size()) / 2 - 1);
    if (opts.excludeOutside) {
      double total = 0;
      for (size_t t = 0; t < w.size(); ++t) {
        int64_t idx = first + t;
        if (idx < 0 || idx >= in)
          w[t] = 0;
        total += w[t];
      }
      for (double &v : w)
        v = total != 0 ? v / total : 0;
    }
    plan.first[x] = first;
    for (size_t t = 0; t < w.size(); ++t) {
      int64_t idx = std::clamp<int64_t>(first + t, 0, in - 1); // edge pad
      plan.weights[x * in + idx] += w[t];
      plan.tapWeights[x * plan.tapCount + t] = w[t];
    }
  }
  for (int64_t x = 0; plan.isIdentity && x < out; ++x)
    for (int64_t i = 0; plan.isIdentity && i < in; ++i)
      plan.isIdentity = plan.weights[x * in + i] == (x == i ? 1.0 : 0.0);
  return plan;
}

/// `x` with its first element along `axis` repeated `low` times before it
/// and its last `high` times after it.
Value padEdges(TensorBuilder &tb, Value x, int64_t axis, int64_t low,
               int64_t high) {
  if (low == 0 && high == 0)
    return x;
  int64_t in = TensorBuilder::shapeOf(x)[axis];
  SmallVector<Value> parts;
  if (low)
    parts.push_back(tb.take(x, axis, SmallVector<int64_t>(low, 0)));
  parts.push_back(x);
  if (high)
    parts.push_back(tb.take(x, axis, SmallVector<int64_t>(high, in - 1)));
  return tb.concat(parts, axis);
}

/// Linear or cubic along an axis as a sum of gathers, one per tap: y[o] =
/// sum_t w_t[o] * x[first[o] + t], the input's edges repeated `low` and
/// `high` times for the taps past them (`indices` count from the first
/// repeat). Each output reads 2 (or 4) inputs, where the weight matrix
/// reads the whole axis: a 2x bilinear upsampling of 64 channels of 64x64
/// ran 16x faster, a 1/2 downsampling of 64x64 300x. A zero weight multiplies
/// its tap as ONNX Runtime's kernel does, so an infinity there makes a
/// NaN, as it does in the reference's dot product of the taps.
struct TapPlan {
  int64_t low = 0, high = 0;
  SmallVector<SmallVector<int64_t>> indices;
};

/// The taps of `plan` unless some output lies outside a tf_crop_and_resize
/// roi. Where a tap's indices are no view (align_corners, scales that are
/// no ratio of small integers), take gathers them: a bilinear resize of
/// 64x64 to 100x100 ran in 0.65 ms, 16 ms through the matrix.
std::optional<TapPlan> planTaps(const AxisPlan &plan, int64_t in) {
  if (plan.first.empty() || llvm::is_contained(plan.outside, true))
    return std::nullopt;
  TapPlan taps;
  int64_t count = plan.tapCount;
  int64_t lowest = *llvm::min_element(plan.first);
  int64_t highest = *llvm::max_element(plan.first) + count - 1;
  taps.low = std::max<int64_t>(0, -lowest);
  taps.high = std::max<int64_t>(0, highest - (in - 1));
  taps.indices.resize(count);
  for (int64_t t = 0; t < count; ++t) {
    for (int64_t first : plan.first)
      taps.indices[t].push_back(first + t + taps.low);
  }
  return taps;
}

/// Applies `taps` along `axis` of x, its edges repeated (padEdges).
Value applyTaps(TensorBuilder &tb, Value x, int64_t axis, const AxisPlan &plan,
                const TapPlan &taps) {
  Type element = TensorBuilder::elementTypeOf(x);
  int64_t out = plan.first.size(), count = plan.tapCount;
  SmallVector<int64_t> weightView(TensorBuilder::rankOf(x), 1);
  weightView[axis] = out;
  Value sum;
  for (int64_t t = 0; t < count; ++t) {
    SmallVector<Attribute> weights;
    bool allZero = true;
    for (int64_t o = 0; o < out; ++o) {
      double w = plan.tapWeights[o * count + t];
      allZero &= w == 0;
      weights.push_back(TensorBuilder::scalarAttr(element, w));
    }
    if (allZero)
      continue;
    Value weight = tb.constant(DenseElementsAttr::get(
        RankedTensorType::get(weightView, element), weights));
    Value term = tb.mul(tb.take(x, axis, taps.indices[t]), weight);
    sum = sum ? tb.add(sum, term) : term;
  }
  return sum;
}

/// Applies `plan` along `axis` of x.
Value applyAxis(TensorBuilder &tb, const ResizeOptions &opts, Value x,
                int64_t axis, int64_t out, const AxisPlan &plan) {
  ArrayRef<int64_t> shape = TensorBuilder::shapeOf(x);
  int64_t rank = shape.size(), in = shape[axis];
  if (opts.mode == Mode::Nearest) {
    SmallVector<int64_t> indices;
    for (int64_t o = 0; o < out; ++o) {
      int64_t picked = 0;
      for (int64_t i = 0; i < in; ++i)
        if (plan.weights[o * in + i] != 0)
          picked = i;
      indices.push_back(picked);
    }
    return tb.take(x, axis, indices);
  }
  // y[.., o, ..] = sum_i W[o, i] x[.., i, ..]; the mask keeps a NaN or an
  // infinity at a position of zero weight out of the sum.
  Type element = TensorBuilder::elementTypeOf(x);
  auto matrixType = RankedTensorType::get({out, in}, element);
  SmallVector<Attribute> weights;
  SmallVector<bool> used;
  for (double w : plan.weights) {
    weights.push_back(TensorBuilder::scalarAttr(element, w));
    used.push_back(w != 0);
  }
  Value matrix = tb.constant(DenseElementsAttr::get(matrixType, weights));
  Value mask = tb.constant(DenseElementsAttr::get(
      RankedTensorType::get({out, in}, tb.getBuilder().getI1Type()), used));
  SmallVector<int64_t> view(shape), matrixView(rank + 1, 1), result(shape);
  view.insert(view.begin() + axis, 1);
  matrixView[axis] = out;
  matrixView[axis + 1] = in;
  result[axis] = out;
  Value product = tb.mul(tb.reshape(x, view), tb.reshape(matrix, matrixView));
  Value masked = tb.where(tb.reshape(mask, matrixView), product,
                          tb.splat(element, {}, 0));
  return tb.reshape(tb.sum(masked, {axis + 1}, false), result);
}

/// Resizes every axis whose plan is not the identity; `roi` holds the
/// starts then the ends (tf_crop_and_resize only).
LogicalResult resize(NodeContext &ctx, Value x, const ResizeOptions &opts,
                     ArrayRef<double> scales, ArrayRef<double> roi,
                     double extrapolation) {
  TensorBuilder &tb = ctx.tb();
  ArrayRef<int64_t> in = TensorBuilder::shapeOf(x);
  ArrayRef<int64_t> out = ctx.resultType(0).getShape();
  int64_t rank = in.size();
  if ((int64_t)out.size() != rank || (int64_t)scales.size() != rank) {
    ctx.error() << "needs one scale or size per dim of the rank-" << rank
                << " input";
    return failure();
  }
  if (opts.mode != Mode::Nearest && !TensorBuilder::isFloat(x)) {
    ctx.error() << "linear and cubic modes need floating-point data, not "
                << TensorBuilder::elementTypeOf(x);
    return failure();
  }
  Value y = x;
  Value outside;
  for (int64_t axis = rank - 1; axis >= 0; --axis) {
    if (scales[axis] <= 0) {
      ctx.error() << "scale " << scales[axis] << " of dim " << axis
                  << " is not positive";
      return failure();
    }
    if (in[axis] == 0 || out[axis] == 0) {
      if (in[axis] != out[axis]) {
        ctx.error() << "cannot resize an empty dim " << axis;
        return failure();
      }
      continue;
    }
    double roiStart = roi.empty() ? 0.0 : roi[axis];
    double roiEnd = roi.empty() ? 1.0 : roi[rank + axis];
    AxisPlan plan =
        planAxis(opts, in[axis], out[axis], scales[axis], roiStart, roiEnd);
    if (plan.isIdentity && in[axis] == out[axis])
      continue;
    std::optional<TapPlan> taps;
    if (opts.mode != Mode::Nearest)
      taps = planTaps(plan, in[axis]);
    if (taps) {
      y = padEdges(tb, y, axis, taps->low, taps->high);
      y = applyTaps(tb, y, axis, plan, *taps);
    } else {
      y = applyAxis(tb, opts, y, axis, out[axis], plan);
    }
    if (llvm::is_contained(plan.outside, true)) {
      SmallVector<int64_t> view(rank, 1);
      view[axis] = out[axis];
      Value mask = tb.reshape(
          tb.constant(DenseElementsAttr::get(
              RankedTensorType::get({out[axis]}, tb.getBuilder().getI1Type()),
              ArrayRef<bool>(plan.outside))),
          view);
      outside = outside ? tb.logicalOr(outside, mask) : mask;
    }
  }
  if (outside)
    y = tb.where(outside, tb.splatLike(y, extrapolation), y);
  ctx.setResult(0, y);
  return success();
}

FailureOr<Mode> parseMode(NodeContext &ctx, StringRef mode) {
  if (mode == "nearest")
    return Mode::Nearest;
  if (mode == "linear" || mode == "bilinear") // bilinear: Upsample-7
    return Mode::Linear;
  if (mode == "cubic")
    return Mode::Cubic;
  ctx.error() << "mode '" << mode << "' is not supported";
  return failure();
}

/// Scales as the ratio of the result type's dims to the input's.
SmallVector<double> scalesFromSizes(NodeContext &ctx, Value x) {
  SmallVector<double> scales;
  for (auto [i, o] : llvm::zip(TensorBuilder::shapeOf(x),
                               ctx.resultType(0).getShape()))
    scales.push_back(i == 0 ? 1.0 : (double)o / i);
  return scales;
}

/// Resize: opset 10 takes X and scales, resizing as Upsample does; opset
/// 11 on adds roi and sizes and the coordinate and rounding attributes.
LogicalResult decomposeResize(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  ResizeOptions opts;
  FailureOr<Mode> mode = parseMode(ctx, ctx.strAttr("mode", "nearest"));
  if (!x || failed(mode))
    return failure();
  opts.mode = *mode;
  SmallVector<double> scales, roi;
  double extrapolation = 0;
  if (ctx.opset() < 11) {
    auto given = ctx.constValues(1, "scales");
    if (failed(given))
      return failure();
    if (!*given) {
      ctx.error() << "needs its input 1 (scales)";
      return failure();
    }
    scales = **given;
    opts.coordinates = "asymmetric";
    opts.nearest = "floor";
  } else {
    opts.coordinates =
        ctx.strAttr("coordinate_transformation_mode", "half_pixel");
    opts.nearest = ctx.strAttr("nearest_mode", "round_prefer_floor");
    opts.cubicA = ctx.floatAttr("cubic_coeff_a", -0.75f);
    opts.excludeOutside = ctx.intAttr("exclude_outside", 0) != 0;
    extrapolation = ctx.floatAttr("extrapolation_value", 0.0f);
    auto roiGiven = ctx.constValues(1, "roi");
    auto scalesGiven = ctx.constValues(2, "scales");
    auto sizesGiven = ctx.constValues(3, "sizes");
    if (failed(roiGiven) || failed(scalesGiven) || failed(sizesGiven))
      return failure();
    bool haveScales = *scalesGiven && !(*scalesGiven)->empty();
    bool haveSizes = *sizesGiven && !(*sizesGiven)->empty();
    if (haveScales == haveSizes) {
      ctx.error() << "needs either scales or sizes";
      return failure();
    }
    scales = haveScales ? **scalesGiven : scalesFromSizes(ctx, x);
    if (opts.coordinates == "tf_crop_and_resize") {
      if (!*roiGiven ||
          (int64_t)(*roiGiven)->size() != 2 * TensorBuilder::rankOf(x)) {
        ctx.error() << "tf_crop_and_resize needs an roi of 2 values per dim";
        return failure();
      }
      roi = **roiGiven;
    }
  }
  static const char *const coordinateModes[] = {
      "half_pixel",         "asymmetric",    "pytorch_half_pixel",
      "tf_half_pixel_for_nn", "align_corners", "tf_crop_and_resize"};
  static const char *const nearestModes[] = {"round_prefer_floor",
                                             "round_prefer_ceil", "floor",
                                             "ceil"};
  if (!llvm::is_contained(coordinateModes, opts.coordinates)) {
    ctx.error() << "coordinate_transformation_mode '" << opts.coordinates
                << "' is not supported";
    return failure();
  }
  if (!llvm::is_contained(nearestModes, opts.nearest)) {
    ctx.error() << "nearest_mode '" << opts.nearest << "' is not supported";
    return failure();
  }
  return resize(ctx, x, opts, scales, roi, extrapolation);
}

/// Upsample (opsets 7 and 9; deprecated since 10): asymmetric coordinates,
/// nearest rounds down. Scales are an attribute in opset 7, an input since.
LogicalResult decomposeUpsample(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  ResizeOptions opts;
  FailureOr<Mode> mode = parseMode(ctx, ctx.strAttr("mode", "nearest"));
  if (!x || failed(mode))
    return failure();
  opts.mode = *mode;
  opts.coordinates = "asymmetric";
  opts.nearest = "floor";
  SmallVector<double> scales;
  if (ctx.opset() < 9) {
    std::optional<SmallVector<float>> given = ctx.floatsAttr("scales");
    if (!given) {
      ctx.error() << "needs 'scales'";
      return failure();
    }
    scales.assign(given->begin(), given->end());
  } else {
    ctx.requiredInput(1, "scales");
    auto given = ctx.constValues(1, "scales");
    if (failed(given) || !*given)
      return failure();
    scales = **given;
  }
  return resize(ctx, x, opts, scales, {}, 0);
}

} // namespace

void mlir::tgc::addResizeDecompositions(DecompositionTable &table) {
  table["Resize"] = decomposeResize;
  table["Upsample"] = decomposeUpsample;
}
