//===- Symbolic.cpp - index arithmetic by value ranges --------*- C++ -*-===//
//
// tinygrad's symbolic rules for the integer index math of lowered kernels.
// Every rule needs bounds: a range runs over [0, bound), and add, mul,
// idiv and mod propagate [min, max]. Expressions are viewed as linear
// sums  c0 + sum(coef_k * atom_k)  so that div and mod by a constant can
// split off the terms that are multiples of it.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Passes.h"
#include "Codegen/Symbolic.h"
#include "IR/TgcOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCSYMBOLIC
#include "Codegen/Passes.h.inc"

std::optional<int64_t> constantIndex(Value value) {
  APInt constant;
  if (value.getType().isIndex() && matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  return std::nullopt;
}

std::optional<bool> constantBool(Value value) {
  APInt constant;
  if (value && value.getType().isInteger(1) &&
      matchPattern(value, m_ConstantInt(&constant)))
    return !constant.isZero();
  return std::nullopt;
}

SmallVector<Value> conjunctsOf(Value cond) {
  SmallVector<Value> conjuncts, worklist{cond};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (auto conj = value.getDefiningOp<AndOp>())
      worklist.append({conj.getRhs(), conj.getLhs()});
    else
      conjuncts.push_back(value);
  }
  return conjuncts;
}

std::optional<IndexComparison> matchIndexComparison(Operation *op) {
  if (!isa_and_nonnull<CmpltOp, CmpeqOp, CmpneOp>(op) ||
      !op->getOperand(0).getType().isIndex())
    return std::nullopt;
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  if (auto k = constantIndex(rhs); k && !constantIndex(lhs))
    return IndexComparison{lhs, *k, true};
  if (auto k = constantIndex(lhs); k && !constantIndex(rhs))
    return IndexComparison{rhs, *k, false};
  return std::nullopt;
}

std::optional<IndexBounds> boundsOf(Value value, int depth) {
  if (!value.getType().isIndex() || depth > 24)
    return std::nullopt;
  if (auto c = constantIndex(value))
    return IndexBounds{*c, *c};
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto range = dyn_cast<RangeOp>(op))
    return IndexBounds{0, (int64_t)range.getBound() - 1};
  if (auto special = dyn_cast<SpecialOp>(op))
    return IndexBounds{0, (int64_t)special.getBound() - 1};
  if (op->getNumOperands() != 2)
    return std::nullopt;
  auto a = boundsOf(op->getOperand(0), depth + 1);
  auto b = boundsOf(op->getOperand(1), depth + 1);
  if (!a || !b)
    return std::nullopt;
  if (isa<AddOp>(op))
    return IndexBounds{a->min + b->min, a->max + b->max};
  if (isa<SubOp>(op))
    return IndexBounds{a->min - b->max, a->max - b->min};
  if (isa<MulOp>(op)) {
    int64_t p[] = {a->min * b->min, a->min * b->max, a->max * b->min,
                   a->max * b->max};
    return IndexBounds{*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
  }
  if (isa<IdivOp>(op) && b->min == b->max && b->min > 0 && a->min >= 0)
    return IndexBounds{a->min / b->min, a->max / b->min};
  if (isa<ModOp>(op) && b->min == b->max && b->min > 0 && a->min >= 0)
    return IndexBounds{0, std::min(a->max, b->min - 1)};
  if (isa<MaxOp>(op))
    return IndexBounds{std::max(a->min, b->min), std::max(a->max, b->max)};
  return std::nullopt;
}

/// Adds coef * atom to `sum`, to the atom's term if it has one.
static void addTerm(LinearSum &sum, Value atom, int64_t coef) {
  auto it = llvm::find_if(sum.terms, [&](auto &t) { return t.first == atom; });
  if (it != sum.terms.end())
    it->second += coef;
  else
    sum.terms.push_back({atom, coef});
}

