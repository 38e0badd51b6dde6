//===- DecomposeRoiAlign.cpp - RoiAlign -------------------------*- C++ -*-===//
//
// RoiAlign pools each region of interest into output_height x output_width
// bins, each the average (or max) of sampling_ratio^2 bilinear samples of
// the feature map of the roi's batch item. The rois are read at run time;
// the number of samples per bin must be static (sampling_ratio > 0).
//
// Bilinear sampling is separable, and so is the rule that drops a sample
// outside [-1, size] on either axis (its weights are zero on that axis). So
// for avg the samples of a bin fold into a weight matrix per axis,
// Wy [R, OH, H] and Wx [R, OW, W], and the result is Wy . X . Wx^T per roi
// and channel, divided by the number of samples. max takes, as the ONNX
// reference and onnxruntime do, the largest weighted corner value w * v
// over all samples of the bin (a dropped sample counts as 0): the corner
// values are selected with one-hot matrices per axis instead.
//
// A weight of zero multiplies every element of the feature map that a roi
// does not sample, so an infinity or NaN there reaches the roi's result.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// The sample positions of one axis of every roi, [R, bins * samples]:
/// start + binSize * (bin + (i + 0.5) / samples).
Value samplePositions(TensorBuilder &tb, Value start, Value binSize,
                      int64_t bins, int64_t samples) {
  Type element = TensorBuilder::elementTypeOf(start);
  SmallVector<Attribute> fractions;
  for (int64_t b = 0; b < bins; ++b)
    for (int64_t i = 0; i < samples; ++i)
      fractions.push_back(TensorBuilder::scalarAttr(
          element, b + (i + 0.5) / static_cast<double>(samples)));
  auto type = RankedTensorType::get({1, bins * samples}, element);
  Value offsets = tb.constant(DenseElementsAttr::get(type, fractions));
  int64_t r = TensorBuilder::shapeOf(start)[0];
  return tb.add(tb.reshape(start, {r, 1}),
                tb.mul(tb.reshape(binSize, {r, 1}), offsets));
}

/// The two taps of each sample along an axis of `size`, as onnxruntime
/// places them: the position clamped at 0, the low tap its floor, both
/// taps at size - 1 past the end; a sample outside [-1, size] has weight 0.
struct Taps {
  Value low, high;             ///< tap indices, as floats
  Value lowWeight, highWeight; ///< zero for a dropped sample
};

Taps axisTaps(TensorBuilder &tb, Value pos, int64_t size) {
  Value zero = tb.splatLike(pos, 0), last = tb.splatLike(pos, size - 1);
  Value valid = tb.logicalAnd(tb.ge(pos, tb.splatLike(pos, -1)),
                              tb.le(pos, tb.splatLike(pos, size)));
  Value p = tb.max(pos, zero);
  Value floor = tb.floor(p);
  Value atEnd = tb.ge(floor, last);
  Taps taps;
  taps.low = tb.where(atEnd, last, floor);
  taps.high = tb.where(atEnd, last, tb.add(floor, 1.0));
  Value frac = tb.where(atEnd, zero, tb.sub(p, floor));
  taps.lowWeight = tb.where(valid, tb.sub(tb.splatLike(frac, 1.0), frac), zero);
  taps.highWeight = tb.where(valid, frac, zero);
  return taps;
}

/// [R, K, size]: `weight` where arange(size) equals `index` ([R, K]), else 0.
Value oneHot(TensorBuilder &tb, Value index, Value weight, int64_t size) {
  ArrayRef<int64_t> rk = TensorBuilder::shapeOf(index);
  Value cells = tb.reshape(tb.arange(size, TensorBuilder::elementTypeOf(index)),
                           {1, 1, size});
  Value hit = tb.eq(tb.reshape(index, {rk[0], rk[1], 1}), cells);
  return tb.where(hit, tb.reshape(weight, {rk[0], rk[1], 1}),
                  tb.splat(TensorBuilder::elementTypeOf(weight), {}, 0));
}

/// [R, 2K]: the low and high values of each sample side by side.
Value interleave(TensorBuilder &tb, Value low, Value high) {
  ArrayRef<int64_t> rk = TensorBuilder::shapeOf(low);
  Value pair = tb.concat({tb.reshape(low, {rk[0], rk[1], 1}),
                          tb.reshape(high, {rk[0], rk[1], 1})},
                         2);
  return tb.reshape(pair, {rk[0], 2 * rk[1]});
}

/// The feature map of each roi's batch item, [R, C, H, W].
Value featuresOfRois(TensorBuilder &tb, Value x, Value batchIndices) {
  ArrayRef<int64_t> xs = TensorBuilder::shapeOf(x);
  int64_t n = xs[0], c = xs[1], h = xs[2], w = xs[3];
  int64_t r = TensorBuilder::shapeOf(batchIndices)[0];
  if (n == 1)
    return tb.broadcastTo(tb.reshape(x, {c, h, w}), {r, c, h, w});
  Value items = tb.arange(n, TensorBuilder::elementTypeOf(batchIndices));
  Value pick = tb.eq(tb.reshape(batchIndices, {r, 1, 1, 1, 1}),
                     tb.reshape(items, {1, n, 1, 1, 1}));
  Value chosen = tb.where(pick, tb.reshape(x, {1, n, c, h, w}),
                          tb.splat(TensorBuilder::elementTypeOf(x), {}, 0));
  return tb.sum(chosen, {1}, false);
}

