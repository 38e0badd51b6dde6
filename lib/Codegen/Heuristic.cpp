//===- Heuristic.cpp - opt actions for a kernel without search -*- C++ -*-===//
//
// The shape of a fast CPU kernel for a reduction (matmul, convolution,
// row sums): one axis becomes the lanes of a SIMD vector, chosen where
// every load of the reduction loop is contiguous or constant along it, so
// that tgc-devectorize can turn lanes into vector loads; a second output
// axis, along which the vector load does not move, becomes copies of the
// accumulators, so each loaded vector feeds several FMAs (a register tile,
// as in BLAS microkernels). Accumulators are kept to half the vector
// registers; the rest hold loaded values.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Heuristic.h"
#include "Codegen/Symbolic.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// Below this many loop iterations (lanes included) a kernel runs in a few
/// microseconds, about what handing it to the thread pool costs.
constexpr int64_t kMinThreadWork = int64_t(1) << 17;

bool dependsOn(Value value, Value range, llvm::DenseMap<Value, bool> &memo) {
  if (value == range)
    return true;
  Operation *op = value.getDefiningOp();
  if (!op || isa<RangeOp>(op))
    return false;
  if (auto it = memo.find(value); it != memo.end())
    return it->second;
  bool result = llvm::any_of(op->getOperands(), [&](Value operand) {
    return dependsOn(operand, range, memo);
  });
  memo[value] = result;
  return result;
}

/// A load from or store to a kernel buffer.
struct Access {
  IndexOp index;
  bool isStore;
  /// Runs in the reduction loop (its address moves with a reduce range).
  bool inReduce;
};

enum class StrideClass { Constant, Contiguous, Other };

class KernelShape {
public:
  explicit KernelShape(KernelOp kernel);

  bool reduces() const { return reduce != nullptr; }
  /// The ranges, outermost first, in program order.
  SmallVector<RangeOp> outputs, reductions;
  SmallVector<Access> accesses;
  ReduceOp reduce;

  StrideClass strideClass(Access access, RangeOp range);
  bool gateMoves(Access access, RangeOp range) {
    Value gate = access.index.getGate();
    return gate && dependsOn(gate, range.getResult(), memo);
  }

private:
  llvm::DenseMap<Value, bool> memo;
};

KernelShape::KernelShape(KernelOp kernel) {
  Block &block = kernel.getBlock();
  for (Operation &op : block) {
    if (auto range = dyn_cast<RangeOp>(op)) {
      if (range.getAxis() == AxisType::reduce)
        reductions.push_back(range);
      else if (range.getAxis() == AxisType::global ||
               range.getAxis() == AxisType::loop)
        outputs.push_back(range);
    }
    if (auto r = dyn_cast<ReduceOp>(op); r && !reduce)
      reduce = r;
  }
  for (Operation &op : block) {
    Value ptr;
    bool isStore = false;
    if (auto load = dyn_cast<LoadOp>(op))
      ptr = load.getPtr();
    else if (auto store = dyn_cast<StoreOp>(op)) {
      ptr = store.getPtr();
      isStore = true;
    }
    auto index = ptr ? ptr.getDefiningOp<IndexOp>() : IndexOp();
    if (!index || !isa<BlockArgument>(index.getBuf()))
      continue;
    bool inReduce = llvm::any_of(reductions, [&](RangeOp r) {
      return dependsOn(index.getIdx(), r.getResult(), memo);
    });
    accesses.push_back({index, isStore, inReduce});
  }
}

StrideClass KernelShape::strideClass(Access access, RangeOp range) {
  std::optional<int64_t> stride =
      getAccessStride(access.index, range.getResult());
  if (!stride || gateMoves(access, range))
    return StrideClass::Other;
  if (*stride == 0)
    return StrideClass::Constant;
  return *stride == 1 ? StrideClass::Contiguous : StrideClass::Other;
}

/// How well `range` serves as vector lanes: -1 if it cannot, else the
/// number of reduction-loop loads that become vector loads, less those
/// that must be gathered lane by lane.
int64_t vectorScore(KernelShape &shape, RangeOp range, int64_t lanes,
                    bool allowGathers) {
  if ((int64_t)range.getBound() % lanes != 0)
    return -1;
  bool isOutput = range.getAxis() != AxisType::reduce;
  int64_t contiguous = 0, gathers = 0;
  for (Access access : shape.accesses) {
    StrideClass stride = shape.strideClass(access, range);
    if (access.isStore) {
      // Stores move with every output axis; only a contiguous one writes
      // whole vectors.
      if (isOutput && stride != StrideClass::Contiguous)
        return -1;
      continue;
    }
    if (!access.inReduce)
      continue;
    if (stride == StrideClass::Contiguous)
      ++contiguous;
    else if (stride == StrideClass::Other)
      ++gathers;
  }
  if (gathers && !allowGathers)
    return -1;
  if (contiguous == 0 && !isOutput)
    return -1;
  return contiguous - gathers;
}

/// The vector axis and its lane count: an output axis if one has only
/// contiguous or constant loads, else a reduce axis (the lanes are summed
/// once at the end), else an output axis whose stores are contiguous even
/// if some loads are gathered. Wider vectors first.
std::pair<RangeOp, int64_t> chooseVectorAxis(KernelShape &shape,
                                             int64_t maxLanes) {
  for (bool allowGathers : {false, true}) {
    for (int64_t lanes = maxLanes; lanes >= 4; lanes /= 2) {
      RangeOp best;
      int64_t bestScore = -1;
      auto consider = [&](ArrayRef<RangeOp> ranges) {
        for (RangeOp range : llvm::reverse(ranges)) {
          int64_t score = vectorScore(shape, range, lanes, allowGathers);
          if (score > bestScore) {
            best = range;
            bestScore = score;
          }
        }
      };
      consider(shape.outputs);
      if (!best && !allowGathers)
        consider(shape.reductions);
      if (best)
        return {best, lanes};
    }
  }
  return {RangeOp(), 0};
}