LinearSum linearSumOf(Value value) {
  LinearSum sum;
  SmallVector<std::pair<Value, int64_t>> work{{value, 1}};
  while (!work.empty()) {
    auto [v, coef] = work.pop_back_val();
    if (auto c = constantIndex(v)) {
      sum.constant += coef * *c;
      continue;
    }
    Operation *op = v.getDefiningOp();
    if (op && isa<AddOp>(op)) {
      work.push_back({op->getOperand(0), coef});
      work.push_back({op->getOperand(1), coef});
      continue;
    }
    if (op && isa<SubOp>(op)) {
      work.push_back({op->getOperand(0), coef});
      work.push_back({op->getOperand(1), -coef});
      continue;
    }
    if (op && isa<MulOp>(op)) {
      if (auto c = constantIndex(op->getOperand(1))) {
        work.push_back({op->getOperand(0), coef * *c});
        continue;
      }
      if (auto c = constantIndex(op->getOperand(0))) {
        work.push_back({op->getOperand(1), coef * *c});
        continue;
      }
    }
    addTerm(sum, v, coef);
  }
  llvm::erase_if(sum.terms, [](auto &t) { return t.second == 0; });
  return sum;
}

std::optional<IndexBounds> boundsOf(const LinearSum &sum) {
  IndexBounds bounds{sum.constant, sum.constant};
  for (auto [atom, coef] : sum.terms) {
    auto b = boundsOf(atom);
    if (!b)
      return std::nullopt;
    bounds.min += coef > 0 ? coef * b->min : coef * b->max;
    bounds.max += coef > 0 ? coef * b->max : coef * b->min;
  }
  return bounds;
}

Value buildLinearSum(OpBuilder &builder, Location loc, const LinearSum &sum) {
  auto constant = [&](int64_t c) -> Value {
    return builder.create<ConstOp>(loc, builder.getIndexAttr(c));
  };
  Value result;
  for (auto [atom, coef] : sum.terms) {
    Value term = coef == 1 ? atom
                           : builder.createOrFold<MulOp>(loc, atom, constant(coef));
    result = result ? builder.createOrFold<AddOp>(loc, result, term) : term;
  }
  if (!result)
    return constant(sum.constant);
  if (sum.constant)
    result = builder.createOrFold<AddOp>(loc, result, constant(sum.constant));
  return result;
}

namespace {

/// Splits `x` into c * quotient + rest, taking from every coefficient the
/// largest multiple of c. Succeeds only when both parts are non-negative,
/// where C's truncating division is floor division.
struct DivSplit {
  LinearSum quotient, rest;
};
std::optional<DivSplit> splitByDivisor(Value x, int64_t c) {
  LinearSum sum = linearSumOf(x);
  DivSplit split;
  // coef = q*c + r with 0 <= r < c: q*atom is a multiple of c.
  for (auto [atom, coef] : sum.terms) {
    int64_t q = coef >= 0 ? coef / c : -((-coef + c - 1) / c);
    int64_t r = coef - q * c;
    if (q)
      split.quotient.terms.push_back({atom, q});
    if (r)
      split.rest.terms.push_back({atom, r});
  }
  split.quotient.constant = sum.constant / c * (sum.constant >= 0 ? 1 : 0);
  split.rest.constant = sum.constant - split.quotient.constant * c;
  auto q = boundsOf(split.quotient), r = boundsOf(split.rest);
  if (!q || !r || q->min < 0 || r->min < 0)
    return std::nullopt;
  return split;
}

/// Splits `x` into a + b with every term of a a multiple of some g that
/// divides c, and 0 <= b < g: then a % c + b < c, so
/// x % c = a % c + b and x // c = a // c. The largest such g wins. This is
/// what lets the lanes of an upcast axis inside a mod, (r*16 + l) % 64, read
/// as consecutive: (r*16) % 64 + l.
std::optional<DivSplit> splitByFactor(Value x, int64_t c) {
  LinearSum sum = linearSumOf(x);
  for (int64_t g = c / 2; g > 1; --g) {
    if (c % g != 0)
      continue;
    DivSplit split;
    for (auto [atom, coef] : sum.terms)
      (coef % g == 0 ? split.quotient : split.rest).terms.push_back({atom, coef});
    int64_t low = ((sum.constant % g) + g) % g;
    split.rest.constant = low;
    split.quotient.constant = sum.constant - low;
    if (split.quotient.terms.empty() ||
        (split.rest.terms.empty() && split.rest.constant == 0))
      continue;
    auto a = boundsOf(split.quotient), b = boundsOf(split.rest);
    if (a && b && a->min >= 0 && b->min >= 0 && b->max < g)
      return split;
  }
  return std::nullopt;
}

// x // c => 0 if 0 <= x < c;  (a*c + b) // c => a + b // c if a*c, b >= 0;
// (x // a) // b => x // (a*b) if x >= 0
struct SimplifyIdiv : OpRewritePattern<IdivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IdivOp op,
                                PatternRewriter &rewriter) const override {
    auto c = constantIndex(op.getRhs());
    if (!c || *c <= 0)
      return rewriter.notifyMatchFailure(op, "not an index divided by c > 0");
    if (auto inner = op.getLhs().getDefiningOp<IdivOp>()) {
      auto a = constantIndex(inner.getRhs());
      auto x = boundsOf(inner.getLhs());
      if (a && *a > 0 && x && x->min >= 0) {
        Value ab = rewriter.create<ConstOp>(op.getLoc(),
                                            rewriter.getIndexAttr(*a * *c));
        rewriter.replaceOpWithNewOp<IdivOp>(op, inner.getLhs(), ab);
        return success();
      }
    }
    auto split = splitByDivisor(op.getLhs(), *c);
    if (!split)
      return rewriter.notifyMatchFailure(op, "dividend may be negative");
    auto rest = boundsOf(split->rest);
    if (rest->max < *c) {
      rewriter.replaceOp(op, buildLinearSum(rewriter, op.getLoc(), split->quotient));
      return success();
    }
    if (split->quotient.terms.empty() && split->quotient.constant == 0) {
      // (a + b) // c => a // c if a is a multiple of g | c and 0 <= b < g
      auto factor = splitByFactor(op.getLhs(), *c);
      if (!factor)
        return rewriter.notifyMatchFailure(op, "no multiple of the divisor");
      Value a = buildLinearSum(rewriter, op.getLoc(), factor->quotient);
      rewriter.replaceOpWithNewOp<IdivOp>(op, a, op.getRhs());
      return success();
    }
    Value restValue = buildLinearSum(rewriter, op.getLoc(), split->rest);
    Value restDiv = rewriter.create<IdivOp>(op.getLoc(), restValue, op.getRhs());
    Value quotient = buildLinearSum(rewriter, op.getLoc(), split->quotient);
    rewriter.replaceOpWithNewOp<AddOp>(op, quotient, restDiv);
    return success();
  }
};

