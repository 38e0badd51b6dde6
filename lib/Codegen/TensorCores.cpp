//===- TensorCores.cpp - the TC action: matmul tiles on tensor cores -*- C++ -*-===//
//
// The match (which reduce, which loads, which axes) and the rewrite that
// TensorCores.h describes. The rewrite builds the new program in front of
// the old one, cloning the old ops it needs (the loads' index expressions,
// the code after the reduce) with the tile's indices in place of the axes,
// then erases the old program.
//
//===----------------------------------------------------------------------===//

#include "Codegen/TensorCores.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

using RangeSet = llvm::SmallPtrSet<Operation *, 4>;

/// The ranges each value of `kernel` is computed from. A tgc.reduce's
/// result does not depend on the ranges it closes.
class RangeDeps {
public:
  explicit RangeDeps(KernelOp kernel) {
    for (Operation &op : kernel.getBlock()) {
      if (op.getNumResults() != 1)
        continue;
      RangeSet set;
      if (isa<RangeOp>(op))
        set.insert(&op);
      for (Value operand : op.getOperands())
        if (auto it = deps.find(operand); it != deps.end())
          set.insert(it->second.begin(), it->second.end());
      if (auto reduce = dyn_cast<ReduceOp>(op))
        for (Value r : reduce.getRanges())
          set.erase(r.getDefiningOp());
      deps[op.getResult(0)] = std::move(set);
    }
  }
  bool has(Value value, RangeOp range) const {
    auto it = deps.find(value);
    return it != deps.end() && it->second.contains(range);
  }
  const RangeSet *of(Value value) const {
    auto it = deps.find(value);
    return it == deps.end() ? nullptr : &it->second;
  }

private:
  llvm::DenseMap<Value, RangeSet> deps;
};

bool isOutputAxis(AxisType axis) {
  return axis == AxisType::global || axis == AxisType::loop;
}

/// What checkTensorCores found: the reduce, its two loads (`a` walks M,
/// `b` walks N) and the axes.
struct Match {
  ReduceOp reduce;
  LoadOp a, b;
  RangeOp m, n, k;
};

/// A load from a global buffer through a tgc.index, or null.
LoadOp globalLoad(Value value) {
  auto load = value.getDefiningOp<LoadOp>();
  if (!load || !load.getPtr().getDefiningOp<IndexOp>() ||
      cast<PtrType>(load.getPtr().getType()).getAddrSpace() !=
          AddrSpace::global)
    return nullptr;
  return load;
}

