//===- DecomposeGridSample.cpp - GridSample ---------------------*- C++ -*-===//
//
// GridSample reads the input at positions computed at run time. Each
// output position's taps (1 nearest, 4 bilinear, 16 bicubic) become a
// weight over the H*W input positions (a one-hot compare of the tap's flat
// index with an arange, times its weight); the output is the weighted sum
// over them. Out-of-range taps follow padding_mode: zeros (no weight),
// border (clamped) or reflection (mirrored at the borders).
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

enum class Padding { Zeros, Border, Reflection };

/// Mirrors `x` into [lo, hi] (as often as it takes).
Value reflect(TensorBuilder &tb, Value x, double lo, double hi) {
  double range = hi - lo;
  if (range <= 0)
    return tb.splatLike(x, lo);
  auto fold = [&](Value distance, bool belowLo) {
    // distance = n * range + r; even n lands at r from the near border,
    // odd n at r from the far one.
    Value n = tb.floor(tb.div(distance, range));
    Value r = tb.sub(distance, tb.mul(n, range));
    Value odd = tb.eq(tb.sub(n, tb.mul(tb.floor(tb.mul(n, 0.5)), 2.0)),
                      tb.splatLike(n, 1.0));
    Value nearBorder = belowLo ? tb.add(r, lo) : tb.sub(tb.splatLike(r, hi), r);
    Value farBorder = belowLo ? tb.sub(tb.splatLike(r, hi), r) : tb.add(r, lo);
    return tb.where(odd, farBorder, nearBorder);
  };
  Value below = tb.lt(x, tb.splatLike(x, lo));
  Value above = tb.gt(x, tb.splatLike(x, hi));
  Value fromBelow = fold(tb.sub(tb.splatLike(x, lo), x), true);
  Value fromAbove = fold(tb.sub(x, tb.splatLike(x, hi)), false);
  return tb.where(below, fromBelow, tb.where(above, fromAbove, x));
}

/// The cubic convolution weights (A = -0.75) of taps -1, 0, 1, 2 around the
/// fractional position t.
SmallVector<Value, 4> cubicWeights(TensorBuilder &tb, Value t) {
  const double a = -0.75;
  auto near = [&](Value d) { // |d| <= 1
    return tb.add(tb.mul(tb.mul(tb.sub(tb.mul(d, a + 2), a + 3), d), d), 1.0);
  };
  auto far = [&](Value d) { // 1 < |d| < 2
    Value p = tb.add(tb.mul(tb.sub(tb.mul(d, a), 5 * a), d), 8 * a);
    return tb.sub(tb.mul(p, d), 4 * a);
  };
  Value one = tb.splatLike(t, 1.0);
  return {far(tb.add(t, 1.0)), near(t), near(tb.sub(one, t)),
          far(tb.sub(tb.splatLike(t, 2.0), t))};
}

