//===- Schedule.cpp - split the tensor graph into kernels -----*- C++ -*-===//
//
// Decides which tensors are realized in memory and clones the cone of each
// into a tgc.kernel. Everything else fuses: elementwise chains, reduces
// with their inputs and (where no work would be repeated) with their
// consumers; movement ops become index expressions inside kernels.
//
// The realize rules, applied until nothing changes (see Passes.td):
//  1. function results and tgc.contiguous values;
//  2. a value containing an unrealized reduce that has two or more
//     consumers (each would repeat the reduce), unless they join again in
//     one elementwise op (SiLU's x * sigmoid(x));
//  3. a value broadcast into a loop that does not reduce over the broadcast
//     axes, when it contains a reduce or costs more than the recompute
//     limit (a padded input of a convolution is such a value: its masks
//     would run in every window), or costs an op or more and is broadcast
//     64 times or more (a LayerNorm or a channel scale before a matmul's
//     columns);
//  4. a value needed by two or more kernels, when it contains a reduce or
//     costs more than the recompute limit (a reduce read only by an
//     elementwise op of its size, such as its bias, is realized there);
//  5. the source of a pad when it contains a reduce.
//
//===----------------------------------------------------------------------===//

#include "IR/TgcOps.h"
#include "Schedule/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCSCHEDULE
#include "Schedule/Passes.h.inc"