std::string match(KernelOp kernel, const OptAction &action, Match &found) {
  if (action.amount != 8 && action.amount != 16)
    return "the tile is 16 (CUDA wmma) or 8 (Metal simdgroup matrices)";
  SmallVector<ReduceOp> reduces;
  for (Operation &op : kernel.getBlock()) {
    if (auto range = dyn_cast<RangeOp>(op);
        range && !isOutputAxis(range.getAxis()) &&
        range.getAxis() != AxisType::reduce)
      return "tensor cores come first: the kernel has a " +
             stringifyAxisType(range.getAxis()).str() + " axis";
    if (auto reduce = dyn_cast<ReduceOp>(op))
      reduces.push_back(reduce);
  }
  if (reduces.size() != 1)
    return "the kernel has no reduce or more than one";
  ReduceOp reduce = reduces.front();
  if (reduce.getKind() != ReduceKind::add || !reduce.getType().isF32())
    return "the reduce is not a sum of f32 scalars";
  auto mul = reduce.getSrc().getDefiningOp<MulOp>();
  LoadOp x = mul ? globalLoad(mul.getLhs()) : nullptr;
  LoadOp y = mul ? globalLoad(mul.getRhs()) : nullptr;
  if (!x || !y)
    return "the reduce does not add products of two loads";

  RangeOp m = findRange(kernel, action.axis);
  RangeOp n = findRange(kernel, action.nAxis);
  RangeOp k = findRange(kernel, action.kAxis);
  if (!m || !n || !k)
    return "the kernel lacks one of the axes";
  if (m == n || !isOutputAxis(m.getAxis()) || !isOutputAxis(n.getAxis()))
    return "M and N must be two output axes";
  if (!llvm::is_contained(reduce.getRanges(), k.getResult()))
    return "K is not an axis of the reduce";

  RangeDeps deps(kernel);
  auto walks = [&](LoadOp load, RangeOp range) {
    return deps.has(load.getResult(), range);
  };
  if (walks(y, m) && !walks(y, n) && walks(x, n) && !walks(x, m))
    std::swap(x, y);
  if (!(walks(x, m) && !walks(x, n) && walks(y, n) && !walks(y, m)))
    return "one load must walk M and not N, the other N and not M";
  if (!walks(x, k) || !walks(y, k))
    return "both loads must walk K";

  // What follows the reduce is cloned per element of the tile: it may
  // read the output axes, never a reduce axis; nothing is stored before.
  bool after = false;
  for (Operation &op : kernel.getBlock()) {
    if (&op == reduce.getOperation()) {
      after = true;
      continue;
    }
    if (!after) {
      if (isa<StoreOp>(op))
        return "the kernel stores before its reduce";
      continue;
    }
    for (Value operand : op.getOperands())
      if (const RangeSet *set = deps.of(operand))
        for (Operation *range : *set)
          if (cast<RangeOp>(range).getAxis() == AxisType::reduce)
            return "the code after the reduce reads a reduce axis";
  }
  found = {reduce, x, y, m, n, k};
  return "";
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Builds the tensor-core program of a matched kernel.
class Rewriter {
public:
  Rewriter(KernelOp kernel, Match found, int64_t tile)
      : kernel(kernel), found(found), tile(tile), builder(kernel),
        loc(kernel.getLoc()) {}
  void run();

private:
  Value constant(int64_t value) {
    return builder.create<ConstOp>(loc, builder.getIndexAttr(value));
  }
  Value add(Value a, Value b) { return builder.create<AddOp>(loc, a, b); }
  Value mul(Value a, int64_t b) {
    return builder.create<MulOp>(loc, a, constant(b));
  }
  RangeOp open(int64_t bound, AxisType axis, int64_t id) {
    return builder.create<RangeOp>(loc, builder.getIndexType(), bound, axis,
                                   id);
  }
  void close(Value range) { builder.create<EndOp>(loc, range); }
  /// `value < bound` when `bound` is not a multiple of `step` (the padding
  /// of the last tile), else null; `gate` and-ed in.
  Value inBounds(Value gate, Value value, int64_t bound, int64_t step) {
    if (bound % step == 0)
      return gate;
    Value valid = builder.create<CmpltOp>(loc, value, constant(bound));
    return gate ? builder.create<AndOp>(loc, gate, valid) : valid;
  }
  /// `value` of the old program, computed here: from `map`, or by cloning
  /// the ops it is made from.
  Value remap(Value value, IRMapping &map);
  /// The old load `load` with the axes `map` gives, reading 0 where
  /// `valid` is false.
  Value gatedLoad(LoadOp load, IRMapping &map, Value valid);
  /// The threads copy a `rows` x `cols` tile of `load` to `smem`; `rowAxis`
  /// and `colAxis` (old ranges) get `rowBase + row` and `colBase + col`.
  void stage(Value smem, LoadOp load, int64_t rows, int64_t cols,
             RangeOp rowAxis, Value rowBase, RangeOp colAxis, Value colBase);

  KernelOp kernel;
  Match found;
  int64_t tile;
  OpBuilder builder;
  Location loc;
  /// Old ranges kept as they were, to their new selves.
  IRMapping kept;
  Value lane, tileM, tileN, stepK;
  int64_t nextId = 0;
};

Value Rewriter::remap(Value value, IRMapping &map) {
  if (Value mapped = map.lookupOrNull(value))
    return mapped;
  Operation *def = value.getDefiningOp();
  if (!def)
    return value; // a kernel argument
  for (Value operand : def->getOperands())
    remap(operand, map);
  builder.clone(*def, map);
  return map.lookup(value);
}

Value Rewriter::gatedLoad(LoadOp load, IRMapping &map, Value valid) {
  auto index = load.getPtr().getDefiningOp<IndexOp>();
  Value idx = remap(index.getIdx(), map);
  Value gate = index.getGate() ? remap(index.getGate(), map) : Value();
  if (valid)
    gate = gate ? builder.create<AndOp>(loc, gate, valid) : valid;
  Value ptr = builder.create<IndexOp>(loc, index.getBuf(), idx, gate);
  Value alt;
  if (gate)
    alt = load.getAlt() ? remap(load.getAlt(), map)
                        : builder.create<ConstOp>(
                              loc, builder.getF32FloatAttr(0.0f));
  return builder.create<LoadOp>(loc, load.getType(), ptr, alt);
}

void Rewriter::stage(Value smem, LoadOp load, int64_t rows, int64_t cols,
                     RangeOp rowAxis, Value rowBase, RangeOp colAxis,
                     Value colBase) {
  // Element e = s * 32 + lane: neighbouring threads take neighbouring
  // columns, which are neighbouring addresses when the load walks K (A) or
  // N (B) contiguously.
  RangeOp step = open(rows * cols / kTensorCoreThreads, AxisType::reduce,
                      nextId++);
  Value element = add(mul(step, kTensorCoreThreads), lane);
  Value row = builder.create<IdivOp>(loc, element, constant(cols));
  Value col = builder.create<ModOp>(loc, element, constant(cols));
  Value rowIndex = add(rowBase, row), colIndex = add(colBase, col);
  Value valid = inBounds(Value(), rowIndex, rowAxis.getBound(), rows);
  valid = inBounds(valid, colIndex, colAxis.getBound(), cols);
  IRMapping map = kept;
  map.map(rowAxis.getResult(), rowIndex);
  map.map(colAxis.getResult(), colIndex);
  Value value = gatedLoad(load, map, valid);
  builder.create<StoreOp>(
      loc, builder.create<IndexOp>(loc, smem, element, Value()), value);
  close(step);
}

void Rewriter::run() {
  Block &block = kernel.getBlock();
  Operation *sink = block.getTerminator();
  SmallVector<Operation *> old;
  SmallVector<RangeOp> outputs;
  for (Operation &op : block) {
    if (&op == sink)
      continue;
    old.push_back(&op);
    if (auto range = dyn_cast<RangeOp>(op)) {
      nextId = std::max<int64_t>(nextId, (int64_t)range.getId() + 1);
      if (isOutputAxis(range.getAxis()))
        outputs.push_back(range);
    }
  }
  builder.setInsertionPointToStart(&block);
  MLIRContext *context = kernel.getContext();
  Type f32 = builder.getF32Type();
  RangeOp m = found.m, n = found.n, k = found.k;

  // The grid: every output axis, M and N counted in tiles, in the old
  // order so the innermost output axis stays the innermost grid axis.
  SmallVector<Value> opened;
  for (RangeOp range : outputs) {
    int64_t bound = range == m || range == n
                        ? ceilDiv(range.getBound(), tile)
                        : range.getBound();
    RangeOp fresh = open(bound, range.getAxis(), range.getId());
    opened.push_back(fresh);
    if (range == m)
      tileM = fresh;
    else if (range == n)
      tileN = fresh;
    else
      kept.map(range.getResult(), fresh.getResult());
  }
  RangeOp warp = open(kTensorCoreThreads, AxisType::local, nextId++);
  lane = warp;
  auto local = PtrType::get(context, f32, AddrSpace::local);
  Value tileA = builder.create<DefineLocalOp>(loc, local, tile * kTensorCoreK);
  Value tileB = builder.create<DefineLocalOp>(loc, local, kTensorCoreK * tile);
  Value tileC = builder.create<DefineLocalOp>(loc, local, tile * tile);
  Value acc = builder.create<DefineAccOp>(
      loc, PtrType::get(context, f32, AddrSpace::reg), tile, tile);

  // Where the tile starts, outside the loops (the tail reads them too).
  Value firstM = mul(tileM, tile), firstN = mul(tileN, tile);

  // The reduce: its other axes as loops around the steps of K.
  SmallVector<Value> loops;
  for (Value r : found.reduce.getRanges()) {
    auto range = r.getDefiningOp<RangeOp>();
    if (range == k)
      continue;
    RangeOp fresh = open(range.getBound(), AxisType::reduce, range.getId());
    kept.map(r, fresh.getResult());
    loops.push_back(fresh);
  }
  RangeOp steps = open(ceilDiv(k.getBound(), kTensorCoreK), AxisType::reduce,
                       k.getId());
  loops.push_back(steps);
  Value firstK = mul(steps, kTensorCoreK);
  stage(tileA, found.a, tile, kTensorCoreK, m, firstM, k, firstK);
  stage(tileB, found.b, kTensorCoreK, tile, k, firstK, n, firstN);
  builder.create<BarrierOp>(loc);
  builder.create<WmmaOp>(loc, acc, tileA, tileB, kTensorCoreK);
  // No thread stages the next step's tiles before the warp has read these.
  builder.create<BarrierOp>(loc);
  for (Value loop : llvm::reverse(loops))
    close(loop);

  builder.create<StoreAccOp>(loc, tileC, acc);
  builder.create<BarrierOp>(loc);

  // Each thread finishes its elements of the tile with the code that
  // followed the reduce, the reduce's value read from the stored tile.
  RangeOp each = open(tile * tile / kTensorCoreThreads, AxisType::reduce,
                      nextId++);
  Value element = add(mul(each, kTensorCoreThreads), lane);
  Value i = add(firstM, builder.create<IdivOp>(loc, element, constant(tile)));
  Value j = add(firstN, builder.create<ModOp>(loc, element, constant(tile)));
  Value valid = inBounds(Value(), i, m.getBound(), tile);
  valid = inBounds(valid, j, n.getBound(), tile);
  if (valid)
    builder.create<IfOp>(loc, valid);
  IRMapping map = kept;
  map.map(m.getResult(), i);
  map.map(n.getResult(), j);
  map.map(found.reduce.getResult(),
          builder.create<LoadOp>(
              loc, f32, builder.create<IndexOp>(loc, tileC, element, Value()),
              Value()));
  bool after = false;
  for (Operation *op : old) {
    if (op == found.reduce.getOperation()) {
      after = true;
      continue;
    }
    if (!after || isa<EndOp, RangeOp>(op))
      continue;
    for (Value operand : op->getOperands())
      remap(operand, map);
    builder.clone(*op, map);
  }
  if (valid)
    builder.create<EndifOp>(loc);
  close(each);
  close(warp);
  for (Value range : llvm::reverse(opened))
    close(range);

  for (Operation *op : llvm::reverse(old)) {
    op->dropAllUses();
    op->erase();
  }
}

} // namespace

