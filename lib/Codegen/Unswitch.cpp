//===- Unswitch.cpp - one copy of a loop per range of its gates -*- C++ -*-===//
//
// A concatenation lowers to one gated load per part and a chain of selects
// by the part's position: `c < 64 ? a[...] : c < 96 ? b[...] : ...`. When
// the position is an outer loop's index (DenseNet's concatenated channels,
// a fire module's expand branches), every gate is the same for a whole
// inner loop, yet the inner loop tests them all and reads every part. The
// C compiler unswitches a few such conditions (GCC three levels deep) and
// then gives up: a five-part concatenation ran 60x slower than a four-part
// one.
//
// So the index the gates compare is cut where any of them changes value,
// and the inner loop is written once per piece, under `if (lo <= c < hi)`,
// with every gate of that piece decided: one ungated load remains, the
// selects and the other parts' loads go. The pieces' ifs exclude each
// other, so each iteration of the outer loop runs exactly one copy.
//
// A reduction loop whose own index the gates compare (a concatenation
// along the summed axis) is split instead: one loop per piece, one after
// the other, each with its gates decided.
//
// Runs after tgc-linearize, on the loop program, where what is invariant
// in a loop is what was placed outside it. CPU targets only: on a GPU the
// position is a thread index and a copy per piece would diverge.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Passes.h"
#include "Codegen/Symbolic.h"
#include "Codegen/ZeroProducts.h"
#include "IR/TgcOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCUNSWITCH
#include "Codegen/Passes.h.inc"

