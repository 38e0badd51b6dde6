//===- Symbolic.h - bounds and linear forms of index values ---*- C++ -*-===//
//
// The analysis under tgc-symbolic, shared with the kernel optimizer:
// [min, max] of an index value and its view as a linear sum.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_SYMBOLIC_H
#define TGC_CODEGEN_SYMBOLIC_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Value.h"
#include <optional>

namespace mlir::tgc {

struct IndexBounds {
  int64_t min, max;
};

/// `c0 + sum(coef * atom)`; atoms are index values that are not sums or
/// products with a constant.
struct LinearSum {
  int64_t constant = 0;
  SmallVector<std::pair<Value, int64_t>> terms;
};

std::optional<int64_t> constantIndex(Value value);
/// The value of an i1 constant (a gate folded to true or false); nullopt
/// for anything else, a null value included.
std::optional<bool> constantBool(Value value);
/// The conditions whose conjunction (a tree of tgc.and) `cond` is.
SmallVector<Value> conjunctsOf(Value cond);

/// A comparison of an index `subject` with a constant: `subject < k`,
/// `k < subject`, `subject == k` or `subject != k`.
struct IndexComparison {
  Value subject;
  int64_t constant;
  bool subjectFirst;
};
/// `op` as an IndexComparison, if it is one (tgc.cmplt, cmpeq, cmpne).
std::optional<IndexComparison> matchIndexComparison(Operation *op);
std::optional<IndexBounds> boundsOf(Value value, int depth = 0);
std::optional<IndexBounds> boundsOf(const LinearSum &sum);
LinearSum linearSumOf(Value value);
Value buildLinearSum(OpBuilder &builder, Location loc, const LinearSum &sum);

void populateSymbolicPatterns(RewritePatternSet &patterns);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_SYMBOLIC_H