namespace {

constexpr int64_t kReduceCost = int64_t(1) << 40;

/// Elements of an innermost dim that share a pad's mask, enough for a pad
/// to cost a load little.
constexpr int64_t kMaskedVectorLanes = 8;

/// True for constants that stay in memory (weights); splats are inlined.
bool isWeight(Value value) {
  auto constant = value.getDefiningOp<ConstOp>();
  if (!constant)
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  return !dense || !dense.isSplat();
}

/// True if `pad` leaves its innermost dim alone and that dim is a vector
/// wide: its mask is then the same for a whole vector along it, and a load
/// under it pays a small share of it (a channels-last image padded for a
/// depthwise convolution).
bool masksWholeVectors(PadOp pad) {
  return pad.getLow().back() == 0 && pad.getHigh().back() == 0 &&
         pad.getType().getShape().back() >= kMaskedVectorLanes;
}

/// The pad of data that `value` is: a pad, or a pad with a fill value
/// (TensorBuilder::pad: where(pad(true), pad(x), fill)); null otherwise.
PadOp paddedData(Value value) {
  if (auto pad = value.getDefiningOp<PadOp>())
    return pad;
  auto where = value.getDefiningOp<WhereOp>();
  if (!where)
    return {};
  auto inside = where.getCond().getDefiningOp<PadOp>();
  auto data = where.getX().getDefiningOp<PadOp>();
  auto fill = where.getY().getDefiningOp<ConstOp>();
  if (!inside || !data || !fill || isWeight(fill) ||
      !inside.getSrc().getDefiningOp<ConstOp>() ||
      inside.getLow() != data.getLow() || inside.getHigh() != data.getHigh())
    return {};
  return data;
}

/// A broadcast this wide (the columns of a matmul whose rows it feeds)
/// repeats even a little work too often: the register tile that shares a
/// row's loads among its columns does not share ALU ops on them. A
/// LayerNorm fused into the projection after it, 4 ops per element of
/// the rows, was recomputed for every 32 of ViT's 2304 QKV columns and
/// ran the matmul at 67 GFLOP/s instead of 100.
constexpr int64_t kWideBroadcast = 64;

/// Least ALU work per element that a wide broadcast realizes: one op. The
/// broadcast operand is the scalar side of a register tile: an op on it
/// runs once per element for every column vector, a scalar instruction on
/// the FMA ports plus a broadcast from a register where a load would do.
/// RegNet's Squeeze-and-Excitation scale (x * s[c]) fused into the 1x1
/// convolution after it ran that convolution at 48 GFLOP/s instead of 86;
/// the scaled copy costs 4 us.
constexpr int64_t kMinWideRecomputeCost = 1;

/// Elements each element of `expand`'s source is broadcast to.
int64_t broadcastElements(ExpandOp expand) {
  auto src = cast<RankedTensorType>(expand.getSrc().getType()).getShape();
  auto dst = cast<RankedTensorType>(expand.getType()).getShape();
  int64_t elements = 1;
  for (auto [from, to] : llvm::zip(src, dst))
    if (from == 1)
      elements *= to;
  return elements;
}

/// ALU work per element of one op: transcendental and division ops count
/// 8, a reduce counts as never worth repeating.
int64_t opCost(Operation *op) {
  if (isa<ReduceAxisOp>(op))
    return kReduceCost;
  // A pad is a validity mask per padded dim (two compares and an and) and a
  // select: work in every load under it.
  if (auto pad = dyn_cast<PadOp>(op)) {
    if (masksWholeVectors(pad))
      return 1;
    int64_t padded = 0;
    for (auto [low, high] : llvm::zip(pad.getLow(), pad.getHigh()))
      padded += low || high;
    return 3 * padded + 1;
  }
  if (isGraphMovement(op) || isa<ConstOp, BitcastOp, ContiguousOp>(op))
    return 0;
  if (isa<Exp2Op, Log2Op, SinOp, SqrtOp, RecipOp, FdivOp, PowOp, IdivOp,
          ModOp>(op))
    return 8;
  if (isa<MulaccOp>(op))
    return 2;
  return 1;
}

/// Maps a set of axes of `op`'s source to axes of its result; nullopt when
/// a reshape mixes axes of the set with axes outside it.
std::optional<llvm::SmallSet<int64_t, 8>>
mapAxes(Operation *op, const llvm::SmallSet<int64_t, 8> &axes) {
  llvm::SmallSet<int64_t, 8> result;
  auto srcShape = cast<RankedTensorType>(op->getOperand(0).getType()).getShape();
  auto dstShape = cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  if (auto permute = dyn_cast<PermuteOp>(op)) {
    for (auto [i, axis] : llvm::enumerate(permute.getOrder()))
      if (axes.contains(axis))
        result.insert(i);
    return result;
  }
  if (isa<ExpandOp>(op)) {
    result = axes;
    for (size_t d = 0; d < srcShape.size(); ++d)
      if (srcShape[d] == 1 && dstShape[d] > 1)
        result.insert(d);
    return result;
  }
  if (!isa<ReshapeOp>(op))
    return axes; // pad, shrink, flip keep the axes
  // Walk both shapes in groups of equal products; size-1 dims are neutral.
  size_t i = 0, j = 0, n = srcShape.size(), m = dstShape.size();
  while (i < n || j < m) {
    if (i < n && srcShape[i] == 1) {
      ++i;
      continue;
    }
    if (j < m && dstShape[j] == 1) {
      ++j;
      continue;
    }
    if (i == n || j == m)
      return std::nullopt;
    size_t gi = i + 1, gj = j + 1;
    int64_t pi = srcShape[i], pj = dstShape[j];
    while (pi != pj) {
      if (pi < pj && gi < n)
        pi *= srcShape[gi++];
      else if (pj < pi && gj < m)
        pj *= dstShape[gj++];
      else
        return std::nullopt;
    }
    bool any = false, all = true;
    for (size_t k = i; k < gi; ++k) {
      if (srcShape[k] == 1)
        continue;
      any |= axes.contains(k);
      all &= axes.contains(k);
    }
    if (any && !all)
      return std::nullopt;
    if (any)
      for (size_t k = j; k < gj; ++k)
        if (dstShape[k] != 1)
          result.insert(k);
    i = gi;
    j = gj;
  }
  return result;
}

class Scheduler {
public:
  Scheduler(func::FuncOp func, int64_t maxRecomputeCost)
      : func(func), maxRecomputeCost(maxRecomputeCost) {}

