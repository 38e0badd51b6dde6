//===- Linearize.cpp - place ops in loops, reduces into registers -*- C++ -*-===//
//
// A lowered kernel arrives with every op where lowering needed it, mostly
// in the innermost loop. Here each op moves to the innermost loop among the
// ranges it depends on; each loop is an item of the loop around it, and the
// items of a loop are ordered by their data dependencies (tinygrad's
// linearizer: a toposort of blocks). The ranges a reduce runs over nest
// inside the loop where its result is needed, which is what lets a softmax
// or a layernorm reduce once per row instead of once per element.
//
//===----------------------------------------------------------------------===//

#include "Codegen/FoldedLanes.h"
#include "Codegen/Passes.h"
#include "Codegen/TensorCores.h"
#include "IR/TgcOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include <map>
#include <queue>

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCLINEARIZE
#include "Codegen/Passes.h.inc"

namespace {

bool isReduceAxis(AxisType axis) {
  return axis == AxisType::reduce || axis == AxisType::unroll ||
         axis == AxisType::group_reduce;
}

/// The identity of a reduction: what an accumulator starts from (for a
/// vector, in every lane).
TypedAttr identityOf(ReduceKind kind, Type type, Builder &b) {
  if (auto vector = dyn_cast<VectorType>(type))
    return DenseElementsAttr::get(
        vector, identityOf(kind, vector.getElementType(), b));
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    switch (kind) {
    case ReduceKind::add:
      return b.getFloatAttr(type, APFloat::getZero(sem));
    case ReduceKind::mul:
      return b.getFloatAttr(type, APFloat::getOne(sem));
    case ReduceKind::max:
      return b.getFloatAttr(type, APFloat::getInf(sem, /*Negative=*/true));
    }
  }
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  switch (kind) {
  case ReduceKind::add:
    return b.getIntegerAttr(type, APInt(width, 0));
  case ReduceKind::mul:
    return b.getIntegerAttr(type, APInt(width, 1));
  case ReduceKind::max:
    return b.getIntegerAttr(type, type.isUnsignedInteger() || width == 1
                                      ? APInt::getMinValue(width)
                                      : APInt::getSignedMinValue(width));
  }
  llvm_unreachable("reduce kind");
}

class KernelLinearizer {
public:
  explicit KernelLinearizer(KernelOp kernel) : kernel(kernel) {}
  LogicalResult run();

private:
  /// A loop is the node of the tree named by its range; the root is null.
  using Node = Operation *;

  unsigned depthOf(Node node) { return node ? depth.lookup(node) : 0; }
  Node lca(Node a, Node b) {
    while (depthOf(a) > depthOf(b))
      a = parent.lookup(a);
    while (depthOf(b) > depthOf(a))
      b = parent.lookup(b);
    while (a != b) {
      a = parent.lookup(a);
      b = parent.lookup(b);
    }
    return a;
  }
  /// The innermost loop of a set of ranges that must nest in one chain.
  FailureOr<Node> innermost(const llvm::BitVector &ranges, Operation *forOp);
  /// Where the item of `op` lives: its loop, or for a range its parent.
  Node positionOf(Operation *op) {
    return isa<RangeOp>(op) ? parent.lookup(op) : node.lookup(op);
  }
  /// The item of node `at` that contains `op`.
  Operation *itemAt(Operation *op, Node at) {
    Node n = positionOf(op);
    if (n == at)
      return op;
    while (parent.lookup(n) != at)
      n = parent.lookup(n);
    return n;
  }
  void addEdge(Operation *from, Operation *to) {
    if (from == to)
      return;
    successors[from].push_back(to);
    ++pending[to];
  }
  void emit(Node at, Operation *sink);
  Operation *dedup(Operation *op);

  KernelOp kernel;
  SmallVector<RangeOp> ranges;
  llvm::DenseMap<Operation *, unsigned> rangeIndex, position;
  llvm::DenseMap<Operation *, llvm::BitVector> dependsOn;
  llvm::DenseMap<Node, Node> parent;
  llvm::DenseMap<Node, unsigned> depth;
  llvm::DenseMap<Operation *, Node> node;
  /// The reduces over each reduce range (several after upcasting).
  llvm::DenseMap<Operation *, SmallVector<ReduceOp>> reducesOver;
  std::map<Node, SmallVector<Operation *>> items;
  /// Order between the items of one loop: an op of one uses a value of the
  /// other.
  llvm::DenseMap<Operation *, SmallVector<Operation *>> successors;
  llvm::DenseMap<Operation *, unsigned> pending;
  std::map<std::vector<const void *>, Operation *> pureOps;
  /// Accumulator of each reduce, created when its first loop is emitted.
  llvm::DenseMap<Operation *, Value> accumulator;
};

FailureOr<KernelLinearizer::Node> KernelLinearizer::innermost(const llvm::BitVector &set,
                                            Operation *forOp) {
  Node deepest = nullptr;
  for (unsigned i : set.set_bits()) {
    Node r = ranges[i];
    if (depthOf(r) > depthOf(deepest))
      deepest = r;
  }
  // Every range of the set must enclose the deepest one.
  for (unsigned i : set.set_bits()) {
    Node r = ranges[i];
    if (lca(r, deepest) != r)
      return forOp->emitOpError("depends on ranges that do not nest");
  }
  return deepest;
}