namespace {

/// More pieces than this are more tests per outer iteration than the
/// copies save (a DenseNet-121 block concatenates up to 25 parts, an LSTM's
/// output one per time step).
constexpr int64_t kMaxPieces = 256;
/// The copies of one loop, in ops once their gates are decided, stay under
/// this; a copy keeps its own part's ops, so that is about the loop's size
/// whatever the number of pieces.
constexpr int64_t kMaxClonedOps = 8192;
/// The ops the copies are made from, a bound on the pass's work.
constexpr int64_t kMaxCopiedOps = 1 << 18;
/// Loops unswitched per kernel, a bound on the pass's work.
constexpr int kMaxUnswitchedLoops = 16;

/// A loop of the program: its range and the end that closes it.
struct Loop {
  RangeOp range;
  EndOp end;
};

SmallVector<Loop> loopsOf(KernelOp kernel) {
  SmallVector<Loop> loops;
  DenseMap<Value, size_t> open;
  for (Operation &op : kernel.getBlock()) {
    if (auto range = dyn_cast<RangeOp>(op)) {
      open[range.getResult()] = loops.size();
      loops.push_back({range, EndOp()});
    } else if (auto end = dyn_cast<EndOp>(op)) {
      if (auto it = open.find(end.getRange()); it != open.end())
        loops[it->second].end = end;
    }
  }
  llvm::erase_if(loops, [](const Loop &loop) { return !loop.end; });
  return loops;
}

/// The ops from the range to its end, both included.
SmallVector<Operation *> bodyOf(const Loop &loop) {
  SmallVector<Operation *> ops;
  for (Operation *op = loop.range; op; op = op->getNextNode()) {
    ops.push_back(op);
    if (op == loop.end)
      break;
  }
  return ops;
}

/// `op` as a comparison of an index with a constant, restated on the one
/// value its index is a multiple of plus a constant: a * x + b < k is
/// x < ceil((k - b) / a), k < a * x + b is floor((k - b) / a) < x, and
/// x + b == k is x == k - b. The copies of a register tile padded past its
/// axis compare their positions (4 * r + 1 < 49, 4 * r + 2 < 49, ...): all
/// are r < 12, one cut of r.
std::optional<IndexComparison> matchSwitchComparison(Operation *op) {
  std::optional<IndexComparison> cmp = matchIndexComparison(op);
  if (!cmp)
    return cmp;
  LinearSum sum = linearSumOf(cmp->subject);
  if (sum.terms.size() != 1 || sum.terms[0].second <= 0)
    return cmp;
  auto [atom, a] = sum.terms[0];
  int64_t rest = cmp->constant - sum.constant;
  if (isa<CmpltOp>(op)) {
    int64_t k = cmp->subjectFirst ? llvm::divideCeilSigned(rest, a)
                                  : llvm::divideFloorSigned(rest, a);
    return IndexComparison{atom, k, cmp->subjectFirst};
  }
  if (a != 1)
    return cmp;
  return IndexComparison{atom, rest, cmp->subjectFirst};
}

/// The value of the i1 scalar `cond` where `subject` is `x`, if it is a
/// combination (and, or, xor, select) of constants and comparisons of
/// `subject` with constants. `cuts` collects where those comparisons change
/// value: each is the first x of a new piece.
std::optional<bool> evaluateAt(Value cond, Value subject, int64_t x,
                               SmallVectorImpl<int64_t> *cuts = nullptr,
                               int depth = 0) {
  if (auto constant = constantBool(cond))
    return constant;
  Operation *op = cond.getDefiningOp();
  if (!op || depth > 16 || !cond.getType().isInteger(1))
    return std::nullopt;
  if (auto cmp = matchSwitchComparison(op)) {
    if (cmp->subject != subject)
      return std::nullopt;
    int64_t k = cmp->constant;
    if (isa<CmpltOp>(op)) {
      // subject < k changes at k; k < subject at k + 1.
      if (cuts)
        cuts->push_back(cmp->subjectFirst ? k : k + 1);
      return cmp->subjectFirst ? x < k : k < x;
    }
    if (cuts)
      cuts->append({k, k + 1});
    return isa<CmpeqOp>(op) ? x == k : x != k;
  }
  auto operand = [&](unsigned i) {
    return evaluateAt(op->getOperand(i), subject, x, cuts, depth + 1);
  };
  if (isa<AndOp, OrOp, XorOp>(op)) {
    std::optional<bool> a = operand(0), b = operand(1);
    if (!a || !b)
      return std::nullopt;
    return isa<AndOp>(op) ? (*a && *b) : isa<OrOp>(op) ? (*a || *b) : *a != *b;
  }
  if (isa<WhereOp>(op)) {
    std::optional<bool> c = operand(0), a = operand(1), b = operand(2);
    if (!c || !a || !b)
      return std::nullopt;
    return *c ? *a : *b;
  }
  return std::nullopt;
}

/// The index whose comparisons decide the most conditions of the loop that
/// are computed outside it, and those conditions.
struct Switch {
  Value subject;
  SmallVector<Value> conditions;
  SmallVector<int64_t> cuts;
  int64_t gatedLoads = 0;
  /// Of those, the lanes of a vector built lane by lane: with their gates
  /// decided, the vector folds into vector loads (tgc-devectorize).
  int64_t gatedLanes = 0;
  int64_t selects = 0;
};

/// Loads in `body` through a gated index whose gate `decides` holds for:
/// the loads the copies read ungated, or not at all. With `lanesOnly`,
/// only those that are a lane of a vector built from several values (not
/// a broadcast: that is one load, gated or not).
int64_t countGatedLoads(ArrayRef<Operation *> body,
                        llvm::function_ref<bool(Value)> decides,
                        bool lanesOnly = false) {
  auto isLane = [](LoadOp load) {
    return llvm::any_of(load->getUsers(), [](Operation *user) {
      auto vector = dyn_cast<VectorizeOp>(user);
      return vector && !llvm::all_equal(vector.getSrcs());
    });
  };
  int64_t count = 0;
  for (Operation *op : body)
    if (auto load = dyn_cast<LoadOp>(op))
      if (auto index = load.getPtr().getDefiningOp<IndexOp>();
          index && index.getGate() && decides(index.getGate()) &&
          (!lanesOnly || isLane(load)))
        ++count;
  return count;
}

/// True if `cond` is one of the `decided` conditions, or an and / or of
/// one with anything else: a gate that also tests another index (a border
/// inside a part, the other axis of a padded image) is decided in part,
/// and(false, x) being false and and(true, x) being x.
bool isDecidedInPart(Value cond, const llvm::SmallPtrSetImpl<Value> &decided,
                     int depth = 0) {
  if (decided.contains(cond))
    return true;
  Operation *def = cond.getDefiningOp();
  return depth < 8 && isa_and_nonnull<AndOp, OrOp>(def) &&
         (isDecidedInPart(def->getOperand(0), decided, depth + 1) ||
          isDecidedInPart(def->getOperand(1), decided, depth + 1));
}

/// True if every load in `body` through an index gated by the switch's
/// conditions reads a zero where the gate is false that only scales sums
/// (onlyScalesSums), as a convolution's padding does: the copies where the
/// gates are false add nothing, and tgc-drop-zero-products erases them.
bool readsOnlyPadding(ArrayRef<Operation *> body, const Switch &s,
                      FiniteWeights &finite) {
  llvm::SmallPtrSet<Value, 16> decided(s.conditions.begin(),
                                       s.conditions.end());
  for (Operation *op : body) {
    auto load = dyn_cast<LoadOp>(op);
    auto index = load ? load.getPtr().getDefiningOp<IndexOp>() : IndexOp();
    if (!index || !index.getGate() ||
        !isDecidedInPart(index.getGate(), decided))
      continue;
    if (!load.getAlt() || !isFloatZero(load.getAlt()) ||
        !onlyScalesSums(load.getResult(), finite))
      return false;
  }
  return true;
}

std::optional<Switch>
findSwitch(ArrayRef<Operation *> body,
           const llvm::SmallPtrSetImpl<Operation *> &inside) {
  auto isInvariantCondition = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return value.getType().isInteger(1) && def && !inside.contains(def) &&
           !constantBool(value);
  };
  // Every comparison in the invariant conditions votes for its subject.
  SetVector<Value> conditions;
  DenseMap<Value, int64_t> votes;
  SmallVector<Value> subjects;
  for (Operation *op : body)
    for (Value operand : op->getOperands()) {
      if (!isInvariantCondition(operand) || !conditions.insert(operand))
        continue;
      SmallVector<Value> worklist{operand};
      for (int steps = 0; !worklist.empty() && steps < 64; ++steps) {
        Operation *def = worklist.pop_back_val().getDefiningOp();
        if (auto cmp = matchSwitchComparison(def)) {
          if (votes[cmp->subject]++ == 0)
            subjects.push_back(cmp->subject);
        } else if (isa_and_nonnull<AndOp, OrOp, XorOp, WhereOp>(def)) {
          worklist.append(def->operand_begin(), def->operand_end());
        }
      }
    }
  if (subjects.empty())
    return std::nullopt;
  Switch best;
  best.subject = *llvm::max_element(
      subjects, [&](Value a, Value b) { return votes[a] < votes[b]; });
  for (Value condition : conditions) {
    SmallVector<int64_t> cuts;
    if (!evaluateAt(condition, best.subject, 0, &cuts))
      continue;
    best.conditions.push_back(condition);
    best.cuts.append(cuts);
  }
  // The work the copies save: loads that read a part only under a gate,
  // and the selects between parts.
  llvm::SmallPtrSet<Value, 16> decided(best.conditions.begin(),
                                       best.conditions.end());
  auto decides = [&](Value gate) { return isDecidedInPart(gate, decided); };
  best.gatedLoads = countGatedLoads(body, decides);
  best.gatedLanes = countGatedLoads(body, decides, /*lanesOnly=*/true);
  for (Operation *op : body)
    if (auto where = dyn_cast<WhereOp>(op); where && decides(where.getCond()))
      ++best.selects;
  return best;
}

