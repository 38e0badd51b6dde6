//===- Devectorize.cpp - lanes of contiguous addresses into vector accesses -=//
//
// tgc-expand leaves one scalar load or store per lane, each with its own
// index expression, because only after tgc-symbolic has simplified them can
// two indices be compared. Here the lanes whose indices are `i, i+1, ...`
// become one vector access (tinygrad's devectorizer folds expanded loads
// and stores the same way); the rest stays a gather of scalars. Lanes of an
// axis padded to the vector (PADTO) whose gates fold to false past the old
// bound make a partial access of the leading lanes (PartialVectors.h);
// lanes of an axis padded past several vectors, whose vectors run in a
// loop, have gates `first + lane < limit` that fold to nothing, and make an
// access whose active lanes are counted at run time (kLaneLimitAttr).
// Loads of every other element, `i, i+2, ...` (a convolution or pool of
// stride 2 along its vector axis), become two contiguous vector loads whose
// even lanes are picked: the C compiler turns that into one permute
// (vpermt2ps on AVX-512) instead of a load and an insert per lane.
//
//===----------------------------------------------------------------------===//

#include "Codegen/PartialVectors.h"
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

/// Lanes of a vector access whose indices are `stride` elements apart in
/// one buffer (consecutive for 1): `base` is the index of lane 0, and lanes
/// [0, active) share its gate. Lanes past `active` have a gate that is
/// constant false (those of an axis padded to the vector, PADTO) or no
/// access at all: a partial access leaves them alone.
struct SpacedLanes {
  IndexOp base;
  int64_t active = 0;
  /// The lanes' gates are `first + lane < limit` (kLaneLimitAttr): base's
  /// gate is lane 0's, the active lanes known at run time.
  bool laneLimit = false;
};

/// Operand `which` of a gate `rest and less` (the comparison) and the
/// other one (`rest`), or, for which == 1, a gate that is a comparison
/// alone (no `rest`).
CmpltOp gateComparison(Value gate, unsigned which, Value &rest) {
  rest = Value();
  if (!gate)
    return {};
  if (auto both = gate.getDefiningOp<AndOp>()) {
    rest = both.getOperand(1 - which);
    return both.getOperand(which).getDefiningOp<CmpltOp>();
  }
  return which == 1 ? gate.getDefiningOp<CmpltOp>() : CmpltOp();
}

/// Lanes whose gates are `rest and first + lane < limit` (either order)
/// with one `rest` (or none) and one `limit`: an axis padded past several
/// vectors, whose vectors run in a loop (ViT's 197 tokens in 13 vectors of
/// 16). Leading lanes may have just `rest`, where tgc-symbolic proved the
/// comparison true (lanes 0-4 of 197 = 12 * 16 + 5).
struct LaneLimit {
  Value rest;
  /// Lane 0's `first`, and `limit`.
  LinearSum first;
  Value limit;
};

std::optional<LaneLimit> matchLaneLimit(ArrayRef<IndexOp> indices) {
  for (unsigned which : {1u, 0u}) {
    // The first lane whose gate has the comparison.
    int64_t gated = 0;
    Value rest;
    CmpltOp less;
    for (; gated < (int64_t)indices.size(); ++gated) {
      if (!indices[gated])
        return std::nullopt;
      IndexOp index = indices[gated];
      if ((less = gateComparison(index.getGate(), which, rest)))
        break;
    }
    if (!less)
      continue;
    LinearSum base = linearSumOf(less.getOperand(0));
    Value limit = less.getOperand(1);
    bool all = true;
    for (auto [lane, laneIndex] : llvm::enumerate(indices)) {
      IndexOp index = laneIndex;
      if (!index)
        return std::nullopt;
      Value gate = index.getGate(), laneRest;
      if ((int64_t)lane < gated) {
        all &= gate == rest || (!rest && constantBool(gate) == true);
        continue;
      }
      CmpltOp laneLess = gateComparison(gate, which, laneRest);
      all &= laneLess && laneRest == rest && laneLess.getOperand(1) == limit &&
             isOffsetBy(base, laneLess.getOperand(0), lane - gated);
    }
    if (!all)
      continue;
    base.constant -= gated;
    return LaneLimit{rest, base, limit};
  }
  return std::nullopt;
}

