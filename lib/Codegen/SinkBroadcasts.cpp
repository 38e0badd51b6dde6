//===- SinkBroadcasts.cpp - a broadcast next to the ops that read it ------===//
//
// tgc-expand writes a register tile's loads first and its multiply-adds
// after them, so every row's broadcast value is live before the first FMA
// reads it: a tile of 6 rows by 2 vectors holds 6 broadcasts, 2 weight
// vectors and 12 accumulators at once, 20 values for AVX2's 16 registers,
// and the C compiler, which keeps the order of independent loads it is
// given, spills accumulators to the stack in the innermost loop (a 1020 x
// 1024 x 1024 matmul ran at 39 GFLOP/s instead of 75). Here each broadcast
// of a loaded scalar, and the load when nothing else reads it, moves down
// to just before its first user: one row's broadcast is live at a time,
// the order of the classic matmul microkernel.
//
// Runs last on the linearized kernel, whose loops are marker ops in one
// block: nothing moves past a loop's or a gate's start or end, and a load
// moves past no store but an accumulator's (registers alias no buffer).
//
//===----------------------------------------------------------------------===//

#include "Codegen/Passes.h"
#include "IR/TgcOps.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCSINKBROADCASTS
#include "Codegen/Passes.h.inc"

namespace {

/// The scalar `vectorize` copies to every lane, or null.
Value broadcastSource(VectorizeOp op) {
  OperandRange srcs = op.getSrcs();
  if (srcs.empty() || !llvm::all_equal(srcs))
    return {};
  return srcs.front();
}

/// True if a load may not move past `op`, a write to memory other than
/// registers (or an op whose effects are not known to be reads).
bool blocksLoad(Operation *op) {
  if (auto store = dyn_cast<StoreOp>(op))
    return cast<PtrType>(store.getPtr().getType()).getAddrSpace() !=
           AddrSpace::reg;
  return !isa<LoadOp>(op) && !isPure(op);
}

/// True if a pure op may not move past `op`: the start or end of a loop or
/// a gate (whose body it would leave or enter).
bool blocksPure(Operation *op) {
  return isa<RangeOp, EndOp, IfOp, EndifOp, BarrierOp>(op) ||
         op->getNumRegions() != 0;
}

/// The first op after `op` in its block that reads its result, or null
/// when a user is in another block.
Operation *firstUserInBlock(Operation *op) {
  Operation *first = nullptr;
  for (Operation *user : op->getUsers()) {
    if (user->getBlock() != op->getBlock())
      return nullptr;
    if (!first || user->isBeforeInBlock(first))
      first = user;
  }
  return first;
}

/// True if no op strictly between `from` and `to` keeps a broadcast (and,
/// with `withLoad`, its load) from moving past it.
bool nothingBlocks(Operation *from, Operation *to, bool withLoad) {
  for (Operation *op = from->getNextNode(); op != to; op = op->getNextNode())
    if (blocksPure(op) || (withLoad && blocksLoad(op)))
      return false;
  return true;
}

/// Moves `broadcast` (and its load, if the broadcast is that load's only
/// user) to just before its first user, if nothing between them blocks it.
void sinkBroadcast(VectorizeOp broadcast) {
  Value source = broadcastSource(broadcast);
  Operation *user = source ? firstUserInBlock(broadcast) : nullptr;
  if (!user || user == broadcast->getNextNode())
    return;
  auto load = source.getDefiningOp<LoadOp>();
  bool withLoad = load && load->getBlock() == broadcast->getBlock() &&
                  llvm::all_of(load->getUsers(), [&](Operation *other) {
                    return other == broadcast.getOperation();
                  });
  if (!nothingBlocks(broadcast, user, withLoad))
    return;
  // The load moves past the ops between it and the broadcast too.
  if (withLoad && !nothingBlocks(load, broadcast, /*withLoad=*/true))
    withLoad = false;
  if (withLoad)
    load->moveBefore(user);
  broadcast->moveBefore(user);
}

struct SinkBroadcasts : impl::TgcSinkBroadcastsBase<SinkBroadcasts> {
  using TgcSinkBroadcastsBase::TgcSinkBroadcastsBase;

  void runOnOperation() final {
    SmallVector<VectorizeOp> broadcasts;
    getOperation().walk([&](VectorizeOp op) {
      if (auto kernel = op->getParentOfType<KernelOp>();
          kernel && kernel.isLowered() && broadcastSource(op))
        broadcasts.push_back(op);
    });
    for (VectorizeOp op : broadcasts)
      sinkBroadcast(op);
  }
};

} // namespace
} // namespace mlir::tgc
