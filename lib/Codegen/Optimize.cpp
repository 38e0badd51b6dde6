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

struct Optimize : impl::TgcOptimizeBase<Optimize> {
  using TgcOptimizeBase::TgcOptimizeBase;

  void runOnOperation() final {
    if (upcast <= 1)
      return;
    getOperation().walk([&](KernelOp kernel) {
      if (!kernel.isLowered() || kernel.getOpts())
        return;
      bool reduces = false;
      RangeOp innermost;
      for (Operation &op : kernel.getBlock()) {
        reduces |= isa<ReduceOp>(op);
        if (auto range = dyn_cast<RangeOp>(op))
          if (range.getAxis() == AxisType::global)
            innermost = range;
      }
      if (reduces && innermost &&
          (int64_t)innermost.getBound() % upcast == 0 &&
          (int64_t)innermost.getBound() > upcast)
        applyUpcast(kernel, innermost, upcast);
    });
  }
};

} // namespace
} // namespace mlir::tgc
