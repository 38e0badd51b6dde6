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
// The first row tile of each block would still wait for memory, so every
// step also prefetches a piece of the next block (prefetchNextBlock), from
// a lower threshold on (kStreamedWeightBytes): wherever the column blocks
// already run outside the rows, or outside a reduction that reuses them.
//
// Below that, where a task's weights overflow L1 but one block of them
// fits, the blocks nest outside too: each then stays in L1 for every tile
// of rows instead of coming from L2 again for each (blockStaysInL1).
//
// So do they where a window slides over the rows of an activation that
// moves with the columns too (a channels-last depthwise convolution, its
// taps written out): a block's stripe of the rows the window spans stays
// in L1 for its next rows of outputs, and its weights in registers
// (windowStaysInL1).
//
// The other way round, where the weights stay cached but the activations
// a task reads do not fit L1, a channels-first 1x1 convolution would read
// them all again for every block of output channels: there the rows (its
// pixels) nest outside (rowsFirstSaveRereads).
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

/// Weight bytes one task reads beyond which each block's first steps would
/// wait for memory: a quarter of that L2. The hardware prefetcher keeps up
/// within a block but not across to the next; with a smaller weight the
/// hint saves too little for its instruction in every step (A/B, 1 thread:
/// at 256 KB SqueezeNet 0.96, ResNet-18 0.96, GoogLeNet 0.94; lowered to
/// 128 KB, no model gained). Reordering waits for kCachedWeightBytes:
/// under it the weights stay cached across the row tiles.
constexpr int64_t kStreamedWeightBytes = int64_t(256) << 10;

/// Where the weights stay cached, the activations one task reads may not:
/// below the column loops, the rows' activations are read again for every
/// column block, beside them the weights for every tile of rows. The rows
/// go outside where the first costs this many times the second and the
/// activations overflow L1 (kL1Bytes). DenseNet's
/// 1x1 convolutions at 56x56 (NCHW, 64 to 224 channels -> 128) read 400 KB
/// of activations a task 16 times, a channel a page apart, which the
/// hardware prefetcher does not follow: 2.1 -> 0.86 ms with the rows
/// outside, 114 KB of weights read 14 times in rows of 224.
constexpr int64_t kRereadRatio = 2;

/// The constant input (weight) behind `index`, if it addresses one.
ConstOp weightOf(KernelOp kernel, IndexOp index) {
  Value input = findAddressedInput(kernel, index);
  return input ? input.getDefiningOp<ConstOp>() : ConstOp();
}

/// True if the address of some weight moves along `range`.
bool weightsMoveAlong(ArrayRef<IndexOp> weightIndices, RangeOp range) {
  return llvm::any_of(weightIndices, [&](IndexOp index) {
    return isComputedFrom(index.getIdx(), range.getResult());
  });
}

/// Bytes of `index`'s input that one task of `thread` reads: all of it
/// unless its address moves along the thread range, which splits it.
int64_t bytesPerTask(KernelOp kernel, IndexOp index, RangeOp thread) {
  int64_t bytes = getTensorBytes(findAddressedInput(kernel, index).getType());
  if (thread && isComputedFrom(index.getIdx(), thread.getResult()))
    bytes /= thread.getBound();
  return bytes;
}

/// The reduce loops open at `op`, outermost first.
SmallVector<RangeOp> reduceLoopsAround(KernelOp kernel, IndexOp op) {
  SmallVector<RangeOp> open;
  for (Operation &inner : kernel.getBlock()) {
    if (&inner == op.getOperation())
      break;
    if (auto range = dyn_cast<RangeOp>(inner);
        range && range.getAxis() == AxisType::reduce)
      open.push_back(range);
    else if (auto end = dyn_cast<EndOp>(inner))
      llvm::erase(open, end.getRange().getDefiningOp<RangeOp>());
  }
  return open;
}

/// The reduce loops along which `index`'s address moves: for a weight, the
/// loops it is contracted over.
SmallVector<RangeOp> contractedLoops(KernelOp kernel, IndexOp index) {
  SmallVector<RangeOp> loops;
  for (Operation &op : kernel.getBlock())
    if (auto range = dyn_cast<RangeOp>(op);
        range && range.getAxis() == AxisType::reduce &&
        isComputedFrom(index.getIdx(), range.getResult()))
      loops.push_back(range);
  return loops;
}

