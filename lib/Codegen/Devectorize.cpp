//===- Devectorize.cpp - lanes of contiguous addresses into vector accesses -=//
//
// tgc-expand leaves one scalar load or store per lane, each with its own
// index expression, because only after tgc-symbolic has simplified them can
// two indices be compared. Here the lanes whose indices are `i, i+1, ...`
// become one vector access (tinygrad's devectorizer folds expanded loads
// and stores the same way); the rest stays a gather of scalars.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Passes.h"
#include "Codegen/Symbolic.h"
#include "IR/TgcOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCDEVECTORIZE
#include "Codegen/Passes.h.inc"

namespace {

/// True if `b` is `a + offset` as linear sums of the same atoms.
bool isOffsetBy(const LinearSum &a, Value bValue, int64_t offset) {
  LinearSum b = linearSumOf(bValue);
  if (b.constant - a.constant != offset || a.terms.size() != b.terms.size())
    return false;
  return llvm::all_of(a.terms, [&](const std::pair<Value, int64_t> &term) {
    return llvm::is_contained(b.terms, term);
  });
}

/// The indices of `pointers` (one per lane, in lane order) if they address
/// consecutive elements of one buffer under one gate: the index of lane 0.
IndexOp contiguousBase(ArrayRef<Value> pointers) {
  SmallVector<IndexOp> indices;
  for (Value pointer : pointers) {
    auto index = pointer.getDefiningOp<IndexOp>();
    if (!index)
      return nullptr;
    indices.push_back(index);
  }
  IndexOp first = indices.front();
  LinearSum base = linearSumOf(first.getIdx());
  for (auto [lane, index] : llvm::enumerate(indices)) {
    if (index.getBuf() != first.getBuf() || index.getGate() != first.getGate())
      return nullptr;
    if (lane && !isOffsetBy(base, index.getIdx(), lane))
      return nullptr;
  }
  return first;
}

// vectorize(load(buf[i]), ..., load(buf[i+n-1])) => load(buf[i]) : vector
void foldLoads(VectorizeOp vectorize) {
  SmallVector<Value> pointers;
  Value alt;
  for (auto [lane, src] : llvm::enumerate(vectorize.getSrcs())) {
    auto load = src.getDefiningOp<LoadOp>();
    if (!load || isa<VectorType>(load.getType()))
      return;
    if (lane && load.getAlt() != alt)
      return;
    alt = load.getAlt();
    pointers.push_back(load.getPtr());
  }
  IndexOp base = contiguousBase(pointers);
  if (!base)
    return;
  OpBuilder builder(vectorize);
  Location loc = vectorize.getLoc();
  Value vectorAlt;
  if (alt)
    vectorAlt = builder.create<VectorizeOp>(
        loc, vectorize.getType(),
        SmallVector<Value>(vectorize.getSrcs().size(), alt));
  Value load = builder.create<LoadOp>(loc, vectorize.getType(), base, vectorAlt);
  SmallVector<Operation *> lanes;
  for (Value src : vectorize.getSrcs())
    lanes.push_back(src.getDefiningOp());
  vectorize.replaceAllUsesWith(load);
  vectorize.erase();
  for (Operation *lane : lanes) {
    if (!lane->use_empty())
      continue;
    Operation *index = lane->getOperand(0).getDefiningOp();
    lane->erase();
    if (index != base && index->use_empty())
      index->erase();
  }
}

// store(buf[i], gep(v, 0)); ...; store(buf[i+n-1], gep(v, n-1))
//   => store(buf[i], v)
void foldStores(Block &block) {
  llvm::DenseMap<Value, SmallVector<StoreOp>> byVector;
  llvm::DenseSet<Value> ambiguous;
  for (Operation &op : block) {
    auto store = dyn_cast<StoreOp>(op);
    auto gep = store ? store.getValue().getDefiningOp<GepOp>() : GepOp();
    if (!gep)
      continue;
    auto lanes = cast<VectorType>(gep.getSrc().getType()).getNumElements();
    SmallVector<StoreOp> &stores = byVector[gep.getSrc()];
    if (stores.empty())
      stores.resize(lanes);
    // Two stores of one lane (to different buffers): leave it all alone.
    StoreOp &slot = stores[gep.getLane()];
    if (slot)
      ambiguous.insert(gep.getSrc());
    slot = store;
  }
  for (auto &[vector, stores] : byVector) {
    if (ambiguous.contains(vector) ||
        llvm::any_of(stores, [](StoreOp s) { return !s; }))
      continue;
    SmallVector<Value> pointers;
    for (StoreOp store : stores)
      pointers.push_back(store.getPtr());
    IndexOp base = contiguousBase(pointers);
    if (!base)
      continue;
    // After the last lane's store, where every lane's value is computed.
    Operation *last = stores.front();
    for (StoreOp store : stores)
      if (last->isBeforeInBlock(store))
        last = store;
    OpBuilder builder(last->getContext());
    builder.setInsertionPointAfter(last);
    builder.create<StoreOp>(last->getLoc(), base.getResult(), vector);
    for (StoreOp store : stores) {
      Operation *gep = store.getValue().getDefiningOp();
      Operation *index = store.getPtr().getDefiningOp();
      store.erase();
      if (gep->use_empty())
        gep->erase();
      if (index != base && index->use_empty())
        index->erase();
    }
  }
}

struct Devectorize : impl::TgcDevectorizeBase<Devectorize> {
  using TgcDevectorizeBase::TgcDevectorizeBase;

  void runOnOperation() final {
    getOperation().walk([&](KernelOp kernel) {
      if (!kernel.isLowered())
        return;
      SmallVector<VectorizeOp> vectorizes;
      kernel.walk([&](VectorizeOp v) { vectorizes.push_back(v); });
      for (VectorizeOp v : vectorizes)
        foldLoads(v);
      foldStores(kernel.getBlock());
    });
  }
};

} // namespace
} // namespace mlir::tgc
