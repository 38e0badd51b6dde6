//===- DecomposeLoss.cpp - the training losses ------------------*- C++ -*-===//
//
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss. The class picked by
// each target is a one-hot compare of the targets with an arange over the
// class axis; the selected log-probabilities (and class weights) are then a
// where-select and a sum over that axis, as tinygrad's sparse categorical
// cross-entropy does it.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// The loss of each element of `target` given log-probabilities `logProb`
/// ([N, C, d...], target [N, d...]), reduced as `reduction` says.
Value negativeLogLikelihood(NodeContext &ctx, Value logProb, Value target,
                            Value weight, std::optional<int64_t> ignoreIndex,
                            StringRef reduction) {
  TensorBuilder &tb = ctx.tb();
  ArrayRef<int64_t> shape = TensorBuilder::shapeOf(logProb);
  ArrayRef<int64_t> targetShape = TensorBuilder::shapeOf(target);
  int64_t rank = shape.size();
  if (rank < 2 || (int64_t)targetShape.size() != rank - 1 ||
      targetShape[0] != shape[0] ||
      targetShape.drop_front() != shape.drop_front(2)) {
    ctx.error() << "target " << TensorBuilder::typeOf(target)
                << " does not fit input " << TensorBuilder::typeOf(logProb)
                << " ([N, C, d...] and [N, d...])";
    return {};
  }
  int64_t classes = shape[1];
  if (weight && TensorBuilder::shapeOf(weight) != ArrayRef<int64_t>{classes}) {
    ctx.error() << "weight must have one value per class, not "
                << TensorBuilder::typeOf(weight);
    return {};
  }
  Type element = TensorBuilder::elementTypeOf(logProb);
  Type indexType = TensorBuilder::elementTypeOf(target);
  // hit[n, c, d...] = target[n, d...] == c
  SmallVector<int64_t> targetView(targetShape), rangeView(rank, 1);
  targetView.insert(targetView.begin() + 1, 1);
  rangeView[1] = classes;
  Value classIds = tb.reshape(tb.arange(classes, indexType), rangeView);
  Value hit = tb.eq(tb.reshape(target, targetView), classIds);
  Value zero = tb.splat(element, {}, 0);
  Value picked = tb.sum(tb.where(hit, logProb, zero), {1}, false);

  // The weight of each element: its class's weight (0 for an ignored
  // target); none at all without weights and ignore_index.
  Value valid;
  if (ignoreIndex)
    valid = tb.ne(target, tb.splatLike(target, *ignoreIndex));
  Value elementWeight;
  if (weight) {
    Value w = tb.reshape(weight, rangeView);
    elementWeight = tb.sum(tb.where(hit, w, zero), {1}, false);
    if (valid)
      elementWeight = tb.where(valid, elementWeight, zero);
  } else if (valid) {
    elementWeight = tb.cast(valid, element);
  }
  Value loss = tb.neg(picked);
  if (valid)
    loss = tb.where(valid, loss, zero);
  if (weight)
    loss = tb.mul(loss, elementWeight);

  SmallVector<int64_t> all;
  for (int64_t i = 0; i < rank - 1; ++i)
    all.push_back(i);
  if (reduction == "none")
    return loss;
  Value total = tb.sum(loss, all, false);
  if (reduction == "sum")
    return total;
  if (elementWeight)
    return tb.div(total, tb.sum(elementWeight, all, false));
  return tb.div(total, (double)TensorBuilder::numElements(targetShape));
}

/// The attributes the two losses share; reports a bad reduction.
LogicalResult readLossAttrs(NodeContext &ctx, std::string &reduction,
                            std::optional<int64_t> &ignoreIndex) {
  reduction = ctx.strAttr("reduction", "mean");
  if (ctx.hasAttr("ignore_index"))
    ignoreIndex = ctx.intAttr("ignore_index", 0);
  if (reduction != "none" && reduction != "sum" && reduction != "mean") {
    ctx.error() << "reduction '" << reduction << "' is not none, sum or mean";
    return failure();
  }
  return success();
}

LogicalResult decomposeNegativeLogLikelihoodLoss(NodeContext &ctx) {
  Value input = ctx.requiredInput(0, "input");
  Value target = ctx.requiredInput(1, "target");
  Value weight = ctx.input(2);
  std::string reduction;
  std::optional<int64_t> ignoreIndex;
  if (failed(readLossAttrs(ctx, reduction, ignoreIndex)) || !input || !target)
    return failure();
  ctx.setResult(0, negativeLogLikelihood(ctx, input, target, weight,
                                         ignoreIndex, reduction));
  return success();
}

/// SoftmaxCrossEntropyLoss: the NLL loss of log_softmax over the class axis;
/// the optional second output is that log_softmax.
LogicalResult decomposeSoftmaxCrossEntropyLoss(NodeContext &ctx) {
  Value scores = ctx.requiredInput(0, "scores");
  Value labels = ctx.requiredInput(1, "labels");
  Value weight = ctx.input(2);
  std::string reduction;
  std::optional<int64_t> ignoreIndex;
  if (failed(readLossAttrs(ctx, reduction, ignoreIndex)) || !scores || !labels)
    return failure();
  if (TensorBuilder::rankOf(scores) < 2) {
    ctx.error() << "scores must be [N, C, d...]";
    return failure();
  }
  Value logProb = ctx.tb().logSoftmax(scores, 1);
  ctx.setResult(0, negativeLogLikelihood(ctx, logProb, labels, weight,
                                         ignoreIndex, reduction));
  if (ctx.numResults() > 1)
    ctx.setResult(1, logProb);
  return success();
}

} // namespace

void mlir::tgc::addLossDecompositions(DecompositionTable &table) {
  table["NegativeLogLikelihoodLoss"] = decomposeNegativeLogLikelihoodLoss;
  table["SoftmaxCrossEntropyLoss"] = decomposeSoftmaxCrossEntropyLoss;
}