Operation *KernelLinearizer::dedup(Operation *op) {
  bool mergeable = (isMemoryEffectFree(op) && op->getNumRegions() == 0 &&
                    !isa<RangeOp>(op)) ||
                   isa<LoadOp>(op);
  if (!mergeable || op->getNumResults() != 1)
    return op;
  std::vector<const void *> key{op->getName().getAsOpaquePointer(),
                                op->getAttrDictionary().getAsOpaquePointer(),
                                op->getResult(0).getType().getAsOpaquePointer()};
  for (Value operand : op->getOperands())
    key.push_back(operand.getAsOpaquePointer());
  auto [it, inserted] = pureOps.try_emplace(key, op);
  if (inserted)
    return op;
  op->getResult(0).replaceAllUsesWith(it->second->getResult(0));
  op->erase();
  return nullptr;
}

/// Whether `value` combines unrolled lanes of a reduction of `kind` and
/// can be taken apart: marked by tgc-expand, read by nothing else.
bool isFoldedLanes(Value value, ReduceKind kind) {
  Operation *op = value.getDefiningOp();
  return op && op->hasAttr(kFoldedLanesAttr) && value.hasOneUse() &&
         isReduceStep(op, kind);
}

/// `acc <kind> src`. Where `src` combines unrolled lanes (FoldedLanes.h),
/// each lane is folded into the accumulator in turn, acc + a + b rather
/// than acc + (a + b): tgc-mulacc then makes each lane's product one FMA.
/// The combining ops are left for eraseFoldedLanes.
Value accumulate(OpBuilder &builder, Location loc, ReduceKind kind, Value acc,
                 Value src) {
  if (isFoldedLanes(src, kind)) {
    for (Value lane : src.getDefiningOp()->getOperands())
      acc = accumulate(builder, loc, kind, acc, lane);
    return acc;
  }
  return createReduceStep(builder, loc, kind, acc, src)->getResult(0);
}

/// Erases the lane combinations that accumulate() took apart: once their
/// reduce is gone, nothing reads them.
void eraseFoldedLanes(KernelOp kernel) {
  SmallVector<Operation *> marked;
  kernel.walk([&](Operation *op) {
    if (op->hasAttr(kFoldedLanesAttr))
      marked.push_back(op);
  });
  // Users come after their operands.
  for (Operation *op : llvm::reverse(marked))
    if (op->use_empty())
      op->erase();
}

/// Moves the items of loop `at` before `sink` in dependency order, opening
/// and closing child loops and turning reduces into accumulators.
void KernelLinearizer::emit(Node at, Operation *sink) {
  // Ready loads go last, after ready loops: a load that only the code
  // after a reduction reads (a residual added to a convolution's output)
  // would otherwise hold a register through the whole reduction loop,
  // beside the accumulators of a register tile. A load the loop reads is
  // still emitted before it, which waits for it. Within a kind, program
  // order.
  auto kind = [](Operation *item) {
    return isa<LoadOp>(item) ? 2 : isa<RangeOp>(item) ? 1 : 0;
  };
  auto later = [&](Operation *a, Operation *b) {
    return std::pair(kind(a), position.lookup(a)) >
           std::pair(kind(b), position.lookup(b));
  };
  std::priority_queue<Operation *, std::vector<Operation *>, decltype(later)>
      ready(later);
  for (Operation *item : items[at])
    if (pending[item] == 0)
      ready.push(item);

  OpBuilder builder(sink);
  Location loc = kernel.getLoc();
  while (!ready.empty()) {
    Operation *item = ready.top();
    ready.pop();
    for (Operation *next : successors[item])
      if (--pending[next] == 0)
        ready.push(next);

    if (auto range = dyn_cast<RangeOp>(item)) {
      for (ReduceOp reduce : reducesOver.lookup(range)) {
        if (reduce.getRanges().front() != range.getResult())
          continue;
        // The accumulator: a register holding the identity before the loops
        // (a vector reduce: as many registers as lanes, accessed as one).
        Type type = reduce.getType();
        auto vector = dyn_cast<VectorType>(type);
        auto reg = builder.create<DefineRegOp>(
            loc,
            PtrType::get(type.getContext(), getElementTypeOrSelf(type),
                         AddrSpace::reg),
            vector ? vector.getNumElements() : 1);
        Value zero = builder.create<ConstOp>(loc, builder.getIndexAttr(0));
        Value slot = builder.create<IndexOp>(loc, reg, zero, Value());
        Value init = builder.create<ConstOp>(
            loc, identityOf(reduce.getKind(), type, builder));
        builder.create<StoreOp>(loc, slot, init);
        accumulator[reduce] = slot;
      }
      range->moveBefore(sink);
      emit(range, sink);
      for (ReduceOp reduce : reducesOver.lookup(range)) {
        if (reduce.getRanges().back() != range.getResult())
          continue;
        // acc = acc <op> src, as the last thing in the innermost loop.
        Value slot = accumulator.lookup(reduce);
        Value old = builder.create<LoadOp>(loc, reduce.getType(), slot, Value());
        builder.create<StoreOp>(
            loc, slot,
            accumulate(builder, loc, reduce.getKind(), old, reduce.getSrc()));
      }
      builder.create<EndOp>(loc, range.getResult());
      continue;
    }
    if (auto reduce = dyn_cast<ReduceOp>(item)) {
      Value slot = accumulator.lookup(reduce);
      Value result = builder.create<LoadOp>(loc, reduce.getType(), slot, Value());
      reduce.getResult().replaceAllUsesWith(result);
      reduce->erase();
      continue;
    }
    item->moveBefore(sink);
    dedup(item);
  }
}

