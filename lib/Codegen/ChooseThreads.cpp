//===- ChooseThreads.cpp - which loop tasks split ---------------*- C++ -*-===//
//
// The heuristic's THREAD: whether a kernel is worth handing to the thread
// pool, which of its outer loops its tasks split and into how many, from
// the bytes each split makes the tasks read.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Heuristic.h"
#include "Codegen/RangeDependence.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// Below this many loop iterations (lanes included) a kernel runs in a few
/// microseconds, about what handing it to the thread pool costs, unless
/// each iteration reads much (accessCount).
constexpr int64_t kMinThreadWork = int64_t(1) << 17;

int64_t iterationCount(KernelOp kernel) {
  int64_t count = 1;
  kernel.walk([&](RangeOp r) { count *= r.getBound(); });
  return count;
}

/// Loads and stores the kernel runs, lanes included: each runs once per
/// iteration of the ranges it is computed from (the linearizer hoists it
/// out of the others). A copy makes two per iteration; a Winograd output
/// transform 36 loads per 4x4 tile of stores, 3.25 per iteration.
int64_t accessCount(KernelOp kernel) {
  SmallVector<RangeOp> ranges;
  kernel.walk([&](RangeOp r) { ranges.push_back(r); });
  DependenceMemo memo;
  auto runs = [&](ArrayRef<Value> computedFrom) {
    int64_t count = 1;
    for (RangeOp range : ranges)
      if (llvm::any_of(computedFrom, [&](Value v) {
            return dependsOn(v, range.getResult(), memo);
          }))
        count *= range.getBound();
    return count;
  };
  int64_t count = 0;
  kernel.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op))
      count += runs({load.getResult()});
    else if (auto store = dyn_cast<StoreOp>(op))
      count += runs({store.getPtr(), store.getValue()});
  });
  return count;
}

/// What `tasks` tasks are worth on two threads: an odd count leaves one
/// thread a task longer than the other. Still, 7 beat 2: with only two
/// tasks a thread that wakes late delays the whole kernel, and both read
/// all the rest of the kernel's data (MobileNetV2's 1x1 projections split
/// into 2 by output channels ran slower on 2 threads than on 1).
int64_t balancedTasks(int64_t tasks) { return tasks - tasks % 2; }

/// Tasks an axis of `bound` splits into, at most `tasks`: the largest even
/// divisor from 4 up (two threads then finish together), else the divisor
/// worth the most (balancedTasks), an even one among equals. So 230 rows
/// split into 5 tasks, not 2 (ResNet-18's padded input image: 2 tasks ran
/// slower on 2 threads than on 1), and 14 rows of Winograd tiles into 7.
int64_t taskCount(int64_t bound, int64_t tasks) {
  int64_t best = 1;
  for (int64_t n = std::min(tasks, bound); n >= 2; --n) {
    if (bound % n != 0)
      continue;
    if (n % 2 == 0 && n >= 4)
      return n;
    if (balancedTasks(n) > balancedTasks(best) ||
        (balancedTasks(n) == balancedTasks(best) && n % 2 == 0))
      best = n;
  }
  return best;
}

/// A load from one of the kernel's inputs: the input, the index it reads
/// and the input's size in bytes.
struct InputLoad {
  Value input;
  IndexOp index;
  int64_t bytes;
};

std::optional<InputLoad> inputLoad(KernelOp kernel, LoadOp load) {
  auto index = load.getPtr().getDefiningOp<IndexOp>();
  Value input = index ? findAddressedInput(kernel, index) : Value();
  if (!input)
    return std::nullopt;
  return InputLoad{input, index, getTensorBytes(input.getType())};
}

/// Bytes of constant weights whose loads move along `range`: what a task
/// of a split along it reads of them is its own slice.
int64_t weightBytesAlong(KernelOp kernel, RangeOp range) {
  int64_t bytes = 0;
  DependenceMemo memo;
  kernel.walk([&](LoadOp load) {
    std::optional<InputLoad> in = inputLoad(kernel, load);
    if (in && in->input.getDefiningOp<ConstOp>() &&
        dependsOn(in->index.getIdx(), range.getResult(), memo))
      bytes += in->bytes;
  });
  return bytes;
}

