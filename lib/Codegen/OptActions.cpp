//===- OptActions.cpp - kernel opt actions on a lowered kernel -*- C++ -*-===//
//
// Every action but PADTO, PACK, TC and ROLL splits one range in two,
// r = outer * n + inner (or top * (N / n) + rest for the actions that split
// off the outer part), and gives one part a new axis kind; the part that
// keeps the old kind keeps the old id, so a later action can name the same
// axis again. What makes the split useful happens later: tgc-expand writes
// upcast and unroll lanes out, the renderer runs thread axes on the
// runtime's pool.
//
//===----------------------------------------------------------------------===//

#include "Codegen/OptActions.h"
#include "Codegen/PackWeights.h"
#include "Codegen/RangeDependence.h"
#include "Codegen/TensorCores.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// Lanes one kernel may have in all (copies times vector lanes): past this
/// the expanded kernel only spills registers and grows the source. A stack
/// of 36 tensors (Winograd F(4x4, 3x3)'s tile elements) over a row of 14
/// tiles padded to a vector of 16 needs all 576, each copy a few loads and
/// one store.
constexpr int64_t kMaxLanes = 576;

struct KindInfo {
  OptKind kind;
  llvm::StringLiteral name;
};
constexpr KindInfo kKinds[] = {
    {OptKind::Upcast, "UPCAST"},
    {OptKind::Unroll, "UNROLL"},
    {OptKind::Thread, "THREAD"},
    {OptKind::Padto, "PADTO"},
    {OptKind::Local, "LOCAL"},
    {OptKind::Group, "GROUP"},
    {OptKind::GroupTop, "GROUPTOP"},
    {OptKind::Pack, "PACK"},
    {OptKind::Tc, "TC"},
    {OptKind::Roll, "ROLL"},
};

StringRef kindName(OptKind kind) {
  for (const KindInfo &info : kKinds)
    if (info.kind == kind)
      return info.name;
  llvm_unreachable("opt kind");
}

bool isOutputAxis(AxisType axis) {
  return axis == AxisType::global || axis == AxisType::loop;
}

bool isLaneAxis(AxisType axis) {
  return axis == AxisType::upcast || axis == AxisType::unroll;
}

/// What a split makes of a range.
struct SplitPlan {
  /// Kind of the new part.
  AxisType newKind;
  /// True if the new part is the outer one (r = new * (N/n) + old).
  bool newIsOuter;
};

SplitPlan planFor(OptKind kind) {
  switch (kind) {
  case OptKind::Upcast:
    return {AxisType::upcast, false};
  case OptKind::Unroll:
    return {AxisType::unroll, false};
  case OptKind::Thread:
    return {AxisType::thread, true};
  case OptKind::Local:
    return {AxisType::local, false};
  case OptKind::Group:
    return {AxisType::group_reduce, false};
  case OptKind::GroupTop:
    return {AxisType::group_reduce, true};
  case OptKind::Padto:
  case OptKind::Pack:
  case OptKind::Tc:
  case OptKind::Roll:
    break;
  }
  llvm_unreachable("PADTO, PACK, TC and ROLL do not split");
}

int64_t nextRangeId(KernelOp kernel) {
  int64_t next = 0;
  kernel.walk([&](RangeOp r) {
    next = std::max<int64_t>(next, (int64_t)r.getId() + 1);
  });
  return next;
}

EndOp findEnd(RangeOp range) {
  for (Operation *user : range->getUsers())
    if (auto end = dyn_cast<EndOp>(user))
      return end;
  return nullptr;
}

void recordAction(KernelOp kernel, const OptAction &action) {
  Builder builder(kernel.getContext());
  SmallVector<Attribute> opts;
  if (auto existing = kernel.getOpts())
    llvm::append_range(opts, *existing);
  opts.push_back(builder.getStringAttr(toString(action)));
  kernel.setOptsAttr(builder.getArrayAttr(opts));
}

/// Replaces `range` by the ranges `parts` (outer first) whose combined
/// index is `index`: ends close the parts innermost first, reduces over
/// `range` reduce over every part, other uses read `index`.
void replaceRange(RangeOp range, ArrayRef<RangeOp> parts, Value index) {
  EndOp end = findEnd(range);
  OpBuilder builder(end);
  for (RangeOp part : llvm::reverse(parts))
    builder.create<EndOp>(end.getLoc(), part.getResult());
  end.erase();
  for (Operation *user : llvm::make_early_inc_range(range->getUsers())) {
    auto reduce = dyn_cast<ReduceOp>(user);
    if (!reduce)
      continue;
    SmallVector<Value> ranges;
    for (Value r : reduce.getRanges()) {
      if (r != range.getResult()) {
        ranges.push_back(r);
        continue;
      }
      for (RangeOp part : parts)
        ranges.push_back(part.getResult());
    }
    reduce.getRangesMutable().assign(ranges);
  }
  range.getResult().replaceAllUsesWith(index);
  range.erase();
}