/// The pieces [lo, hi) of the subject's bounds where no condition changes.
SmallVector<std::pair<int64_t, int64_t>> piecesOf(Switch &s,
                                                  IndexBounds bounds) {
  llvm::sort(s.cuts);
  SmallVector<std::pair<int64_t, int64_t>> pieces;
  int64_t lo = bounds.min;
  for (int64_t cut : s.cuts)
    if (cut > lo && cut <= bounds.max) {
      pieces.push_back({lo, cut});
      lo = cut;
    }
  pieces.push_back({lo, bounds.max + 1});
  return pieces;
}

bool isRemovableWhenUnused(Operation *op) {
  return isPure(op) || isa<LoadOp>(op);
}

/// What a condition or an index computed in the loop is once the piece
/// decides its operands (`and(false, x)` is false, `and(true, x)` is x, a
/// piece of one step makes its index a constant); null if it stays a
/// computation. A constant it makes joins `copies`.
Value foldDecided(Operation *copy, OpBuilder &builder,
                  SmallVectorImpl<Operation *> &copies) {
  SmallVector<OpFoldResult> folded;
  if (copy->getNumResults() != 1 ||
      !copy->getResult(0).getType().isIntOrIndex() ||
      failed(copy->fold(folded)) || folded.empty())
    return {};
  if (auto value = dyn_cast<Value>(folded.front()))
    return value;
  auto constant = dyn_cast<TypedAttr>(cast<Attribute>(folded.front()));
  if (!constant)
    return {};
  copies.push_back(builder.create<ConstOp>(copy->getLoc(), constant));
  return copies.back()->getResult(0);
}

