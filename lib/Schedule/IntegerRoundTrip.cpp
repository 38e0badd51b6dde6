//===- IntegerRoundTrip.cpp - casts to an integer and back -----*- C++ -*-===//
//
// cast<F>(cast<I>(x)) -> x when every value of the float x is an integer in
// I's range, so that the two casts give x back; and (x + c) - c -> x for
// whole numbers whose sums are exact. A QDQ model quantizes an
// activation (round, add the zero point, clamp to uint8, cast) and at once
// dequantizes it (cast back, subtract the zero point, scale): without the
// casts the pair is float arithmetic that fuses and vectorizes like any
// other, and computes the same values.
//
// The proof walks x's producers. Integers come from trunc, from casts of
// integers, from constants of whole numbers and from TensorBuilder's
// roundSmall of a small value ((y + c) - c with c = 1.5 * 2^(p-1)), and
// stay integers through add, sub, mul, max, neg, where and views. The
// range comes from a clamp (max with a constant, and min written as
// neg(max(neg(a), -b)), the way TensorBuilder writes it) and interval
// arithmetic on add and sub. NaN is outside both: the cast of a NaN to an
// integer is undefined in C, and here it stays NaN.
//
//===----------------------------------------------------------------------===//

#include "IR/ConstantData.h"
#include "IR/TgcOps.h"
#include "Schedule/SimplifyPatterns.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include <cmath>

namespace mlir::tgc {
namespace {

struct Interval {
  double lo = -INFINITY, hi = INFINITY;
};

/// The values of a splat or small dense constant, as doubles; empty for
/// anything else.
SmallVector<double> constantValues(Value value) {
  auto constant = value.getDefiningOp<ConstOp>();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                        : DenseElementsAttr();
  if (!dense ||
      (!dense.isSplat() && dense.getNumElements() > kMaxFoldedElements))
    return {};
  SmallVector<double> values;
  auto read = [&](Attribute a) {
    std::optional<double> value = elementAsDouble(a);
    if (value)
      values.push_back(*value);
    return value.has_value();
  };
  if (dense.isSplat())
    return read(dense.getSplatValue<Attribute>()) ? values
                                                  : SmallVector<double>();
  for (Attribute a : dense.getValues<Attribute>())
    if (!read(a))
      return {};
  return values;
}

Interval rangeOfInteger(IntegerType type) {
  auto [lo, hi] = integerRange(type);
  return {lo, hi};
}

/// The splat value of a constant, or nullopt.
std::optional<double> splatOf(Value value) {
  SmallVector<double> values = constantValues(value);
  if (values.empty() ||
      llvm::any_of(values, [&](double x) { return x != values.front(); }))
    return std::nullopt;
  return values.front();
}

/// y if `sub` is roundSmall(y), (y + c) - c with c the float type's
/// roundingMagic; null otherwise.
Value roundedSmall(SubOp sub) {
  auto add = sub.getLhs().getDefiningOp<AddOp>();
  auto type = dyn_cast<FloatType>(getElementTypeOrSelf(sub.getType()));
  if (!add || !type)
    return {};
  double magic = roundingMagic(type);
  if (splatOf(sub.getRhs()) != magic || splatOf(add.getRhs()) != magic)
    return {};
  return add.getLhs();
}

/// The largest magnitude roundSmall rounds exactly in `type`: 2^(p-2).
double roundSmallLimit(Type type) {
  auto floatType = cast<FloatType>(getElementTypeOrSelf(type));
  return std::ldexp(1.0, floatType.getFPMantissaWidth() - 2);
}

/// What the producers of a float value say about it. Each question visits
/// at most kBudget ops (a where has two sources: chains of them branch).
class FloatFacts {
public:
  bool isIntegral(Value value) {
    budget = kBudget;
    return integral(value);
  }
  Interval rangeOf(Value value) {
    budget = kBudget;
    return range(value);
  }

private:
  static constexpr int kBudget = 256;
  int budget = kBudget;

  bool integral(Value value) {
    Operation *op = value.getDefiningOp();
    if (!op || --budget < 0)
      return false;
    if (isa<ConstOp>(op)) {
      SmallVector<double> values = constantValues(value);
      return !values.empty() && llvm::all_of(values, [](double x) {
        return std::isfinite(x) && x == std::trunc(x);
      });
    }
    if (auto cast = dyn_cast<CastOp>(op)) {
      Type from = getElementTypeOrSelf(cast.getSrc().getType());
      return isIntegerLike(from) ||
             (isa<FloatType>(from) && integral(cast.getSrc()));
    }
    if (isa<TruncOp>(op))
      return true;
    if (auto sub = dyn_cast<SubOp>(op)) {
      if (Value y = roundedSmall(sub)) {
        Interval r = range(y);
        double limit = roundSmallLimit(y.getType());
        return r.lo >= -limit && r.hi <= limit;
      }
    }
    if (isa<AddOp, SubOp, MulOp, MaxOp>(op))
      return integral(op->getOperand(0)) && integral(op->getOperand(1));
    if (auto where = dyn_cast<WhereOp>(op))
      return integral(where.getX()) && integral(where.getY());
    if (isa<NegOp>(op) || isGraphMovement(op))
      return integral(op->getOperand(0));
    return false;
  }

