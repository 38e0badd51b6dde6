//===- OrderReductions.cpp - nest reduce loops by stride -------*- C++ -*-===//
//
// A reduction over several axes opens its loops in the order of its
// tensor's dims: a convolution sums over (input channel, kh, kw). That
// suits a channels-first input, whose addresses move least along kw. A
// channels-last input moves least along the channels: summed innermost,
// each cache line of a pixel's channels is read whole before the next
// pixel; summed outermost, every step of kh and kw moves to another pixel,
// a row of channels away. ResNeXt's grouped 3x3 convolution of 1024
// channels, read with stride 2, touched 15 pixels 4 KB apart per step, all
// in one set of the L1 cache, and ran at 8 GFLOP/s.
//
// So where the innermost loop of a reduction steps a cache line or more,
// its loops nest by how far a computed input's addresses move along them
// (constant weights are left out: PACK lays them out for the loops), the
// least innermost; ties keep their order. Only loops opened one right
// inside the other and closed likewise move.
// The sum then adds its terms in another order, which rounds differently.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Heuristic.h"
#include "Codegen/Passes.h"
#include "IR/TgcOps.h"
#include <algorithm>
#include <climits>

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCORDERREDUCTIONS
#include "Codegen/Passes.h.inc"

namespace {

/// True if `index` addresses a kernel input that is no constant.
bool readsComputedInput(KernelOp kernel, IndexOp index) {
  Value input = findAddressedInput(kernel, index);
  return input && !input.getDefiningOp<ConstOp>();
}

/// A cache line: loops that step less than this read along one.
constexpr int64_t kLineBytes = 64;

/// The least distance, in bytes, that an address into a computed input
/// moves by per step of `range`; INT64_MAX if none moves along it, or
/// none in a way getLaneStride can tell.
int64_t inputStride(KernelOp kernel, RangeOp range) {
  int64_t stride = INT64_MAX;
  kernel.walk([&](IndexOp index) {
    if (!readsComputedInput(kernel, index))
      return;
    std::optional<int64_t> step =
        getLaneStride(index.getIdx(), range.getResult(), /*lanes=*/1);
    Type element = cast<PtrType>(index.getType()).getElementType();
    int64_t bytes = std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
    if (step && *step != 0)
      stride = std::min(stride, std::abs(*step) * bytes);
  });
  return stride;
}

/// The loops of `reduce` and their ends, outermost first, if they open one
/// right inside the other and close likewise.
bool perfectNest(ReduceOp reduce, SmallVectorImpl<RangeOp> &ranges,
                 SmallVectorImpl<EndOp> &ends) {
  for (Value value : reduce.getRanges()) {
    auto range = value.getDefiningOp<RangeOp>();
    if (!range)
      return false;
    EndOp end;
    for (Operation *user : range->getUsers())
      if (auto e = dyn_cast<EndOp>(user))
        end = e;
    if (!end)
      return false;
    ranges.push_back(range);
    ends.push_back(end);
  }
  for (size_t i = 0; i + 1 < ranges.size(); ++i)
    if (ranges[i]->getNextNode() != ranges[i + 1].getOperation() ||
        ends[i + 1]->getNextNode() != ends[i].getOperation())
      return false;
  // Something is summed inside.
  return ranges.back()->getNextNode() != ends.back().getOperation();
}

void orderReduction(KernelOp kernel, ReduceOp reduce) {
  SmallVector<RangeOp> ranges;
  SmallVector<EndOp> ends;
  if (!perfectNest(reduce, ranges, ends))
    return;
  SmallVector<std::pair<int64_t, RangeOp>> byStride;
  for (RangeOp range : ranges)
    byStride.push_back({inputStride(kernel, range), range});
  // An innermost loop that reads along a cache line stays: a convolution
  // of 3 channels last (a stem) reads kw and the channels as one run.
  if (byStride.back().first < kLineBytes)
    return;
  std::stable_sort(
      byStride.begin(), byStride.end(),
      [](const auto &a, const auto &b) { return a.first > b.first; });
  SmallVector<RangeOp> order;
  for (auto &entry : byStride)
    order.push_back(entry.second);
  if (order == ranges)
    return;
  // The loops open in the new order right before the summed body, and
  // close innermost first right after it.
  Operation *body = ranges.back()->getNextNode();
  Operation *afterEnds = ends.front()->getNextNode();
  for (RangeOp range : order)
    range->moveBefore(body);
  for (RangeOp range : llvm::reverse(order))
    ends[llvm::find(ranges, range) - ranges.begin()]->moveBefore(afterEnds);
  SmallVector<Value> values(order.begin(), order.end());
  reduce.getRangesMutable().assign(values);
}

struct OrderReductions : impl::TgcOrderReductionsBase<OrderReductions> {
  void runOnOperation() final {
    getOperation().walk([&](KernelOp kernel) {
      if (!kernel.isLowered() || kernel->hasAttr("opts"))
        return;
      SmallVector<ReduceOp> reduces;
      kernel.walk([&](ReduceOp reduce) {
        if (reduce.getRanges().size() >= 2)
          reduces.push_back(reduce);
      });
      for (ReduceOp reduce : reduces)
        orderReduction(kernel, reduce);
    });
  }
};

} // namespace
} // namespace mlir::tgc
