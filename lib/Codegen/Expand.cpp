//===- Expand.cpp - upcast and unroll ranges into lanes -------*- C++ -*-===//
//
// A lane range does not loop: everything that depends on it is written out
// once per lane (tinygrad's expander). Ops that do not depend on it are
// computed once and shared, which is the point of upcasting: a loaded value
// feeds every lane's accumulator.
//
// One lane range per kernel is written as the lanes of vectors rather than
// as copies, so that the C compiler gets SIMD operations instead of having
// to rediscover them in scalar code; two when no vector value varies with
// both (a row's reduction and the row's update in a normalization). Index
// arithmetic and conditions stay one scalar per lane (tgc-symbolic
// simplifies each, and tgc-devectorize compares them to find contiguous
// lanes). Products of three factors are regrouped first, so that what the
// copies share is computed once (regroupProducts).
//
//===----------------------------------------------------------------------===//

#include "Codegen/FoldedLanes.h"
#include "Codegen/Heuristic.h"
#include "Codegen/Passes.h"
#include "Codegen/Symbolic.h"
#include "IR/TgcOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCEXPAND
#include "Codegen/Passes.h.inc"

namespace {

bool isLaneAxis(AxisType axis) {
  return axis == AxisType::upcast || axis == AxisType::unroll;
}

/// Values of these types become vectors; index values and conditions stay
/// scalars per lane.
bool isVectorElement(Type type) {
  if (isa<FloatType>(type))
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.getWidth() > 1;
}

/// Ops that compute each lane of their result from the same lane of their
/// operands, and so can work on vectors as they are.
bool isElementwise(Operation *op) {
  return isa<AddOp, MulOp, SubOp, FdivOp, IdivOp, ModOp, MaxOp, PowOp, ShlOp,
             ShrOp, XorOp, OrOp, AndOp, Exp2Op, Log2Op, SinOp, SqrtOp, RecipOp,
             NegOp, TruncOp, MulaccOp, CastOp, BitcastOp>(op);
}

bool reducesOver(ReduceOp reduce, Value range) {
  return llvm::is_contained(reduce.getRanges(), range);
}

SmallVector<Value> rangesWithout(ReduceOp reduce, Value range) {
  SmallVector<Value> rest;
  for (Value r : reduce.getRanges())
    if (r != range)
      rest.push_back(r);
  return rest;
}

/// True if `value` is computed from a reduction: a 1x1 convolution's sum
/// inside the global pool that sums its pixels.
bool computedFromReduce(Value value) {
  SmallVector<Value> work{value};
  llvm::DenseSet<Operation *> seen;
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || !seen.insert(op).second)
      continue;
    if (isa<ReduceOp>(op))
      return true;
    llvm::append_range(work, op->getOperands());
  }
  return false;
}

/// `parts` combined with the reduce operator, as a balanced tree; with
/// `folded`, each op marked for tgc-linearize to fold into the accumulator
/// of the reduce that reads the result (FoldedLanes.h).
Value combine(OpBuilder &builder, Location loc, ReduceKind kind,
              SmallVector<Value> parts, bool folded = false) {
  while (parts.size() > 1) {
    SmallVector<Value> next;
    for (size_t i = 0; i + 1 < parts.size(); i += 2) {
      Operation *op =
          createReduceStep(builder, loc, kind, parts[i], parts[i + 1]);
      if (folded)
        op->setAttr(kFoldedLanesAttr, builder.getUnitAttr());
      next.push_back(op->getResult(0));
    }
    if (parts.size() % 2)
      next.push_back(parts.back());
    parts = std::move(next);
  }
  return parts.front();
}

/// The reduce range `gate` is computed from, if it is computed from one:
/// a concatenation along the reduction picks its part so (and a padded
/// output axis adds its own test).
Value partAlong(Value gate, KernelOp kernel) {
  if (!gate)
    return {};
  Value along;
  WalkResult walk = kernel.walk([&](RangeOp range) {
    if (range.getAxis() != AxisType::reduce ||
        !isComputedFrom(gate, range.getResult()))
      return WalkResult::advance();
    if (along)
      return WalkResult::interrupt();
    along = range.getResult();
    return WalkResult::advance();
  });
  return walk.wasInterrupted() ? Value() : along;
}