  Interval range(Value value) {
    Operation *op = value.getDefiningOp();
    if (!op || --budget < 0)
      return {};
    if (isa<ConstOp>(op)) {
      SmallVector<double> values = constantValues(value);
      if (values.empty() ||
          llvm::any_of(values, [](double x) { return std::isnan(x); }))
        return {};
      auto [lo, hi] = std::minmax_element(values.begin(), values.end());
      return {*lo, *hi};
    }
    if (auto cast = dyn_cast<CastOp>(op)) {
      auto from =
          dyn_cast<IntegerType>(getElementTypeOrSelf(cast.getSrc().getType()));
      if (from && from.getWidth() > 1)
        return rangeOfInteger(from);
      return isa<FloatType>(getElementTypeOrSelf(cast.getSrc().getType()))
                 ? range(cast.getSrc())
                 : Interval();
    }
    if (auto sub = dyn_cast<SubOp>(op)) {
      if (Value y = roundedSmall(sub)) {
        Interval r = range(y);
        return {std::floor(r.lo), std::ceil(r.hi)};
      }
      Interval a = range(sub.getLhs()), b = range(sub.getRhs());
      return {a.lo - b.hi, a.hi - b.lo};
    }
    if (isa<AddOp>(op)) {
      Interval a = range(op->getOperand(0)), b = range(op->getOperand(1));
      return {a.lo + b.lo, a.hi + b.hi};
    }
    if (isa<MaxOp>(op)) {
      Interval a = range(op->getOperand(0)), b = range(op->getOperand(1));
      return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
    }
    if (isa<NegOp>(op)) {
      Interval a = range(op->getOperand(0));
      return {-a.hi, -a.lo};
    }
    if (isa<TruncOp>(op)) {
      Interval a = range(op->getOperand(0));
      return {std::trunc(a.lo), std::trunc(a.hi)};
    }
    if (auto where = dyn_cast<WhereOp>(op)) {
      Interval a = range(where.getX()), b = range(where.getY());
      return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
    }
    if (isa<PadOp>(op)) {
      Interval a = range(op->getOperand(0));
      return {std::min(a.lo, 0.0), std::max(a.hi, 0.0)};
    }
    if (isGraphMovement(op))
      return range(op->getOperand(0));
    return {};
  }
};

struct FoldIntegerRoundTrip : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp back,
                                PatternRewriter &rewriter) const override {
    auto there = back.getSrc().getDefiningOp<CastOp>();
    if (!there)
      return failure();
    Value x = there.getSrc();
    auto integer = dyn_cast<IntegerType>(getElementTypeOrSelf(there.getType()));
    if (x.getType() != back.getType() ||
        !isa<FloatType>(getElementTypeOrSelf(x.getType())) || !integer ||
        integer.getWidth() == 1)
      return failure();
    FloatFacts facts;
    Interval held = rangeOfInteger(integer);
    Interval range = facts.rangeOf(x);
    if (range.lo < held.lo || range.hi > held.hi || !facts.isIntegral(x))
      return failure();
    rewriter.replaceOp(back, x);
    return success();
  }
};

// (x + c) - c -> x for whole numbers x and c whose sums all stay within
// the float type's run of consecutive integers (2^p): the zero point a
// quantize adds and the dequantize after it takes off again.
struct FoldWholeAddSub : OpRewritePattern<SubOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SubOp sub,
                                PatternRewriter &rewriter) const override {
    auto add = sub.getLhs().getDefiningOp<AddOp>();
    auto type = dyn_cast<FloatType>(getElementTypeOrSelf(sub.getType()));
    if (!add || !type)
      return failure();
    Value x = add.getLhs();
    std::optional<double> c = splatOf(add.getRhs());
    bool same =
        add.getRhs() == sub.getRhs() || (c && splatOf(sub.getRhs()) == c);
    if (!same)
      return failure();
    FloatFacts facts;
    Interval cRange = facts.rangeOf(add.getRhs());
    Interval xRange = facts.rangeOf(x);
    double largest = std::ldexp(1.0, type.getFPMantissaWidth());
    double bound = std::max(std::abs(xRange.lo), std::abs(xRange.hi)) +
                   std::max(std::abs(cRange.lo), std::abs(cRange.hi));
    if (!(bound <= largest) || !facts.isIntegral(x) ||
        !facts.isIntegral(add.getRhs()))
      return failure();
    rewriter.replaceOp(sub, x);
    return success();
  }
};

} // namespace

void populateIntegerRoundTripPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldIntegerRoundTrip, FoldWholeAddSub>(patterns.getContext());
}

} // namespace mlir::tgc
