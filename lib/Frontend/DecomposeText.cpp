//===- DecomposeText.cpp - TfIdfVectorizer ----------------------*- C++ -*-===//
//
// TfIdfVectorizer over integer tokens: every n-gram of the pool is counted
// in the input by comparing strided views of it (one per token of the gram,
// one set per skip distance) with the gram's tokens; the counts go to their
// output columns through a constant one-hot map.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

LogicalResult decomposeTfIdfVectorizer(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  int64_t minGram = ctx.intAttr("min_gram_length", 0);
  int64_t maxGram = ctx.intAttr("max_gram_length", 0);
  int64_t maxSkip = ctx.intAttr("max_skip_count", 0);
  std::string mode = ctx.strAttr("mode", "");
  auto counts = ctx.intsAttr("ngram_counts");
  auto indexes = ctx.intsAttr("ngram_indexes");
  auto pool = ctx.intsAttr("pool_int64s");
  auto weights = ctx.floatsAttr("weights");
  if (ctx.hasAttr("pool_strings")) {
    ctx.error() << "string pools are not supported (tgc has no string "
                   "tensors)";
    return failure();
  }
  if (!x)
    return failure();
  if (!counts || !indexes || !pool || minGram < 1 || maxGram < minGram ||
      maxSkip < 0 || (mode != "TF" && mode != "IDF" && mode != "TFIDF")) {
    ctx.error() << "needs ngram_counts, ngram_indexes, pool_int64s, "
                   "1 <= min_gram_length <= max_gram_length and mode TF, "
                   "IDF or TFIDF";
    return failure();
  }
  TensorBuilder &tb = ctx.tb();
  int64_t rank = TensorBuilder::rankOf(x);
  if (rank != 1 && rank != 2) {
    ctx.error() << "needs tokens [L] or [B, L]";
    return failure();
  }
  if (rank == 1)
    x = tb.reshape(x, {1, TensorBuilder::shapeOf(x)[0]});
  int64_t batch = TensorBuilder::shapeOf(x)[0];
  int64_t length = TensorBuilder::shapeOf(x)[1];
  Type token = TensorBuilder::elementTypeOf(x);
  Type f32 = ctx.resultType(0).getElementType();

  // The grams of each length n: pool[counts[n-1] ...] up to the next start.
  int64_t total = 0;
  SmallVector<std::pair<int64_t, int64_t>> ranges; // first gram, gram count
  for (size_t i = 0; i < counts->size(); ++i) {
    int64_t n = i + 1;
    int64_t begin = (*counts)[i];
    int64_t end = i + 1 < counts->size() ? (*counts)[i + 1]
                                          : (int64_t)pool->size();
    if (begin < 0 || end < begin || end > (int64_t)pool->size() ||
        (end - begin) % n != 0) {
      ctx.error() << "ngram_counts do not divide pool_int64s into grams";
      return failure();
    }
    ranges.push_back({total, (end - begin) / n});
    total += (end - begin) / n;
  }
  if ((int64_t)indexes->size() != total) {
    ctx.error() << "ngram_indexes has " << indexes->size() << " entries for "
                << total << " grams";
    return failure();
  }
  int64_t outSize = ctx.resultType(0).getShape().back();

  SmallVector<Value> gramCounts; // [B, grams of n] per n, in pool order
  for (size_t i = 0; i < ranges.size(); ++i) {
    int64_t n = i + 1, grams = ranges[i].second;
    if (grams == 0)
      continue;
    Value count = tb.splat(f32, {batch, grams}, 0);
    if (n >= minGram && n <= maxGram) {
      for (int64_t skip = 0; skip <= (n == 1 ? 0 : maxSkip); ++skip) {
        int64_t positions = length - (n - 1) * (skip + 1);
        if (positions <= 0)
          break;
        Value match;
        for (int64_t k = 0; k < n; ++k) {
          int64_t start = k * (skip + 1);
          Value view = tb.reshape(
              tb.shrink(x, {0, start}, {batch, start + positions}),
              {batch, positions, 1});
          SmallVector<Attribute> column;
          for (int64_t g = 0; g < grams; ++g)
            column.push_back(TensorBuilder::scalarAttr(
                token, (double)(*pool)[(*counts)[i] + g * n + k]));
          Value wanted = tb.constant(DenseElementsAttr::get(
              RankedTensorType::get({1, 1, grams}, token), column));
          Value eq = tb.eq(view, wanted);
          match = match ? tb.logicalAnd(match, eq) : eq;
        }
        count = tb.add(count, tb.sum(tb.cast(match, f32), {1}, false));
      }
    }
    gramCounts.push_back(count);
  }
  // Gram g goes to column ngram_indexes[g].
  Value all = tb.concat(gramCounts, 1); // [B, total]
  SmallVector<bool> to;
  for (int64_t g = 0; g < total; ++g)
    for (int64_t c = 0; c < outSize; ++c)
      to.push_back((*indexes)[g] == c);
  Value map = tb.constant(DenseElementsAttr::get(
      RankedTensorType::get({1, total, outSize}, tb.getBuilder().getI1Type()),
      to));
  Value zero = tb.splat(f32, {}, 0);
  Value y = tb.sum(tb.where(map, tb.reshape(all, {batch, total, 1}), zero),
                   {1}, false);
  if (mode != "TF") {
    if (mode == "IDF")
      y = tb.cast(tb.lt(zero, y), f32);
    if (weights) {
      if ((int64_t)weights->size() != total) {
        ctx.error() << "weights has " << weights->size() << " entries for "
                    << total << " grams";
        return failure();
      }
      SmallVector<float> columnWeight(outSize, 0.0f);
      for (int64_t g = 0; g < total; ++g)
        if ((*indexes)[g] >= 0 && (*indexes)[g] < outSize)
          columnWeight[(*indexes)[g]] = (*weights)[g];
      y = tb.mul(y, tb.constant(DenseElementsAttr::get(
                        RankedTensorType::get({outSize}, f32),
                        ArrayRef<float>(columnWeight))));
    }
  }
  return ctx.setReshapedResult(
      y, rank == 1 ? SmallVector<int64_t>{outSize}
                   : SmallVector<int64_t>{batch, outSize});
}

} // namespace

void mlir::tgc::addTextDecompositions(DecompositionTable &table) {
  table["TfIdfVectorizer"] = decomposeTfIdfVectorizer;
}