/// The lane range whose lanes are contiguous in memory for the most
/// accesses (an access in a reduction loop counts four times), weighed by
/// its lanes (a vector of 8 does the work of two of 4: AVX2's Winograd
/// products ran 2.7x faster with their 8 output channels in the vector
/// than with the 4 tiles their loads and stores share), among those whose
/// size a vector can have. Later ranges win ties.
RangeOp chooseVectorRange(ArrayRef<RangeOp> laneRanges, int64_t maxVector) {
  RangeOp best;
  int64_t bestScore = 0;
  for (RangeOp range : laneRanges) {
    int64_t lanes = range.getBound();
    if (lanes < 2 || lanes > maxVector || !llvm::isPowerOf2_64(lanes))
      continue;
    auto kernel = range->getParentOfType<KernelOp>();
    SmallVector<Value> reduceRanges;
    kernel.walk([&](RangeOp r) {
      if (r.getAxis() == AxisType::reduce || r.getAxis() == AxisType::unroll)
        reduceRanges.push_back(r.getResult());
    });
    // A gate that picks lanes other than a prefix (the parts of a
    // concatenation along the range) folds only lane by lane: as copies,
    // each lane computes its own part alone. Unless the parts meet between
    // vectors: then the lanes share their gate.
    bool picksLanes = false;
    DependenceMemo memo;
    kernel.walk([&](IndexOp index) {
      Value gate = index.getGate();
      picksLanes |= gate && !gatesOnlyPadding(gate, range.getResult()) &&
                    !gateUniformPerVector(gate, range.getResult(), lanes, memo);
    });
    if (picksLanes)
      continue;
    int64_t score = 0;
    // The parts of a concatenation along a reduction are read under gates
    // of the reduce index alone, one part per step: they count as one
    // access (SqueezeNet's squeeze convolutions read two parts, which
    // outvoted their weights' 8 lanes with 4 pixels).
    llvm::SmallPtrSet<Value, 2> partsCounted;
    kernel.walk([&](IndexOp index) {
      if (!isa<BlockArgument>(index.getBuf()))
        return;
      std::optional<int64_t> stride =
          getLaneStride(index.getIdx(), range.getResult(), lanes);
      if (!stride || *stride != 1)
        return;
      bool inReduce = llvm::any_of(reduceRanges, [&](Value r) {
        return r != range.getResult() && isComputedFrom(index.getIdx(), r);
      });
      if (Value part = partAlong(index.getGate(), kernel);
          part && !partsCounted.insert(part).second)
        return;
      score += inReduce ? 4 : 1;
    });
    score *= lanes;
    if (score >= bestScore && score > 0) {
      best = range;
      bestScore = score;
    }
  }
  return best;
}

/// Whether `value` differs between lanes of `range`. A reduction over
/// `range` sums its lanes away: its result is the same for all of them.
bool variesWith(Value value, Value range, llvm::DenseMap<Value, bool> &memo) {
  if (value == range)
    return true;
  Operation *op = value.getDefiningOp();
  if (!op || isa<RangeOp, ConstOp>(op))
    return false;
  if (auto it = memo.find(value); it != memo.end())
    return it->second;
  bool result;
  if (auto reduce = dyn_cast<ReduceOp>(op))
    result = !reducesOver(reduce, range) &&
             variesWith(reduce.getSrc(), range, memo);
  else
    result = llvm::any_of(op->getOperands(), [&](Value operand) {
      return variesWith(operand, range, memo);
    });
  memo[value] = result;
  return result;
}

/// Whether `second` can be written as vectors after `first` has been:
/// no value that becomes a vector, and no load or store, varies with
/// both (index math and conditions stay scalars per lane, so they may).
/// A normalization has two such ranges: a row's sum in the lanes of the
/// reduce range, summed across them into one scalar, then the row
/// scaled in the lanes of an output range.
bool vectorizableBeside(RangeOp first, RangeOp second) {
  llvm::DenseMap<Value, bool> firstMemo, secondMemo;
  auto variesWithBoth = [&](Operation *op) {
    auto varies = [&](Value range, llvm::DenseMap<Value, bool> &memo) {
      return llvm::any_of(op->getOperands(), [&](Value operand) {
        return variesWith(operand, range, memo);
      });
    };
    return varies(first.getResult(), firstMemo) &&
           varies(second.getResult(), secondMemo);
  };
  WalkResult walk = first->getParentOfType<KernelOp>().walk(
      [&](Operation *op) {
        if (isa<EndOp, ReduceOp>(op))
          return WalkResult::advance();
        bool matters = isa<LoadOp, StoreOp>(op) ||
                       llvm::any_of(op->getResultTypes(), isVectorElement);
        return matters && variesWithBoth(op) ? WalkResult::interrupt()
                                             : WalkResult::advance();
      });
  return !walk.wasInterrupted();
}

