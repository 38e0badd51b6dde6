//===- GpuDims.cpp - loop axes to GPU thread and block indices -*- C++ -*-===//
//
// A linearized kernel is one thread's loops. For a GPU, the loops over
// output axes go away: each becomes a block or thread index (tgc.special),
// and the body that was inside them runs once per GPU thread. Runs after
// tgc-linearize, whose program order it keeps: every range it removes is
// replaced by a value computed at the top of the kernel, and the only code
// it adds (the combine of a grouped reduce) goes where the reduce's
// result is first read (a tree of steps through shared memory, one
// barrier each). Reduce loops stay loops.
//
//===----------------------------------------------------------------------===//

#include "Codegen/GpuLaunch.h"
#include "Codegen/Passes.h"
#include "Codegen/RangeDependence.h"
#include "IR/TgcOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCGPUDIMS
#include "Codegen/Passes.h.inc"

namespace {

/// The ranges sharing one GPU dimension, innermost first.
using Dim = SmallVector<RangeOp, 2>;

int64_t boundOf(const Dim &dim) {
  int64_t bound = 1;
  for (RangeOp r : dim)
    bound *= r.getBound();
  return bound;
}

EndOp findEnd(RangeOp range) {
  for (Operation *user : range->getUsers())
    if (auto end = dyn_cast<EndOp>(user))
      return end;
  return nullptr;
}

/// The register or buffer a pointer points into.
Value getPointerBase(Value pointer) {
  if (auto index = pointer.getDefiningOp<IndexOp>())
    return index.getBuf();
  return pointer;
}

bool isIn(Value pointer, AddrSpace space) {
  return cast<PtrType>(pointer.getType()).getAddrSpace() == space;
}

/// Groups `ranges` (innermost first) into at most three dimensions, each
/// within its limit: the outermost axes merge first, and an axis over the
/// limit of its dimension moves into the dimension inside it, which has
/// the larger limit.
FailureOr<SmallVector<Dim, 3>> groupDims(ArrayRef<RangeOp> ranges,
                                         const int64_t (&limits)[3],
                                         KernelOp kernel, StringRef what) {
  SmallVector<Dim, 3> dims;
  for (RangeOp r : ranges)
    dims.push_back({r});
  auto mergeInto = [&](size_t inner) {
    llvm::append_range(dims[inner], dims[inner + 1]);
    dims.erase(dims.begin() + inner + 1);
  };
  while (dims.size() > 3)
    mergeInto(dims.size() - 2);
  for (size_t d = dims.size(); d-- > 1;)
    if (boundOf(dims[d]) > limits[d])
      mergeInto(d - 1);
  if (!dims.empty() && boundOf(dims[0]) > limits[0])
    return kernel.emitOpError("needs ")
           << boundOf(dims[0]) << " " << what
           << " along one dimension, more than a GPU launches (" << limits[0]
           << ")";
  return dims;
}

class KernelMapper {
public:
  explicit KernelMapper(KernelOp kernel)
      : kernel(kernel), builder(kernel.getContext()), loc(kernel.getLoc()) {}

  LogicalResult run();

private:
  LogicalResult mapDims(ArrayRef<RangeOp> ranges, StringRef prefix,
                        const int64_t (&limits)[3], bool isBlock);
  LogicalResult combineGroup(RangeOp group);
  void gateStores(RangeOp group);
  /// `a` and `b` combined the way `update` accumulates (add, mul or max).
  Value combine(Operation *update, Value a, Value b) {
    if (isa<AddOp>(update))
      return builder.create<AddOp>(loc, a, b);
    if (isa<MulOp>(update))
      return builder.create<MulOp>(loc, a, b);
    return builder.create<MaxOp>(loc, a, b);
  }

  /// An index constant, made once at the top of the kernel.
  Value index(int64_t value) {
    Value &constant = constants[value];
    if (!constant) {
      OpBuilder top = OpBuilder::atBlockBegin(&kernel.getBlock());
      constant = top.create<ConstOp>(loc, top.getIndexAttr(value));
    }
    return constant;
  }
  Value add(Value a, Value b) {
    if (!a)
      return b;
    return builder.create<AddOp>(loc, a, b);
  }
  Value scale(Value a, int64_t factor) {
    return factor == 1 ? a : builder.create<MulOp>(loc, a, index(factor));
  }
  /// Whether `op` runs inside a loop that stays one (a reduce loop).
  bool insideLoop(Operation *op);

