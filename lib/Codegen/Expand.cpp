//===- Expand.cpp - upcast ranges into lanes ------------------*- C++ -*-===//
//
// An upcast range does not loop: everything that depends on it is written
// out once per lane (tinygrad's expander). Ops that do not depend on the
// lane are computed once and shared, which is the point of upcasting: a
// loaded value feeds every lane's accumulator.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Passes.h"
#include "IR/TgcOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCEXPAND
#include "Codegen/Passes.h.inc"

namespace {

bool isLaneAxis(AxisType axis) {
  return axis == AxisType::upcast || axis == AxisType::unroll;
}

void expandRange(RangeOp range) {
  int64_t lanes = range.getBound();
  OpBuilder builder(range);
  SmallVector<IRMapping> mappings(lanes);
  for (int64_t lane = 0; lane < lanes; ++lane)
    mappings[lane].map(range.getResult(),
                       builder.create<ConstOp>(range.getLoc(),
                                               builder.getIndexAttr(lane)));
  llvm::DenseSet<Value> dependent{range.getResult()};
  SmallVector<Operation *> expanded;
  Operation *op = range->getNextNode();
  while (true) {
    Operation *next = op->getNextNode();
    if (auto end = dyn_cast<EndOp>(op); end && end.getRange() == range) {
      end.erase();
      break;
    }
    bool depends = llvm::any_of(op->getOperands(), [&](Value v) {
      return dependent.contains(v);
    });
    if (depends) {
      builder.setInsertionPoint(op);
      for (int64_t lane = 0; lane < lanes; ++lane)
        builder.clone(*op, mappings[lane]);
      for (Value result : op->getResults())
        dependent.insert(result);
      expanded.push_back(op);
    }
    op = next;
  }
  // Users come after their operands: erase from the last.
  for (Operation *done : llvm::reverse(expanded))
    done->erase();
  range.erase();
}

struct Expand : impl::TgcExpandBase<Expand> {
  using TgcExpandBase::TgcExpandBase;

  void runOnOperation() final {
    SmallVector<RangeOp> ranges;
    getOperation().walk([&](RangeOp range) {
      if (isLaneAxis(range.getAxis()))
        ranges.push_back(range);
    });
    for (RangeOp range : ranges)
      expandRange(range);
  }
};

} // namespace
} // namespace mlir::tgc