/// Writes out `range` as copies: once per lane, each op that depends on it
/// and that the lane needs. What a lane stores, and what a reduction over
/// the range combines, is copied in program order; the ops those read are
/// copied on demand, each right before its original, and fold as they are
/// made. A select whose condition the lane decides copies only the side it
/// picks: a concatenation along an upcast range is one select per part,
/// and copying every part into every lane (to fold them away afterwards)
/// made a Winograd input transform's 36 lanes about a million ops.
class LaneCopier {
public:
  /// With `foldLanes`, a reduction over the range combines its lanes first
  /// and keeps one accumulator (FoldedLanes.h).
  LaneCopier(RangeOp range, bool foldLanes)
      : range(range), lanes(range.getBound()), foldLanes(foldLanes),
        builder(range), mappings(lanes) {}
  void run();

private:
  bool isDependent(Value v) { return dependent.contains(v); }
  bool isCopied(Value v, int64_t lane) { return mappings[lane].contains(v); }
  /// The side of `op`, a select, that the lane picks: none unless the lane
  /// has a copy of its condition that folded to a constant.
  Value pickedSide(Operation *op, int64_t lane);
  /// The operand of `op` that the lane needs and lacks, or none. A select
  /// whose condition the lane has decided needs only the side it picks.
  Value missingOperand(Operation *op, int64_t lane);
  /// The lane's value of `value`, copying what it needs that the lane lacks.
  Value copyOf(Value value, int64_t lane);
  /// Copies `op`, whose operands the lane has, into the lane.
  void copyOp(Operation *op, int64_t lane);

  RangeOp range;
  int64_t lanes;
  bool foldLanes;
  OpBuilder builder;
  SmallVector<IRMapping> mappings;
  llvm::DenseSet<Value> dependent;
};

/// Ops copied into a lane only where something reads them: free of effects
/// (a load's only effect is the read).
static bool copiedOnDemand(Operation *op) {
  return isMemoryEffectFree(op) || isa<LoadOp>(op);
}

Value LaneCopier::pickedSide(Operation *op, int64_t lane) {
  auto where = dyn_cast<WhereOp>(op);
  if (!where)
    return {};
  std::optional<bool> decided =
      constantBool(mappings[lane].lookupOrDefault(where.getCond()));
  if (!decided)
    return {};
  return *decided ? where.getX() : where.getY();
}

Value LaneCopier::missingOperand(Operation *op, int64_t lane) {
  auto missing = [&](Value v) { return isDependent(v) && !isCopied(v, lane); };
  if (auto where = dyn_cast<WhereOp>(op); where && missing(where.getCond()))
    return where.getCond();
  if (Value side = pickedSide(op, lane))
    return missing(side) ? side : Value();
  for (Value operand : op->getOperands())
    if (missing(operand))
      return operand;
  return {};
}

Value LaneCopier::copyOf(Value value, int64_t lane) {
  if (!isDependent(value) || isCopied(value, lane))
    return mappings[lane].lookupOrDefault(value);
  // Depth first, without recursion: a kernel's chains of ops can be long.
  SmallVector<Operation *> stack{value.getDefiningOp()};
  while (!stack.empty()) {
    Operation *op = stack.back();
    if (isCopied(op->getResult(0), lane)) {
      stack.pop_back();
    } else if (Value operand = missingOperand(op, lane)) {
      stack.push_back(operand.getDefiningOp());
    } else {
      stack.pop_back();
      copyOp(op, lane);
    }
  }
  return mappings[lane].lookup(value);
}

void LaneCopier::copyOp(Operation *op, int64_t lane) {
  IRMapping &mapping = mappings[lane];
  if (Value side = pickedSide(op, lane)) {
    mapping.map(op->getResult(0), mapping.lookupOrDefault(side));
    return;
  }
  builder.setInsertionPoint(op);
  Operation *copy = builder.clone(*op, mapping);
  SmallVector<Value, 1> folded;
  if (failed(builder.tryFold(copy, folded)) || folded.empty())
    return;
  for (auto [result, value] : llvm::zip_equal(op->getResults(), folded))
    mapping.map(result, value);
  copy->erase();
}

