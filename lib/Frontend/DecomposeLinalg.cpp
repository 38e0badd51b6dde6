//===- DecomposeLinalg.cpp - Det --------------------------------*- C++ -*-===//
//
// Det of small matrices by the Leibniz formula: a sum over permutations of
// signed products of one element per row. Each product reads its elements
// with strided views, so the whole thing is elementwise work on views; it is
// limited to n <= 5 (120 terms), where it is both exact and cheap.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"
#include <numeric>

using namespace mlir;
using namespace mlir::tgc;

namespace {

constexpr int64_t kMaxDetSize = 5;

LogicalResult decomposeDet(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  if (!x)
    return failure();
  ArrayRef<int64_t> shape = TensorBuilder::shapeOf(x);
  int64_t rank = shape.size();
  if (rank < 2 || shape[rank - 1] != shape[rank - 2] ||
      !TensorBuilder::isFloat(x)) {
    ctx.error() << "needs float square matrices [..., M, M], not "
                << TensorBuilder::typeOf(x);
    return failure();
  }
  int64_t n = shape[rank - 1];
  if (n > kMaxDetSize) {
    ctx.error() << "determinants of " << n << "x" << n << " matrices are not "
                << "supported (at most " << kMaxDetSize << "x" << kMaxDetSize
                << ")";
    return failure();
  }
  TensorBuilder &tb = ctx.tb();
  SmallVector<int64_t> batch(shape.drop_back(2));
  // The rows as [..., n] each.
  auto element = [&](int64_t r, int64_t c) {
    SmallVector<int64_t> begin(rank, 0), end(shape);
    begin[rank - 2] = r;
    end[rank - 2] = r + 1;
    begin[rank - 1] = c;
    end[rank - 1] = c + 1;
    return tb.reshape(tb.shrink(x, begin, end), batch);
  };
  SmallVector<int64_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  Value det;
  do {
    // The sign is that of the permutation's inversion count.
    int64_t inversions = 0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = i + 1; j < n; ++j)
        inversions += perm[i] > perm[j];
    Value term = element(0, perm[0]);
    for (int64_t r = 1; r < n; ++r)
      term = tb.mul(term, element(r, perm[r]));
    if (!det)
      det = inversions % 2 ? tb.neg(term) : term;
    else
      det = inversions % 2 ? tb.sub(det, term) : tb.add(det, term);
  } while (std::next_permutation(perm.begin(), perm.end()));
  if (n == 0)
    det = tb.splat(TensorBuilder::elementTypeOf(x), batch, 1);
  ctx.setResult(0, det);
  return success();
}

} // namespace

void mlir::tgc::addLinalgDecompositions(DecompositionTable &table) {
  table["Det"] = decomposeDet;
}
