//===- Mulacc.cpp - fuse a multiply into the add that reads it -*- C++ -*-===//
//
// An accumulator update `acc + a * b` becomes tgc.mulacc, which the
// renderer writes as one fused multiply-add: half the floating-point work
// of a matmul or convolution loop, and one rounding. Runs after
// tgc-linearize, which is where accumulator updates are made.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Passes.h"
#include "IR/TgcOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCMULACC
#include "Codegen/Passes.h.inc"

namespace {

// add(mul(a, b), c) => mulacc(a, b, c)   (floats, the product used once)
// A walk rather than the greedy driver: that one would also fold and hoist
// constants, and linearize has already placed every op.
void fuseMulAdd(AddOp op) {
  if (!isa<FloatType>(getElementTypeOrSelf(op.getType())))
    return;
  for (unsigned i = 0; i < 2; ++i) {
    auto mul = op->getOperand(i).getDefiningOp<MulOp>();
    if (!mul || !mul->hasOneUse())
      continue;
    OpBuilder builder(op);
    Value fused = builder.create<MulaccOp>(op.getLoc(), mul.getLhs(),
                                           mul.getRhs(), op->getOperand(1 - i));
    op.replaceAllUsesWith(fused);
    op.erase();
    mul.erase();
    return;
  }
}

struct Mulacc : impl::TgcMulaccBase<Mulacc> {
  using TgcMulaccBase::TgcMulaccBase;

  void runOnOperation() final {
    SmallVector<AddOp> adds;
    getOperation().walk([&](AddOp op) {
      if (auto kernel = op->getParentOfType<KernelOp>();
          kernel && kernel.isLowered())
        adds.push_back(op);
    });
    for (AddOp op : adds)
      fuseMulAdd(op);
  }
};

} // namespace
} // namespace mlir::tgc