void LaneCopier::run() {
  Location loc = range.getLoc();
  for (int64_t lane = 0; lane < lanes; ++lane)
    mappings[lane].map(range.getResult(),
                       builder.create<ConstOp>(loc, builder.getIndexAttr(lane)));
  dependent.insert(range.getResult());
  SmallVector<Operation *> expanded;
  for (Operation *op = range->getNextNode(); op;) {
    Operation *next = op->getNextNode();
    if (auto end = dyn_cast<EndOp>(op); end && end.getRange() == range) {
      end.erase();
    } else if (auto reduce = dyn_cast<ReduceOp>(op);
               reduce && reducesOver(reduce, range)) {
      // Each lane reduces over the other ranges; then the lanes combine:
      // an accumulator per lane, whose updates do not wait on each other.
      // Where each lane's value is a reduction of its own, the lanes
      // combine first and one accumulator reduces over the other ranges:
      // a lane's update waits on its whole inner loop anyway, and SqueezeNet's
      // classifier (a 1x1 convolution in a pool over 13x13 pixels, 13
      // pixels unrolled) held 13 pool sums beside its 13 convolution
      // accumulators, past AVX2's 16 registers. Lanes that must share an
      // accumulator (rangesToFold) combine first too, in ops marked for
      // tgc-linearize to fold into it one by one.
      SmallVector<Value> rest = rangesWithout(reduce, range);
      bool folded = !rest.empty() && foldLanes;
      bool combineFirst =
          !rest.empty() && (foldLanes || computedFromReduce(reduce.getSrc()));
      SmallVector<Value> parts;
      for (int64_t lane = 0; lane < lanes; ++lane) {
        Value src = copyOf(reduce.getSrc(), lane);
        builder.setInsertionPoint(reduce);
        parts.push_back(
            rest.empty() || combineFirst
                ? src
                : builder.create<ReduceOp>(reduce.getLoc(), reduce.getType(),
                                           reduce.getKind(), src, rest));
      }
      builder.setInsertionPoint(reduce);
      if (combineFirst) {
        // Inside the loops of `rest`, after the last lane's value.
        Operation *last = nullptr;
        for (Value part : parts)
          if (Operation *def = part.getDefiningOp();
              def && (!last || last->isBeforeInBlock(def)))
            last = def;
        if (last)
          builder.setInsertionPointAfter(last);
      }
      Value combined =
          combine(builder, reduce.getLoc(), reduce.getKind(), parts, folded);
      if (combineFirst) {
        builder.setInsertionPoint(reduce);
        combined = builder.create<ReduceOp>(reduce.getLoc(), reduce.getType(),
                                            reduce.getKind(), combined, rest);
      }
      reduce.replaceAllUsesWith(combined);
      reduce.erase();
    } else if (llvm::any_of(op->getOperands(),
                            [&](Value v) { return isDependent(v); })) {
      for (Value result : op->getResults())
        dependent.insert(result);
      expanded.push_back(op);
      if (!copiedOnDemand(op))
        for (int64_t lane = 0; lane < lanes; ++lane) {
          for (Value operand : op->getOperands())
            copyOf(operand, lane);
          builder.setInsertionPoint(op);
          builder.clone(*op, mappings[lane]);
        }
    }
    op = next;
  }
  // Users come after their operands: erase from the last. Ops no lane
  // needed go too.
  for (Operation *done : llvm::reverse(expanded))
    done->erase();
  range.erase();
}

/// Writes out `range` as the lanes of vectors.
class Vectorizer {
public:
  explicit Vectorizer(RangeOp range)
      : range(range), lanes(range.getBound()), builder(range) {}
  void run();

private:
  /// A value that depends on the range: one vector, or one scalar per
  /// lane, or both once one was made from the other.
  struct Form {
    Value vector;
    SmallVector<Value> lanes;
  };

  VectorType vectorOf(Type element) {
    return VectorType::get({lanes}, element);
  }
  bool dependsOnRange(Value v) { return forms.count(v); }
  Value asVector(Value v, Location loc);
  Value asLane(Value v, int64_t lane, Location loc);
  void vectorizeReduce(ReduceOp reduce);
  void vectorizeOp(Operation *op);