LogicalResult decomposeGridSample(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X"), grid = ctx.requiredInput(1, "grid");
  bool alignCorners = ctx.intAttr("align_corners", 0) != 0;
  std::string modeName = ctx.strAttr("mode", "bilinear");
  std::string paddingName = ctx.strAttr("padding_mode", "zeros");
  if (!x || !grid)
    return failure();
  if (modeName != "bilinear" && modeName != "nearest" && modeName != "bicubic") {
    ctx.error() << "mode '" << modeName << "' is not supported";
    return failure();
  }
  Padding padding = paddingName == "zeros"    ? Padding::Zeros
                    : paddingName == "border" ? Padding::Border
                                              : Padding::Reflection;
  if (paddingName != "zeros" && paddingName != "border" &&
      paddingName != "reflection") {
    ctx.error() << "padding_mode '" << paddingName << "' is not supported";
    return failure();
  }
  ArrayRef<int64_t> xs = TensorBuilder::shapeOf(x);
  ArrayRef<int64_t> gs = TensorBuilder::shapeOf(grid);
  if (xs.size() != 4 || gs.size() != 4 || gs[0] != xs[0] || gs[3] != 2 ||
      !TensorBuilder::isFloat(x)) {
    ctx.error() << "needs a float input [N, C, H, W] and a grid "
                   "[N, H_out, W_out, 2], not "
                << TensorBuilder::typeOf(x) << " and "
                << TensorBuilder::typeOf(grid);
    return failure();
  }
  TensorBuilder &tb = ctx.tb();
  int64_t n = xs[0], c = xs[1], h = xs[2], w = xs[3];
  int64_t ho = gs[1], wo = gs[2];
  Type element = TensorBuilder::elementTypeOf(x);
  Value g = tb.cast(grid, element);
  // Pixel coordinates of each output position, [N, Ho, Wo].
  auto coordinate = [&](int64_t component, int64_t size) {
    Value v = tb.reshape(tb.shrink(g, {0, 0, 0, component},
                                   {n, ho, wo, component + 1}),
                         {n, ho, wo});
    Value p = alignCorners
                  ? tb.mul(tb.add(v, 1.0), (size - 1) / 2.0)
                  : tb.div(tb.sub(tb.mul(tb.add(v, 1.0), (double)size), 1.0),
                           2.0);
    if (padding == Padding::Border)
      p = tb.clamp(p, 0, size - 1);
    if (padding == Padding::Reflection)
      p = alignCorners ? reflect(tb, p, 0, size - 1)
                       : reflect(tb, p, -0.5, size - 0.5);
    return p;
  };
  Value px = coordinate(0, w), py = coordinate(1, h);

  // Taps per axis: integer positions and weights.
  auto taps = [&](Value p, SmallVector<Value> &positions,
                  SmallVector<Value> &weights) {
    if (modeName == "nearest") {
      positions.push_back(tb.round(p));
      weights.push_back(tb.splatLike(p, 1.0));
      return;
    }
    Value base = tb.floor(p), t = tb.sub(p, base);
    if (modeName == "bilinear") {
      positions.append({base, tb.add(base, 1.0)});
      weights.append({tb.sub(tb.splatLike(t, 1.0), t), t});
      return;
    }
    for (int i = -1; i <= 2; ++i)
      positions.push_back(tb.add(base, (double)i));
    weights = cubicWeights(tb, t);
  };
  SmallVector<Value> xPos, xWeight, yPos, yWeight;
  taps(px, xPos, xWeight);
  taps(py, yPos, yWeight);

  // A tap's index along an axis of `size`, padded as padding_mode says,
  // and whether it reads the input at all.
  auto place = [&](Value pos, int64_t size) -> std::pair<Value, Value> {
    Value inside = tb.logicalAnd(tb.ge(pos, tb.splatLike(pos, 0)),
                                 tb.le(pos, tb.splatLike(pos, size - 1)));
    if (padding == Padding::Reflection && modeName == "bicubic")
      pos = alignCorners ? reflect(tb, pos, 0, size - 1)
                         : reflect(tb, pos, -0.5, size - 0.5);
    if (padding != Padding::Zeros)
      inside = tb.splat(tb.getBuilder().getI1Type(),
                        TensorBuilder::shapeOf(pos), 1);
    Value clamped = tb.clamp(pos, 0, size - 1);
    return {clamped, inside};
  };
  // weights[N, Ho, Wo, H*W] = sum over taps of weight * (flat == position).
  Type si32 = tb.getBuilder().getIntegerType(32, /*isSigned=*/true);
  Value cells = tb.reshape(tb.arange(h * w, si32), {1, 1, 1, h * w});
  Value zero = tb.splat(element, {}, 0);
  Value weights, touched;
  for (auto [yp, yw] : llvm::zip(yPos, yWeight)) {
    auto [iy, yIn] = place(yp, h);
    for (auto [xp, xw] : llvm::zip(xPos, xWeight)) {
      auto [ix, xIn] = place(xp, w);
      Value flat = tb.cast(tb.add(tb.mul(iy, (double)w), ix), si32);
      Value hit = tb.logicalAnd(tb.eq(tb.reshape(flat, {n, ho, wo, 1}), cells),
                                tb.reshape(tb.logicalAnd(yIn, xIn),
                                           {n, ho, wo, 1}));
      Value tap = tb.where(hit, tb.reshape(tb.mul(yw, xw), {n, ho, wo, 1}),
                           zero);
      weights = weights ? tb.add(weights, tap) : tap;
      touched = touched ? tb.logicalOr(touched, hit) : hit;
    }
  }
  // out[N, C, Ho, Wo] = sum over H*W of x * weight, positions no tap reads
  // left out (so that a NaN there stays out).
  Value values = tb.reshape(x, {n, c, 1, 1, h * w});
  Value wv = tb.reshape(weights, {n, 1, ho, wo, h * w});
  Value product = tb.where(tb.reshape(touched, {n, 1, ho, wo, h * w}),
                           tb.mul(values, wv), zero);
  ctx.setResult(0, tb.sum(product, {4}, false));
  return success();
}

} // namespace

void mlir::tgc::addGridSampleDecompositions(DecompositionTable &table) {
  table["GridSample"] = decomposeGridSample;
}
