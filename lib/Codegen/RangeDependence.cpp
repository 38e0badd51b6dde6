//===- RangeDependence.cpp - how values move with a loop --------*- C++ -*-===//
//
// See RangeDependence.h.
//
//===----------------------------------------------------------------------===//

#include "Codegen/RangeDependence.h"
#include "Codegen/Symbolic.h"
#include "IR/TgcOps.h"
#include "llvm/Support/MathExtras.h"
#include <functional>
#include <numeric>

using namespace mlir;
using namespace mlir::tgc;

bool mlir::tgc::dependsOn(Value value, Value range, DependenceMemo &memo) {
  if (value == range)
    return true;
  Operation *op = value.getDefiningOp();
  if (!op || isa<RangeOp>(op))
    return false;
  auto key = std::make_pair(value, range);
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  bool result = llvm::any_of(op->getOperands(), [&](Value operand) {
    return dependsOn(operand, range, memo);
  });
  memo[key] = result;
  return result;
}

std::optional<int64_t> mlir::tgc::getLaneStride(Value address, Value range,
                                                int64_t lanes) {
  DependenceMemo memo;
  std::function<std::optional<int64_t>(Value)> stride =
      [&](Value v) -> std::optional<int64_t> {
    if (v == range)
      return 1;
    if (!dependsOn(v, range, memo))
      return 0;
    Operation *op = v.getDefiningOp();
    if (isa<AddOp, SubOp>(op)) {
      auto a = stride(op->getOperand(0)), b = stride(op->getOperand(1));
      if (!a || !b)
        return std::nullopt;
      return isa<AddOp>(op) ? *a + *b : *a - *b;
    }
    if (isa<MulOp>(op)) {
      for (unsigned i = 0; i < 2; ++i)
        if (auto c = constantIndex(op->getOperand(1 - i)))
          if (auto a = stride(op->getOperand(i)))
            return *a * *c;
      return std::nullopt;
    }
    if (!isa<ModOp, IdivOp>(op))
      return std::nullopt;
    // (x + s*l) % c and // c with x a multiple of s*lanes, which divides c:
    // the lanes stay within one block of c.
    std::optional<int64_t> c = constantIndex(op->getOperand(1));
    Value x = op->getOperand(0);
    std::optional<int64_t> s = stride(x);
    std::optional<IndexBounds> xBounds = boundsOf(x);
    if (!c || !s || *s <= 0 || !xBounds || xBounds->min < 0)
      return std::nullopt;
    int64_t span = *s * lanes;
    if (*c % span != 0)
      return std::nullopt;
    LinearSum sum = linearSumOf(x);
    if (sum.constant % span != 0)
      return std::nullopt;
    for (auto [atom, coef] : sum.terms)
      if (atom != range && (coef % span != 0 || dependsOn(atom, range, memo)))
        return std::nullopt;
    return isa<ModOp>(op) ? *s : 0;
  };
  return stride(address);
}

bool mlir::tgc::isComputedFrom(Value value, Value range) {
  DependenceMemo memo;
  return dependsOn(value, range, memo);
}

bool mlir::tgc::gatesOnlyPadding(Value gate, Value range) {
  if (!isComputedFrom(gate, range))
    return true;
  Operation *op = gate.getDefiningOp();
  // range + (terms that do not vary with it) < c: for any value of the
  // other terms the lanes that pass are a prefix (the last of the vectors
  // an axis padded past one vector is upcast into: 16 * copy + lane < 28).
  if (auto less = dyn_cast_or_null<CmpltOp>(op)) {
    if (!constantIndex(less.getOperand(1)))
      return false;
    LinearSum sum = linearSumOf(less.getOperand(0));
    bool once = false;
    for (auto [atom, coef] : sum.terms) {
      if (atom == range && coef == 1 && !once)
        once = true;
      else if (isComputedFrom(atom, range))
        return false;
    }
    return once;
  }
  if (auto both = dyn_cast_or_null<AndOp>(op))
    return gatesOnlyPadding(both.getOperand(0), range) &&
           gatesOnlyPadding(both.getOperand(1), range);
  return false;
}

bool mlir::tgc::gateUniformPerVector(Value cond, Value range, int64_t lanes,
                                     DependenceMemo &memo) {
  if (!dependsOn(cond, range, memo))
    return true;
  Operation *op = cond.getDefiningOp();
  if (isa_and_nonnull<AndOp, OrOp, XorOp>(op))
    return gateUniformPerVector(op->getOperand(0), range, lanes, memo) &&
           gateUniformPerVector(op->getOperand(1), range, lanes, memo);
  std::optional<IndexComparison> comparison = matchIndexComparison(op);
  if (!comparison || !isa<CmpltOp>(op))
    return false;
  // subject = s * range + (terms free of range) + c: in a vector, range is
  // lanes * v + k, and the lanes' subjects differ in their constants. With
  // g the gcd of the coefficients of v and of the other terms, a bound that
  // is a multiple of g lies between the runs if c + s * k, for every lane
  // k, stays within one multiple of g.
  LinearSum sum = linearSumOf(comparison->subject);
  int64_t s = 0, g = 0;
  for (auto [atom, coef] : sum.terms) {
    if (atom == range)
      s = coef;
    else if (dependsOn(atom, range, memo))
      return false;
    else
      g = std::gcd(g, coef);
  }
  g = std::gcd(g, s * lanes);
  int64_t bound = comparison->constant + (comparison->subjectFirst ? 0 : 1);
  if (s == 0 || g <= 1 || bound % g != 0)
    return false;
  for (int64_t k = 1; k < lanes; ++k)
    if (llvm::divideFloorSigned(sum.constant + s * k, g) !=
        llvm::divideFloorSigned(sum.constant, g))
      return false;
  return true;
}
