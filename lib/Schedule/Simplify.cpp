//===- Simplify.cpp - algebraic rewrites on the tensor graph --*- C++ -*-===//
//
// The graph half of tinygrad's symbolic rules: op folders (registered with
// each op) plus the rewrites below, which need more than one op or loops
// over attribute data.
//
//===----------------------------------------------------------------------===//

#include "IR/ConstantArithmetic.h"
#include "IR/ConstantData.h"
#include "IR/TgcOps.h"
#include "Schedule/Passes.h"
#include "Schedule/SimplifyPatterns.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <type_traits>

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCSIMPLIFY
#include "Schedule/Passes.h.inc"

namespace {

/// Largest constant a broadcast of a smaller constant may fold into.
constexpr int64_t kMaxBroadcastElements = 64;

/// The splat value of a constant operand, or null.
Attribute splatOf(Value value) {
  auto constant = value.getDefiningOp<ConstOp>();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                        : DenseElementsAttr();
  return dense && dense.isSplat() ? dense.getSplatValue<Attribute>()
                                  : Attribute();
}

/// The splat constant `operand` as a constant of `shape`'s dims.
Value splatOfShape(PatternRewriter &rewriter, Location loc,
                   RankedTensorType shape, Value operand) {
  auto type = shape.clone(getElementTypeOrSelf(operand.getType()));
  return rewriter.create<ConstOp>(
      loc, DenseElementsAttr::get(type, splatOf(operand)));
}

/// `op` again on `operands`, its result of `shape`'s dims.
Value cloneElementwise(PatternRewriter &rewriter, Operation *op,
                       ValueRange operands, RankedTensorType shape) {
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(operands);
  state.addTypes(shape.clone(getElementTypeOrSelf(op->getResult(0).getType())));
  state.addAttributes(op->getAttrs());
  return rewriter.create(state)->getResult(0);
}

/// An elementwise op of the tensor graph with one ranked tensor result:
/// what the rewrites that move views past elementwise work start from.
bool isRankedElementwise(Operation *op) {
  return isGraphElementwise(op) && op->getNumResults() == 1 &&
         isa<RankedTensorType>(op->getResult(0).getType());
}

// f(view(a), view(b), splat) => view(f(a, b, splat)) when a and b have the
// same shape, for view = expand or reshape: elementwise work moves before
// broadcasts, where there is less of it (and constants fold while small).
template <typename ViewOp>
struct ElementwiseBeforeView : RewritePattern {
  ElementwiseBeforeView(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isRankedElementwise(op))
      return failure();
    RankedTensorType srcShape;
    for (Value operand : op->getOperands()) {
      if (auto view = operand.getDefiningOp<ViewOp>()) {
        // A reshape of a sum is the shape its kernel's loops run over: a
        // grouped convolution's [groups, channels per group] merged into
        // its channels, whose weight PACK then reads one dim per loop. With
        // its bias a splat (0: RegNet's, batch norms folded as initialized)
        // the reshape moved past the bias and the Relu, the loops ran over
        // groups and channels apart, and the weight was gathered: 4x slower.
        if constexpr (std::is_same_v<ViewOp, ReshapeOp>)
          if (view.getSrc().template getDefiningOp<ReduceAxisOp>())
            return rewriter.notifyMatchFailure(op, "a reshape of a sum");
        auto type = cast<RankedTensorType>(view.getSrc().getType());
        if (srcShape && srcShape.getShape() != type.getShape())
          return rewriter.notifyMatchFailure(op, "views of different shapes");
        srcShape = type;
      } else if (!splatOf(operand)) {
        return rewriter.notifyMatchFailure(op, "operand is not a view");
      }
    }
    if (!srcShape)
      return rewriter.notifyMatchFailure(op, "no view among the operands");
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (auto view = operand.getDefiningOp<ViewOp>()) {
        operands.push_back(view.getSrc());
        continue;
      }
      operands.push_back(
          splatOfShape(rewriter, op->getLoc(), srcShape, operand));
    }
    Value small = cloneElementwise(rewriter, op, operands, srcShape);
    rewriter.replaceOpWithNewOp<ViewOp>(op, op->getResult(0).getType(), small);
    return success();
  }
};