/// True if `index`'s address moves along any of `loops`.
bool movesAlongAny(IndexOp index, ArrayRef<RangeOp> loops) {
  return llvm::any_of(loops, [&](RangeOp range) {
    return isComputedFrom(index.getIdx(), range.getResult());
  });
}

/// How many times the body of `loops`, nested, runs.
int64_t tripCount(ArrayRef<RangeOp> loops) {
  int64_t count = 1;
  for (RangeOp range : loops)
    count *= range.getBound();
  return count;
}

/// The index of the weight of which one task reads the most bytes.
IndexOp largestWeight(KernelOp kernel, ArrayRef<IndexOp> weightIndices,
                      RangeOp thread) {
  IndexOp largest;
  int64_t most = 0;
  for (IndexOp index : weightIndices)
    if (int64_t bytes = bytesPerTask(kernel, index, thread); bytes > most) {
      most = bytes;
      largest = index;
    }
  return largest;
}

/// The loops that step through `weight`'s blocks, outermost first: the
/// thread range where it splits the weight, then the column loops.
SmallVector<RangeOp> blockLoops(IndexOp weight, ArrayRef<RangeOp> columns,
                                RangeOp thread) {
  SmallVector<RangeOp> loops;
  if (thread && isComputedFrom(weight.getIdx(), thread.getResult()))
    loops.push_back(thread);
  llvm::append_range(loops, columns);
  return loops;
}

/// Folds the loops' indices into one, the first outermost:
/// ((i0 * n1 + i1) * n2 + i2)...
Value linearIndex(OpBuilder &builder, Location loc, ArrayRef<RangeOp> loops) {
  Value linear;
  for (RangeOp range : loops) {
    if (!linear) {
      linear = range.getResult();
      continue;
    }
    Value bound =
        builder.create<ConstOp>(loc, builder.getIndexAttr(range.getBound()));
    Value scaled = builder.create<MulOp>(loc, linear, bound);
    linear = builder.create<AddOp>(loc, scaled, range.getResult());
  }
  return linear;
}

/// Where the column loops run outside the row loops (`rows`: output
/// loops, or reduce loops, along which no weight moves) over weights that
/// come from memory, each block's first row tile would wait for it: the
/// hardware prefetcher runs ahead only within the block being read. So
/// every step of the reduction asks for a piece of the next block, spread
/// over all the row tiles and steps of this one, so that it streams in at
/// the rate the kernel computes. The blocks are guessed as PACK lays them
/// out: the weight in as many equal runs as the thread range (where it
/// splits the weight) and the column loops step through. A wrong guess
/// only wastes the hints, which are gated to stay inside the weight.
/// 16 chained 7x7 linear layers of 768 <-> 3072: 36.5 -> 25.8 ms, about
/// what they take with their weights cached.
void prefetchNextBlock(KernelOp kernel, IndexOp weight,
                       ArrayRef<RangeOp> columns, ArrayRef<RangeOp> rows,
                       RangeOp thread) {
  int64_t elements = cast<RankedTensorType>(weightOf(kernel, weight).getType())
                         .getNumElements();
  SmallVector<RangeOp> blocks = blockLoops(weight, columns, thread);
  int64_t count = tripCount(blocks);
  SmallVector<RangeOp> contracted = contractedLoops(kernel, weight);
  if (elements % count != 0 || contracted.empty())
    return;
  // The steps of every row tile, in order: where in the next block a step
  // asks for.
  SmallVector<RangeOp> steps(rows);
  llvm::append_range(steps, contracted);
  int64_t stepCount = tripCount(steps);
  int64_t blockElements = elements / count;
  int64_t perStep = (blockElements + stepCount - 1) / stepCount;

  // After the weight's index, where every loop it needs is open.
  OpBuilder builder(weight->getNextNode());
  Location loc = weight.getLoc();
  auto constant = [&](int64_t value) -> Value {
    return builder.create<ConstOp>(loc, builder.getIndexAttr(value));
  };
  // One op at a time: the order of a call's arguments is unspecified.
  Value block = linearIndex(builder, loc, blocks);
  Value nextBlock = builder.create<AddOp>(loc, block, constant(1));
  Value next = builder.create<MulOp>(loc, nextBlock, constant(blockElements));
  Value step = linearIndex(builder, loc, steps);
  Value offset = builder.create<MulOp>(loc, step, constant(perStep));
  Value at = builder.create<AddOp>(loc, next, offset);
  Value inside = builder.create<CmpltOp>(loc, at, constant(elements));
  builder.create<PrefetchOp>(
      loc, builder.create<IndexOp>(loc, weight.getBuf(), at, inside));
}