  RangeOp range;
  int64_t lanes;
  OpBuilder builder;
  llvm::DenseMap<Value, Form> forms;
  llvm::DenseMap<Value, Value> splats;
  SmallVector<Operation *> replaced;
};

/// Sets `b` to insert right after the definition of `v`, so that what it
/// builds is visible wherever `v` is (uses may sit in loops that open later).
static void setInsertionAfterDef(OpBuilder &b, Value v) {
  if (Operation *def = v.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(v.getParentBlock());
}

/// The lane defined last. Every form's lanes are made in lane order at one
/// insertion point, so that is the last lane. (Asking the block which of them
/// comes later would renumber the block after each insertion: quadratic in a
/// kernel's size, minutes for a network's Winograd kernels.)
static Value lastDefined(ArrayRef<Value> lanes) { return lanes.back(); }

Value Vectorizer::asVector(Value v, Location loc) {
  OpBuilder after(v.getContext());
  auto it = forms.find(v);
  if (it == forms.end()) {
    Value &splat = splats[v];
    if (!splat) {
      setInsertionAfterDef(after, v);
      splat = after.create<VectorizeOp>(loc, vectorOf(v.getType()),
                                        SmallVector<Value>(lanes, v));
    }
    return splat;
  }
  Form &form = it->second;
  if (!form.vector) {
    setInsertionAfterDef(after, lastDefined(form.lanes));
    form.vector = after.create<VectorizeOp>(
        loc, vectorOf(form.lanes.front().getType()), form.lanes);
  }
  return form.vector;
}

Value Vectorizer::asLane(Value v, int64_t lane, Location loc) {
  auto it = forms.find(v);
  if (it == forms.end())
    return v;
  Form &form = it->second;
  if (form.lanes.empty()) {
    OpBuilder after(v.getContext());
    setInsertionAfterDef(after, form.vector);
    for (int64_t i = 0; i < lanes; ++i)
      form.lanes.push_back(after.create<GepOp>(
          loc, getElementTypeOrSelf(form.vector.getType()), form.vector, i));
  }
  return form.lanes[lane];
}

void Vectorizer::vectorizeReduce(ReduceOp reduce) {
  Location loc = reduce.getLoc();
  Type type = reduce.getType();
  bool asVectors = isVectorElement(type);
  if (reducesOver(reduce, range.getResult())) {
    // Reduce each lane over the other ranges (as one vector if possible),
    // then across the lanes.
    SmallVector<Value> rest = rangesWithout(reduce, range.getResult());
    SmallVector<Value> parts;
    if (asVectors) {
      Value vector = asVector(reduce.getSrc(), loc);
      Value reduced =
          rest.empty() ? vector
                       : builder.create<ReduceOp>(loc, vector.getType(),
                                                  reduce.getKind(), vector, rest);
      for (int64_t lane = 0; lane < lanes; ++lane)
        parts.push_back(builder.create<GepOp>(loc, type, reduced, lane));
    } else {
      for (int64_t lane = 0; lane < lanes; ++lane) {
        Value src = asLane(reduce.getSrc(), lane, loc);
        parts.push_back(rest.empty() ? src
                                     : builder.create<ReduceOp>(
                                           loc, type, reduce.getKind(), src,
                                           rest));
      }
    }
    reduce.replaceAllUsesWith(combine(builder, loc, reduce.getKind(), parts));
    reduce.erase();
    return;
  }
  Form &form = forms[reduce.getResult()];
  if (asVectors) {
    Value vector = asVector(reduce.getSrc(), loc);
    form.vector = builder.create<ReduceOp>(loc, vector.getType(),
                                           reduce.getKind(), vector,
                                           reduce.getRanges());
  } else {
    for (int64_t lane = 0; lane < lanes; ++lane)
      form.lanes.push_back(builder.create<ReduceOp>(
          loc, type, reduce.getKind(), asLane(reduce.getSrc(), lane, loc),
          reduce.getRanges()));
  }
  replaced.push_back(reduce);
}

void Vectorizer::vectorizeOp(Operation *op) {
  Location loc = op->getLoc();
  bool vectorizable =
      isElementwise(op) && op->getNumResults() == 1 &&
      isVectorElement(op->getResult(0).getType()) &&
      llvm::all_of(op->getOperandTypes(), isVectorElement);
  if (vectorizable) {
    OperationState state(loc, op->getName());
    for (Value operand : op->getOperands())
      state.addOperands(asVector(operand, loc));
    state.addTypes(vectorOf(op->getResult(0).getType()));
    state.addAttributes(op->getAttrs());
    forms[op->getResult(0)].vector = builder.create(state)->getResult(0);
    replaced.push_back(op);
    return;
  }
  // One op per lane: loads, stores, index math, conditions.
  for (int64_t lane = 0; lane < lanes; ++lane) {
    IRMapping mapping;
    for (Value operand : op->getOperands())
      mapping.map(operand, asLane(operand, lane, loc));
    Operation *clone = builder.clone(*op, mapping);
    for (auto [old, result] : llvm::zip(op->getResults(), clone->getResults()))
      forms[old].lanes.push_back(result);
  }
  replaced.push_back(op);
}

void Vectorizer::run() {
  Form &own = forms[range.getResult()];
  for (int64_t lane = 0; lane < lanes; ++lane)
    own.lanes.push_back(builder.create<ConstOp>(range.getLoc(),
                                                builder.getIndexAttr(lane)));
  for (Operation *op = range->getNextNode(); op;) {
    Operation *next = op->getNextNode();
    builder.setInsertionPoint(op);
    if (auto end = dyn_cast<EndOp>(op); end && end.getRange() == range) {
      end.erase();
    } else if (auto reduce = dyn_cast<ReduceOp>(op);
               reduce && (reducesOver(reduce, range.getResult()) ||
                          dependsOnRange(reduce.getSrc()))) {
      vectorizeReduce(reduce);
    } else if (llvm::any_of(op->getOperands(),
                            [&](Value v) { return dependsOnRange(v); })) {
      vectorizeOp(op);
    }
    op = next;
  }
  for (Operation *done : llvm::reverse(replaced))
    done->erase();
  range.erase();
}

/// The copies of `value` that writing out `copied` makes: the product of
/// the lanes of those it varies with.
int64_t copiesOf(ArrayRef<Value> factors, ArrayRef<RangeOp> copied) {
  int64_t copies = 1;
  for (RangeOp range : copied) {
    llvm::DenseMap<Value, bool> memo;
    if (llvm::any_of(factors, [&](Value factor) {
          return variesWith(factor, range.getResult(), memo);
        }))
      copies *= range.getBound();
  }
  return copies;
}

/// A float product of three factors, (a * b) * c, regrouped so that its
/// inner product is written out the fewest times: the copies of a register
/// tile share what does not vary with them. A Squeeze-and-Excitation
/// scale fused into the 1x1 convolution after it multiplies each input
/// element, x[p, k] * s[k], once per pixel p of the tile (8 scalar
/// multiplies per reduction step beside 8 FMAs; EfficientNet-B0's
/// projections ran 36 GFLOP/s); x * (s * w[o, k]) multiplies the weight
/// vector once. Float products regrouped round differently in the last
/// bit, as a C compiler's -ffast-math would.
void regroupProducts(KernelOp kernel, ArrayRef<RangeOp> copied) {
  if (copied.empty())
    return;
  SmallVector<MulOp> products;
  kernel.walk([&](MulOp op) {
    if (isa<FloatType>(getElementTypeOrSelf(op.getType())))
      products.push_back(op);
  });
  for (MulOp outer : products) {
    for (unsigned side = 0; side < 2; ++side) {
      auto inner = outer->getOperand(side).getDefiningOp<MulOp>();
      if (!inner || !inner->hasOneUse())
        continue;
      Value a = inner.getLhs(), b = inner.getRhs();
      Value c = outer->getOperand(1 - side);
      int64_t now = copiesOf({a, b}, copied);
      int64_t withA = copiesOf({a, c}, copied);
      int64_t withB = copiesOf({b, c}, copied);
      if (std::min(withA, withB) >= now)
        continue;
      auto [kept, paired] = withB < withA ? std::pair(a, b) : std::pair(b, a);
      OpBuilder builder(outer);
      Value product =
          builder.create<MulOp>(inner.getLoc(), c.getType(), paired, c);
      outer->setOperands({kept, product});
      inner->erase();
      break;
    }
  }
}

/// The registers the accumulators of `kernel`'s reductions will take if
/// every unrolled lane of a reduction keeps its own: a reduction has one
/// accumulator per lane of each copied range its source varies with and of
/// each it sums, and per vector register of a vector range either way
/// (`vectorBytes` each; 0: a vector is one register). A reduction over
/// lanes alone has none: its lanes just combine.
int64_t laneAccumulatorRegisters(KernelOp kernel, ArrayRef<RangeOp> copied,
                                 ArrayRef<RangeOp> vectors,
                                 int64_t vectorBytes) {
  SmallVector<llvm::DenseMap<Value, bool>> copiedMemo(copied.size()),
      vectorMemo(vectors.size());
  int64_t total = 0;
  kernel.walk([&](ReduceOp reduce) {
    bool loops = llvm::any_of(reduce.getRanges(), [](Value r) {
      auto range = r.getDefiningOp<RangeOp>();
      return !range || !isLaneAxis(range.getAxis());
    });
    if (!loops)
      return;
    Value src = reduce.getSrc();
    int64_t registers = 1;
    for (size_t i = 0; i < copied.size(); ++i) {
      RangeOp range = copied[i];
      if (reducesOver(reduce, range.getResult()) ||
          variesWith(src, range.getResult(), copiedMemo[i]))
        registers *= range.getBound();
    }
    Type element = getElementTypeOrSelf(reduce.getType());
    int64_t bytes =
        element.isIntOrFloat()
            ? std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8)
            : 8;
    for (size_t i = 0; vectorBytes > 0 && i < vectors.size(); ++i) {
      RangeOp range = vectors[i];
      if (reducesOver(reduce, range.getResult()) ||
          variesWith(src, range.getResult(), vectorMemo[i]))
        registers *= llvm::divideCeil(range.getBound() * bytes, vectorBytes);
    }
    total += registers;
  });
  return total;
}