  LogicalResult run();

private:
  bool isBuffer(Value value) {
    return isa<BlockArgument>(value) || isWeight(value) ||
           realized.contains(value) || value.getDefiningOp<KernelOp>();
  }
  int64_t coneCost(Value value);
  SmallVector<Operation *> consumers(Value value);
  bool handsOnWhole(Value value, int64_t cost);
  bool consumersRejoin(Value value);
  bool broadcastIsRecomputed(ExpandOp expand);
  bool realizeOnce();
  Value peelMovement(Value value);
  void buildKernels();
  std::string kernelName(Value result, ArrayRef<Operation *> cone);

  func::FuncOp func;
  int64_t maxRecomputeCost;
  llvm::DenseSet<Value> realized;
  llvm::StringSet<> names;
};

/// Work to compute one element of `value` from buffers: the sum over the
/// distinct ops of its cone.
int64_t Scheduler::coneCost(Value value) {
  int64_t cost = 0;
  llvm::SmallPtrSet<Operation *, 32> seen;
  SmallVector<Value> work{value};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (isBuffer(v) && v != value)
      continue;
    Operation *op = v.getDefiningOp();
    if (!op || !seen.insert(op).second)
      continue;
    cost = std::min(kReduceCost, cost + opCost(op));
    llvm::append_range(work, op->getOperands());
  }
  return cost;
}

/// The non-movement ops that use `value`, looking through movement ops.
SmallVector<Operation *> Scheduler::consumers(Value value) {
  SmallVector<Operation *> result;
  SmallVector<Value> work{value};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isGraphMovement(user) && !realized.contains(user->getResult(0)))
        work.push_back(user->getResult(0));
      else
        result.push_back(user);
    }
  }
  return result;
}

/// The value a chain of movement ops views, or the first pad on the way:
/// the masks of a pad are work that a broadcast would repeat.
Value Scheduler::peelMovement(Value value) {
  while (!isBuffer(value) && value.getDefiningOp() &&
         isGraphMovement(value.getDefiningOp()) &&
         !value.getDefiningOp<PadOp>())
    value = value.getDefiningOp()->getOperand(0);
  return value;
}

/// True if the source of `expand` would be computed again for every element
/// of the broadcast axes: some path from the expand reaches a reduce that
/// does not reduce over them, or a realized value in which they are not the
/// innermost axes (loops run outer axes first).
bool Scheduler::broadcastIsRecomputed(ExpandOp expand) {
  llvm::SmallSet<int64_t, 8> none;
  auto axes = mapAxes(expand, none);
  if (!axes || axes->empty())
    return false;
  SmallVector<std::pair<Value, llvm::SmallSet<int64_t, 8>>> work;
  work.push_back({expand.getResult(), *axes});
  while (!work.empty()) {
    auto [value, broadcast] = work.pop_back_val();
    auto shape = cast<RankedTensorType>(value.getType()).getShape();
    if (realized.contains(value)) {
      int64_t lastOuter = -1, firstBroadcast = shape.size();
      for (int64_t d = 0; d < (int64_t)shape.size(); ++d) {
        if (shape[d] == 1)
          continue;
        if (broadcast.contains(d))
          firstBroadcast = std::min(firstBroadcast, d);
        else
          lastOuter = d;
      }
      if (lastOuter > firstBroadcast)
        return true;
      continue;
    }
    for (Operation *user : value.getUsers()) {
      if (auto reduce = dyn_cast<ReduceAxisOp>(user)) {
        for (int64_t d : broadcast)
          if (shape[d] > 1 && !llvm::is_contained(reduce.getAxes(), d))
            return true;
        continue;
      }
      if (isa<func::ReturnOp>(user))
        continue;
      if (isGraphMovement(user)) {
        auto mapped = mapAxes(user, broadcast);
        if (!mapped)
          return true;
        work.push_back({user->getResult(0), *mapped});
        continue;
      }
      for (Value result : user->getResults())
        work.push_back({result, broadcast});
    }
  }
  return false;
}