void applySplit(KernelOp kernel, RangeOp range, const OptAction &action) {
  SplitPlan plan = planFor(action.kind);
  OpBuilder builder(range);
  Location loc = range.getLoc();
  int64_t bound = range.getBound();
  int64_t newId = nextRangeId(kernel);
  Type indexType = builder.getIndexType();

  if (action.amount == bound) {
    // The whole axis changes kind: no loop of bound 1 is left behind.
    auto whole = builder.create<RangeOp>(loc, indexType, bound, plan.newKind,
                                         range.getId());
    replaceRange(range, {whole}, whole.getResult());
    return;
  }
  int64_t newBound = action.amount;
  int64_t oldBound = bound / action.amount;
  RangeOp outer, inner;
  if (plan.newIsOuter) {
    outer = builder.create<RangeOp>(loc, indexType, newBound, plan.newKind,
                                    newId);
    inner = builder.create<RangeOp>(loc, indexType, oldBound, range.getAxis(),
                                    range.getId());
  } else {
    outer = builder.create<RangeOp>(loc, indexType, oldBound, range.getAxis(),
                                    range.getId());
    inner = builder.create<RangeOp>(loc, indexType, newBound, plan.newKind,
                                    newId);
  }
  Value stride = builder.create<ConstOp>(
      loc, builder.getIndexAttr((int64_t)inner.getBound()));
  Value scaled = builder.create<MulOp>(loc, outer, stride);
  Value index = builder.create<AddOp>(loc, scaled, inner);
  replaceRange(range, {outer, inner}, index);
}

/// THREAD(axis, n): a thread range of n tasks around the whole body, and
/// the axis r of bound N becomes r' of bound N/n with r = t*(N/n) + r'.
/// The thread range is outermost whatever the axis, because the renderer
/// runs it as the task index of a function; every op then runs in each
/// task, and the check that every store is inside r keeps the tasks'
/// writes apart.
void applyThread(KernelOp kernel, RangeOp range, int64_t tasks) {
  Block &block = kernel.getBlock();
  Location loc = range.getLoc();
  int64_t bound = range.getBound();
  OpBuilder builder(&block, block.begin());
  auto thread = builder.create<RangeOp>(loc, builder.getIndexType(), tasks,
                                        AxisType::thread, nextRangeId(kernel));
  builder.setInsertionPoint(block.getTerminator());
  builder.create<EndOp>(loc, thread.getResult());
  if (tasks == bound) {
    replaceRange(range, {}, thread.getResult());
    return;
  }
  builder.setInsertionPoint(range);
  auto rest = builder.create<RangeOp>(loc, builder.getIndexType(),
                                      bound / tasks, range.getAxis(),
                                      range.getId());
  Value stride = builder.create<ConstOp>(loc, builder.getIndexAttr(bound / tasks));
  Value scaled = builder.create<MulOp>(loc, thread, stride);
  Value index = builder.create<AddOp>(loc, scaled, rest);
  replaceRange(range, {rest}, index);
}

/// True if every use of `index` is a load.
bool onlyLoaded(IndexOp index) {
  return llvm::all_of(index->getUsers(),
                      [](Operation *user) { return isa<LoadOp>(user); });
}

/// PADTO(axis, n): the range runs to the next multiple of n; every buffer
/// access that depends on it is gated by `range < old bound`. A load gated
/// by padding alone is marked `padding`: its value past the bound feeds
/// only outputs that are never stored.
void applyPadto(RangeOp range, int64_t amount) {
  int64_t bound = range.getBound();
  int64_t padded = (bound + amount - 1) / amount * amount;
  OpBuilder builder(range->getContext());
  builder.setInsertionPointAfter(range);
  Location loc = range.getLoc();
  Value limit = builder.create<ConstOp>(loc, builder.getIndexAttr(bound));
  Value valid = builder.create<CmpltOp>(loc, range.getResult(), limit);
  range.setBound(padded);

  DependenceMemo memo;
  SmallVector<IndexOp> accesses;
  for (Operation *op = valid.getDefiningOp()->getNextNode(); op;
       op = op->getNextNode())
    if (auto index = dyn_cast<IndexOp>(op))
      if (cast<PtrType>(index.getType()).getAddrSpace() == AddrSpace::global &&
          dependsOn(index.getIdx(), range.getResult(), memo))
        accesses.push_back(index);
  for (IndexOp index : accesses) {
    Value gate = valid;
    Value old = index.getGate();
    if (old) {
      builder.setInsertionPoint(index);
      gate = builder.create<AndOp>(loc, old, valid);
    }
    index.setPadding((!old || index.getPadding()) && onlyLoaded(index));
    index.getGateMutable().assign(gate);
  }
}