// x % c => x if 0 <= x < c;  (a*c + b) % c => b % c if a*c, b >= 0
struct SimplifyMod : OpRewritePattern<ModOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ModOp op,
                                PatternRewriter &rewriter) const override {
    auto c = constantIndex(op.getRhs());
    if (!c || *c <= 0)
      return rewriter.notifyMatchFailure(op, "not an index modulo c > 0");
    auto split = splitByDivisor(op.getLhs(), *c);
    if (!split)
      return rewriter.notifyMatchFailure(op, "dividend may be negative");
    auto rest = boundsOf(split->rest);
    if (rest->max < *c) {
      rewriter.replaceOp(op, buildLinearSum(rewriter, op.getLoc(), split->rest));
      return success();
    }
    if (split->quotient.terms.empty() && split->quotient.constant == 0) {
      // (a + b) % c => a % c + b if a is a multiple of g | c and 0 <= b < g
      auto factor = splitByFactor(op.getLhs(), *c);
      if (!factor)
        return rewriter.notifyMatchFailure(op, "no multiple of the divisor");
      Value a = buildLinearSum(rewriter, op.getLoc(), factor->quotient);
      Value aMod = rewriter.create<ModOp>(op.getLoc(), a, op.getRhs());
      Value b = buildLinearSum(rewriter, op.getLoc(), factor->rest);
      rewriter.replaceOpWithNewOp<AddOp>(op, aMod, b);
      return success();
    }
    Value restValue = buildLinearSum(rewriter, op.getLoc(), split->rest);
    rewriter.replaceOpWithNewOp<ModOp>(op, restValue, op.getRhs());
    return success();
  }
};

// x < y => true if max(x) < min(y); false if min(x) >= max(y)
struct DecideCmplt : OpRewritePattern<CmpltOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CmpltOp op,
                                PatternRewriter &rewriter) const override {
    auto a = boundsOf(op.getLhs()), b = boundsOf(op.getRhs());
    if (!a || !b)
      return rewriter.notifyMatchFailure(op, "bounds unknown");
    std::optional<bool> decided;
    if (a->max < b->min)
      decided = true;
    else if (a->min >= b->max)
      decided = false;
    if (!decided)
      return rewriter.notifyMatchFailure(op, "bounds overlap");
    rewriter.replaceOpWithNewOp<ConstOp>(
        op, rewriter.getIntegerAttr(rewriter.getI1Type(), *decided));
    return success();
  }
};

