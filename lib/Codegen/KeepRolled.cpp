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
// slower, a depthwise 3x3 1.27x slower). What sets them apart is the
// stride: at stride 1 a tap's pixels read what the tap before read, one
// value more, and the merged values alive at once are about one per pixel
// (7 pixels: 7 values, 7 accumulators and the weight vector fit 16
// registers); at stride 2 the middle tap of three reads 7 values of its
// own while the 6 that the first and the last share stay alive, 21 in
// all, and GCC 12 spilled two accumulators into the loop (ResNet-18's
// stride-2 convolution to 512 channels at 7x7, kept a loop: 2.41 -> 1.82
// ms in the model, 1 thread, Zen 3; on 2 threads 1.27 -> 0.96 ms). So a
// tile of one vector keeps its loop where the values alive at one tap,
// its accumulators and its vectors outnumber the registers. A depthwise
// tile (vectors that slide) is left to the compiler, as is every target
// with 32 vector registers (AVX-512, AArch64), where the merged values fit
// and the question was not timed. A kernel's ROLL
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
#include <map>

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCKEEPROLLED
#include "Codegen/Passes.h.inc"

namespace {

/// Pixels of a tile that slide along a loop, fewer of which the
/// compiler's merged loads leave alone.
constexpr int64_t kMinSlidingPixels = 4;
/// Loaded vectors every pixel of the tile multiplies, from which a tile
/// keeps its loop whatever the registers: one vector's tile only where
/// its merged values overflow them (see above).
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
SmallVector<SmallVector<const WindowLoad *>>
slidingRuns(RangeOp range, ArrayRef<WindowLoad> loads) {
  SmallVector<SmallVector<const WindowLoad *>> runs;
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
      runs.back().push_back(line[i]);
    }
  }
  return runs;
}

/// The most values of `run` alive at one step of `range` written out:
/// each is loaded at the first step that reads it and kept to the last.
int64_t mostAliveAtOnce(RangeOp range, ArrayRef<const WindowLoad *> run) {
  // Address (in steps) -> the first and last step reading it.
  std::map<int64_t, std::pair<int64_t, int64_t>> readAt;
  int64_t step = run.front()->step, steps = range.getBound();
  for (const WindowLoad *load : run)
    for (int64_t t = 0; t < steps; ++t) {
      auto [it, added] =
          readAt.try_emplace(load->index.constant + t * step, t, t);
      it->second.first = std::min(it->second.first, t);
      it->second.second = std::max(it->second.second, t);
    }
  int64_t most = 0;
  for (int64_t t = 0; t < steps; ++t)
    most = std::max<int64_t>(
        most, llvm::count_if(readAt, [&](const auto &entry) {
          return entry.second.first <= t && t <= entry.second.second;
        }));
  return most;
}

/// Whether another reduce loop moves `load` along the same line as `range`
/// does: a convolution fused with the max pool after it, whose pixel p
/// reads x[2p + pool tap + window tap]. Its one-vector tile (the CNN's 8
/// to 16 channels at 7x7) ran 5-15% slower kept a loop: left alone.
bool slidesAlongAnotherReduce(RangeOp range, const WindowLoad &load) {
  return llvm::any_of(load.index.terms, [&](const auto &term) {
    auto other = term.first.template getDefiningOp<RangeOp>();
    return other && other != range && other.getAxis() == AxisType::reduce &&
           term.second == load.step;
  });
}

/// Whether the C compiler should keep the loop of `range` a loop, with
/// `vectorRegisters` registers.
bool shouldKeepRolled(RangeOp range, unsigned vectorRegisters) {
  if (range.getAxis() != AxisType::reduce)
    return false;
  EndOp end = innermostEnd(range);
  if (!end)
    return false;
  SmallVector<WindowLoad> loads = loadsAlong(range, end);
  llvm::SmallPtrSet<Operation *, 16> sliding;
  int64_t longest = 0, alive = 0;
  bool pooled = false;
  for (ArrayRef<const WindowLoad *> run : slidingRuns(range, loads)) {
    // Scalars each pixel broadcasts; a depthwise tile slides vectors,
    // one FMA each, and was left alone (see above).
    LoadOp first = run.front()->load;
    if (!isa<VectorType>(first.getType())) {
      longest = std::max<int64_t>(longest, run.size());
      if (run.size() > 1)
        alive += mostAliveAtOnce(range, run);
      pooled |= slidesAlongAnotherReduce(range, *run.front());
    }
    if (run.size() > 1)
      for (const WindowLoad *load : run)
        sliding.insert(LoadOp(load->load).getOperation());
  }
  if (longest < kMinSlidingPixels)
    return false;
  // Vectors read from memory that no other pixel reads at another step
  // (the tile's shared operands), and the accumulators' vectors.
  int64_t sharedVectors = 0, accumulators = 0;
  for (Operation *op = range->getNextNode(); op != end.getOperation();
       op = op->getNextNode()) {
    auto load = dyn_cast<LoadOp>(op);
    if (!load || !isa<VectorType>(load.getType()))
      continue;
    if (cast<PtrType>(load.getPtr().getType()).getAddrSpace() == AddrSpace::reg)
      ++accumulators;
    else if (!sliding.contains(load))
      ++sharedVectors;
  }
  if (sharedVectors >= kMinSharedVectors)
    return true;
  return sharedVectors == 1 && !pooled &&
         alive + accumulators + sharedVectors > (int64_t)vectorRegisters;
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
                              shouldKeepRolled(range, vectorRegisters);
        if (keep)
          range.setRolled(true);
      });
    });
  }
};

} // namespace
} // namespace mlir::tgc
