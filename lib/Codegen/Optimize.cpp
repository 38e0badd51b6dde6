//===- Optimize.cpp - kernel opt actions from a heuristic -----*- C++ -*-===//
//
// The actions tinygrad's optimizer applies to a kernel's axes, chosen here
// by a fixed heuristic. Each action rewrites ranges in place and is
// recorded in the kernel's `opts`, so a later search can replay or vary it.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Passes.h"
#include "IR/TgcOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCOPTIMIZE
#include "Codegen/Passes.h.inc"

namespace {

/// UPCAST(range, amount): r over [0, N) becomes r' over [0, N/amount) and an
/// upcast range u over [0, amount), with r = r' * amount + u.
void applyUpcast(KernelOp kernel, RangeOp range, int64_t amount) {
  OpBuilder builder(range);
  Location loc = range.getLoc();
  int64_t nextId = 0;
  kernel.walk([&](RangeOp r) {
    nextId = std::max<int64_t>(nextId, r.getId() + 1);
  });
  auto outer = builder.create<RangeOp>(loc, builder.getIndexType(),
                                       range.getBound() / amount,
                                       range.getAxis(), range.getId());
  auto lane = builder.create<RangeOp>(loc, builder.getIndexType(), amount,
                                      AxisType::upcast, nextId);
  Value stride = builder.create<ConstOp>(loc, builder.getIndexAttr(amount));
  Value scaled = builder.create<MulOp>(loc, outer, stride);
  Value index = builder.create<AddOp>(loc, scaled, lane);

  EndOp end;
  for (Operation *user : range->getUsers())
    if (auto e = dyn_cast<EndOp>(user))
      end = e;
  builder.setInsertionPoint(end);
  builder.create<EndOp>(loc, lane);
  builder.create<EndOp>(loc, outer);
  end.erase();
  range.getResult().replaceAllUsesWith(index);
  range.erase();

  SmallVector<Attribute> opts;
  if (auto existing = kernel.getOpts())
    llvm::append_range(opts, *existing);
  opts.push_back(builder.getStringAttr("UPCAST(" + std::to_string(outer.getId()) +
                                       "," + std::to_string(amount) + ")"));
  kernel.setOptsAttr(builder.getArrayAttr(opts));
}

/// The ranges each value of a kernel depends on.
class RangeDependence {
public:
  bool dependsOn(Value value, Operation *range) {
    if (value.getDefiningOp() == range)
      return true;
    Operation *op = value.getDefiningOp();
    if (!op || isa<RangeOp>(op))
      return false;
    auto key = std::make_pair(op, range);
    if (auto it = memo.find(key); it != memo.end())
      return it->second;
    bool result = llvm::any_of(op->getOperands(), [&](Value operand) {
      return dependsOn(operand, range);
    });
    memo[key] = result;
    return result;
  }

private:
  llvm::DenseMap<std::pair<Operation *, Operation *>, bool> memo;
};

/// The heuristic (in the spirit of tinygrad's hand_coded_optimizations):
/// for a kernel that reduces, upcast the innermost output axis (contiguous
/// in the output) and the outermost other output axis that some input does
/// not depend on, so that one load feeds several accumulators (for a
/// convolution: output channels and output columns; for a matmul: rows and
/// columns).
void chooseActions(KernelOp kernel, int64_t maxUpcast) {
  SmallVector<RangeOp> globals;
  SmallVector<LoadOp> loads;
  bool reduces = false;
  for (Operation &op : kernel.getBlock()) {
    reduces |= isa<ReduceOp>(op);
    if (auto range = dyn_cast<RangeOp>(op))
      if (range.getAxis() == AxisType::global)
        globals.push_back(range);
    if (auto load = dyn_cast<LoadOp>(op))
      loads.push_back(load);
  }
  if (!reduces || globals.empty())
    return;
  RangeDependence deps;
  auto reused = [&](RangeOp range) {
    return llvm::any_of(loads, [&](LoadOp load) {
      return !deps.dependsOn(load.getPtr(), range);
    });
  };
  auto pick = [&](RangeOp range, int64_t most) -> int64_t {
    for (int64_t amount = most; amount > 1; amount /= 2)
      if ((int64_t)range.getBound() % amount == 0 &&
          (int64_t)range.getBound() > amount)
        return amount;
    return 1;
  };
  RangeOp inner = globals.back();
  int64_t innerAmount = reused(inner) ? pick(inner, maxUpcast) : 1;
  RangeOp outer;
  for (RangeOp range : ArrayRef(globals).drop_back())
    if (reused(range) && pick(range, 4) > 1) {
      outer = range;
      break;
    }
  if (outer)
    applyUpcast(kernel, outer, pick(outer, 4));
  if (innerAmount > 1)
    applyUpcast(kernel, inner, innerAmount);
}

struct Optimize : impl::TgcOptimizeBase<Optimize> {
  using TgcOptimizeBase::TgcOptimizeBase;

  void runOnOperation() final {
    if (upcast <= 1)
      return;
    getOperation().walk([&](KernelOp kernel) {
      if (kernel.isLowered() && !kernel.getOpts())
        chooseActions(kernel, upcast);
    });
  }
};

} // namespace
} // namespace mlir::tgc
