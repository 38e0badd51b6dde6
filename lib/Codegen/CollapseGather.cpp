//===- CollapseGather.cpp - one-hot reduces become indexed loads -*- C++ -*-=//
//
// A gather with indices known only at run time decomposes into tinygrad's
// one-hot: sum over r of where(idx == arange[r], x[r], 0). As lowered that
// reads all n elements of the gathered axis for every output: an embedding
// lookup of 128 tokens in a 30000 x 256 table touched all 30 MB of it 128
// times (27 ms). tinygrad folds the same pattern in its symbolic rules;
// here, on each lowered kernel:
//
//   load(arange[e])                  =>  cast(e)   (a constant 0, 1, 2, ...)
//   reduce add over r of
//     where(a == cast(r), x(r), 0)   =>  where(valid, x(clamp(a)), 0)
//
// with a independent of r, valid = 0 <= a < bound(r), and x's loads
// reading at the clamped index, so that an index out of range reads in
// bounds and gives 0, as the one-hot did. The loop over r goes, so nothing
// else may read r, the one-hot or x; what was computed inside the loop
// (the index itself, maybe by a reduce of its own: MaxPool's argmax) is
// then computed once per output. The arange constant leaves the kernel
// when nothing reads it any more.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Heuristic.h"
#include "Codegen/Passes.h"
#include "IR/TgcOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCCOLLAPSEGATHER
#include "Codegen/Passes.h.inc"

namespace {

/// True if `constant` holds 0, 1, 2, ... in order.
bool isArange(ConstOp constant) {
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense)
    return false;
  Type element = dense.getElementType();
  if (element.isInteger(1))
    return false;
  int64_t i = 0;
  if (isa<IntegerType>(element)) {
    for (const APInt &value : dense.getValues<APInt>())
      if (value.getSExtValue() != i++)
        return false;
    return true;
  }
  if (isa<FloatType>(element)) {
    for (const APFloat &value : dense.getValues<APFloat>())
      if (value.convertToDouble() != static_cast<double>(i++))
        return false;
    return true;
  }
  return false;
}

/// Loads of an arange input become the cast of their index; the input is
/// dropped from the kernel once nothing reads it.
void foldAranges(KernelOp kernel) {
  Block &block = kernel.getBlock();
  for (int i = static_cast<int>(kernel.getInputs().size()) - 1; i >= 0; --i) {
    auto constant = kernel.getInputs()[i].getDefiningOp<ConstOp>();
    if (!constant || !isArange(constant))
      continue;
    BlockArgument arg = block.getArgument(i);
    for (Operation *user : llvm::make_early_inc_range(arg.getUsers())) {
      auto index = dyn_cast<IndexOp>(user);
      if (!index || index.getGate())
        continue;
      for (Operation *indexUser :
           llvm::make_early_inc_range(index->getUsers())) {
        auto load = dyn_cast<LoadOp>(indexUser);
        if (!load)
          continue;
        OpBuilder builder(load);
        Value cast = builder.create<CastOp>(load.getLoc(), load.getType(),
                                            index.getIdx());
        load.replaceAllUsesWith(cast);
        load.erase();
      }
      if (index->use_empty())
        index.erase();
    }
    if (arg.use_empty()) {
      kernel->eraseOperand(i);
      block.eraseArgument(i);
    }
  }
}

/// Erases ops that nobody reads and that have no effect: the naive
/// lowering leaves index math behind, which would keep a collapsed range
/// in use.
void eraseDeadOps(KernelOp kernel) {
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(kernel.getBlock())))
    if (isOpTriviallyDead(&op))
      op.erase();
}

/// `cond` as a == cast(range), either way round, with a an integer computed
/// without `range`.
struct RangeCompare {
  Value index;
  CastOp cast;
};
std::optional<RangeCompare> matchRangeCompare(Value cond, Value range) {
  auto eq = cond.getDefiningOp<CmpeqOp>();
  if (!eq)
    return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    auto cast = eq->getOperand(side).getDefiningOp<CastOp>();
    Value other = eq->getOperand(1 - side);
    if (cast && cast.getSrc() == range && isa<IntegerType>(other.getType()) &&
        !isComputedFrom(other, range))
      return RangeCompare{other, cast};
  }
  return std::nullopt;
}