/// True if `value` is a constant or a view of one.
bool isConstantView(Value value) {
  Operation *op = value.getDefiningOp();
  while (op && isGraphMovement(op)) {
    value = op->getOperand(0);
    op = value.getDefiningOp();
  }
  return op && isa<ConstOp>(op);
}

// f(permute(a, p), permute(b, p), c) => permute(f(a, b, c'), p), where c
// is a constant or a view of one and c' its view in a's order: a permute
// moves past elementwise work toward the next op that reads it. A
// convolution computed channels last ends in a permute back to NCHW; past
// its bias, its Relu and a residual Add, it meets the permute to channels
// last of the next convolution, and the two cancel. Only permutes of
// computed values move, so the constants' new permutes never move back.
// A broadcast of such a permute, expand(permute(s, p)), is read as
// permute(expand(s), p): a Squeeze-and-Excitation scale of a channels-last
// model, [1,1,1,C] permuted to [1,C,1,1] and broadcast over the image,
// multiplies the image in its channels-last order, where the next 1x1
// convolution reads it (realized in NCHW order, it was read a plane apart
// per channel: EfficientNet-B0's 1152 -> 192 at 7x7 ran 40 GFLOP/s, 87
// channels last).
struct ElementwiseBeforePermute : RewritePattern {
  /// The permute `value` is, if it is one of a computed value.
  static PermuteOp movablePermute(Value value) {
    auto permute = value.getDefiningOp<PermuteOp>();
    return permute && !isConstantView(permute.getSrc()) ? permute : PermuteOp();
  }

  /// The permute of a computed value that `value` broadcasts, if it is
  /// expand(permute(s)).
  static PermuteOp broadcastPermute(Value value) {
    auto expand = value.getDefiningOp<ExpandOp>();
    return expand ? movablePermute(expand.getSrc()) : PermuteOp();
  }

  ElementwiseBeforePermute(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isRankedElementwise(op))
      return failure();
    PermuteOp first;
    for (Value operand : op->getOperands()) {
      if (PermuteOp permute = movablePermute(operand)) {
        // The same view of sources of one shape (a where's condition is a
        // permute of booleans, its values of floats).
        if (first &&
            (first.getOrder() != permute.getOrder() ||
             cast<ShapedType>(first.getSrc().getType()).getShape() !=
                 cast<ShapedType>(permute.getSrc().getType()).getShape()))
          return rewriter.notifyMatchFailure(op, "permutes differ");
        first = permute;
      } else if (!broadcastPermute(operand) && !isConstantView(operand)) {
        return rewriter.notifyMatchFailure(op, "operand is not a permute");
      }
    }
    // Broadcasts only ride along with a permute of a whole operand: that
    // one is the value whose order the result keeps.
    if (!first)
      return rewriter.notifyMatchFailure(op, "no permute among the operands");
    ArrayRef<int64_t> order = first.getOrder();
    for (Value operand : op->getOperands())
      if (PermuteOp permute = broadcastPermute(operand);
          permute && permute.getOrder() != order)
        return rewriter.notifyMatchFailure(op, "permutes differ");
    SmallVector<int64_t> inverse = invertPermutationVector(order);
    auto srcShape = cast<RankedTensorType>(first.getSrc().getType());
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (PermuteOp permute = movablePermute(operand)) {
        operands.push_back(permute.getSrc());
        continue;
      }
      Type element = getElementTypeOrSelf(operand.getType());
      if (PermuteOp permute = broadcastPermute(operand)) {
        // expand(permute(s, p)) = permute(expand(s), p): s's dims of 1 stay
        // where the expand broadcasts them, in s's order.
        operands.push_back(rewriter.create<ExpandOp>(
            op->getLoc(), srcShape.clone(element), permute.getSrc()));
        continue;
      }
      operands.push_back(rewriter.create<PermuteOp>(
          op->getLoc(), srcShape.clone(element), operand, inverse));
    }
    Value moved = cloneElementwise(rewriter, op, operands, srcShape);
    rewriter.replaceOpWithNewOp<PermuteOp>(op, op->getResult(0).getType(),
                                           moved, order);
    return success();
  }
};

