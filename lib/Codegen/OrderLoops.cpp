//===- OrderLoops.cpp - nest output loops for weight reuse -----*- C++ -*-===//
//
// A kernel's output loops nest in the order of its tensor's dims. A
// channels-last matmul (rows, columns) therefore runs the rows outermost:
// for each tile of rows it streams every column block of the weights, and
// reads all of them again for the next tile. Where the weights one task
// reads are too many for the L2 cache, each pass over them comes from L3
// or DRAM: ConvNeXt's and Swin's 7x7 stages (49 rows, 768 x 3072
// weights, 1.2 MB a task) ran their linear layers at 95 GFLOP/s, and 144
// when the same kernel's weights stayed cached between runs.
//
// So in such a kernel the output loops along which some weight's address
// moves (its column blocks) nest outside those along which none moves (its
// rows): each block of weights is read from memory once and then serves
// every row from the cache. Ties keep their order; thread, upcast and
// reduce loops stay where they are. The rows' inputs are then read once
// per block instead of once in all, which is why the rule waits for
// weights that do not fit: a small weight block stays in L1 either way.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Heuristic.h"
#include "Codegen/Passes.h"
#include "IR/TgcOps.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCORDERLOOPS
#include "Codegen/Passes.h.inc"

namespace {

/// Weight bytes one task reads beyond which its passes over them leave the
/// L2 cache: half of a 1 MB L2 (the least of current x86 server cores),
/// the rest for the rows' inputs and the outputs.
constexpr int64_t kCachedWeightBytes = int64_t(512) << 10;

/// The constant input (weight) behind `index`, if it addresses one.
ConstOp weightOf(KernelOp kernel, IndexOp index) {
  auto arg = dyn_cast<BlockArgument>(index.getBuf());
  if (!arg || arg.getOwner() != &kernel.getBlock() ||
      arg.getArgNumber() >= kernel.getInputs().size())
    return {};
  return kernel.getInputs()[arg.getArgNumber()].getDefiningOp<ConstOp>();
}

/// True if the address of some weight moves along `range` (or moves in a
/// way getLaneStride cannot tell).
bool weightsMoveAlong(ArrayRef<IndexOp> weightIndices, RangeOp range) {
  return llvm::any_of(weightIndices, [&](IndexOp index) {
    std::optional<int64_t> step =
        getLaneStride(index.getIdx(), range.getResult(), /*lanes=*/1);
    return !step || *step != 0;
  });
}

/// Bytes of the largest weight that one task of `thread` reads: all of it
/// unless its address moves along the thread range, which splits it.
int64_t weightBytesPerTask(KernelOp kernel, ArrayRef<IndexOp> weightIndices,
                           RangeOp thread) {
  int64_t largest = 0;
  for (IndexOp index : weightIndices) {
    auto type = cast<RankedTensorType>(weightOf(kernel, index).getType());
    int64_t bytes = type.getNumElements() *
                    std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
    if (thread) {
      std::optional<int64_t> step =
          getLaneStride(index.getIdx(), thread.getResult(), /*lanes=*/1);
      if (!step || *step != 0)
        bytes /= thread.getBound();
    }
    largest = std::max(largest, bytes);
  }
  return largest;
}

/// The end of `range`, if it has one.
EndOp endOf(RangeOp range) {
  for (Operation *user : range->getUsers())
    if (auto end = dyn_cast<EndOp>(user))
      return end;
  return {};
}

void orderLoops(KernelOp kernel) {
  SmallVector<RangeOp> outputs;
  RangeOp thread;
  SmallVector<IndexOp> weightIndices;
  for (Operation &op : kernel.getBlock()) {
    if (auto range = dyn_cast<RangeOp>(op)) {
      if (range.getAxis() == AxisType::global)
        outputs.push_back(range);
      else if (range.getAxis() == AxisType::thread)
        thread = range;
    }
  }
  kernel.walk([&](IndexOp index) {
    if (weightOf(kernel, index))
      weightIndices.push_back(index);
  });
  if (outputs.size() < 2 || weightIndices.empty() ||
      weightBytesPerTask(kernel, weightIndices, thread) <= kCachedWeightBytes)
    return;

  SmallVector<RangeOp> order, rows;
  for (RangeOp range : outputs)
    (weightsMoveAlong(weightIndices, range) ? order : rows).push_back(range);
  llvm::append_range(order, rows);
  if (order == outputs)
    return;
  SmallVector<EndOp> ends;
  for (RangeOp range : outputs) {
    ends.push_back(endOf(range));
    if (!ends.back())
      return;
  }

  // A range has no operands, so it may open earlier: all open in the new
  // order where the first of them did. Their ends close innermost first
  // after the last of them.
  Block &block = kernel.getBlock();
  Operation *before = outputs.front()->getPrevNode();
  for (RangeOp range : llvm::reverse(order)) {
    if (before)
      range->moveAfter(before);
    else
      range->moveBefore(&block, block.begin());
  }
  Operation *last = *llvm::max_element(
      ends, [](EndOp a, EndOp b) { return a->isBeforeInBlock(b); });
  Operation *after = last->getNextNode();
  for (RangeOp range : llvm::reverse(order))
    ends[llvm::find(outputs, range) - outputs.begin()]->moveBefore(after);
}

struct OrderLoops : impl::TgcOrderLoopsBase<OrderLoops> {
  void runOnOperation() final {
    getOperation().walk([&](KernelOp kernel) {
      if (kernel.isLowered())
        orderLoops(kernel);
    });
  }
};

} // namespace
} // namespace mlir::tgc