/// Multiplies the kernel's useful_share by the share of a padded axis's
/// lanes that hold elements: `bound` of `padded`.
void recordUsefulShare(KernelOp kernel, int64_t bound, int64_t padded) {
  double share = static_cast<double>(bound) / static_cast<double>(padded);
  if (FloatAttr old = kernel.getUsefulShareAttr())
    share *= old.getValueAsDouble();
  kernel.setUsefulShareAttr(
      Builder(kernel.getContext()).getF64FloatAttr(share));
}

int64_t laneCount(KernelOp kernel) {
  int64_t lanes = 1;
  kernel.walk([&](RangeOp r) {
    if (isLaneAxis(r.getAxis()))
      lanes *= r.getBound();
  });
  return lanes;
}

} // namespace

std::string mlir::tgc::toString(const OptAction &action) {
  if (action.kind == OptKind::Tc)
    return (Twine("TC(") + Twine(action.axis) + "," + Twine(action.nAxis) +
            "," + Twine(action.kAxis) + "," + Twine(action.amount) + ")")
        .str();
  std::string text = (kindName(action.kind) + "(" + Twine(action.axis) +
                      "," + Twine(action.amount))
                         .str();
  if (action.kind == OptKind::Pack)
    text += "," + std::to_string(action.input);
  return text + ")";
}

FailureOr<SmallVector<OptAction>>
mlir::tgc::parseOptActionList(StringRef text, Operation *op, StringRef pass,
                              StringRef example) {
  SmallVector<OptAction> actions;
  SmallVector<StringRef> words;
  text.split(words, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef word : words) {
    std::optional<OptAction> action = parseOptAction(word);
    if (!action)
      return op->emitError(pass)
             << ": '" << word.trim() << "' is not an opt action, such as "
             << example;
    actions.push_back(*action);
  }
  return actions;
}

std::optional<OptAction> mlir::tgc::parseOptAction(StringRef text) {
  text = text.trim();
  auto [name, rest] = text.split('(');
  if (!rest.consume_back(")"))
    return std::nullopt;
  if (name == "TC") {
    // TC(m,n,k,tile): four numbers.
    SmallVector<StringRef, 4> numbers;
    rest.split(numbers, ',');
    OptAction action{OptKind::Tc, 0, 0};
    if (numbers.size() != 4 || numbers[0].trim().getAsInteger(10, action.axis) ||
        numbers[1].trim().getAsInteger(10, action.nAxis) ||
        numbers[2].trim().getAsInteger(10, action.kAxis) ||
        numbers[3].trim().getAsInteger(10, action.amount))
      return std::nullopt;
    return action;
  }
  auto [axisText, amountText] = rest.split(',');
  StringRef inputText;
  std::tie(amountText, inputText) = amountText.split(',');
  OptAction action;
  bool known = false;
  for (const KindInfo &info : kKinds)
    if (info.name == name) {
      action.kind = info.kind;
      known = true;
    }
  if (!known || axisText.trim().getAsInteger(10, action.axis) ||
      amountText.trim().getAsInteger(10, action.amount))
    return std::nullopt;
  // PACK names the weight too; nothing else takes a third number.
  if ((action.kind == OptKind::Pack) == inputText.empty())
    return std::nullopt;
  if (action.kind == OptKind::Pack &&
      inputText.trim().getAsInteger(10, action.input))
    return std::nullopt;
  return action;
}

SmallVector<OptAction> mlir::tgc::getAppliedActions(KernelOp kernel) {
  SmallVector<OptAction> actions;
  if (auto opts = kernel.getOpts())
    for (Attribute attr : *opts)
      if (auto text = dyn_cast<StringAttr>(attr))
        if (auto action = parseOptAction(text.getValue()))
          actions.push_back(*action);
  return actions;
}

RangeOp mlir::tgc::findRange(KernelOp kernel, int64_t axis) {
  for (Operation &op : kernel.getBlock())
    if (auto range = dyn_cast<RangeOp>(op);
        range && (int64_t)range.getId() == axis)
      return range;
  return nullptr;
}

Value mlir::tgc::findAddressedInput(KernelOp kernel, IndexOp index) {
  return findAddressedInput(kernel, index.getBuf());
}