/// The output axis whose copies reuse the most loads: one along which the
/// vector loads (contiguous along `vector`) do not move counts most, one
/// along which only scalar loads stay put counts less.
RangeOp chooseTileAxis(KernelShape &shape, RangeOp vector) {
  RangeOp best;
  int64_t bestScore = 0;
  for (RangeOp range : shape.outputs) {
    if (range == vector || range.getBound() < 2)
      continue;
    int64_t score = 0;
    for (Access access : shape.accesses) {
      if (access.isStore || !access.inReduce ||
          shape.strideClass(access, range) != StrideClass::Constant)
        continue;
      bool isVectorLoad =
          vector && shape.strideClass(access, vector) ==
                        StrideClass::Contiguous;
      score += isVectorLoad ? 4 : 1;
    }
    if (score > bestScore) {
      best = range;
      bestScore = score;
    }
  }
  return best;
}

/// The largest power of two up to `most` that divides `bound`.
int64_t largestDivisor(int64_t bound, int64_t most) {
  for (int64_t amount = most; amount > 1; amount /= 2)
    if (bound % amount == 0)
      return amount;
  return 1;
}

bool apply(KernelOp kernel, OptKind kind, RangeOp range, int64_t amount) {
  if (!range || amount < 2)
    return false;
  return succeeded(
      applyOptAction(kernel, {kind, (int64_t)range.getId(), amount}));
}

int64_t iterationCount(KernelOp kernel) {
  int64_t count = 1;
  kernel.walk([&](RangeOp r) { count *= r.getBound(); });
  return count;
}

/// THREAD on the outermost axis for a kernel with enough work, into as
/// many tasks as allowed that divide it, an even count preferred so two
/// threads get equal shares.
void chooseThreads(KernelOp kernel, int64_t tasks) {
  if (tasks < 2 || iterationCount(kernel) < kMinThreadWork)
    return;
  RangeOp outer;
  for (Operation &op : kernel.getBlock())
    if ((outer = dyn_cast<RangeOp>(op)))
      break;
  if (!outer || (outer.getAxis() != AxisType::global &&
                 outer.getAxis() != AxisType::loop))
    return;
  int64_t bound = outer.getBound();
  int64_t best = 1;
  for (int64_t n = std::min(tasks, bound); n >= 2; --n) {
    if (bound % n != 0)
      continue;
    if (n % 2 == 0) {
      best = n;
      break;
    }
    if (best == 1)
      best = n;
  }
  apply(kernel, OptKind::Thread, outer, best);
}

} // namespace

std::optional<int64_t> mlir::tgc::getAccessStride(IndexOp index,
                                                  Value range) {
  LinearSum sum = linearSumOf(index.getIdx());
  llvm::DenseMap<Value, bool> memo;
  int64_t stride = 0;
  for (auto [atom, coef] : sum.terms) {
    if (atom == range)
      stride += coef;
    else if (dependsOn(atom, range, memo))
      return std::nullopt;
  }
  return stride;
}

bool mlir::tgc::isComputedFrom(Value value, Value range) {
  llvm::DenseMap<Value, bool> memo;
  return dependsOn(value, range, memo);
}

void mlir::tgc::applyHeuristic(KernelOp kernel,
                               const HeuristicOptions &options) {
  KernelShape shape(kernel);
  if (shape.reduces()) {
    Type element = getElementTypeOrSelf(shape.reduce.getType());
    int64_t bytes = element.isIntOrFloat()
                        ? std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8)
                        : 8;
    int64_t maxLanes = std::max<int64_t>(1, options.target.vectorBytes / bytes);
    int64_t accumulators = options.target.vectorRegisters / 2;

    auto [vector, lanes] = chooseVectorAxis(shape, maxLanes);
    RangeOp tile = chooseTileAxis(shape, vector);
    int64_t vectorCopies = 1;
    if (vector) {
      // Actions replace the ranges they split: keep what is needed.
      int64_t id = vector.getId(), bound = vector.getBound();
      bool isReduce = vector.getAxis() == AxisType::reduce;
      apply(kernel, isReduce ? OptKind::Unroll : OptKind::Upcast, vector,
            lanes);
      // A second vector of the same row: twice the FMAs per broadcast.
      if (!isReduce && tile && lanes == maxLanes && bound % (2 * lanes) == 0 &&
          apply(kernel, OptKind::Upcast, findRange(kernel, id), 2))
        vectorCopies = 2;
    } else {
      // No vector lanes: a small scalar tile still saves loads.
      RangeOp inner = shape.outputs.empty() ? RangeOp() : shape.outputs.back();
      if (inner && inner != tile &&
          apply(kernel, OptKind::Upcast, inner,
                largestDivisor(inner.getBound(), 4)))
        vectorCopies = 4;
    }
    if (tile)
      apply(kernel, OptKind::Upcast, tile,
            largestDivisor(tile.getBound(),
                           std::max<int64_t>(2, accumulators / vectorCopies)));
  }
  chooseThreads(kernel, options.threadTasks);
}