// (x / c) * (k * c) + (x % c) * k => x * k: C's division truncates and its
// `%` takes the dividend's sign, so x == (x / c) * c + x % c for every x,
// negative ones too (a pixel one before a padded border). A reshape that
// splits an axis into [n, c] and a view that merges them again leave this
// pair; recombined, the address moves with x by k again and the C compiler
// sees a plain stride (Winograd's output tiles read as the image).
//
// ((x / c) % d) * (k * c) + (x % c) * k => (x % (c * d)) * k, for every x
// too, since (x / c) / d == x / (c * d) under truncation: an axis split
// into three, [n, d, c], and merged again (a flatten of a 16x7x7 feature
// map before a Gemm) leaves x / 49 * 49 + x / 7 % 7 * 7 + x % 7, which this
// and then the rule above make x.
struct RecombineDivMod : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;

  /// x and c of an atom x / c with a constant c > 0.
  static std::optional<std::pair<Value, int64_t>> matchDiv(Value atom) {
    auto div = atom.getDefiningOp<IdivOp>();
    std::optional<int64_t> c = div ? constantIndex(div.getRhs()) : std::nullopt;
    if (!c || *c <= 0)
      return std::nullopt;
    return std::make_pair(div.getLhs(), *c);
  }

  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isIndex())
      return rewriter.notifyMatchFailure(op, "not index arithmetic");
    LinearSum sum = linearSumOf(op.getResult());
    for (size_t j = 0; j < sum.terms.size(); ++j) {
      auto [modAtom, k] = sum.terms[j];
      auto mod = modAtom.getDefiningOp<ModOp>();
      std::optional<int64_t> c =
          mod ? constantIndex(mod.getRhs()) : std::nullopt;
      if (!c || *c <= 0)
        continue;
      Value x = mod.getLhs();
      for (size_t i = 0; i < sum.terms.size(); ++i) {
        auto [atom, coef] = sum.terms[i];
        if (i == j || coef != k * *c)
          continue;
        // The x / c of the first rule, or the (x / c) % d of the second.
        LinearSum replacement;
        if (matchDiv(atom) == std::make_pair(x, *c)) {
          replacement = linearSumOf(x);
        } else if (auto outer = atom.getDefiningOp<ModOp>()) {
          std::optional<int64_t> d = constantIndex(outer.getRhs());
          if (!d || *d <= 0 ||
              matchDiv(outer.getLhs()) != std::make_pair(x, *c))
            continue;
          Value cd = rewriter.create<ConstOp>(op.getLoc(),
                                              rewriter.getIndexAttr(*c * *d));
          replacement.terms.push_back(
              {rewriter.create<ModOp>(op.getLoc(), x, cd), 1});
        } else {
          continue;
        }
        sum.terms.erase(sum.terms.begin() + std::max(i, j));
        sum.terms.erase(sum.terms.begin() + std::min(i, j));
        sum.constant += k * replacement.constant;
        for (auto [inner, innerCoef] : replacement.terms)
          addTerm(sum, inner, k * innerCoef);
        llvm::erase_if(sum.terms, [](auto &t) { return t.second == 0; });
        rewriter.replaceOp(op, buildLinearSum(rewriter, op.getLoc(), sum));
        return success();
      }
    }
    return rewriter.notifyMatchFailure(op, "no x / c and x % c pair");
  }
};

// A gate decided true guards nothing: the access is unconditional (an
// upcast copy of a concatenation's part, whose gate was its position).
struct DropTrueGate : OpRewritePattern<IndexOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IndexOp op,
                                PatternRewriter &rewriter) const override {
    if (constantBool(op.getGate()) != true)
      return rewriter.notifyMatchFailure(op, "no gate decided true");
    rewriter.modifyOpInPlace(op, [&] { op.getGateMutable().clear(); });
    return success();
  }
};

// where(g, load(buf[i] if g else a), a) => load(buf[i] if g else a): the
// select repeats the load's own gate (a pad lowers to both). Lanes of a
// vector along an axis the gate does not depend on are then loads that
// tgc-devectorize folds into one gated vector load (a channels-last image
// under its border mask).
struct FoldGatedLoadSelect : OpRewritePattern<WhereOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WhereOp op,
                                PatternRewriter &rewriter) const override {
    auto load = op.getX().getDefiningOp<LoadOp>();
    auto index = load ? load.getPtr().getDefiningOp<IndexOp>() : IndexOp();
    if (!index || index.getGate() != op.getCond() ||
        load.getAlt() != op.getY())
      return rewriter.notifyMatchFailure(op, "not a select by a load's gate");
    rewriter.replaceOp(op, load.getResult());
    return success();
  }
};

