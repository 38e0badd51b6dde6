//===- GpuHeuristic.cpp - opt actions for a GPU kernel ---------*- C++ -*-===//
//
// A GPU needs thousands of threads in flight and neighbouring threads on
// neighbouring addresses. Every output element is a thread (tgc-gpu-dims);
// what is chosen here is how threads are grouped into workgroups:
//  - a reduction producing few outputs (a row sum, a matrix-vector product
//    with a short output) would leave the GPU idle, so its innermost
//    reduce axis is split across up to 256 threads (GROUP: thread g takes
//    elements g, g + n, ..., so neighbouring threads read neighbouring
//    elements); fewer threads the more outputs there are;
//  - the innermost output axes become workgroup axes (LOCAL), the largest
//    power of two that divides each, up to `maxThreads` threads in all;
//    an innermost axis that only a small power of two divides is padded to
//    a multiple of 32 first (PADTO gates the extra threads' accesses).
// Before all that, a matmul or convolution goes to the tensor cores (TC)
// where the target has them and M, N and K each fill at least one tile:
// a warp then does a tile's multiply-adds at the matrix units' rate. A
// matrix-vector product (M = 1, the MLP's layers at batch 1) has no M axis
// of its own and stays on the plain path, which would waste 15 of the 16
// rows of a tile on padding.
//
//===----------------------------------------------------------------------===//

#include "Codegen/GpuHeuristic.h"
#include "Codegen/TensorCores.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// A reduction with at most this many outputs gets a GROUP.
constexpr int64_t kGroupOutputs = 2048;
/// ... if it reduces over at least this many elements per output.
constexpr int64_t kGroupReduce = 128;

/// The largest power of two up to `limit` that divides `bound`. Powers of
/// two only (unlike the CPU's largestDivisor): a block's threads are the
/// product of its LOCALs and GROUPs, and products of powers of two fill
/// whole warps of 32 where 7 x 7 = 49 threads would leave 15 lanes idle.
int64_t largestPowerOfTwoDivisor(int64_t bound, int64_t limit) {
  int64_t n = 1;
  while (n * 2 <= limit && bound % (n * 2) == 0)
    n *= 2;
  return n;
}

bool apply(KernelOp kernel, OptKind kind, int64_t axis, int64_t amount) {
  return succeeded(applyOptAction(kernel, OptAction{kind, axis, amount}));
}

} // namespace

void mlir::tgc::applyGpuHeuristic(KernelOp kernel,
                                  const GpuHeuristicOptions &options) {
  if (options.tensorCoreTile)
    if (std::optional<OptAction> tc =
            chooseTensorCores(kernel, options.tensorCoreTile))
      if (succeeded(applyOptAction(kernel, *tc)))
        return;

  SmallVector<int64_t> outputs, reductions;
  int64_t outputSize = 1, reduceSize = 1;
  bool reduces = false;
  for (Operation &op : kernel.getBlock()) {
    if (auto range = dyn_cast<RangeOp>(op)) {
      if (range.getAxis() == AxisType::global) {
        outputs.push_back(range.getId());
        outputSize *= range.getBound();
      } else if (range.getAxis() == AxisType::reduce) {
        reductions.push_back(range.getId());
        reduceSize *= range.getBound();
      }
    }
    reduces |= isa<ReduceOp>(op);
  }

  int64_t budget = options.maxThreads;
  if (reduces && outputSize <= kGroupOutputs && reduceSize >= kGroupReduce) {
    int64_t want = outputSize <= 16 ? 256 : outputSize <= 256 ? 64 : 16;
    for (int64_t axis : llvm::reverse(reductions)) {
      RangeOp range = findRange(kernel, axis);
      int64_t n =
          largestPowerOfTwoDivisor(range.getBound(), std::min(want, budget));
      if (n >= 8 && apply(kernel, OptKind::Group, axis, n)) {
        budget /= n;
        break;
      }
    }
  }

  bool first = true;
  for (int64_t axis : llvm::reverse(outputs)) {
    if (budget < 2)
      break;
    RangeOp range = findRange(kernel, axis);
    int64_t bound = range.getBound();
    int64_t n = largestPowerOfTwoDivisor(bound, budget);
    if (first && n < 16 && bound >= 64 && budget >= 32 &&
        apply(kernel, OptKind::Padto, axis, 32)) {
      bound = findRange(kernel, axis).getBound();
      n = largestPowerOfTwoDivisor(bound, budget);
    }
    first = false;
    if (n >= 2 && apply(kernel, OptKind::Local, axis, n))
      budget /= n;
  }
}