/// True if computing `value` would pull a reduce into the kernel that reads
/// it: one on the way back to realized values that no other op reads. The
/// way stops at constants and contiguous values, and at values read twice
/// or more: with a reduce in them, tgc-schedule realizes them (its rule 2);
/// without, there is none behind them to find.
bool pullsInReduce(Value value) {
  llvm::SmallPtrSet<Operation *, 16> seen;
  SmallVector<Value> work{value};
  while (!work.empty()) {
    Value next = work.pop_back_val();
    Operation *op = next.getDefiningOp();
    if (!op || isa<ConstOp, ContiguousOp>(op) ||
        !next.hasOneUse() || !seen.insert(op).second)
      continue;
    if (isa<ReduceAxisOp>(op))
      return true;
    llvm::append_range(work, op->getOperands());
  }
  return false;
}

/// True if `value`, or a view of it, is returned.
bool isModelOutput(Value value) {
  return llvm::any_of(value.getUsers(), [](Operation *user) {
    return isa<func::ReturnOp>(user) ||
           (isGraphMovement(user) && isModelOutput(user->getResult(0)));
  });
}

// f(contiguous(x), y) => contiguous(f(x, y)), also through a reshape of the
// contiguous value (then y is reshaped the other way): the elementwise ops
// that follow a realized value run in the kernel that computes it, not in
// one of their own that reads it back. A Winograd convolution's output
// transform, realized in tile order, thus adds the bias and the residual
// and applies the Relu before it stores. Only when nothing else reads the
// contiguous value, and no y brings a reduce into that kernel, whose loops
// were chosen for x.
struct ElementwiseIntoContiguous : RewritePattern {
  ElementwiseIntoContiguous(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isGraphElementwise(op) || isa<BitcastOp>(op) ||
        op->getNumResults() != 1)
      return failure();
    ContiguousOp contiguous;
    ReshapeOp reshape;
    unsigned position = 0;
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      auto view = value.getDefiningOp<ReshapeOp>();
      if (view) {
        if (!view->hasOneUse())
          continue;
        value = view.getSrc();
      }
      auto candidate = value.getDefiningOp<ContiguousOp>();
      if (candidate && candidate->hasOneUse()) {
        contiguous = candidate;
        reshape = view;
        position = operand.getOperandNumber();
        break;
      }
    }
    if (!contiguous)
      return rewriter.notifyMatchFailure(op, "no contiguous operand");
    // A model output is written in its own shape: a view of the contiguous
    // value would be copied into it by another kernel.
    if (isModelOutput(op->getResult(0)))
      return rewriter.notifyMatchFailure(op, "a model output");
    auto inner = cast<RankedTensorType>(contiguous.getType());
    SmallVector<Value> operands;
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      if (operand.getOperandNumber() == position) {
        operands.push_back(contiguous.getSrc());
      } else if (splatOf(value)) {
        operands.push_back(splatOfShape(rewriter, op->getLoc(), inner, value));
      } else if (pullsInReduce(value)) {
        return rewriter.notifyMatchFailure(op, "an operand holds a reduce");
      } else {
        Type element = getElementTypeOrSelf(value.getType());
        operands.push_back(reshape ? rewriter.create<ReshapeOp>(
                                         op->getLoc(), inner.clone(element),
                                         value)
                                   : value);
      }
    }
    Value fused = rewriter.create<ContiguousOp>(
        op->getLoc(), cloneElementwise(rewriter, op, operands, inner));
    if (reshape)
      fused = rewriter.create<ReshapeOp>(op->getLoc(),
                                         op->getResult(0).getType(), fused);
    rewriter.replaceOp(op, fused);
    return success();
  }
};

// permute(permute(x, a), b) => permute(x, a[b])
struct ComposePermutes : OpRewritePattern<PermuteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PermuteOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<PermuteOp>();
    if (!inner)
      return failure();
    SmallVector<int64_t> order;
    for (int64_t axis : op.getOrder())
      order.push_back(inner.getOrder()[axis]);
    rewriter.replaceOpWithNewOp<PermuteOp>(op, op.getType(), inner.getSrc(),
                                           order);
    return success();
  }
};

// expand(expand(x)) => expand(x)
struct ComposeExpands : OpRewritePattern<ExpandOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ExpandOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<ExpandOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<ExpandOp>(op, op.getType(), inner.getSrc());
    return success();
  }
};

/// The small dense constant feeding `value`, or null.
DenseElementsAttr smallConstant(Value value) {
  auto constant = value.getDefiningOp<ConstOp>();
  if (!constant)
    return {};
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense || dense.getNumElements() > kMaxFoldedElements)
    return {};
  return dense;
}