/// The end of `range`, if it has one.
EndOp endOf(RangeOp range) {
  for (Operation *user : range->getUsers())
    if (auto end = dyn_cast<EndOp>(user))
      return end;
  return {};
}

/// The activations contracted with a weight (the non-weight inputs whose
/// address moves along one of its `contracted` loops): the most bytes of
/// one that a task reads, and whether any moves along a column loop.
struct ContractedActivations {
  int64_t bytes = 0;
  bool movesWithColumns = false;
};
ContractedActivations contractedActivations(KernelOp kernel,
                                            ArrayRef<RangeOp> contracted,
                                            ArrayRef<RangeOp> columns,
                                            RangeOp thread) {
  ContractedActivations activations;
  kernel.walk([&](IndexOp index) {
    if (!findAddressedInput(kernel, index) || weightOf(kernel, index) ||
        !movesAlongAny(index, contracted))
      return;
    activations.bytes =
        std::max(activations.bytes, bytesPerTask(kernel, index, thread));
    activations.movesWithColumns |= movesAlongAny(index, columns);
  });
  return activations;
}

/// True if the rows should nest outside the column loops (kRereadRatio):
/// `weight` is contracted (it moves along a reduction), and the
/// activations contracted with it, which no column loop moves, cost more
/// to read again for every column block than the weights for every tile
/// of rows.
bool rowsFirstSaveRereads(KernelOp kernel, IndexOp weight,
                          ArrayRef<RangeOp> columns, ArrayRef<RangeOp> rows,
                          RangeOp thread, int64_t weightBytes) {
  SmallVector<RangeOp> contracted = contractedLoops(kernel, weight);
  if (columns.empty() || rows.empty() || contracted.empty())
    return false;
  ContractedActivations activations =
      contractedActivations(kernel, contracted, columns, thread);
  return !activations.movesWithColumns && activations.bytes > kL1Bytes &&
         activations.bytes * tripCount(columns) >
             kRereadRatio * weightBytes * tripCount(rows);
}

/// True if the column blocks should nest outside the rows although the
/// weights stay in L2: a task's weights overflow L1 but one block of them
/// (what the innermost column loop reads) fits, so that it serves every
/// tile of rows from L1, and the activations read again for every block
/// cost fewer bytes than the weights read again for every tile of rows. A
/// transformer's linear layers (128 tokens, 256 -> 1024 and -> 768, blocks
/// of 32 columns by 256, 32 KB, 96-128 KB a task) ran 1.06-1.08x faster;
/// the kernels it reorders in Swin-T 1.06x (1 thread) and 1.05x (2), in
/// ResNeXt-50 1.03x and 1.05x, in RegNetY 1.02x and 1.04x (Sapphire
/// Rapids; ConvNeXt-T's 56x56 384 <- 96, where the split is by pixels and
/// every task reads all the weights, 0.91-1.06x).
bool blockStaysInL1(KernelOp kernel, IndexOp weight, ArrayRef<RangeOp> columns,
                    ArrayRef<RangeOp> rows, RangeOp thread,
                    int64_t weightBytes) {
  SmallVector<RangeOp> contracted = contractedLoops(kernel, weight);
  if (columns.empty() || rows.empty() || contracted.empty() ||
      weightBytes <= kL1Bytes || weightBytes / tripCount(columns) > kL1Bytes)
    return false;
  int64_t activationBytes =
      contractedActivations(kernel, contracted, columns, thread).bytes;
  return activationBytes * tripCount(columns) < weightBytes * tripCount(rows);
}