  KernelOp kernel;
  OpBuilder builder;
  Location loc;
  /// The value that replaces each mapped range.
  DenseMap<Operation *, Value> valueOf;
  /// For ranges mapped to threads: their stride in the thread's linear
  /// index within its block (lidx0 + B0 * (lidx1 + B1 * lidx2)).
  SmallVector<std::pair<RangeOp, int64_t>> threadStrides;
  int64_t blockThreads = 1;
  DenseMap<int64_t, Value> constants;
};

LogicalResult KernelMapper::mapDims(ArrayRef<RangeOp> ranges, StringRef prefix,
                                    const int64_t (&limits)[3], bool isBlock) {
  FailureOr<SmallVector<Dim, 3>> dims = groupDims(
      ranges, limits, kernel, isBlock ? "threads per block" : "blocks");
  if (failed(dims))
    return failure();
  int64_t outer = 1;
  for (auto [d, dim] : llvm::enumerate(*dims)) {
    int64_t bound = boundOf(dim);
    Value special = builder.create<SpecialOp>(
        loc, builder.getIndexType(), (prefix + Twine(d)).str(), bound);
    int64_t inner = 1;
    for (auto [i, range] : llvm::enumerate(dim)) {
      Value value = special;
      if (inner > 1)
        value = builder.create<IdivOp>(loc, value, index(inner));
      if (i + 1 < dim.size())
        value = builder.create<ModOp>(loc, value, index(range.getBound()));
      valueOf[range] = value;
      if (isBlock)
        threadStrides.push_back({range, outer * inner});
      inner *= range.getBound();
    }
    outer *= bound;
  }
  if (isBlock)
    blockThreads = outer;
  return success();
}

bool KernelMapper::insideLoop(Operation *target) {
  int depth = 0;
  for (Operation &op : kernel.getBlock()) {
    if (&op == target)
      break;
    if (auto range = dyn_cast<RangeOp>(op);
        range && range.getAxis() == AxisType::reduce)
      ++depth;
    if (auto end = dyn_cast<EndOp>(op))
      if (auto range = end.getRange().getDefiningOp<RangeOp>();
          range && range.getAxis() == AxisType::reduce)
        --depth;
  }
  return depth > 0;
}

/// An accumulator that a grouped reduce updates inside its group loop, as
/// tgc-linearize writes it: store(slot, op(load(slot), x)).
struct Accumulator {
  Value slot;
  Operation *update;
};

LogicalResult KernelMapper::combineGroup(RangeOp group) {
  EndOp end = findEnd(group);
  SmallVector<Accumulator> accumulators;
  for (Operation *op = group->getNextNode(); op && op != end;
       op = op->getNextNode()) {
    auto store = dyn_cast<StoreOp>(op);
    if (!store || !isIn(store.getPtr(), AddrSpace::reg))
      continue;
    Operation *update = store.getValue().getDefiningOp();
    if (!update || !isa<AddOp, MulOp, MaxOp>(update))
      continue;
    auto old = update->getOperand(0).getDefiningOp<LoadOp>();
    Operation *reg = getPointerBase(store.getPtr()).getDefiningOp();
    // Registers defined inside the group loop are the thread's own.
    if (!old || old.getPtr() != store.getPtr() || !reg ||
        !reg->isBeforeInBlock(group))
      continue;
    accumulators.push_back({store.getPtr(), update});
  }
  if (accumulators.empty())
    return group.emitOpError("is a group_reduce axis that no reduction "
                             "accumulates over");

  Value g = valueOf.lookup(group);
  int64_t stride = 0;
  for (auto [range, s] : threadStrides)
    if (range == group)
      stride = s;
  Block &body = kernel.getBlock();
  for (const Accumulator &acc : accumulators) {
    LoadOp read;
    for (Operation *op = end->getNextNode(); op && !read; op = op->getNextNode())
      if (auto load = dyn_cast<LoadOp>(op); load && load.getPtr() == acc.slot)
        read = load;
    if (!read)
      continue; // a result nobody reads

    Type type = read.getType();
    Type element = getElementTypeOrSelf(type);
    int64_t lanes = 1;
    if (auto vector = dyn_cast<VectorType>(type))
      lanes = vector.getNumElements();

    builder.setInsertionPointToStart(&body);
    Value smem = builder.create<DefineLocalOp>(
        loc, PtrType::get(kernel.getContext(), element, AddrSpace::local),
        blockThreads * lanes);

    builder.setInsertionPoint(read);
    bool again = insideLoop(read);
    // The linear index of this thread without its group part (null when
    // the group is the only thread axis): the threads of one reduction
    // differ only in g.
    Value base;
    for (auto [range, s] : threadStrides)
      if (range != group)
        base = add(base, scale(valueOf.lookup(range), s));
    Value partial = builder.create<LoadOp>(loc, type, acc.slot, Value());
    if (again)
      builder.create<BarrierOp>(loc);
    auto slotOf = [&](Value member) {
      return scale(add(base, scale(member, stride)), lanes);
    };
    Value mine = slotOf(g);
    builder.create<StoreOp>(
        loc, builder.create<IndexOp>(loc, smem, mine, Value()), partial);
    builder.create<BarrierOp>(loc);
    // A tree: each step folds the upper half of the live partials onto the
    // lower half, so a group of N threads combines in ceil(log2 N) steps
    // instead of every thread adding all N partials one after another.
    for (int64_t live = group.getBound(); live > 1;) {
      int64_t half = (live + 1) / 2;
      Value active = builder.create<CmpltOp>(loc, g, index(live - half));
      Value theirs = builder.create<LoadOp>(
          loc, type,
          builder.create<IndexOp>(loc, smem,
                                  slotOf(add(g, index(half))), active),
          Value());
      Value own = builder.create<LoadOp>(
          loc, type, builder.create<IndexOp>(loc, smem, mine, Value()),
          Value());
      Value combined = combine(acc.update, own, theirs);
      builder.create<StoreOp>(
          loc, builder.create<IndexOp>(loc, smem, mine, active), combined);
      builder.create<BarrierOp>(loc);
      live = half;
    }
    Value total = builder.create<LoadOp>(
        loc, type,
        builder.create<IndexOp>(loc, smem, base ? scale(base, lanes) : index(0),
                                Value()),
        Value());
    builder.create<StoreOp>(loc, acc.slot, total);
  }
  return success();
}

void KernelMapper::gateStores(RangeOp group) {
  Value g = valueOf.lookup(group);
  DependenceMemo memo;
  SmallVector<StoreOp> stores;
  kernel.walk([&](StoreOp store) {
    if (isIn(store.getPtr(), AddrSpace::global))
      stores.push_back(store);
  });
  for (StoreOp store : stores) {
    builder.setInsertionPoint(store);
    auto address = store.getPtr().getDefiningOp<IndexOp>();
    Value buffer = address ? address.getBuf() : store.getPtr();
    Value offset = address ? address.getIdx() : index(0);
    Value gate = address ? address.getGate() : Value();
    if (dependsOn(offset, g, memo) || (gate && dependsOn(gate, g, memo)))
      continue;
    // Every thread of the group holds the same result; one writes it.
    Value first = builder.create<CmpeqOp>(loc, g, index(0));
    gate = gate ? builder.create<AndOp>(loc, gate, first) : first;
    store.getPtrMutable().assign(
        builder.create<IndexOp>(loc, buffer, offset, gate));
    if (address && address->use_empty())
      address->erase();
  }
}

LogicalResult KernelMapper::run() {
  Block &body = kernel.getBlock();
  SmallVector<RangeOp> outputs, locals, groups;
  for (Operation &op : body) {
    if (isa<SpecialOp>(op))
      return success(); // mapped already
    auto range = dyn_cast<RangeOp>(op);
    if (!range)
      continue;
    switch (range.getAxis()) {
    case AxisType::global:
    case AxisType::loop:
      outputs.push_back(range);
      break;
    case AxisType::local:
      locals.push_back(range);
      break;
    case AxisType::group_reduce:
      groups.push_back(range);
      break;
    case AxisType::reduce:
      break;
    case AxisType::thread:
      return range.emitOpError("is a THREAD axis, which only the C target "
                               "runs; a GPU runs output axes as threads");
    case AxisType::upcast:
    case AxisType::unroll:
      return range.emitOpError("is a lane axis; tgc-expand writes those out "
                               "before tgc-gpu-dims");
    }
  }

  // Innermost first: the innermost output axis is gidx0 (x), whose limit
  // is the largest. Group axes come first among the thread axes: the
  // threads of a warp then split a reduction, whose elements are usually
  // contiguous, and read neighbouring addresses.
  SmallVector<RangeOp> grid(llvm::reverse(outputs));
  SmallVector<RangeOp> threads(llvm::reverse(groups));
  llvm::append_range(threads, llvm::reverse(locals));
  builder.setInsertionPointToStart(&body);
  if (failed(mapDims(grid, "gidx", GpuLimits::kMaxGridDim, false)) ||
      failed(mapDims(threads, "lidx", GpuLimits::kMaxBlockDim, true)))
    return failure();
  if (blockThreads > GpuLimits::kMaxThreadsPerBlock)
    return kernel.emitOpError("has ")
           << blockThreads << " threads per block, more than "
           << GpuLimits::kMaxThreadsPerBlock;

  for (RangeOp group : groups)
    if (failed(combineGroup(group)))
      return failure();
  for (RangeOp group : groups)
    gateStores(group);

  for (SmallVector<RangeOp> *kind : {&outputs, &locals, &groups})
    for (RangeOp range : *kind) {
      if (EndOp end = findEnd(range))
        end.erase();
      range.getResult().replaceAllUsesWith(valueOf.lookup(range));
      range.erase();
    }

  if (int64_t bytes = getSharedBytes(kernel); bytes > GpuLimits::kMaxSharedBytes)
    return kernel.emitOpError("needs ")
           << bytes << " bytes of workgroup memory, more than "
           << GpuLimits::kMaxSharedBytes;
  return success();
}

struct GpuDims : impl::TgcGpuDimsBase<GpuDims> {
  using TgcGpuDimsBase::TgcGpuDimsBase;

  void runOnOperation() final {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) {
      if (kernel.isLowered())
        kernels.push_back(kernel);
    });
    for (KernelOp kernel : kernels)
      if (failed(KernelMapper(kernel).run()))
        return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tgc