/// `pointers` holds one pointer per lane in lane order, null for a lane
/// with no access (only stores have none). Lanes gated by a lane limit get
/// a new base index at `builder`'s insertion point, where the vector
/// access goes, gated by `rest and (first < limit)` (laneLimitOf).
std::optional<SpacedLanes> spacedLanes(ArrayRef<Value> pointers, int64_t stride,
                                       OpBuilder &builder) {
  SmallVector<IndexOp> indices;
  for (Value pointer : pointers) {
    auto index = pointer ? pointer.getDefiningOp<IndexOp>() : IndexOp();
    if (pointer && !index)
      return std::nullopt;
    indices.push_back(index);
  }
  IndexOp first = indices.front();
  if (!first || constantBool(first.getGate()) == false)
    return std::nullopt;
  LinearSum base = linearSumOf(first.getIdx());
  int64_t active = indices.size();
  std::optional<LaneLimit> laneLimit;
  for (auto [lane, index] : llvm::enumerate(indices)) {
    bool idle = !index || constantBool(index.getGate()) == false;
    if (idle) {
      active = std::min<int64_t>(active, lane);
      continue;
    }
    // An active lane after an idle one: not a prefix.
    if ((int64_t)lane > active || index.getBuf() != first.getBuf())
      return std::nullopt;
    if (index.getGate() != first.getGate() && !laneLimit) {
      if (stride != 1 || active != (int64_t)indices.size() ||
          !(laneLimit = matchLaneLimit(indices)))
        return std::nullopt;
    }
    if (lane && !isOffsetBy(base, index.getIdx(), stride * lane))
      return std::nullopt;
  }
  if (!laneLimit)
    return SpacedLanes{first, active, false};
  Location loc = first.getLoc();
  Value comparison = builder.create<CmpltOp>(
      loc, buildLinearSum(builder, loc, laneLimit->first), laneLimit->limit);
  Value gate =
      laneLimit->rest
          ? builder.create<AndOp>(loc, laneLimit->rest, comparison).getResult()
          : comparison;
  auto index = builder.create<IndexOp>(loc, first.getType(), first.getBuf(),
                                       first.getIdx(), gate);
  return SpacedLanes{index, active, true};
}

/// The elements of the buffer `index` points into, if it is one of the
/// kernel's (an input or an output, whose tensor type says).
std::optional<int64_t> bufferElements(IndexOp index) {
  auto arg = dyn_cast<BlockArgument>(index.getBuf());
  auto kernel = arg ? dyn_cast<KernelOp>(arg.getOwner()->getParentOp())
                    : KernelOp();
  if (!kernel)
    return std::nullopt;
  unsigned number = arg.getArgNumber(), inputs = kernel.getInputs().size();
  Type type = number < inputs
                  ? kernel.getInputs()[number].getType()
                  : kernel.getResultTypes()[number - inputs];
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  return shaped.getNumElements();
}

/// Marks a vector access that touches only its first `active` lanes; the
/// padding gate its lanes had folded to true is dropped (so is that of a
/// whole vector: the first of a padded axis upcast into several).
void setActiveLanes(Operation *access, IndexOp base, int64_t active,
                    int64_t lanes, bool laneLimit = false) {
  if (laneLimit) {
    access->setAttr(kLaneLimitAttr, UnitAttr::get(access->getContext()));
    return;
  }
  if (constantBool(base.getGate()) == true)
    base.getGateMutable().clear();
  if (active == lanes)
    return;
  access->setAttr(kActiveLanesAttr,
                  Builder(access->getContext()).getI64IntegerAttr(active));
}

/// True if `value` is the constant +0.0, what a partial load with no
/// alternative value fills its idle lanes with.
bool isPositiveZero(Value value) {
  auto constant = value.getDefiningOp<ConstOp>();
  auto number = constant ? dyn_cast<FloatAttr>(constant.getValue()) : nullptr;
  return number && number.getValue().isPosZero();
}

