//===- DecomposeEinsum.cpp - Einsum -----------------------------*- C++ -*-===//
//
// Einsum as tinygrad does it: every operand is brought to one common label
// order (a label repeated within an operand first becomes its diagonal),
// broadcast against the others, multiplied, and summed over the labels the
// output does not keep. An ellipsis stands for the same broadcast dims in
// every operand.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// Labels of one term; the dims an ellipsis covers get the labels '0', '1',
/// ... counted from its end, so that they broadcast numpy-style (user labels
/// are letters).
FailureOr<std::string> expandTerm(NodeContext &ctx, StringRef term,
                                  int64_t rank, int64_t &ellipsisRank) {
  std::string labels;
  size_t dots = term.find("...");
  std::string plain = term.str();
  if (dots != StringRef::npos)
    plain.erase(dots, 3);
  for (char c : plain)
    if (!std::isalpha(static_cast<unsigned char>(c))) {
      ctx.error() << "equation term '" << term << "' has the character '" << c
                  << "'";
      return failure();
    }
  if (dots == StringRef::npos) {
    if ((int64_t)plain.size() != rank) {
      ctx.error() << "equation term '" << term << "' has " << plain.size()
                  << " labels for an operand of rank " << rank;
      return failure();
    }
    return plain;
  }
  int64_t covered = rank - (int64_t)plain.size();
  if (covered < 0) {
    ctx.error() << "equation term '" << term << "' has more labels than the "
                << "operand's rank " << rank;
    return failure();
  }
  ellipsisRank = std::max(ellipsisRank, covered);
  labels = plain.substr(0, dots);
  for (int64_t i = covered - 1; i >= 0; --i)
    labels.push_back(static_cast<char>('0' + i));
  labels += plain.substr(dots);
  return labels;
}

/// `x` (labelled `labels`) with each repeated label reduced to the diagonal
/// of its dims; `labels` loses the repeats.
Value takeDiagonals(NodeContext &ctx, Value x, std::string &labels) {
  TensorBuilder &tb = ctx.tb();
  for (size_t i = 0; i < labels.size(); ++i) {
    size_t j = labels.find(labels[i], i + 1);
    while (j != std::string::npos) {
      ArrayRef<int64_t> shape = TensorBuilder::shapeOf(x);
      int64_t n = shape[i], rank = shape.size();
      if (shape[j] != n) {
        ctx.error() << "label '" << labels[i] << "' names dims of sizes " << n
                    << " and " << shape[j];
        return {};
      }
      // Move dims i and j last, flatten them, take every (n+1)-th element.
      SmallVector<int64_t> order;
      for (int64_t d = 0; d < rank; ++d)
        if (d != (int64_t)i && d != (int64_t)j)
          order.push_back(d);
      order.append({(int64_t)i, (int64_t)j});
      x = tb.permute(x, order);
      SmallVector<int64_t> flat(TensorBuilder::shapeOf(x).drop_back(2));
      flat.push_back(n * n);
      x = tb.stride(tb.reshape(x, flat), rank - 2, 0, n, n + 1);
      // Put the diagonal back at position i.
      SmallVector<int64_t> back;
      for (int64_t d = 0; d < rank - 1; ++d)
        back.push_back(d);
      back.pop_back();
      back.insert(back.begin() + i, rank - 2);
      x = tb.permute(x, back);
      labels.erase(j, 1);
      j = labels.find(labels[i], i + 1);
    }
  }
  return x;
}

LogicalResult decomposeEinsum(NodeContext &ctx) {
  std::string equation = ctx.strAttr("equation", "");
  SmallVector<Value> operands = ctx.allInputs();
  if (ctx.hasFailed())
    return failure();
  equation.erase(std::remove(equation.begin(), equation.end(), ' '),
                 equation.end());
  StringRef eq(equation);
  auto [lhs, rhs] = eq.split("->");
  bool explicitOutput = eq.contains("->");
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != operands.size()) {
    ctx.error() << "equation '" << equation << "' has " << terms.size()
                << " terms for " << operands.size() << " operands";
    return failure();
  }
  TensorBuilder &tb = ctx.tb();
  int64_t ellipsisRank = 0;
  SmallVector<std::string> labels;
  for (size_t i = 0; i < operands.size(); ++i) {
    auto expanded = expandTerm(ctx, terms[i], TensorBuilder::rankOf(operands[i]),
                               ellipsisRank);
    if (failed(expanded))
      return failure();
    labels.push_back(*expanded);
    operands[i] = takeDiagonals(ctx, operands[i], labels.back());
    if (!operands[i])
      return failure();
  }
  if (ellipsisRank > 10) {
    ctx.error() << "an ellipsis of more than 10 dims is not supported";
    return failure();
  }
  // The output labels: given, or the ellipsis then the labels used once,
  // in ASCII order (capitals first), as numpy has it.
  std::string out;
  if (explicitOutput) {
    int64_t outEllipsis = ellipsisRank;
    auto expanded = expandTerm(
        ctx, rhs,
        (int64_t)rhs.size() - (rhs.contains("...") ? 3 : 0) +
            (rhs.contains("...") ? ellipsisRank : 0),
        outEllipsis);
    if (failed(expanded))
      return failure();
    out = *expanded;
  } else {
    for (int64_t i = ellipsisRank - 1; i >= 0; --i)
      out.push_back(static_cast<char>('0' + i));
    std::string all;
    for (const std::string &l : labels)
      all += l;
    for (char c : std::string("ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                              "abcdefghijklmnopqrstuvwxyz"))
      if (llvm::count(all, c) == 1)
        out.push_back(c);
  }
  // Common order: the output labels, then the summed ones.
  std::string order = out;
  for (const std::string &l : labels)
    for (char c : l)
      if (order.find(c) == std::string::npos)
        order.push_back(c);
  for (char c : out)
    if (!llvm::any_of(labels, [&](const std::string &l) {
          return l.find(c) != std::string::npos;
        })) {
      ctx.error() << "output label '" << c << "' is in no input";
      return failure();
    }
  // Sizes of every label (1 where only broadcast).
  SmallVector<int64_t> sizes(order.size(), 1);
  Value product;
  for (auto [x, l] : llvm::zip(operands, labels)) {
    SmallVector<int64_t> perm, view;
    for (char c : order) {
      size_t at = l.find(c);
      if (at == std::string::npos) {
        view.push_back(1);
        continue;
      }
      perm.push_back(at);
      view.push_back(TensorBuilder::shapeOf(x)[at]);
    }
    Value v = tb.reshape(tb.permute(x, perm), view);
    product = product ? tb.mul(product, v) : v;
  }
  SmallVector<int64_t> summed;
  for (size_t i = out.size(); i < order.size(); ++i)
    summed.push_back(i);
  Value result = summed.empty() ? product : tb.sum(product, summed, false);
  return ctx.setReshapedResult(result,
                               result ? TensorBuilder::shapeOf(result)
                                      : ArrayRef<int64_t>());
}

} // namespace

void mlir::tgc::addEinsumDecompositions(DecompositionTable &table) {
  table["Einsum"] = decomposeEinsum;
}