/// Tasks a split along `range` makes (taskCount), or one per step where
/// no count up to `tasks` divides the axis but it is at most twice as long
/// (11 or 13 blocks of columns) and each step walks a block of constant
/// weights that takes more than half of L1 and fits in it. Split another
/// way, each task walks every block again for its few rows, and a block
/// and the rows it meets no longer share L1; one task per block keeps the
/// block there for all the rows. A transformer block's 256 -> 256
/// projection, its 256 columns padded to 11 blocks of 24 (25 KB each),
/// split 11 ways by blocks rather than 8 ways by rows ran 1.2x faster on
/// one thread and 1.06x on two, the thread with 6 tasks against 5
/// included. Not for smaller blocks, which share L1 with the rows anyway
/// (RegNetY-400MF's grouped convolutions, 13 blocks of 5 KB: one of six
/// 0.9x), nor larger ones (the 1024 -> 256 projection, 96 KB blocks:
/// 0.95x on two threads).
int64_t splitTasks(KernelOp kernel, RangeOp range, int64_t tasks) {
  int64_t bound = range.getBound();
  int64_t n = taskCount(bound, tasks);
  if (n > 1 || bound <= tasks || bound > 2 * tasks)
    return n;
  int64_t blockBytes = weightBytesAlong(kernel, range) / bound;
  return blockBytes > kL1Bytes / 2 && blockBytes <= kL1Bytes ? bound : n;
}

/// Bytes of inputs a task of a split along `range` reads again in every
/// iteration of the kernel's outermost loop `outer`: those `outer` does not
/// move, whole, or their share of them where `range` moves them. None when
/// the split leaves each task one iteration of `outer`.
int64_t rereadBytesPerTask(KernelOp kernel, RangeOp outer, RangeOp range,
                           int64_t tasks) {
  if (range == outer && (int64_t)outer.getBound() <= tasks)
    return 0;
  int64_t bytes = 0;
  DependenceMemo memo;
  llvm::SmallDenseSet<Value, 4> counted;
  kernel.walk([&](LoadOp load) {
    std::optional<InputLoad> in = inputLoad(kernel, load);
    if (!in || dependsOn(in->index.getIdx(), outer.getResult(), memo) ||
        !counted.insert(in->input).second)
      return;
    bytes += dependsOn(in->index.getIdx(), range.getResult(), memo)
                 ? in->bytes / tasks
                 : in->bytes;
  });
  return bytes;
}

/// True if the kernel stores and `test` holds for every store: its index,
/// the index's stride along `range` (none where it is not a whole multiple
/// of it) and its element's bytes.
bool allStoresAlong(
    KernelOp kernel, RangeOp range,
    function_ref<bool(IndexOp, std::optional<int64_t>, int64_t)> test) {
  bool any = false, all = true;
  kernel.walk([&](StoreOp store) {
    auto index = store.getPtr().getDefiningOp<IndexOp>();
    std::optional<int64_t> stride =
        index ? getLaneStride(index.getIdx(), range.getResult(), 1)
              : std::nullopt;
    any = true;
    all &= test(index, stride,
                getElementBytes(getElementTypeOrSelf(store.getValue())));
  });
  return any && all;
}

/// True if each step of `range` stores the next run of consecutive
/// elements of a row (an upcast axis as long as its stride), at most a
/// cache line of them: tasks split along it would each write short pieces
/// of every row.
bool storesShortRunsAlong(KernelOp kernel, RangeOp range) {
  SmallVector<RangeOp> upcasts;
  kernel.walk([&](RangeOp r) {
    if (r.getAxis() == AxisType::upcast)
      upcasts.push_back(r);
  });
  return allStoresAlong(
      kernel, range,
      [&](IndexOp index, std::optional<int64_t> stride, int64_t bytes) {
        return stride && *stride > 0 && *stride * bytes <= 64 &&
               llvm::any_of(upcasts, [&](RangeOp upcast) {
                 return (int64_t)upcast.getBound() == *stride &&
                        getLaneStride(index.getIdx(), upcast.getResult(), 1) ==
                            1;
               });
      });
}

/// True if tasks of a split of `range` into `tasks` would each store runs
/// of fewer consecutive elements than a cache line: every store moves by
/// one element along it. Both threads then write into the same lines, and
/// each task's inner loop is too short for whole vectors.
bool storesPartLinesSplit(KernelOp kernel, RangeOp range, int64_t tasks) {
  int64_t run = (int64_t)range.getBound() / tasks;
  return allStoresAlong(
      kernel, range,
      [&](IndexOp, std::optional<int64_t> stride, int64_t bytes) {
        return stride == 1 && run * bytes < 64;
      });
}

/// What a task may read again per outer iteration and still find in its
/// core's L2 (half of the 512 KiB of the smallest L2 tgc targets).
constexpr int64_t kRereadBudget = 256 * 1024;