/// True if `value`, which contains a reduce, is read by one elementwise op
/// of its own size and nothing else: every kernel that needs `value` needs
/// that op's result, which rule 4 then realizes in its place (a projection
/// and its bias, not the projection alone with the bias added in each
/// kernel that reads a slice of it).
bool Scheduler::handsOnWhole(Value value, int64_t cost) {
  if (cost < kReduceCost)
    return false;
  SmallVector<Operation *> users = consumers(value);
  if (users.size() != 1 || users[0]->getNumResults() != 1 ||
      isa<ReduceAxisOp, ContiguousOp, func::ReturnOp>(users[0]))
    return false;
  auto type = dyn_cast<RankedTensorType>(users[0]->getResult(0).getType());
  return type && type.getNumElements() ==
                     cast<RankedTensorType>(value.getType()).getNumElements();
}

/// True if a reshape only adds or drops unit dims: the element it shows
/// at an index is the source's at the same index, less the unit dims.
static bool onlyUnitDims(ReshapeOp reshape) {
  auto nonUnit = [](Value v) {
    SmallVector<int64_t> dims;
    for (int64_t d : cast<RankedTensorType>(v.getType()).getShape())
      if (d != 1)
        dims.push_back(d);
    return dims;
  };
  return nonUnit(reshape.getSrc()) == nonUnit(reshape.getResult());
}

/// True if the consumers of `value` (a reduce) are elementwise ops that
/// join again into one op before anything else reads them, none of them on
/// conditions: x * sigmoid(x) in SiLU. One kernel then computes them all
/// from one evaluation of the reduce per element (lowering reuses an
/// element asked for twice at the same index), so rule 2 has no reason to
/// realize it and write the result out for a kernel of its own.
bool Scheduler::consumersRejoin(Value value) {
  // Values derived from `value`, each with its uses not yet seen; ops are
  // in block order, so a use is seen after its value.
  llvm::DenseMap<Value, unsigned> pending;
  pending[value] = std::distance(value.use_begin(), value.use_end());
  for (Operation *op = value.getDefiningOp()->getNextNode(); op;
       op = op->getNextNode()) {
    bool reads = false;
    for (Value operand : op->getOperands())
      if (auto it = pending.find(operand); it != pending.end()) {
        reads = true;
        if (--it->second == 0)
          pending.erase(it);
      }
    if (!reads)
      continue;
    auto reshape = dyn_cast<ReshapeOp>(op);
    bool elementwise = !isGraphMovement(op) &&
                       !isa<ReduceAxisOp, ContiguousOp>(op) &&
                       op->getNumResults() == 1 &&
                       isa<RankedTensorType>(op->getResult(0).getType());
    if (!(reshape && onlyUnitDims(reshape)) && !elementwise)
      return false;
    // Conditions stay scalars in a vectorized kernel: an epilogue that
    // compares or selects runs lane by lane after the register tile (GELU's
    // erf, fused into its 128x1024x256 matmul: 945 us against 688 + 162
    // for the matmul and a kernel of its own).
    auto isCondition = [](Type type) {
      return getElementTypeOrSelf(type).isInteger(1);
    };
    if (llvm::any_of(op->getOperandTypes(), isCondition) ||
        llvm::any_of(op->getResultTypes(), isCondition))
      return false;
    Value result = op->getResult(0);
    if (!result.use_empty())
      pending[result] = std::distance(result.use_begin(), result.use_end());
    if (!reshape && pending.size() == 1 && pending.count(result))
      return true;
    // Realized before they join, the consumers read it from memory.
    if (realized.contains(result))
      return false;
  }
  return false;
}