/// Folds a movement op of a small constant by asking, for every result
/// element, which source element it shows (or none: padding, which is 0).
template <typename MovementOp>
struct FoldConstantView : OpRewritePattern<MovementOp> {
  using OpRewritePattern<MovementOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(MovementOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr src = smallConstant(op.getSrc());
    auto resultType = cast<RankedTensorType>(op.getType());
    // Broadcasting a constant into a bigger one only makes weights bigger.
    if (!src || src.isSplat() ||
        resultType.getNumElements() > kMaxFoldedElements ||
        resultType.getNumElements() >
            std::max<int64_t>(src.getNumElements(), kMaxBroadcastElements))
      return failure();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    SmallVector<Attribute> srcValues(src.getValues<Attribute>());
    SmallVector<int64_t> srcStrides = rowMajorStrides(srcType.getShape());
    ArrayRef<int64_t> shape = resultType.getShape();
    Attribute zero = rewriter.getZeroAttr(resultType.getElementType());
    SmallVector<Attribute> values;
    SmallVector<int64_t> index(shape.size(), 0);
    for (int64_t n = 0; n < resultType.getNumElements(); ++n) {
      int64_t flat = n;
      for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
        index[d] = flat % shape[d];
        flat /= shape[d];
      }
      std::optional<int64_t> from = sourceOffset(op, index, srcType, srcStrides);
      values.push_back(from ? srcValues[*from] : zero);
    }
    rewriter.replaceOpWithNewOp<ConstOp>(
        op, DenseElementsAttr::get(resultType, values));
    return success();
  }

  static std::optional<int64_t> sourceOffset(MovementOp op,
                                             ArrayRef<int64_t> index,
                                             RankedTensorType srcType,
                                             ArrayRef<int64_t> srcStrides) {
    ArrayRef<int64_t> srcShape = srcType.getShape();
    int64_t offset = 0;
    for (size_t d = 0; d < srcShape.size(); ++d) {
      int64_t i = 0;
      if constexpr (std::is_same_v<MovementOp, PermuteOp>) {
        i = index[llvm::find(op.getOrder(), (int64_t)d) - op.getOrder().begin()];
      } else if constexpr (std::is_same_v<MovementOp, ExpandOp>) {
        i = srcShape[d] == 1 ? 0 : index[d];
      } else if constexpr (std::is_same_v<MovementOp, PadOp>) {
        i = index[d] - op.getLow()[d];
        if (i < 0 || i >= srcShape[d])
          return std::nullopt;
      } else if constexpr (std::is_same_v<MovementOp, ShrinkOp>) {
        i = index[d] + op.getBegin()[d];
      } else {
        static_assert(std::is_same_v<MovementOp, FlipOp>);
        i = llvm::is_contained(op.getAxes(), (int64_t)d)
                ? srcShape[d] - 1 - index[d]
                : index[d];
      }
      offset += i * srcStrides[d];
    }
    return offset;
  }
};

/// Folds a slice of a constant of any size that is one run of its bytes
/// (the dims before the sliced one are 1 in the result, those after it
/// whole) into a constant of those bytes: an RNN's weights for one
/// direction out of [2, G*H, I]. The weights do not grow, and the kernels
/// reading the slice see a weight of their own, which PACK can lay out.
/// Smaller dense constants fold element by element (FoldConstantView).
struct FoldConstantSlab : OpRewritePattern<ShrinkOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ShrinkOp op,
                                PatternRewriter &rewriter) const override {
    auto constant = op.getSrc().getDefiningOp<ConstOp>();
    if (!constant || smallConstant(op.getSrc()))
      return failure();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> srcShape = srcType.getShape();
    ArrayRef<int64_t> shape = resultType.getShape();
    size_t sliced = 0;
    while (sliced < shape.size() && shape[sliced] == 1 && srcShape[sliced] != 1)
      ++sliced;
    for (size_t d = sliced + 1; d < shape.size(); ++d)
      if (shape[d] != srcShape[d])
        return failure();
    ArrayRef<char> bytes = getConstantBytes(constant);
    if (bytes.empty())
      return failure();
    int64_t elementBytes =
        static_cast<int64_t>(bytes.size()) / srcType.getNumElements();
    SmallVector<int64_t> strides = rowMajorStrides(srcShape);
    int64_t first = 0;
    for (size_t d = 0; d < srcShape.size(); ++d)
      first += op.getBegin()[d] * strides[d];
    ArrayRef<char> slab = bytes.slice(
        first * elementBytes, resultType.getNumElements() * elementBytes);
    rewriter.replaceOpWithNewOp<ConstOp>(
        op, cast<TypedAttr>(
                makeConstantLike(constant, resultType, slab, "_slice")));
    return success();
  }
};