/// The ops of `value`'s cone that depend on `range`, in block order, if
/// each may be computed again at another index: no reduce, no accumulator
/// and no range but `range` itself.
std::optional<SmallVector<Operation *>> dependentCone(Value value,
                                                      Value range) {
  llvm::SetVector<Operation *> cone;
  SmallVector<Value> work{value};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *op = v.getDefiningOp();
    if (!op || v == range || !isComputedFrom(v, range) || cone.contains(op))
      continue;
    if (isa<ReduceOp, RangeOp, DefineAccOp, DefineRegOp, StoreOp>(op) ||
        op->getNumRegions() != 0)
      return std::nullopt;
    cone.insert(op);
    llvm::append_range(work, op->getOperands());
  }
  SmallVector<Operation *> ordered(cone.begin(), cone.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

/// Rewrites `reduce` if it is a one-hot gather; true if it did.
bool collapseReduce(ReduceOp reduce) {
  if (reduce.getKind() != ReduceKind::add || reduce.getRanges().size() != 1)
    return false;
  Value range = reduce.getRanges()[0];
  auto where = reduce.getSrc().getDefiningOp<WhereOp>();
  if (!where || (!matchPattern(where.getY(), m_Zero()) &&
                 !matchPattern(where.getY(), m_AnyZeroFloat())))
    return false;
  Operation *equal = where.getCond().getDefiningOp();
  std::optional<RangeCompare> compare =
      matchRangeCompare(where.getCond(), range);
  std::optional<SmallVector<Operation *>> cone =
      dependentCone(where.getX(), range);
  if (!compare || !cone)
    return false;
  // The loop over `range` must go with the reduce: values computed in it
  // are read after its end below. So nothing else may read the range, the
  // one-hot or x's cone.
  llvm::SmallPtrSet<Operation *, 16> erased(cone->begin(), cone->end());
  erased.insert({reduce, where, equal, compare->cast});
  auto onlyErasedRead = [&](Operation *op) {
    return llvm::all_of(op->getUsers(),
                        [&](Operation *user) { return erased.contains(user); });
  };
  if (!llvm::all_of(range.getUsers(),
                    [&](Operation *user) {
                      return isa<EndOp>(user) || erased.contains(user);
                    }) ||
      !llvm::all_of(*cone, onlyErasedRead) || !onlyErasedRead(where) ||
      !onlyErasedRead(compare->cast) || !onlyErasedRead(equal))
    return false;
  Value index = compare->index;

  OpBuilder builder(reduce);
  Location loc = reduce.getLoc();
  Type type = index.getType();
  int64_t bound = range.getDefiningOp<RangeOp>().getBound();
  auto constant = [&](int64_t value) -> Value {
    return builder.create<ConstOp>(loc, builder.getIntegerAttr(type, value));
  };
  Value below = builder.create<CmpltOp>(loc, index, constant(0));
  Value inside = builder.create<CmpltOp>(loc, index, constant(bound));
  Value notBelow = builder.create<XorOp>(
      loc, below, builder.create<ConstOp>(loc, builder.getBoolAttr(true)));
  Value valid = builder.create<AndOp>(loc, notBelow, inside);
  Value clamped = builder.create<WhereOp>(loc, valid, index, constant(0));
  IRMapping mapping;
  mapping.map(range,
              builder.create<CastOp>(loc, builder.getIndexType(), clamped));
  for (Operation *op : *cone)
    builder.clone(*op, mapping);
  Value picked = builder.create<WhereOp>(
      loc, valid, mapping.lookup(where.getX()), where.getY());
  reduce.replaceAllUsesWith(picked);
  reduce.erase();

  // The loop over the gathered axis is left with nothing to do.
  where.erase();
  equal->erase();
  compare->cast.erase();
  for (Operation *op : llvm::reverse(*cone))
    op->erase();
  for (Operation *end : llvm::make_early_inc_range(range.getUsers()))
    end->erase();
  range.getDefiningOp()->erase();
  return true;
}

struct CollapseGather : impl::TgcCollapseGatherBase<CollapseGather> {
  using TgcCollapseGatherBase::TgcCollapseGatherBase;

  void runOnOperation() final {
    getOperation().walk([](KernelOp kernel) {
      if (!kernel.isLowered())
        return;
      foldAranges(kernel);
      eraseDeadOps(kernel);
      SmallVector<ReduceOp> reduces;
      kernel.walk([&](ReduceOp reduce) { reduces.push_back(reduce); });
      for (ReduceOp reduce : reduces)
        collapseReduce(reduce);
    });
  }
};

} // namespace
} // namespace mlir::tgc