/// One sweep of the realize rules; returns true if it realized anything.
bool Scheduler::realizeOnce() {
  bool changed = false;
  auto realize = [&](Value value) {
    if (isBuffer(value))
      return;
    realized.insert(value);
    changed = true;
  };
  for (Operation &op : func.getBody().front()) {
    if (op.getNumResults() != 1 || isGraphMovement(&op) || isa<ConstOp>(op))
      continue;
    Value value = op.getResult(0);
    if (isBuffer(value))
      continue;
    int64_t cost = coneCost(value);
    // Rule 2: a reduce with two consumers would run twice.
    if (cost >= kReduceCost && consumers(value).size() >= 2 &&
        !consumersRejoin(value)) {
      realize(value);
      continue;
    }
    // Rule 4: needed by two kernels. A reduce-free value read by a reduce
    // is computed in the one kernel that computes the reduce (rule 2 sees
    // that it is not computed twice), so the walk stops there: walking on,
    // it would count the kernels after the reduce, and realize a conv's
    // window product (K*K*C times its output) next to a realized output.
    if (cost > maxRecomputeCost && !handsOnWhole(value, cost)) {
      bool reduceFree = cost < kReduceCost;
      llvm::SmallPtrSet<Operation *, 4> kernels;
      SmallVector<Value> work{value};
      llvm::DenseSet<Value> seen;
      while (!work.empty()) {
        Value v = work.pop_back_val();
        if (!seen.insert(v).second)
          continue;
        for (OpOperand &use : v.getUses()) {
          Operation *user = use.getOwner();
          if (isa<func::ReturnOp>(user)) {
            kernels.insert(v.getDefiningOp());
            continue;
          }
          if (reduceFree && isa<ReduceAxisOp>(user)) {
            kernels.insert(user);
            continue;
          }
          for (Value r : user->getResults()) {
            if (realized.contains(r))
              kernels.insert(user);
            else
              work.push_back(r);
          }
        }
      }
      if (kernels.size() >= 2) {
        realize(value);
        continue;
      }
    }
  }
  // Rule 3: broadcasts that repeat work.
  func.walk([&](ExpandOp expand) {
    Value src = peelMovement(expand.getSrc());
    if (isBuffer(src) || !broadcastIsRecomputed(expand))
      return;
    // A pad that masks whole vectors, of a reduce: rule 5 realizes the
    // reduce, and the pad then fuses into the kernels that read it. So
    // does one with a fill value (a channels-last max pool's -inf).
    if (PadOp pad = paddedData(src);
        pad && masksWholeVectors(pad) &&
        coneCost(peelMovement(pad.getSrc())) >= kReduceCost)
      return;
    int64_t cost = coneCost(src);
    if (cost > maxRecomputeCost ||
        (cost >= kMinWideRecomputeCost &&
         broadcastElements(expand) >= kWideBroadcast))
      realize(src);
  });
  // Rule 5: a pad does not fuse onto a reduce, which would otherwise run on
  // the padded grid under masks that no kernel optimization can remove.
  // Rule 6: a padded copy that is realized stays a copy (one op may ride
  // along). Work fused into it runs under the border masks, whose
  // conditional loads the C compiler leaves scalar, and a Relu there
  // becomes a branch on the data (a BatchNormalization and Relu after a
  // Winograd convolution took 1.1 ms in the padded copy for the next conv
  // on inputs of both signs).
  func.walk([&](PadOp pad) {
    Value src = peelMovement(pad.getSrc());
    if (isBuffer(src))
      return;
    int64_t cost = coneCost(src);
    bool copied = realized.contains(pad.getResult()) ||
                  llvm::any_of(pad->getUsers(), [](Operation *user) {
                    return isa<ContiguousOp>(user);
                  });
    if (cost >= kReduceCost || (copied && cost > 1))
      realize(src);
  });
  return changed;
}

std::string Scheduler::kernelName(Value result, ArrayRef<Operation *> cone) {
  std::string name = "E";
  SmallVector<int64_t> reduceDims;
  for (Operation *op : cone)
    if (auto reduce = dyn_cast<ReduceAxisOp>(op)) {
      name = "r";
      if (reduceDims.empty())
        for (int64_t axis : reduce.getAxes())
          reduceDims.push_back(
              cast<RankedTensorType>(reduce.getSrc().getType()).getShape()[axis]);
    }
  for (int64_t dim : cast<RankedTensorType>(result.getType()).getShape())
    name += "_" + std::to_string(dim);
  for (int64_t dim : reduceDims)
    name += "_" + std::to_string(dim);
  std::string unique = name;
  for (int n = 1; !names.insert(unique).second; ++n)
    unique = name + "n" + std::to_string(n);
  return unique;
}