/// True if no loop begins or ends between `value`'s definition (or the
/// start of its block) and `user`, in one block: `user` runs in exactly the
/// loops `value` does, so whatever reads `value` may read `user`'s result.
static bool inLoopsOf(Value value, Operation *user) {
  Operation *def = value.getDefiningOp();
  Block *block = user->getBlock();
  if (def && def->getBlock() != block)
    return false;
  for (Operation *op = def ? def->getNextNode() : &block->front();
       op && op != user; op = op->getNextNode())
    if (isa<RangeOp, EndOp>(op))
      return false;
  return true;
}

/// The constant operand of a binary op (either side), with its other
/// operand in `other`; std::nullopt if neither is a constant.
static std::optional<int64_t> splitConstant(Operation *op, Value &other) {
  for (auto [constant, rest] : {std::pair(1, 0), std::pair(0, 1)})
    if (std::optional<int64_t> c = constantIndex(op->getOperand(constant))) {
      other = op->getOperand(rest);
      return c;
    }
  return std::nullopt;
}

/// (x + c1) * c2 -> x * c2 + c1 * c2 on indices, with one x * c2 shared by
/// every such product in the block. The copies of an upcast axis index
/// (x + 0) * c2, (x + 1) * c2, ...: written so, GCC kept a base register
/// per copy, and a 1x1 convolution's tile of 16 pixels, whose 16 input
/// rows then took 16 registers, reloaded 7 of them from the stack on every
/// step of its reduction; with one base and constant offsets (addressing
/// displacements) the kernel ran 1.19x faster.
struct DistributeProduct : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isIndex())
      return rewriter.notifyMatchFailure(op, "not index arithmetic");
    Value sum, x;
    std::optional<int64_t> scale = splitConstant(op, sum);
    auto add = sum ? sum.getDefiningOp<AddOp>() : AddOp();
    std::optional<int64_t> offset = add ? splitConstant(add, x) : std::nullopt;
    if (!scale || !offset || constantIndex(x))
      return rewriter.notifyMatchFailure(op, "not (x + c1) * c2");

    // x * c2 as an earlier product in x's loops computes it (inLoopsOf: a
    // value computed inside a loop is not read after it), else a new one
    // right after x, where every later copy finds it.
    MulOp scaled;
    for (Operation *user : x.getUsers()) {
      auto mul = dyn_cast<MulOp>(user);
      Value factor;
      if (mul && mul != op && mul->getBlock() == op->getBlock() &&
          mul->isBeforeInBlock(op) && splitConstant(mul, factor) == scale &&
          factor == x && inLoopsOf(x, mul)) {
        scaled = mul;
        break;
      }
    }
    Location loc = op.getLoc();
    if (!scaled) {
      OpBuilder::InsertionGuard guard(rewriter);
      if (Operation *def = x.getDefiningOp();
          def && def->getBlock() == op->getBlock())
        rewriter.setInsertionPointAfter(def);
      else
        rewriter.setInsertionPointToStart(op->getBlock());
      Value factor =
          rewriter.create<ConstOp>(loc, rewriter.getIndexAttr(*scale));
      scaled = rewriter.create<MulOp>(loc, x, factor);
    }
    Value shift =
        rewriter.create<ConstOp>(loc, rewriter.getIndexAttr(*offset * *scale));
    rewriter.replaceOpWithNewOp<AddOp>(op, scaled, shift);
    return success();
  }
};

struct Symbolic : impl::TgcSymbolicBase<Symbolic> {
  using TgcSymbolicBase::TgcSymbolicBase;

  void runOnOperation() final {
    RewritePatternSet patterns(&getContext());
    populateSymbolicPatterns(patterns);
    if (distributeProducts)
      patterns.add<DistributeProduct>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void populateSymbolicPatterns(RewritePatternSet &patterns) {
  patterns.add<SimplifyIdiv, SimplifyMod, DecideCmplt, DropTrueGate,
               RecombineDivMod, FoldGatedLoadSelect>(
      patterns.getContext());
}

} // namespace mlir::tgc
