//===- KeepRolled.cpp - short window loops the C compiler keeps as loops --===//
//
// A convolution's register tile of pixels along a row reads, at tap k of
// the window, the inputs x[p + k] of its pixels p; the next tap reads
// x[p + k + 1], all but one of which this tap read. GCC writes a short
// innermost loop (the 3 or 7 taps of a row) out step by step, merges the
// loads the steps share, and keeps each merged value live from its first
// tap to its last: beside a tile of two vectors by four pixels (8
// accumulators, 2 weight vectors) that passed AVX2's 16 registers, and
// GCC spilled accumulators, whose every update then went through the
// stack. Kept a loop, each step loads its pixels afresh and the tile fits.
// Measured on Zen 2 (GCC 12), 1 thread: ResNet-18's 28x28 3x3 convolution
// (2 vectors x 4 pixels) 1.23x, GoogLeNet's 96-channel 3x3 1.49x, the
// 3-channel stems and SqueezeNet's 3x3 convolutions unchanged.
//
// Tiles of one vector by 7 pixels went either way (ResNet-18's 512-channel
// 7x7 convolution 1.36x faster, GoogLeNet's 32- and 48-channel ones 1.6x
// slower, a depthwise 3x3 1.27x slower), so they are left to the compiler,
// as is every target with 32 vector registers (AVX-512, AArch64), where
// the merged values fit and the question was not timed. A kernel's ROLL
// actions (a tuning database's, found by timing: BEAM search offers both
// answers for every short reduce loop) override the rule for their loops
// on every target.
//
// Runs on the linearized kernel, whose loops are marker ops in one block.
//
//===----------------------------------------------------------------------===//

#include "Codegen/OptActions.h"
#include "Codegen/Passes.h"
#include "Codegen/Symbolic.h"
#include "IR/TgcOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCKEEPROLLED
#include "Codegen/Passes.h.inc"

namespace {

/// Pixels of a tile that slide along a loop, fewer of which the
/// compiler's merged loads leave alone.
constexpr int64_t kMinSlidingPixels = 4;
/// Loaded vectors every pixel of the tile multiplies: a tile of one
/// vector is left to the compiler (see above).
constexpr int64_t kMinSharedVectors = 2;
/// Register files this small are the ones the merged loads overflow.
constexpr unsigned kMaxVectorRegisters = 16;

/// A load in a loop's body, its index as `constant + step * range + rest`.
struct WindowLoad {
  LoadOp load;
  Value buffer;
  LinearSum index;
  int64_t step;
};

/// The loop's end if `range` is an innermost loop (no loop inside it).
EndOp innermostEnd(RangeOp range) {
  for (Operation *op = range->getNextNode(); op; op = op->getNextNode()) {
    if (isa<RangeOp>(op))
      return {};
    if (auto end = dyn_cast<EndOp>(op); end && end.getRange() == range)
      return end;
  }
  return {};
}

/// The loads of the body of `range` whose address moves with it.
SmallVector<WindowLoad> loadsAlong(RangeOp range, EndOp end) {
  SmallVector<WindowLoad> loads;
  for (Operation *op = range->getNextNode(); op != end.getOperation();
       op = op->getNextNode()) {
    auto load = dyn_cast<LoadOp>(op);
    auto index = load ? load.getPtr().getDefiningOp<IndexOp>() : IndexOp();
    if (!index)
      continue;
    LinearSum sum = linearSumOf(index.getIdx());
    for (auto [atom, coefficient] : sum.terms)
      if (atom == range.getResult() && coefficient != 0)
        loads.push_back({load, index.getBuf(), sum, coefficient});
  }
  return loads;
}

/// Whether `a` and `b` read the same buffer along the same line: what one
/// reads at some step the other reads at another.
bool sameLine(const WindowLoad &a, const WindowLoad &b) {
  return a.buffer == b.buffer && a.step == b.step &&
         a.index.terms == b.index.terms &&
         (a.index.constant - b.index.constant) % a.step == 0;
}

/// The runs of tile pixels whose loads slide along `range`: on one line,
/// each within the window of the next. One run per line and stretch.
SmallVector<SmallVector<LoadOp>> slidingRuns(RangeOp range,
                                             ArrayRef<WindowLoad> loads) {
  SmallVector<SmallVector<LoadOp>> runs;
  SmallVector<bool> grouped(loads.size(), false);
  for (size_t first = 0; first < loads.size(); ++first) {
    if (grouped[first])
      continue;
    SmallVector<const WindowLoad *> line;
    for (size_t i = first; i < loads.size(); ++i)
      if (!grouped[i] && sameLine(loads[first], loads[i])) {
        grouped[i] = true;
        line.push_back(&loads[i]);
      }
    llvm::sort(line, [](const WindowLoad *a, const WindowLoad *b) {
      return a->index.constant < b->index.constant;
    });
    for (size_t i = 0; i < line.size(); ++i) {
      int64_t gapSteps =
          i == 0 ? 0
                 : (line[i]->index.constant - line[i - 1]->index.constant) /
                       line[i]->step;
      if (i == 0 || gapSteps >= (int64_t)range.getBound())
        runs.emplace_back();
      runs.back().push_back(line[i]->load);
    }
  }
  return runs;
}

/// Whether the C compiler should keep the loop of `range` a loop.
bool shouldKeepRolled(RangeOp range) {
  if (range.getAxis() != AxisType::reduce)
    return false;
  EndOp end = innermostEnd(range);
  if (!end)
    return false;
  SmallVector<WindowLoad> loads = loadsAlong(range, end);
  llvm::SmallPtrSet<Operation *, 16> sliding;
  int64_t longest = 0;
  for (ArrayRef<LoadOp> run : slidingRuns(range, loads)) {
    // Scalars each pixel broadcasts; a depthwise tile slides vectors,
    // one FMA each, and was left alone (see above).
    LoadOp first = run.front();
    if (!isa<VectorType>(first.getType()))
      longest = std::max<int64_t>(longest, run.size());
    if (run.size() > 1)
      for (LoadOp load : run)
        sliding.insert(load);
  }
  if (longest < kMinSlidingPixels)
    return false;
  // Vectors read from memory (not the accumulators' registers) that no
  // other pixel reads at another step: the tile's shared operands.
  int64_t sharedVectors = 0;
  for (Operation *op = range->getNextNode(); op != end.getOperation();
       op = op->getNextNode())
    if (auto load = dyn_cast<LoadOp>(op);
        load && isa<VectorType>(load.getType()) &&
        cast<PtrType>(load.getPtr().getType()).getAddrSpace() !=
            AddrSpace::reg &&
        !sliding.contains(load))
      ++sharedVectors;
  return sharedVectors >= kMinSharedVectors;
}

struct KeepRolled : impl::TgcKeepRolledBase<KeepRolled> {
  using TgcKeepRolledBase::TgcKeepRolledBase;

  void runOnOperation() final {
    getOperation().walk([&](KernelOp kernel) {
      // Loops a ROLL action decided: axis -> kept a loop.
      llvm::DenseMap<int64_t, bool> decided;
      for (const OptAction &action : getAppliedActions(kernel))
        if (action.kind == OptKind::Roll)
          decided[action.axis] = action.amount == 1;
      kernel.walk([&](RangeOp range) {
        auto it = decided.find(range.getId());
        bool keep = it != decided.end()
                        ? it->second
                        : vectorRegisters <= kMaxVectorRegisters &&
                              shouldKeepRolled(range);
        if (keep)
          range.setRolled(true);
      });
    });
  }
};

} // namespace
} // namespace mlir::tgc