/// Clones the cone of every realized value into a tgc.kernel placed right
/// after the value's op, and makes every function result a kernel result.
void Scheduler::buildKernels() {
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());

  // A result that is an input, a weight or another result needs a copy.
  llvm::DenseSet<Value> returned;
  for (OpOperand &operand : ret->getOpOperands()) {
    Value v = operand.get();
    bool needsCopy = isa<BlockArgument>(v) || isWeight(v) ||
                     !returned.insert(v).second;
    if (!needsCopy) {
      realized.insert(v);
      continue;
    }
    OpBuilder builder(ret);
    auto copy = builder.create<ContiguousOp>(v.getLoc(), v.getType(), v);
    operand.set(copy);
    realized.insert(copy);
  }

  SmallVector<Operation *> order;
  for (Operation &op : body)
    if (op.getNumResults() == 1 && realized.contains(op.getResult(0)))
      order.push_back(&op);

  for (Operation *root : order) {
    Value result = root->getResult(0);
    // The cone, in block order, and the buffers it reads.
    llvm::SetVector<Operation *> cone;
    llvm::SetVector<Value> inputs;
    SmallVector<Value> work{result};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (v != result && isBuffer(v)) {
        inputs.insert(v);
        continue;
      }
      Operation *op = v.getDefiningOp();
      if (!op || cone.contains(op))
        continue;
      cone.insert(op);
      llvm::append_range(work, op->getOperands());
    }
    SmallVector<Operation *> sorted(cone.begin(), cone.end());
    llvm::sort(sorted, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    SmallVector<Value> inputList(inputs.begin(), inputs.end());
    llvm::sort(inputList, [](Value a, Value b) {
      auto argA = dyn_cast<BlockArgument>(a), argB = dyn_cast<BlockArgument>(b);
      if (argA || argB)
        return argA && (!argB || argA.getArgNumber() < argB.getArgNumber());
      return a.getDefiningOp()->isBeforeInBlock(b.getDefiningOp());
    });

    OpBuilder builder(root->getContext());
    builder.setInsertionPointAfter(root);
    auto kernel = builder.create<KernelOp>(
        root->getLoc(), TypeRange{result.getType()},
        builder.getStringAttr(kernelName(result, sorted)), inputList,
        /*opts=*/nullptr, /*useful_share=*/nullptr,
        /*arena_offset=*/nullptr);
    Block *block = builder.createBlock(&kernel.getBody());
    IRMapping mapping;
    for (Value input : inputList)
      mapping.map(input, block->addArgument(input.getType(), input.getLoc()));
    builder.setInsertionPointToStart(block);
    for (Operation *op : sorted)
      builder.clone(*op, mapping);
    builder.create<SinkOp>(root->getLoc(), mapping.lookup(result));
    result.replaceUsesWithIf(kernel.getResult(0), [&](OpOperand &use) {
      return !kernel->isProperAncestor(use.getOwner());
    });
  }

  // Everything not in a kernel is now dead, but the weights.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (!isa<KernelOp, func::ReturnOp>(op) && op.use_empty())
      op.erase();
}

LogicalResult Scheduler::run() {
  if (!func.getBody().hasOneBlock())
    return func.emitError("schedule needs a function with one block");
  for (Operation &op : func.getBody().front()) {
    if (isa<OnnxNodeOp>(op))
      return op.emitError("is not decomposed; run tgc-decompose first");
    if (isa<KernelOp>(op))
      return op.emitError("is already scheduled");
    if (auto contiguous = dyn_cast<ContiguousOp>(op))
      realized.insert(contiguous.getResult());
  }
  for (Value v : func.getBody().front().getTerminator()->getOperands())
    if (!isBuffer(v))
      realized.insert(v);
  while (realizeOnce()) {
  }
  buildKernels();
  return success();
}

struct Schedule : impl::TgcScheduleBase<Schedule> {
  using TgcScheduleBase::TgcScheduleBase;

  void runOnOperation() final {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(Scheduler(func, maxRecomputeCost).run()))
        return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tgc