std::string mlir::tgc::checkTensorCores(KernelOp kernel,
                                        const OptAction &action) {
  Match found;
  return match(kernel, action, found);
}

void mlir::tgc::applyTensorCores(KernelOp kernel, const OptAction &action) {
  Match found;
  std::string whyNot = match(kernel, action, found);
  assert(whyNot.empty() && "checkTensorCores accepts the action");
  (void)whyNot;
  Rewriter(kernel, found, action.amount).run();
}

std::optional<OptAction> mlir::tgc::chooseTensorCores(KernelOp kernel,
                                                      int64_t tile) {
  SmallVector<RangeOp> outputs, reduces;
  for (Operation &op : kernel.getBlock())
    if (auto range = dyn_cast<RangeOp>(op)) {
      if (isOutputAxis(range.getAxis()))
        outputs.push_back(range);
      else if (range.getAxis() == AxisType::reduce)
        reduces.push_back(range);
    }
  std::optional<OptAction> best;
  double bestWaste = 0;
  size_t bestN = 0;
  for (RangeOp m : outputs)
    for (auto [nPosition, n] : llvm::enumerate(outputs))
      for (RangeOp k : reduces) {
        int64_t mb = m.getBound(), nb = n.getBound(), kb = k.getBound();
        if (m == n || mb < tile || nb < tile || kb < kTensorCoreK)
          continue;
        OptAction action{OptKind::Tc, (int64_t)m.getId(), tile};
        action.nAxis = n.getId();
        action.kAxis = k.getId();
        if (!checkTensorCores(kernel, action).empty())
          continue;
        // Padded multiply-adds per real one.
        double waste = double(ceilDiv(mb, tile) * tile) / mb *
                       (double(ceilDiv(nb, tile) * tile) / nb) *
                       (double(ceilDiv(kb, kTensorCoreK) * kTensorCoreK) / kb);
        bool better = !best || waste < bestWaste - 1e-9 ||
                      (waste < bestWaste + 1e-9 && nPosition > bestN);
        if (better) {
          best = action;
          bestWaste = waste;
          bestN = nPosition;
        }
      }
  return best;
}

bool mlir::tgc::usesTensorCores(KernelOp kernel) {
  bool found = false;
  kernel.walk([&](WmmaOp) { found = true; });
  return found;
}