/// Copies the loop's ops at `builder`'s point with the conditions replaced by
/// their values in the piece, folding what they decide as it goes: a select
/// keeps one side, an index gated true loses its gate, a load gated false
/// is its alternative, a store gated false goes. Returns how many ops the
/// copy kept.
int64_t cloneDecided(ArrayRef<Operation *> body, IRMapping &mapping,
                     OpBuilder &builder) {
  SmallVector<Operation *> copies;
  llvm::SmallPtrSet<Operation *, 16> neverRead;
  for (Operation *op : body) {
    // A condition of the loop's own index, decided for the piece.
    if (op->getNumResults() == 1 && mapping.contains(op->getResult(0)))
      continue;
    if (auto where = dyn_cast<WhereOp>(op)) {
      if (auto cond = constantBool(mapping.lookupOrDefault(where.getCond()))) {
        mapping.map(
            where.getResult(),
            mapping.lookupOrDefault(*cond ? where.getX() : where.getY()));
        continue;
      }
    }
    if (auto index = dyn_cast<IndexOp>(op); index && index.getGate()) {
      std::optional<bool> gate =
          constantBool(mapping.lookupOrDefault(index.getGate()));
      if (gate == false)
        neverRead.insert(op);
      if (gate == true) {
        auto copy = cast<IndexOp>(builder.clone(*op, mapping));
        copy.getGateMutable().clear();
        copies.push_back(copy);
        continue;
      }
    }
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (load.getAlt() && neverRead.contains(load.getPtr().getDefiningOp())) {
        mapping.map(load.getResult(), mapping.lookupOrDefault(load.getAlt()));
        continue;
      }
    }
    if (auto store = dyn_cast<StoreOp>(op);
        store && neverRead.contains(store.getPtr().getDefiningOp()))
      continue;
    Operation *copy = builder.clone(*op, mapping);
    // A load through an index whose gate went reads unconditionally.
    if (auto load = dyn_cast<LoadOp>(copy))
      if (auto index = load.getPtr().getDefiningOp<IndexOp>();
          index && !index.getGate())
        load.getAltMutable().clear();
    if (Value decided = foldDecided(copy, builder, copies)) {
      mapping.map(op->getResult(0), decided);
      copy->erase();
      continue;
    }
    copies.push_back(copy);
  }
  int64_t kept = 0;
  for (Operation *copy : llvm::reverse(copies)) {
    if (copy->use_empty() && isRemovableWhenUnused(copy))
      copy->erase();
    else
      ++kept;
  }
  return kept;
}