/// Folds reduce_axis of a small integer or float constant.
struct FoldConstantReduce : OpRewritePattern<ReduceAxisOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceAxisOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr src = smallConstant(op.getSrc());
    if (!src)
      return failure();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type element = resultType.getElementType();
    bool isFloat = isa<FloatType>(element);
    if (!isFloat && !isIntegerLike(element))
      return failure();
    bool isUnsigned = element.isUnsignedInteger();
    auto combine = [&](auto acc, auto x, auto max) -> decltype(acc) {
      switch (op.getKind()) {
      case ReduceKind::add:
        return acc + x;
      case ReduceKind::mul:
        return acc * x;
      case ReduceKind::max:
        return max(acc, x);
      }
      llvm_unreachable("reduce kind");
    };
    SmallVector<int64_t> resultStrides = rowMajorStrides(resultType.getShape());
    ArrayRef<int64_t> srcShape = srcType.getShape();

    SmallVector<std::optional<double>> floats(resultType.getNumElements());
    SmallVector<std::optional<APInt>> ints(resultType.getNumElements());
    int64_t n = 0;
    for (Attribute value : src.getValues<Attribute>()) {
      int64_t flat = n++, target = 0;
      for (int64_t d = (int64_t)srcShape.size() - 1; d >= 0; --d) {
        int64_t i = flat % srcShape[d];
        flat /= srcShape[d];
        if (resultType.getShape()[d] != 1)
          target += i * resultStrides[d];
      }
      if (isFloat) {
        double x = cast<FloatAttr>(value).getValueAsDouble();
        auto &acc = floats[target];
        acc = !acc ? x : combine(*acc, x, [](double a, double b) {
          return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
        });
        continue;
      }
      APInt x = cast<IntegerAttr>(value).getValue();
      auto &acc = ints[target];
      acc = !acc ? x : combine(*acc, x, [&](const APInt &a, const APInt &b) {
        return isUnsigned ? llvm::APIntOps::umax(a, b)
                          : llvm::APIntOps::smax(a, b);
      });
    }
    SmallVector<Attribute> values;
    for (int64_t i = 0; i < resultType.getNumElements(); ++i)
      values.push_back(isFloat ? Attribute(FloatAttr::get(element, *floats[i]))
                               : Attribute(IntegerAttr::get(element, *ints[i])));
    rewriter.replaceOpWithNewOp<ConstOp>(
        op, DenseElementsAttr::get(resultType, values));
    return success();
  }
};

/// Float arithmetic on a weight left in the graph, computed now (see
/// IR/ConstantArithmetic.h).
struct FoldWeightArithmetic : RewritePattern {
  FoldWeightArithmetic(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    ElementsAttr folded = foldWeightArithmetic(op);
    if (!folded)
      return failure();
    rewriter.replaceOpWithNewOp<ConstOp>(op, cast<TypedAttr>(folded));
    return success();
  }
};

struct Simplify : impl::TgcSimplifyBase<Simplify> {
  using TgcSimplifyBase::TgcSimplifyBase;

  void runOnOperation() final {
    RewritePatternSet patterns(&getContext());
    patterns
        .add<ComposePermutes, ComposeExpands, FoldConstantView<PermuteOp>,
             FoldConstantView<ExpandOp>, FoldConstantView<PadOp>,
             FoldConstantView<ShrinkOp>, FoldConstantView<FlipOp>,
             FoldConstantSlab, FoldConstantReduce, FoldWeightArithmetic,
             ElementwiseBeforeView<ExpandOp>, ElementwiseBeforeView<ReshapeOp>,
             ElementwiseBeforePermute, ElementwiseIntoContiguous>(
            &getContext());
    populateIntegerRoundTripPatterns(patterns);
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tgc