/// Bytes of the activation one task reads that moves along every column
/// loop, along some row loop and along a window's taps written out (an
/// unrolled loop): a channels-last depthwise convolution's input, whose
/// rows the window reads again for the next rows of outputs. 0 if none.
int64_t slidingActivationBytes(KernelOp kernel, ArrayRef<RangeOp> columns,
                               ArrayRef<RangeOp> rows, RangeOp thread) {
  SmallVector<RangeOp> taps;
  kernel.walk([&](RangeOp range) {
    if (range.getAxis() == AxisType::unroll)
      taps.push_back(range);
  });
  int64_t bytes = 0;
  kernel.walk([&](IndexOp index) {
    if (!findAddressedInput(kernel, index) || weightOf(kernel, index))
      return;
    bool movesWithEveryColumn = llvm::all_of(columns, [&](RangeOp range) {
      return isComputedFrom(index.getIdx(), range.getResult());
    });
    if (movesWithEveryColumn && movesAlongAny(index, rows) &&
        movesAlongAny(index, taps))
      bytes = std::max(bytes, bytesPerTask(kernel, index, thread));
  });
  return bytes;
}

/// True if the column blocks should nest outside the rows because the
/// window a task slides over the rows rereads its activation
/// (slidingActivationBytes): with the rows outside, the rows of all
/// channels that the window spans overflow L1, and each tap rereads them
/// from L2; with the channel blocks outside, a block's stripe of those rows
/// stays in L1, and each tap's weight vector is a value kept in a
/// register across the block's pixels. Only where a block's stripe of
/// what a task reads fits in L1 whole, and the weights are small. (A
/// window whose taps run in loops keeps no weights in registers: see
/// kMaxUnrolledTaps in Heuristic.cpp.) MobileNetV2's depthwise 3x3
/// convolutions at 56x56 to 14x14 (1.8 MB to 600 KB of input, stripes of
/// 7-31 KB a task), one vector by 2 pixels, their taps written out: 1.1-
/// 1.6x faster inside the model on one thread, 1.1-1.5x on two; at
/// 112x112 (stripes of 100 KB) 0.8-1.2x.
bool windowStaysInL1(KernelOp kernel, ArrayRef<RangeOp> columns,
                     ArrayRef<RangeOp> rows, RangeOp thread,
                     int64_t weightBytes) {
  if (columns.empty() || rows.empty() || weightBytes > kL1Bytes)
    return false;
  int64_t bytes = slidingActivationBytes(kernel, columns, rows, thread);
  return bytes > kL1Bytes && bytes / tripCount(columns) <= kL1Bytes;
}

/// Moves the output loops `outputs` (in their nesting order) to nest in
/// `order`, which holds the same loops.
void nestInOrder(KernelOp kernel, ArrayRef<RangeOp> outputs,
                 ArrayRef<RangeOp> order) {
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
  if (outputs.empty() || weightIndices.empty())
    return;
  IndexOp weight = largestWeight(kernel, weightIndices, thread);
  if (!weight)
    return;
  int64_t weightBytes = bytesPerTask(kernel, weight, thread);
  SmallVector<RangeOp> columns, rows;
  for (RangeOp range : outputs)
    (weightsMoveAlong(weightIndices, range) ? columns : rows).push_back(range);

  if (weightBytes <= kCachedWeightBytes &&
      rowsFirstSaveRereads(kernel, weight, columns, rows, thread,
                           weightBytes)) {
    SmallVector<RangeOp> order(rows);
    llvm::append_range(order, columns);
    if (order != outputs)
      nestInOrder(kernel, outputs, order);
    return;
  }
  if (weightBytes > kStreamedWeightBytes) {
    // A reduction along which no weight moves reuses each block as rows do
    // (the pool over 13x13 pixels after SqueezeNet's last 1x1 convolution,
    // whose only output loop steps through the blocks).
    SmallVector<RangeOp> reuses(rows);
    for (RangeOp range : reduceLoopsAround(kernel, weight))
      if (!weightsMoveAlong(weightIndices, range))
        reuses.push_back(range);
    if (!columns.empty() && !reuses.empty())
      prefetchNextBlock(kernel, weight, columns, reuses, thread);
  }
  SmallVector<RangeOp> columnsFirst(columns);
  llvm::append_range(columnsFirst, rows);
  if (columnsFirst != outputs &&
      (weightBytes > kCachedWeightBytes ||
       blockStaysInL1(kernel, weight, columns, rows, thread, weightBytes) ||
       windowStaysInL1(kernel, columns, rows, thread, weightBytes)))
    nestInOrder(kernel, outputs, columnsFirst);
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
