//===- DecomposeTraining.cpp - ai.onnx.preview.training ---------*- C++ -*-===//
//
// The optimizer steps of the training preview domain (Adagrad, Momentum,
// Adam): elementwise updates of each tensor group (X, G and the optimizer
// state) from the learning rate R and the step count T, both scalars that
// may be computed at run time.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// The inputs after R and T: `groups` lists of the same length (X, G, and
/// the state tensors); an error unless they split evenly.
FailureOr<SmallVector<SmallVector<Value>>> tensorGroups(NodeContext &ctx,
                                                        unsigned groups) {
  SmallVector<Value> inputs = ctx.allInputs();
  if (inputs.size() < 2 + groups || (inputs.size() - 2) % groups != 0) {
    ctx.error() << "needs R, T and " << groups
                << " lists of tensors of equal length";
    return failure();
  }
  unsigned n = (inputs.size() - 2) / groups;
  SmallVector<SmallVector<Value>> result(groups);
  for (unsigned g = 0; g < groups; ++g)
    result[g].assign(inputs.begin() + 2 + g * n,
                     inputs.begin() + 2 + (g + 1) * n);
  return result;
}

/// R and T as scalars of `element` (T > 0 also as a condition).
struct Step {
  Value rate, count, started;
};

Step readStep(NodeContext &ctx, Type element) {
  TensorBuilder &tb = ctx.tb();
  SmallVector<Value> inputs = ctx.allInputs();
  Step step;
  step.rate = tb.cast(tb.reshape(inputs[0], {}), element);
  Value t = tb.reshape(inputs[1], {});
  step.started = tb.lt(tb.splatLike(t, 0), t);
  step.count = tb.cast(t, element);
  return step;
}

/// Adagrad: H += G'^2; X -= r G' / (sqrt(H) + epsilon), G' = G + lambda X,
/// r = R / (1 + T decay).
LogicalResult decomposeAdagrad(NodeContext &ctx) {
  double decay = ctx.floatAttr("decay_factor", 0.0f);
  double epsilon = ctx.floatAttr("epsilon", 1e-6f);
  double lambda = ctx.floatAttr("norm_coefficient", 0.0f);
  auto groups = tensorGroups(ctx, 3);
  if (failed(groups))
    return failure();
  TensorBuilder &tb = ctx.tb();
  unsigned n = (*groups)[0].size();
  for (unsigned i = 0; i < n; ++i) {
    Value x = (*groups)[0][i], g = (*groups)[1][i], h = (*groups)[2][i];
    Step step = readStep(ctx, TensorBuilder::elementTypeOf(x));
    Value rate =
        tb.div(step.rate, tb.add(tb.mul(step.count, decay), 1.0));
    Value reg = tb.add(tb.mul(x, lambda), g);
    Value hNew = tb.add(h, tb.mul(reg, reg));
    Value denominator = tb.add(tb.sqrt(hNew), epsilon);
    ctx.setResult(i, tb.sub(x, tb.div(tb.mul(rate, reg), denominator)));
    ctx.setResult(n + i, hNew);
  }
  return success();
}

/// Momentum: V = alpha V + beta' G' (beta' = 1 on the first step), then
/// X -= R V (standard) or X -= R (G' + alpha V) (nesterov).
LogicalResult decomposeMomentum(NodeContext &ctx) {
  double alpha = ctx.floatAttr("alpha", 0.0f);
  double beta = ctx.floatAttr("beta", 0.0f);
  double lambda = ctx.floatAttr("norm_coefficient", 0.0f);
  std::string mode = ctx.strAttr("mode", "");
  if (!ctx.hasAttr("alpha") || !ctx.hasAttr("beta") ||
      (mode != "standard" && mode != "nesterov")) {
    ctx.error() << "needs alpha, beta and mode standard or nesterov";
    return failure();
  }
  auto groups = tensorGroups(ctx, 3);
  if (failed(groups))
    return failure();
  TensorBuilder &tb = ctx.tb();
  unsigned n = (*groups)[0].size();
  for (unsigned i = 0; i < n; ++i) {
    Value x = (*groups)[0][i], g = (*groups)[1][i], v = (*groups)[2][i];
    Step step = readStep(ctx, TensorBuilder::elementTypeOf(x));
    Value betaNow = tb.where(step.started, tb.splatLike(step.rate, beta),
                             tb.splatLike(step.rate, 1.0));
    Value reg = tb.add(tb.mul(x, lambda), g);
    Value vNew = tb.add(tb.mul(v, alpha), tb.mul(betaNow, reg));
    Value update =
        mode == "standard" ? vNew : tb.add(reg, tb.mul(vNew, alpha));
    ctx.setResult(i, tb.sub(x, tb.mul(step.rate, update)));
    ctx.setResult(n + i, vNew);
  }
  return success();
}

/// Adam: V = alpha V + (1 - alpha) G', H = beta H + (1 - beta) G'^2,
/// X -= R' V / (sqrt(H) + epsilon) with the bias correction
/// R' = R sqrt(1 - beta^T) / (1 - alpha^T) after the first step; then
/// X *= 1 - norm_coefficient_post.
LogicalResult decomposeAdam(NodeContext &ctx) {
  double alpha = ctx.floatAttr("alpha", 0.9f);
  double beta = ctx.floatAttr("beta", 0.999f);
  double epsilon = ctx.floatAttr("epsilon", 1e-6f);
  double lambda = ctx.floatAttr("norm_coefficient", 0.0f);
  double post = ctx.floatAttr("norm_coefficient_post", 0.0f);
  auto groups = tensorGroups(ctx, 4);
  if (failed(groups))
    return failure();
  TensorBuilder &tb = ctx.tb();
  unsigned n = (*groups)[0].size();
  for (unsigned i = 0; i < n; ++i) {
    Value x = (*groups)[0][i], g = (*groups)[1][i];
    Value v = (*groups)[2][i], h = (*groups)[3][i];
    Step step = readStep(ctx, TensorBuilder::elementTypeOf(x));
    Value reg = tb.add(tb.mul(x, lambda), g);
    Value vNew = tb.add(tb.mul(v, alpha), tb.mul(reg, 1 - alpha));
    Value hNew = tb.add(tb.mul(h, beta), tb.mul(tb.mul(reg, reg), 1 - beta));
    Value denominator = tb.add(tb.sqrt(hNew), epsilon);
    Value one = tb.splatLike(step.rate, 1.0);
    Value betaT = tb.pow(tb.splatLike(step.rate, beta), step.count);
    Value alphaT = tb.pow(tb.splatLike(step.rate, alpha), step.count);
    Value corrected = tb.div(tb.mul(step.rate, tb.sqrt(tb.sub(one, betaT))),
                             tb.sub(one, alphaT));
    Value rate = tb.where(step.started, corrected, step.rate);
    Value xNew = tb.sub(x, tb.mul(rate, tb.div(vNew, denominator)));
    ctx.setResult(i, tb.mul(xNew, 1 - post));
    ctx.setResult(n + i, vNew);
    ctx.setResult(2 * n + i, hNew);
  }
  return success();
}

} // namespace

void mlir::tgc::addTrainingDecompositions(DecompositionTable &table) {
  table["ai.onnx.preview.training:Adagrad"] = decomposeAdagrad;
  table["ai.onnx.preview.training:Momentum"] = decomposeMomentum;
  table["ai.onnx.preview.training:Adam"] = decomposeAdam;
}