LogicalResult decomposeRoiAlign(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  Value rois = ctx.requiredInput(1, "rois");
  Value batchIndices = ctx.requiredInput(2, "batch_indices");
  std::string transform =
      ctx.strAttr("coordinate_transformation_mode",
                  ctx.opset() >= 16 ? "half_pixel" : "output_half_pixel");
  std::string mode = ctx.strAttr("mode", "avg");
  int64_t outH = ctx.intAttr("output_height", 1);
  int64_t outW = ctx.intAttr("output_width", 1);
  int64_t samples = ctx.intAttr("sampling_ratio", 0);
  double scale = ctx.floatAttr("spatial_scale", 1.0f);
  if (!x || !rois || !batchIndices)
    return failure();
  if (transform != "half_pixel" && transform != "output_half_pixel") {
    ctx.error() << "coordinate_transformation_mode '" << transform
                << "' is not supported";
    return failure();
  }
  if (mode != "avg" && mode != "max") {
    ctx.error() << "mode '" << mode << "' is not supported";
    return failure();
  }
  if (samples <= 0) {
    ctx.error() << "sampling_ratio " << samples
                << " (as many samples per bin as the roi is pixels high or "
                   "wide) makes the number of samples depend on the rois' "
                   "values; tgc needs a static sampling_ratio > 0";
    return failure();
  }
  if (outH < 1 || outW < 1) {
    ctx.error() << "needs output_height and output_width of at least 1";
    return failure();
  }
  ArrayRef<int64_t> xs = TensorBuilder::shapeOf(x);
  ArrayRef<int64_t> rs = TensorBuilder::shapeOf(rois);
  ArrayRef<int64_t> bs = TensorBuilder::shapeOf(batchIndices);
  if (xs.size() != 4 || !TensorBuilder::isFloat(x) || rs.size() != 2 ||
      rs[1] != 4 || bs.size() != 1 || bs[0] != rs[0]) {
    ctx.error() << "needs a float X [N, C, H, W], rois [num_rois, 4] and "
                   "batch_indices [num_rois], not "
                << TensorBuilder::typeOf(x) << ", "
                << TensorBuilder::typeOf(rois) << " and "
                << TensorBuilder::typeOf(batchIndices);
    return failure();
  }
  TensorBuilder &tb = ctx.tb();
  int64_t r = rs[0], c = xs[1], h = xs[2], w = xs[3];
  Type element = TensorBuilder::elementTypeOf(x);

  // The roi's corners in feature-map pixels, [R] each.
  Value boxes = tb.cast(rois, element);
  double offset = transform == "half_pixel" ? 0.5 : 0.0;
  auto corner = [&](int64_t column) {
    Value v = tb.reshape(tb.shrink(boxes, {0, column}, {r, column + 1}), {r});
    return tb.sub(tb.mul(v, scale), offset);
  };
  Value x1 = corner(0), y1 = corner(1), x2 = corner(2), y2 = corner(3);
  Value roiW = tb.sub(x2, x1), roiH = tb.sub(y2, y1);
  if (transform == "output_half_pixel") { // legacy: at least one pixel
    roiW = tb.max(roiW, tb.splatLike(roiW, 1.0));
    roiH = tb.max(roiH, tb.splatLike(roiH, 1.0));
  }
  Taps ty = axisTaps(
      tb, samplePositions(tb, y1, tb.div(roiH, (double)outH), outH, samples),
      h);
  Taps tx = axisTaps(
      tb, samplePositions(tb, x1, tb.div(roiW, (double)outW), outW, samples),
      w);
  Value features = featuresOfRois(tb, x, batchIndices);

  if (mode == "avg") {
    // Wy [R, OH, H]: the weights of a bin's samples, summed.
    auto binWeights = [&](const Taps &t, int64_t bins, int64_t size) {
      Value perSample = tb.add(oneHot(tb, t.low, t.lowWeight, size),
                               oneHot(tb, t.high, t.highWeight, size));
      return tb.sum(tb.reshape(perSample, {r, bins, samples, size}), {2},
                    false);
    };
    Value wy = tb.reshape(binWeights(ty, outH, h), {r, 1, outH, h});
    Value wx = tb.reshape(binWeights(tx, outW, w), {r, 1, outW, w});
    Value rows = tb.matmul(wy, features);                   // [R, C, OH, W]
    Value pooled = tb.matmul(rows, tb.permute(wx, {0, 1, 3, 2})); // [.., OW]
    ctx.setResult(0, tb.div(pooled, (double)(samples * samples)));
    return success();
  }

  // max: every corner value [R, C, OH*S*2, OW*S*2], times its weight.
  auto select = [&](const Taps &t, int64_t size) {
    Value indices = interleave(tb, t.low, t.high);
    int64_t k = TensorBuilder::shapeOf(indices)[1];
    Value ones = tb.splat(element, {r, k}, 1.0);
    return tb.reshape(oneHot(tb, indices, ones, size), {r, 1, k, size});
  };
  Value values = tb.matmul(tb.matmul(select(ty, h), features),
                           tb.permute(select(tx, w), {0, 1, 3, 2}));
  Value wy = interleave(tb, ty.lowWeight, ty.highWeight);
  Value wx = interleave(tb, tx.lowWeight, tx.highWeight);
  int64_t ky = 2 * outH * samples, kx = 2 * outW * samples;
  Value weights = tb.mul(tb.reshape(wy, {r, 1, ky, 1}),
                         tb.reshape(wx, {r, 1, 1, kx}));
  Value weighted = tb.reshape(tb.mul(values, weights),
                              {r, c, outH, 2 * samples, outW, 2 * samples});
  ctx.setResult(0, tb.reduceMax(weighted, {3, 5}, false));
  return success();
}

} // namespace

void mlir::tgc::addRoiAlignDecompositions(DecompositionTable &table) {
  table["RoiAlign"] = decomposeRoiAlign;
}