// vectorize(load(buf[i]), ..., load(buf[i+n-1])) => load(buf[i]) : vector
// Trailing lanes may be constants: the padding lanes of a row whose gates
// folded to false once tgc-unswitch decided which part of a concatenation
// a copy of the loop reads (their loads became the alternative value).
void foldLoads(VectorizeOp vectorize) {
  SmallVector<Value> pointers;
  Value alt;
  DenseMap<int64_t, Value> constantLanes;
  for (auto [lane, src] : llvm::enumerate(vectorize.getSrcs())) {
    if (lane && src.getDefiningOp<ConstOp>()) {
      constantLanes[lane] = src;
      pointers.push_back(Value());
      continue;
    }
    auto load = src.getDefiningOp<LoadOp>();
    if (!load || isa<VectorType>(load.getType()))
      return;
    if (lane && load.getAlt() != alt)
      return;
    alt = load.getAlt();
    pointers.push_back(load.getPtr());
  }
  int64_t n = pointers.size();
  OpBuilder builder(vectorize);
  std::optional<SpacedLanes> contiguous = spacedLanes(pointers, 1, builder);
  // Every other element: worth two loads and a permute from 4 lanes on.
  std::optional<SpacedLanes> strided;
  if (!contiguous && n >= 4 && n % 2 == 0)
    strided = spacedLanes(pointers, 2, builder);
  if (!contiguous && !strided)
    return;
  // A partial load fills its idle lanes with the alternative value (else
  // +0.0): the constant lanes must hold just that.
  if (contiguous)
    for (auto [lane, constant] : constantLanes)
      if (alt ? constant != alt : !isPositiveZero(constant))
        return;
  Location loc = vectorize.getLoc();
  auto type = cast<VectorType>(vectorize.getType());
  Value vectorAlt;
  if (alt)
    vectorAlt = builder.create<VectorizeOp>(loc, type,
                                            SmallVector<Value>(n, alt));
  Value folded;
  SmallVector<IndexOp, 2> kept;
  if (contiguous) {
    auto load = builder.create<LoadOp>(loc, type, contiguous->base, vectorAlt);
    setActiveLanes(load, contiguous->base, contiguous->active, n,
                   contiguous->laneLimit);
    folded = load;
    kept.push_back(contiguous->base);
  } else {
    // Lanes [0, active) read elements base .. base + 2 * (active - 1): the
    // first vector holds base .. base + n - 1, the second the rest. Neither
    // reads past the last element read, unless the buffer is known to
    // extend that far, so a row at the very end of a buffer is safe.
    int64_t span = 2 * strided->active - 1;
    auto first = builder.create<LoadOp>(loc, type, strided->base, vectorAlt);
    setActiveLanes(first, strided->base, std::min(span, n), n);
    kept.push_back(strided->base);
    Value second;
    // Lane n/2 reads `base + n`, where the second vector starts, if any
    // active lane reads that far.
    if (strided->active > n / 2) {
      auto middle = pointers[n / 2].getDefiningOp<IndexOp>();
      auto load = builder.create<LoadOp>(loc, type, middle, vectorAlt);
      std::optional<IndexBounds> bounds = boundsOf(middle.getIdx());
      std::optional<int64_t> elements = bufferElements(middle);
      bool wholeFits = bounds && elements && bounds->max + n <= *elements;
      if (!wholeFits || span - n < n - 1)
        setActiveLanes(load, middle, span - n, n);
      second = load;
      kept.push_back(middle);
    }
    SmallVector<Value> picked;
    for (int64_t lane = 0; lane < n; ++lane) {
      if (Value constant = constantLanes.lookup(lane)) {
        picked.push_back(constant);
        continue;
      }
      int64_t element = 2 * lane;
      Value from = element < n ? first.getResult() : second;
      if (!from) // past the active lanes: any value
        from = first.getResult();
      picked.push_back(builder.create<GepOp>(loc, type.getElementType(), from,
                                             element % n));
    }
    folded = builder.create<VectorizeOp>(loc, type, picked);
  }
  SmallVector<Operation *> lanes;
  for (Value src : vectorize.getSrcs())
    if (auto load = src.getDefiningOp<LoadOp>())
      lanes.push_back(load);
  vectorize.replaceAllUsesWith(folded);
  vectorize.erase();
  for (Operation *lane : lanes) {
    if (!lane->use_empty())
      continue;
    Operation *index = lane->getOperand(0).getDefiningOp();
    lane->erase();
    if (!llvm::is_contained(kept, index) && index->use_empty())
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
    if (ambiguous.contains(vector) || !stores.front())
      continue;
    SmallVector<Value> pointers;
    for (StoreOp store : stores)
      pointers.push_back(store ? store.getPtr() : Value());
    // After the last lane's store, where every lane's value is computed.
    Operation *last = stores.front();
    for (StoreOp store : stores)
      if (store && last->isBeforeInBlock(store))
        last = store;
    OpBuilder builder(last->getContext());
    builder.setInsertionPointAfter(last);
    std::optional<SpacedLanes> contiguous = spacedLanes(pointers, 1, builder);
    if (!contiguous)
      continue;
    IndexOp base = contiguous->base;
    auto folded =
        builder.create<StoreOp>(last->getLoc(), base.getResult(), vector);
    setActiveLanes(folded, base, contiguous->active, stores.size(),
                   contiguous->laneLimit);
    for (StoreOp store : stores) {
      if (!store)
        continue;
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