/// What a byte of an activation that every task reads whole costs, in
/// bytes of weights, where it is too large to stay in a core's L2 between
/// tasks: the kernel before wrote it half on each core, so each task
/// fetches the other core's half again from that core's cache (5x slower
/// to read than its own writes on a 2-vCPU host; bench/core_probe.c).
/// ResNet-18's 1x1 shortcuts, an 800 KB input split 4 ways by output
/// channels, ran 1.56x faster on two threads split by rows; Swin-T's and
/// ResNeXt-50's 1x1 projections at 28x28 1.06-1.18x. Weights, and small
/// activations such as EfficientNet-B0's 226 KB at 7x7, stay in each core's
/// cache after one read: there, a split by channels that reads 1.5 MB of
/// weights once beat one by rows that reads them 7 times (1.09x).
constexpr int64_t kCrossCoreReadCost = 2;

/// Bytes of the kernel's inputs that `tasks` tasks of a split along `range`
/// read in all: an input that moves along it once, split among them, any
/// other once per task, a large activation at `activationReadCost` times
/// its bytes. DenseNet's 1x1 convolutions at 56x56, channels
/// first, split by their 128 output channels read the 3.2 MB of
/// concatenated input 8 times over (from L3, at 73 GFLOP/s); split by
/// pixels, once, and the 128 KB of weights 7 times.
int64_t streamedBytes(KernelOp kernel, RangeOp range, int64_t tasks,
                      int64_t activationReadCost = 1) {
  int64_t bytes = 0;
  DependenceMemo memo;
  llvm::SmallDenseSet<Value, 4> counted;
  kernel.walk([&](LoadOp load) {
    std::optional<InputLoad> in = inputLoad(kernel, load);
    if (!in || !counted.insert(in->input).second)
      return;
    if (dependsOn(in->index.getIdx(), range.getResult(), memo))
      bytes += in->bytes;
    else if (in->input.getDefiningOp<ConstOp>() || in->bytes <= kRereadBudget)
      bytes += in->bytes * tasks;
    else
      bytes += in->bytes * tasks * activationReadCost;
  });
  return bytes;
}

/// A split whose tasks read this many times fewer bytes than another's
/// (streamedBytes) is the better of the two, whatever their task counts.
constexpr int64_t kFewerBytesFactor = 4;

} // namespace