LogicalResult KernelLinearizer::run() {
  Block &block = kernel.getBlock();
  Operation *sink = block.getTerminator();
  SmallVector<Operation *> ops;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isa<EndOp>(op)) {
      op.erase();
      continue;
    }
    if (isa<DefineRegOp, DefineLocalOp>(op))
      return op.emitOpError("is already linearized");
    if (&op != sink)
      ops.push_back(&op);
  }
  for (auto [i, op] : llvm::enumerate(ops)) {
    position[op] = i;
    if (auto range = dyn_cast<RangeOp>(op)) {
      rangeIndex[op] = ranges.size();
      ranges.push_back(range);
    }
  }

  // The ranges each op depends on, through its operands.
  for (Operation *op : ops) {
    llvm::BitVector set(ranges.size());
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def)
        continue;
      if (isa<RangeOp>(def))
        set.set(rangeIndex.lookup(def));
      else if (auto it = dependsOn.find(def); it != dependsOn.end())
        set |= it->second;
    }
    if (auto reduce = dyn_cast<ReduceOp>(op))
      for (Value r : reduce.getRanges()) {
        set.reset(rangeIndex.lookup(r.getDefiningOp()));
        reducesOver[r.getDefiningOp()].push_back(reduce);
      }
    dependsOn[op] = std::move(set);
  }

  // Output ranges nest in order; each reduce's ranges nest in a chain
  // inside the loop where the reduce is needed (outer reduces first).
  Node previous = nullptr;
  for (RangeOp range : ranges) {
    if (isReduceAxis(range.getAxis()))
      continue;
    parent[range] = previous;
    depth[range] = depthOf(previous) + 1;
    previous = range;
  }
  for (Operation *op : llvm::reverse(ops)) {
    auto reduce = dyn_cast<ReduceOp>(op);
    if (!reduce)
      continue;
    FailureOr<Node> at = innermost(dependsOn[op], op);
    if (failed(at))
      return failure();
    Node outer = *at;
    for (Value r : reduce.getRanges()) {
      Operation *range = r.getDefiningOp();
      if (parent.count(range)) {
        // Reduces over the same ranges (lanes of one reduce) share loops.
        if (parent.lookup(range) != outer)
          return reduce.emitOpError("shares a range with a reduce that is "
                                    "needed in another loop");
        outer = range;
        continue;
      }
      parent[range] = outer;
      depth[range] = depthOf(outer) + 1;
      outer = range;
    }
  }
  for (RangeOp range : ranges)
    if (!parent.count(range))
      return range.emitOpError("is a reduce range that no tgc.reduce closes");

  for (Operation *op : ops) {
    if (isa<RangeOp>(op)) {
      items[parent.lookup(op)].push_back(op);
      continue;
    }
    FailureOr<Node> at = innermost(dependsOn[op], op);
    if (failed(at))
      return failure();
    node[op] = *at;
    items[*at].push_back(op);
  }
  for (Operation *user : ops) {
    for (Value operand : user->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || !position.count(def))
        continue;
      Node shared = lca(positionOf(user), positionOf(def));
      addEdge(itemAt(def, shared), itemAt(user, shared));
    }
    // The update of an accumulator sits at the end of the reduce's
    // innermost loop and reads the reduced value: it must exist there.
    auto reduce = dyn_cast<ReduceOp>(user);
    Operation *src = reduce ? reduce.getSrc().getDefiningOp() : nullptr;
    if (!src || !position.count(src))
      continue;
    Node update = reduce.getRanges().back().getDefiningOp();
    Node shared = lca(update, positionOf(src));
    if (shared != update)
      addEdge(itemAt(src, shared), itemAt(update, shared));
  }
  emit(nullptr, sink);
  eraseFoldedLanes(kernel);
  return success();
}

struct Linearize : impl::TgcLinearizeBase<Linearize> {
  using TgcLinearizeBase::TgcLinearizeBase;

  void runOnOperation() final {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) {
      // The TC action writes its kernels out in linear form already
      // (TensorCores.h): staging, barriers and the warp's tile in order.
      if (kernel.isLowered() && !usesTensorCores(kernel))
        kernels.push_back(kernel);
    });
    for (KernelOp kernel : kernels)
      if (failed(KernelLinearizer(kernel).run()))
        return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tgc