/// Erases the definitions of `values` that are unused, and then whichever
/// of their operands' definitions that leaves unused (the comparisons the
/// copies decided).
void eraseUnusedDefinitions(ArrayRef<Value> values) {
  SmallVector<Operation *> worklist;
  for (Value value : values)
    if (Operation *def = value.getDefiningOp())
      worklist.push_back(def);
  llvm::SmallPtrSet<Operation *, 16> erased;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (erased.contains(op) || !op->use_empty() || !isRemovableWhenUnused(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.push_back(def);
    erased.insert(op);
    op->erase();
  }
}

/// True if a value computed in the loop is read after it: its copies are
/// alternatives or pieces, and none of them alone defines it.
bool isReadAfter(ArrayRef<Operation *> body,
                 const llvm::SmallPtrSetImpl<Operation *> &inside) {
  for (Operation *op : body)
    for (Operation *user : op->getUsers())
      if (!inside.contains(user))
        return true;
  return false;
}

/// The copies of the loop made after `before` (or from the block's start)
/// replace it, unless together they kept too much of it: then they go and
/// the loop stays. Returns whether the copies replaced the loop.
bool replaceByCopies(const Loop &loop, ArrayRef<Operation *> body,
                     Operation *before, int64_t copied) {
  Operation *range = loop.range;
  if (copied > kMaxClonedOps) {
    SmallVector<Operation *> added;
    for (Operation *op = before ? before->getNextNode()
                                : &range->getBlock()->front();
         op != range; op = op->getNextNode())
      added.push_back(op);
    for (Operation *op : llvm::reverse(added))
      op->erase();
    return false;
  }
  // Users come after their operands, so erasing backwards leaves no use
  // of an erased op.
  for (Operation *op : llvm::reverse(body))
    op->erase();
  return true;
}

/// Maps each of the switch's conditions to its value where the subject is
/// `x`: an i1 constant made at the builder's point, added to `decided`.
void decideAt(const Switch &s, int64_t x, OpBuilder &builder,
              IRMapping &mapping, SmallVectorImpl<Value> &decided) {
  for (Value condition : s.conditions) {
    decided.push_back(builder.create<ConstOp>(
        condition.getLoc(),
        builder.getIntegerAttr(builder.getI1Type(),
                               *evaluateAt(condition, s.subject, x))));
    mapping.map(condition, decided.back());
  }
}

/// The least share of a gate's range outside its largest piece (the image's
/// border rows, of the rows plus padding a window's row index runs over)
/// worth an if around the loop: 2 of 9 at 7x7 made ResNet-18's 3x3
/// convolutions 1.2x faster; 2 of 114 at 112x112 made MobileNetV2's first
/// depthwise convolution, whose loop is a window's 3 columns, 1.3x slower
/// (its ifs left GCC's unrolling of the window's rows).
constexpr int64_t kMinPaddingShareInverse = 8;

bool isPaddingShare(ArrayRef<std::pair<int64_t, int64_t>> pieces,
                    IndexBounds bounds) {
  int64_t largest = 0;
  for (auto [lo, hi] : pieces)
    largest = std::max(largest, hi - lo);
  int64_t range = bounds.max - bounds.min + 1;
  return (range - largest) * kMinPaddingShareInverse >= range;
}

/// One copy of the loop per piece, each under an if on its piece.
bool unswitch(Loop loop, FiniteWeights &finite) {
  if (loop.range.getAxis() == AxisType::thread)
    return false;
  SmallVector<Operation *> body = bodyOf(loop);
  llvm::SmallPtrSet<Operation *, 32> inside(body.begin(), body.end());
  if (isReadAfter(body, inside))
    return false;
  std::optional<Switch> found = findSwitch(body, inside);
  // One gated load is worth a copy of the loop only as a lane of a vector:
  // SqueezeNet's stem reads rows of 111 columns, every other element, as
  // 7 vectors of 16 in a loop; the vector's 16th lane is gated (only the
  // last vector's is past the row), and that one lane left all 16 to be
  // read one by one. Decided, 6 of 7 vectors are two loads and a permute,
  // the last one two partial loads (the kernel 0.88 -> 0.55 ms).
  if (!found || (found->gatedLoads < 2 && found->gatedLanes == 0))
    return false;
  std::optional<IndexBounds> bounds = boundsOf(found->subject);
  if (!bounds)
    return false;
  SmallVector<std::pair<int64_t, int64_t>> pieces = piecesOf(*found, *bounds);
  if (pieces.size() < 2 || (int64_t)pieces.size() > kMaxPieces ||
      (int64_t)(pieces.size() * body.size()) > kMaxCopiedOps)
    return false;
  // Two parts and a choice between them: a concatenation. Or loads gated
  // by one cut, past which they read padding: a register tile padded past
  // its axis reads its copies under r < 12, and GCC, testing that in every
  // step of the reduction, branched there and split the copies' FMAs into
  // multiplies and adds (a 1x1 convolution at 7x7, 1024 -> 2048 channels,
  // ran 1.09x slower than unpadded, 0.9x once unswitched). A lone gated
  // load (a padded border) costs one predictable branch, which the C
  // compiler hoists itself. But not the products of the zeros it reads
  // there: a 3x3 convolution at 7x7 spends 2 of every 21 rows of its taps
  // on them. Where the padding's zeros only multiply finite weights into
  // sums, the copies outside the image add nothing and go
  // (tgc-drop-zero-products), where they are a large enough share of the
  // image (isPaddingShare).
  if (found->selects < 1 && pieces.size() != 2 &&
      !(isPaddingShare(pieces, *bounds) &&
        readsOnlyPadding(body, *found, finite)))
    return false;

  OpBuilder builder(loop.range);
  Location loc = loop.range.getLoc();
  Value subject = found->subject;
  auto index = [&](int64_t value) -> Value {
    return builder.create<ConstOp>(loc, builder.getIndexAttr(value));
  };
  // Everything the copies add goes between these two.
  Operation *before = loop.range->getPrevNode();
  int64_t copied = 0;
  for (auto [lo, hi] : pieces) {
    // lo <= subject < hi, without the sides the bounds already give.
    Value guard;
    if (lo > bounds->min)
      guard = builder.create<CmpltOp>(loc, index(lo - 1), subject);
    if (hi <= bounds->max) {
      Value below = builder.create<CmpltOp>(loc, subject, index(hi));
      guard = guard ? builder.create<AndOp>(loc, guard, below) : below;
    }
    IRMapping mapping;
    SmallVector<Value> decided;
    decideAt(*found, lo, builder, mapping, decided);
    builder.create<IfOp>(loc, guard);
    copied += cloneDecided(body, mapping, builder);
    builder.create<EndifOp>(loc);
    eraseUnusedDefinitions(decided);
  }
  if (!replaceByCopies(loop, body, before, copied))
    return false;
  eraseUnusedDefinitions(found->conditions);
  return true;
}

/// The conditions computed in the loop that compare its own index with
/// constants (and combinations of them), with the cuts where they change.
Switch selfSwitch(Loop loop, ArrayRef<Operation *> body) {
  Switch found;
  found.subject = loop.range.getResult();
  for (Operation *op : body) {
    if (op->getNumResults() != 1 || !op->getResult(0).getType().isInteger(1) ||
        constantBool(op->getResult(0)))
      continue;
    SmallVector<int64_t> cuts;
    if (!evaluateAt(op->getResult(0), found.subject, 0, &cuts))
      continue;
    found.conditions.push_back(op->getResult(0));
    found.cuts.append(cuts);
  }
  llvm::SmallPtrSet<Value, 16> decided(found.conditions.begin(),
                                       found.conditions.end());
  found.gatedLoads = countGatedLoads(
      body, [&](Value gate) { return isDecidedInPart(gate, decided); });
  return found;
}

/// True if a reduction loop runs in `body`.
bool containsReduction(ArrayRef<Operation *> body) {
  return llvm::any_of(body, [](Operation *op) {
    auto range = dyn_cast<RangeOp>(op);
    return range && range.getAxis() == AxisType::reduce;
  });
}

/// The index of the piece of a split loop that starts at `lo`: its own
/// loop's index plus `lo`, or `lo` itself where the piece is one step and
/// has no loop.
Value pieceIndex(OpBuilder &builder, Location loc, RangeOp range, int64_t lo) {
  if (range && lo == 0)
    return range.getResult();
  Value first = builder.create<ConstOp>(loc, builder.getIndexAttr(lo));
  if (!range)
    return first;
  return builder.create<AddOp>(loc, first.getType(), range.getResult(), first);
}

/// A loop whose loads are gated by comparisons of its own index, written
/// as one loop per piece of its range. A concatenation along a reduction
/// (SqueezeNet's squeeze convolutions sum over the channels of the two
/// expand branches before them) read both parts under gates and selected
/// one in every step; its copies read one part each, ungated, over the
/// part's channels. The pieces run one after the other, in order, so a
/// reduction adds the same terms in the same order.
///
/// So is an output loop of an elementwise nest, for one gated load: a
/// padded border along it. The C compiler vectorizes such a loop with
/// the gate computed lane by lane in 64-bit compares: MobileNetV2's input
/// padded to 226 x 226 and made channels-last ran 5.5x slower than with
/// its border columns split off (0.127 -> 0.023 ms, Zen 3, GCC 12), and
/// 2.7x slower than the search's best actions; depthwise 5x5
/// convolutions at 7x7, their taps unrolled, 1.4-1.7x. A loop around a
/// reduction stays whole: a register tile padded past its axis is
/// unswitched inside it instead (measured so), and a copy of a
/// convolution's reduction per border piece is untimed.
bool split(Loop loop) {
  AxisType axis = loop.range.getAxis();
  if (axis != AxisType::reduce && axis != AxisType::global &&
      axis != AxisType::loop)
    return false;
  SmallVector<Operation *> body = bodyOf(loop);
  if (axis != AxisType::reduce && containsReduction(body))
    return false;
  llvm::SmallPtrSet<Operation *, 32> inside(body.begin(), body.end());
  if (isReadAfter(body, inside))
    return false;
  Switch found = selfSwitch(loop, body);
  if (found.gatedLoads < (axis == AxisType::reduce ? 2 : 1))
    return false;
  int64_t bound = loop.range.getBound();
  SmallVector<std::pair<int64_t, int64_t>> pieces =
      piecesOf(found, IndexBounds{0, bound - 1});
  if (pieces.size() < 2 || (int64_t)pieces.size() > kMaxPieces ||
      (int64_t)(pieces.size() * body.size()) > kMaxCopiedOps)
    return false;

  OpBuilder builder(loop.range);
  Location loc = loop.range.getLoc();
  ArrayRef<Operation *> inner = ArrayRef(body).drop_front().drop_back();
  Operation *before = loop.range->getPrevNode();
  int64_t copied = 0;
  for (auto [lo, hi] : pieces) {
    // A piece of one step (a border column, a part of one time step) is
    // its body once, with its index a constant: no loop of one iteration.
    RangeOp range;
    if (hi - lo > 1) {
      range = cast<RangeOp>(builder.clone(*loop.range));
      range.setBound(hi - lo);
    }
    Value index = pieceIndex(builder, loc, range, lo);
    IRMapping mapping;
    mapping.map(loop.range.getResult(), index);
    SmallVector<Value> decided;
    decideAt(found, lo, builder, mapping, decided);
    copied += cloneDecided(inner, mapping, builder);
    if (range)
      builder.create<EndOp>(loc, range.getResult());
    eraseUnusedDefinitions(decided);
    if (!range)
      eraseUnusedDefinitions(index);
  }
  return replaceByCopies(loop, body, before, copied);
}

struct Unswitch : impl::TgcUnswitchBase<Unswitch> {
  using TgcUnswitchBase::TgcUnswitchBase;

  void runOnOperation() final {
    getOperation().walk([&](KernelOp kernel) {
      if (!kernel.isLowered())
        return;
      FiniteWeights finite(kernel);
      // Outermost loops first; each unswitch changes the program, so the
      // loops are found again after it.
      for (int done = 0; done < kMaxUnswitchedLoops; ++done) {
        bool changed = false;
        for (const Loop &loop : loopsOf(kernel))
          if ((changed = unswitch(loop, finite) || split(loop)))
            break;
        if (!changed)
          break;
      }
    });
  }
};

} // namespace
} // namespace mlir::tgc