/// The unroll ranges among `copied` whose lanes share their reductions'
/// accumulators: all of them where an accumulator per lane would not fit
/// `vectorRegisters` (0: no limit), none otherwise. An accumulator per
/// lane keeps the FMAs of a lone reduction from waiting on each other, and
/// the heuristic's tiles fit; a search's candidates need not.
llvm::DenseSet<Operation *> rangesToFold(KernelOp kernel,
                                         ArrayRef<RangeOp> copied,
                                         ArrayRef<RangeOp> vectors,
                                         int64_t vectorRegisters,
                                         int64_t vectorBytes) {
  llvm::DenseSet<Operation *> folded;
  if (vectorRegisters <= 0 ||
      laneAccumulatorRegisters(kernel, copied, vectors, vectorBytes) <=
          vectorRegisters)
    return folded;
  for (RangeOp range : copied)
    if (range.getAxis() == AxisType::unroll)
      folded.insert(range);
  return folded;
}

struct Expand : impl::TgcExpandBase<Expand> {
  using TgcExpandBase::TgcExpandBase;

  void runOnOperation() final {
    getOperation().walk([&](KernelOp kernel) {
      SmallVector<RangeOp> laneRanges;
      kernel.walk([&](RangeOp range) {
        if (isLaneAxis(range.getAxis()))
          laneRanges.push_back(range);
      });
      RangeOp vector = chooseVectorRange(laneRanges, maxVector);
      RangeOp second;
      if (vector) {
        SmallVector<RangeOp> others;
        for (RangeOp range : laneRanges)
          if (range != vector && vectorizableBeside(vector, range))
            others.push_back(range);
        second = chooseVectorRange(others, maxVector);
      }
      SmallVector<RangeOp> copied;
      for (RangeOp range : laneRanges)
        if (range != vector && range != second)
          copied.push_back(range);
      SmallVector<RangeOp, 2> vectors;
      for (RangeOp range : {vector, second})
        if (range)
          vectors.push_back(range);
      llvm::DenseSet<Operation *> folded =
          rangesToFold(kernel, copied, vectors, vectorRegisters, vectorBytes);
      regroupProducts(kernel, copied);
      for (RangeOp range : copied)
        LaneCopier(range, folded.contains(range)).run();
      if (vector)
        Vectorizer(vector).run();
      if (second)
        Vectorizer(second).run();
    });
  }
};

} // namespace
} // namespace mlir::tgc