void mlir::tgc::chooseThreads(KernelOp kernel, int64_t tasks) {
  // Fewer iterations are worth splitting where each reads more: as many
  // accesses as a copy of kMinThreadWork makes (two each), in at least half
  // its iterations (ResNet-18's Winograd output transforms at 28x28, 100352
  // iterations of 3.25 accesses, 0.1 ms, ran as long on 2 threads as on 1;
  // an 8x8-tile input transform of 32768 iterations, 12 us, ran slower
  // split: its loads read each element 4 times from L1).
  int64_t iterations = iterationCount(kernel);
  if (tasks < 2 || (iterations < kMinThreadWork &&
                    (iterations < kMinThreadWork / 2 ||
                     accessCount(kernel) < 2 * kMinThreadWork)))
    return;
  // The actions applied so far replaced ranges and reductions: look again.
  SmallVector<ReduceOp> reductions;
  kernel.walk([&](ReduceOp reduce) { reductions.push_back(reduce); });
  auto repeatsReduce = [&](RangeOp range) {
    return llvm::any_of(reductions, [&](ReduceOp reduce) {
      return !isComputedFrom(reduce.getResult(), range.getResult());
    });
  };
  SmallVector<RangeOp> splittable;
  for (Operation &op : kernel.getBlock())
    if (auto range = dyn_cast<RangeOp>(op);
        range &&
        (range.getAxis() == AxisType::global ||
         range.getAxis() == AxisType::loop) &&
        splitTasks(kernel, range, tasks) >= 2)
      splittable.push_back(range);
  // Without a reduction, tasks that split the innermost axis each copy a
  // short piece of every row (a padded copy of a channels-last image split
  // by channels moved 12 of them per pixel, 4x slower than split by rows),
  // where another axis splits into 4 or more, or into fewer where the
  // pieces are shorter than a cache line: ResNet-18's channels-last copy
  // padded to 58x58 (58 = 2 x 29), split 8 ways by its 64 channels, ran
  // at 27 GB/s on one thread, 2 ways by rows at 93 (0.061 -> 0.018 ms).
  // With one, so do tasks that split the vectors or pixel tiles of a row,
  // where another axis splits as well: SqueezeNet's stem, 111 columns in 7
  // vectors of 16, split 7 ways (the split axis then runs outermost, on one
  // thread too) wrote 64-byte pieces of each row of its 64 channels and
  // ran 1.3x slower than split by channels into 4. Convolutions whose tile
  // is a row of 7 or 14 pixels move too: GoogLeNet 0.97x, ResNeXt-50
  // 0.98x on one thread, others within noise. Not where the other splits
  // would read 4x the bytes or more: ResNeXt-50's last residual sum, two
  // 1x1 convolutions at 7x7 with 16 MB of weights, split by its 7 rows read
  // the weights 7 times over, from memory (alone on one thread 1.4x slower
  // than split by output channels, 1.8x in `tgc bench`).
  if (splittable.size() >= 2) {
    RangeOp inner = splittable.back();
    bool dropInner = false;
    if (reductions.empty()) {
      int64_t otherTasks =
          splitTasks(kernel, splittable[splittable.size() - 2], tasks);
      dropInner =
          otherTasks >= 4 ||
          storesPartLinesSplit(kernel, inner, splitTasks(kernel, inner, tasks));
    } else if (storesShortRunsAlong(kernel, inner)) {
      int64_t innerBytes =
          streamedBytes(kernel, inner, splitTasks(kernel, inner, tasks));
      dropInner =
          llvm::any_of(llvm::drop_end(splittable), [&](RangeOp other) {
            int64_t otherTasks = splitTasks(kernel, other, tasks);
            return otherTasks >= 4 &&
                   kFewerBytesFactor * innerBytes >
                       streamedBytes(kernel, other, otherTasks);
          });
    }
    if (dropInner)
      splittable.pop_back();
  }
  bool anyWithReduce = llvm::any_of(
      splittable, [&](RangeOp range) { return !repeatsReduce(range); });
  RangeOp best;
  int64_t bestTasks = 1, bestBytes = -1, bestStreamed = 0;
  bool bestFits = true;
  for (RangeOp range : splittable) {
    if (anyWithReduce && repeatsReduce(range))
      continue;
    int64_t n = splitTasks(kernel, range, tasks);
    // A split that reads a quarter or less of the bytes of another, with
    // tasks enough for two threads, wins whatever its count. (The rule
    // above that drops the innermost split weighs every byte alike: its
    // cases were measured that way.)
    int64_t streamed = streamedBytes(kernel, range, n, kCrossCoreReadCost);
    bool fewerBytes = best && balancedTasks(n) >= 4 &&
                      kFewerBytesFactor * streamed <= bestStreamed;
    bool moreBytes = best && balancedTasks(bestTasks) >= 4 &&
                     kFewerBytesFactor * bestStreamed <= streamed;
    bool better = !moreBytes &&
                  (fewerBytes || balancedTasks(n) > balancedTasks(bestTasks) ||
                   (balancedTasks(n) == balancedTasks(bestTasks) &&
                    n % 2 == 0 && bestTasks % 2));
    bool fits = rereadBytesPerTask(kernel, splittable.front(), range, n) <=
                kRereadBudget;
    // Between splits into as many tasks: the one whose tasks' slices fit
    // their core's cache, then the one that reads fewer bytes, then the one
    // that gives each task its own slice of the weights. ResNet-18's
    // stride-2 convolution to 28x28, its 860 KB input split 4 ways by
    // output channels (3.5x the bytes of a split by rows), ran 1.38x
    // faster on two threads split by rows; ResNeXt-50's 1x1 convolutions
    // at 56x56, channels last, split by rows rather than channels: the
    // model 1.06x faster on two threads, the same on one.
    int64_t bytes = -1;
    if (!better && n == bestTasks) {
      bytes = weightBytesAlong(kernel, range);
      better = fits != bestFits           ? fits
               : streamed != bestStreamed ? streamed < bestStreamed
                                          : bytes > bestBytes;
    }
    if (better &&
        checkOptAction(kernel, {OptKind::Thread, (int64_t)range.getId(), n})
            .empty()) {
      best = range;
      bestTasks = n;
      bestBytes = bytes >= 0 ? bytes : weightBytesAlong(kernel, range);
      bestFits = fits;
      bestStreamed = streamed;
    }
  }
  if (best && bestTasks >= 2)
    (void)applyOptAction(kernel,
                         {OptKind::Thread, (int64_t)best.getId(), bestTasks});
}