Value mlir::tgc::findAddressedInput(KernelOp kernel, Value buf) {
  auto arg = dyn_cast<BlockArgument>(buf);
  if (!arg || arg.getOwner() != &kernel.getBlock() ||
      arg.getArgNumber() >= kernel.getInputs().size())
    return {};
  return kernel.getInputs()[arg.getArgNumber()];
}

std::string mlir::tgc::checkOptAction(KernelOp kernel,
                                      const OptAction &action) {
  if (!kernel.isLowered())
    return "the kernel is not lowered";
  // A TC action leaves the kernel in its final form (TensorCores.h).
  bool linearized = false;
  kernel.walk([&](Operation *op) {
    linearized |= isa<DefineRegOp, DefineLocalOp, DefineAccOp>(op);
  });
  if (linearized)
    return "the kernel is already linearized";
  RangeOp range = findRange(kernel, action.axis);
  if (!range)
    return "the kernel has no axis " + std::to_string(action.axis);
  if (action.kind == OptKind::Pack) {
    std::string whyNot;
    if (action.input < 0)
      return "the kernel has no such input";
    FailureOr<SmallVector<RangeOp>> dims =
        getWeightDims(kernel, action.input, &whyNot);
    if (failed(dims))
      return whyNot;
    if (!llvm::is_contained(*dims, range))
      return "the axis walks no dim of the weight";
    if (action.amount < 1 || (int64_t)range.getBound() % action.amount != 0)
      return "the block does not divide the axis";
    return "";
  }
  if (action.kind == OptKind::Tc)
    return checkTensorCores(kernel, action);
  if (action.kind == OptKind::Roll) {
    if (range.getAxis() != AxisType::reduce)
      return "the axis is not a reduce axis";
    if (action.amount != 0 && action.amount != 1)
      return "the amount must be 0 (the compiler's choice) or 1 (a loop)";
    for (const OptAction &earlier : getAppliedActions(kernel))
      if (earlier.kind == OptKind::Roll && earlier.axis == action.axis)
        return "the loop's rolling is decided already";
    return "";
  }
  if (action.amount < 2)
    return "the amount must be at least 2";
  AxisType axis = range.getAxis();
  int64_t bound = range.getBound();
  if (action.kind == OptKind::Padto) {
    if (!isOutputAxis(axis))
      return "only output axes are padded";
    if (bound % action.amount == 0)
      return "the axis is a multiple of the amount already";
    return "";
  }
  bool wantsReduce = action.kind == OptKind::Unroll ||
                     action.kind == OptKind::Group ||
                     action.kind == OptKind::GroupTop;
  if (wantsReduce && axis != AxisType::reduce)
    return "the axis is not a reduce axis";
  if (!wantsReduce && !isOutputAxis(axis))
    return "the axis is not an output axis";
  if (bound % action.amount != 0)
    return "the amount does not divide the axis";
  bool addsLanes =
      action.kind == OptKind::Upcast || action.kind == OptKind::Unroll;
  if (addsLanes && laneCount(kernel) * action.amount > kMaxLanes)
    return "more than " + std::to_string(kMaxLanes) + " lanes";
  if (action.kind == OptKind::Thread) {
    bool threaded = false;
    kernel.walk([&](RangeOp r) { threaded |= r.getAxis() == AxisType::thread; });
    if (threaded)
      return "the kernel is split across threads already";
    // Each task runs the whole body for its slice of the axis: a store
    // outside the axis would be made by every task.
    EndOp end = findEnd(range);
    for (Operation &op : kernel.getBlock())
      if (isa<StoreOp>(op) &&
          !(range->isBeforeInBlock(&op) && op.isBeforeInBlock(end)))
        return "the kernel stores outside the axis";
  }
  return "";
}

LogicalResult mlir::tgc::applyOptAction(KernelOp kernel,
                                        const OptAction &action,
                                        std::string *whyNot) {
  std::string reason = checkOptAction(kernel, action);
  if (!reason.empty()) {
    if (whyNot)
      *whyNot = reason;
    return failure();
  }
  RangeOp range = findRange(kernel, action.axis);
  if (action.kind == OptKind::Padto) {
    int64_t bound = range.getBound();
    applyPadto(range, action.amount);
    recordUsefulShare(kernel, bound, range.getBound());
  } else if (action.kind == OptKind::Pack)
    packWeight(kernel, action.input, range, action.amount);
  else if (action.kind == OptKind::Thread)
    applyThread(kernel, range, action.amount);
  else if (action.kind == OptKind::Tc)
    applyTensorCores(kernel, action);
  else if (action.kind != OptKind::Roll) // read by tgc-keep-rolled
    applySplit(kernel, range, action);
  recordAction(kernel, action);
  return success();
}
