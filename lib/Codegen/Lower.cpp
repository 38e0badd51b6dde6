//===- Lower.cpp - kernels of tensor ops to loop programs -----*- C++ -*-===//
//
// Evaluates a kernel's tensor expression element by element: every tensor
// value is asked for its element at a tuple of index values, movement ops
// answer by asking their source at other indices, loads answer from
// memory. This is tinygrad's rangeify with views turned into index math.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Passes.h"
#include "Codegen/Symbolic.h"
#include "IR/TgcOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include <map>

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCLOWER
#include "Codegen/Passes.h.inc"

namespace {

ArrayRef<int64_t> shapeOf(Value tensor) {
  return cast<RankedTensorType>(tensor.getType()).getShape();
}

class KernelLowering {
public:
  KernelLowering(KernelOp kernel)
      : kernel(kernel), builder(kernel.getContext()), loc(kernel.getLoc()) {}

  LogicalResult run();

private:
  /// The element of `tensor` at `index`, read only where `gate` holds.
  FailureOr<Value> element(Value tensor, ArrayRef<Value> index, Value gate);
  FailureOr<Value> elementOfOp(Operation *op, ArrayRef<Value> index,
                               Value gate);
  FailureOr<Value> reduceElement(ReduceAxisOp op, ArrayRef<Value> index,
                                 Value gate);
  SmallVector<Value> reshapeIndex(ArrayRef<int64_t> from, ArrayRef<int64_t> to,
                                  ArrayRef<Value> index);

  Value constIndex(int64_t value) {
    return builder.create<ConstOp>(loc, builder.getIndexAttr(value));
  }
  Value add(Value a, Value b) { return builder.createOrFold<AddOp>(loc, a, b); }
  Value mul(Value a, Value b) { return builder.createOrFold<MulOp>(loc, a, b); }
  Value addConst(Value a, int64_t c) { return c ? add(a, constIndex(c)) : a; }
  Value mulConst(Value a, int64_t c) { return c == 1 ? a : mul(a, constIndex(c)); }
  Value linearOffset(ArrayRef<Value> index, ArrayRef<int64_t> shape);
  Value andGates(Value a, Value b) {
    if (!a || !b)
      return a ? a : b;
    return builder.createOrFold<AndOp>(loc, a, b);
  }
  Value zeroOf(Type element) {
    return builder.create<ConstOp>(loc, cast<TypedAttr>(builder.getZeroAttr(element)));
  }
  RangeOp openRange(int64_t bound, AxisType axis) {
    return builder.create<RangeOp>(loc, builder.getIndexType(), bound, axis,
                                   nextRangeId++);
  }

  /// A constant index enters the key by its value, an index expression by
  /// its identity: two reshapes that each add a unit dim make two
  /// constants 0, and a reduce read through both is still one loop.
  using MemoKey = std::vector<std::pair<const void *, int64_t>>;
  MemoKey memoKey(Value tensor, ArrayRef<Value> index, Value gate) {
    MemoKey key{{tensor.getAsOpaquePointer(), 0},
                {gate.getAsOpaquePointer(), 0}};
    for (Value i : index) {
      if (std::optional<int64_t> c = constantIndex(i))
        key.push_back({nullptr, *c});
      else
        key.push_back({i.getAsOpaquePointer(), 0});
    }
    return key;
  }

  KernelOp kernel;
  OpBuilder builder;
  Location loc;
  llvm::DenseMap<Value, Value> pointerOf; // old block argument -> pointer
  int64_t nextRangeId = 0;
  /// Elements already computed, one map per open reduce loop: what is
  /// computed inside a loop is gone once the loop closes.
  SmallVector<std::map<MemoKey, Value>> memo;
};

Value KernelLowering::linearOffset(ArrayRef<Value> index,
                                   ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  Value offset;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1)
      continue;
    Value term = mulConst(index[d], strides[d]);
    offset = offset ? add(offset, term) : term;
  }
  return offset ? offset : constIndex(0);
}

/// Maps an index of shape `to` to the index of shape `from` showing the same
/// element. Dims are matched in groups of equal product so that a reshape
/// that only splits, merges or adds unit dims keeps simple indices.
SmallVector<Value> KernelLowering::reshapeIndex(ArrayRef<int64_t> from,
                                                ArrayRef<int64_t> to,
                                                ArrayRef<Value> index) {
  SmallVector<Value> result(from.size());
  size_t i = 0, j = 0;
  while (i < from.size() || j < to.size()) {
    if (i < from.size() && from[i] == 1) {
      result[i++] = constIndex(0);
      continue;
    }
    if (j < to.size() && to[j] == 1) {
      ++j;
      continue;
    }
    size_t gi = i + 1, gj = j + 1;
    int64_t pi = from[i], pj = to[j];
    while (pi != pj) {
      if (pi < pj)
        pi *= from[gi++];
      else
        pj *= to[gj++];
    }
    if (gi == i + 1 && gj == j + 1) {
      result[i] = index[j];
    } else {
      // Flatten the group of `to`, then split it into the group of `from`.
      Value flat;
      int64_t stride = 1;
      for (size_t k = gj; k-- > j;) {
        if (to[k] != 1) {
          Value term = mulConst(index[k], stride);
          flat = flat ? add(flat, term) : term;
        }
        stride *= to[k];
      }
      stride = 1;
      for (size_t k = gi; k-- > i;) {
        if (from[k] == 1) {
          result[k] = constIndex(0);
          continue;
        }
        Value v = stride == 1 ? flat
                              : builder.createOrFold<IdivOp>(
                                    loc, flat, constIndex(stride));
        if (k != i)
          v = builder.createOrFold<ModOp>(loc, v, constIndex(from[k]));
        result[k] = v;
        stride *= from[k];
      }
    }
    i = gi;
    j = gj;
  }
  return result;
}

FailureOr<Value> KernelLowering::element(Value tensor, ArrayRef<Value> index,
                                         Value gate) {
  MemoKey key = memoKey(tensor, index, gate);
  for (auto &scope : llvm::reverse(memo))
    if (auto it = scope.find(key); it != scope.end())
      return it->second;

  Value result;
  if (Value pointer = pointerOf.lookup(tensor)) {
    Value offset = linearOffset(index, shapeOf(tensor));
    Value address = builder.create<IndexOp>(loc, pointer, offset, gate);
    Type element = getElementTypeOrSelf(tensor.getType());
    result = builder.create<LoadOp>(loc, element, address,
                                    gate ? zeroOf(element) : Value());
  } else {
    FailureOr<Value> computed = elementOfOp(tensor.getDefiningOp(), index, gate);
    if (failed(computed))
      return failure();
    result = *computed;
  }
  memo.back()[key] = result;
  return result;
}

FailureOr<Value> KernelLowering::elementOfOp(Operation *op,
                                             ArrayRef<Value> index,
                                             Value gate) {
  if (!op)
    return failure();
  if (auto constant = dyn_cast<ConstOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense || !dense.isSplat())
      return op->emitError("only splat constants can live inside a kernel");
    return builder
        .create<ConstOp>(loc, cast<TypedAttr>(dense.getSplatValue<Attribute>()))
        .getResult();
  }
  if (auto contiguous = dyn_cast<ContiguousOp>(op))
    return element(contiguous.getSrc(), index, gate);
  if (auto reshape = dyn_cast<ReshapeOp>(op))
    return element(reshape.getSrc(),
                   reshapeIndex(shapeOf(reshape.getSrc()),
                                shapeOf(reshape.getResult()), index),
                   gate);
  if (auto permute = dyn_cast<PermuteOp>(op)) {
    SmallVector<Value> from(index.size());
    for (auto [i, axis] : llvm::enumerate(permute.getOrder()))
      from[axis] = index[i];
    return element(permute.getSrc(), from, gate);
  }
  if (auto expand = dyn_cast<ExpandOp>(op)) {
    ArrayRef<int64_t> srcShape = shapeOf(expand.getSrc());
    SmallVector<Value> from(index);
    for (size_t d = 0; d < from.size(); ++d)
      if (srcShape[d] == 1)
        from[d] = constIndex(0);
    return element(expand.getSrc(), from, gate);
  }
  if (auto shrink = dyn_cast<ShrinkOp>(op)) {
    SmallVector<Value> from;
    for (auto [i, begin] : llvm::zip(index, shrink.getBegin()))
      from.push_back(addConst(i, begin));
    return element(shrink.getSrc(), from, gate);
  }
  if (auto flip = dyn_cast<FlipOp>(op)) {
    ArrayRef<int64_t> shape = shapeOf(flip.getSrc());
    SmallVector<Value> from(index);
    for (int64_t axis : flip.getAxes())
      from[axis] = builder.createOrFold<SubOp>(
          loc, constIndex(shape[axis] - 1), index[axis]);
    return element(flip.getSrc(), from, gate);
  }
  if (auto pad = dyn_cast<PadOp>(op)) {
    ArrayRef<int64_t> shape = shapeOf(pad.getSrc());
    SmallVector<Value> from;
    Value valid;
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t low = pad.getLow()[d], high = pad.getHigh()[d];
      from.push_back(addConst(index[d], -low));
      if (low > 0)
        valid = andGates(valid, builder.createOrFold<CmpltOp>(
                                    loc, constIndex(low - 1), index[d]));
      if (high > 0)
        valid = andGates(valid, builder.createOrFold<CmpltOp>(
                                    loc, index[d], constIndex(low + shape[d])));
    }
    FailureOr<Value> inner = element(pad.getSrc(), from, andGates(gate, valid));
    if (failed(inner) || !valid)
      return inner;
    Value zero = zeroOf(getElementTypeOrSelf(pad.getType()));
    return builder.createOrFold<WhereOp>(loc, valid, *inner, zero);
  }
  if (auto reduce = dyn_cast<ReduceAxisOp>(op))
    return reduceElement(reduce, index, gate);

  // Elementwise: the same op on the elements of its operands.
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    FailureOr<Value> v = element(operand, index, gate);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  if (op->getNumResults() != 1 || !isa<RankedTensorType>(op->getResult(0).getType()))
    return op->emitError("cannot be lowered to loops");
  OperationState state(loc, op->getName());
  state.addOperands(operands);
  state.addTypes(getElementTypeOrSelf(op->getResult(0).getType()));
  state.addAttributes(op->getAttrs());
  return builder.create(state)->getResult(0);
}

FailureOr<Value> KernelLowering::reduceElement(ReduceAxisOp op,
                                               ArrayRef<Value> index,
                                               Value gate) {
  ArrayRef<int64_t> srcShape = shapeOf(op.getSrc());
  // A reduction over an empty axis is its identity (no loop of 0 steps).
  if (llvm::any_of(op.getAxes(),
                   [&](int64_t axis) { return srcShape[axis] == 0; })) {
    Type element = getElementTypeOrSelf(op.getType());
    if (op.getKind() == ReduceKind::add)
      return zeroOf(element);
    if (op.getKind() == ReduceKind::mul)
      return builder.create<ConstOp>(loc, builder.getOneAttr(element))
          .getResult();
    return op->emitError("max over an empty axis has no value");
  }
  SmallVector<Value> from(index);
  SmallVector<RangeOp> ranges;
  for (int64_t axis : op.getAxes()) {
    if (srcShape[axis] == 1)
      continue;
    ranges.push_back(openRange(srcShape[axis], AxisType::reduce));
    from[axis] = ranges.back();
  }
  memo.emplace_back();
  FailureOr<Value> src = element(op.getSrc(), from, gate);
  memo.pop_back();
  if (failed(src) || ranges.empty())
    return src;
  SmallVector<Value> rangeValues;
  for (RangeOp range : llvm::reverse(ranges))
    builder.create<EndOp>(loc, range);
  for (RangeOp range : ranges)
    rangeValues.push_back(range);
  return builder.create<ReduceOp>(loc, op.getKind(), *src, rangeValues)
      .getResult();
}

LogicalResult KernelLowering::run() {
  Block &oldBlock = kernel.getBlock();
  auto sink = cast<SinkOp>(oldBlock.getTerminator());
  if (sink.getSrcs().size() != 1)
    return kernel.emitError("lowering handles kernels with one result");
  Value result = sink.getSrcs()[0];

  auto *block = new Block();
  kernel.getBody().push_back(block);
  for (BlockArgument arg : oldBlock.getArguments())
    pointerOf[arg] = block->addArgument(
        PtrType::get(getElementTypeOrSelf(arg.getType())), arg.getLoc());
  Value out = block->addArgument(
      PtrType::get(getElementTypeOrSelf(result.getType())), loc);

  builder.setInsertionPointToStart(block);
  ArrayRef<int64_t> shape = shapeOf(result);
  // An empty result is written by no loop at all (ranges have bound >= 1).
  if (llvm::is_contained(shape, 0)) {
    builder.create<SinkOp>(loc, ValueRange());
    oldBlock.dropAllDefinedValueUses();
    oldBlock.erase();
    return success();
  }
  SmallVector<RangeOp> globals;
  SmallVector<Value> index;
  for (int64_t dim : shape) {
    if (dim == 1) {
      index.push_back(constIndex(0));
      continue;
    }
    globals.push_back(openRange(dim, AxisType::global));
    index.push_back(globals.back());
  }
  memo.emplace_back();
  FailureOr<Value> value = element(result, index, Value());
  if (failed(value))
    return failure();
  Value address = builder.create<IndexOp>(loc, out, linearOffset(index, shape),
                                          Value());
  builder.create<StoreOp>(loc, address, *value);
  for (RangeOp range : llvm::reverse(globals))
    builder.create<EndOp>(loc, range);
  builder.create<SinkOp>(loc, ValueRange());

  oldBlock.dropAllDefinedValueUses();
  oldBlock.erase();
  return success();
}


/// Index arithmetic that linearSumOf sees through.
bool isIndexArithmetic(Operation *op) {
  return isa<AddOp, SubOp, MulOp>(op) && op->getResult(0).getType().isIndex();
}

/// The addresses (tgc.index ops) that `ranges` reach only through index
/// arithmetic, each with its linear form; failure if a range also reaches
/// anything else (a gate, a value, a product of two ranges).
FailureOr<SmallVector<std::pair<IndexOp, LinearSum>>>
addressesOf(ArrayRef<RangeOp> ranges) {
  SmallVector<Value> work;
  for (RangeOp range : ranges)
    work.push_back(range.getResult());
  llvm::SetVector<Operation *> addresses;
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<EndOp>(user))
        continue;
      if (auto index = dyn_cast<IndexOp>(user);
          index && use.getOperandNumber() == 1 && index.getIdx() == value) {
        addresses.insert(index);
        continue;
      }
      if (!isIndexArithmetic(user))
        return failure();
      work.push_back(user->getResult(0));
    }
  }
  SmallVector<std::pair<IndexOp, LinearSum>> result;
  for (Operation *op : addresses) {
    auto index = cast<IndexOp>(op);
    LinearSum sum = linearSumOf(index.getIdx());
    for (auto &[atom, coef] : sum.terms) {
      bool isRange = llvm::any_of(
          ranges, [&](RangeOp r) { return r.getResult() == atom; });
      // An atom computed from a range (a product of two ranges, say).
      if (!isRange && seen.contains(atom))
        return failure();
    }
    result.push_back({index, std::move(sum)});
  }
  return result;
}

int64_t coefficientOf(const LinearSum &sum, Value atom) {
  for (auto [a, coef] : sum.terms)
    if (a == atom)
      return coef;
  return 0;
}

/// Merges global range `inner` into `outer` (the loop right around it) when
/// every address moves along outer exactly `bound(inner)` times as far as
/// along inner: then (outer, inner) reads and writes as one axis of
/// outer*inner steps, and a 56x56 image is one axis of 3136, which splits
/// into whole vectors where 56 would not. Returns whether it merged.
bool mergeRanges(RangeOp outer, RangeOp inner, EndOp innerEnd,
                 EndOp outerEnd) {
  auto addresses = addressesOf({outer, inner});
  if (failed(addresses))
    return false;
  int64_t innerBound = inner.getBound();
  for (auto &[index, sum] : *addresses)
    if (coefficientOf(sum, outer) !=
        coefficientOf(sum, inner) * innerBound)
      return false;
  OpBuilder builder(outer);
  auto merged = builder.create<RangeOp>(
      outer.getLoc(), builder.getIndexType(), outer.getBound() * innerBound,
      AxisType::global, outer.getId());
  for (auto &[index, sum] : *addresses) {
    int64_t coef = coefficientOf(sum, inner);
    llvm::erase_if(sum.terms, [&](auto &term) {
      return term.first == outer.getResult() ||
             term.first == inner.getResult();
    });
    if (coef)
      sum.terms.push_back({merged.getResult(), coef});
    builder.setInsertionPoint(index);
    index.getIdxMutable().assign(
        buildLinearSum(builder, index.getLoc(), sum));
  }
  builder.setInsertionPoint(outerEnd);
  builder.create<EndOp>(outerEnd.getLoc(), merged);
  innerEnd.erase();
  outerEnd.erase();
  // The old address arithmetic is dead now; users come after what they
  // use, so one sweep from the end erases whole chains.
  Block *block = merged->getBlock();
  for (auto it = block->rbegin(); it != block->rend();) {
    Operation *op = &*it++;
    if (isIndexArithmetic(op) && op->use_empty())
      op->erase();
  }
  inner.erase();
  outer.erase();
  return true;
}

/// Merges neighbouring global ranges of a lowered kernel that address
/// memory as one (mergeRanges), innermost pairs first, until none is left.
void mergeContiguousRanges(KernelOp kernel) {
  bool changed = true;
  while (changed) {
    changed = false;
    Block &block = kernel.getBlock();
    SmallVector<RangeOp> globals;
    for (Operation &op : block)
      if (auto range = dyn_cast<RangeOp>(op);
          range && range.getAxis() == AxisType::global)
        globals.push_back(range);
    for (size_t i = globals.size(); i-- > 1;) {
      RangeOp outer = globals[i - 1], inner = globals[i];
      // Perfectly nested: range outer; range inner ... end inner; end outer.
      if (outer->getNextNode() != inner.getOperation())
        continue;
      EndOp innerEnd, outerEnd;
      for (Operation *user : inner->getUsers())
        if (auto end = dyn_cast<EndOp>(user))
          innerEnd = end;
      if (!innerEnd)
        continue;
      outerEnd = dyn_cast_or_null<EndOp>(innerEnd->getNextNode());
      if (!outerEnd || outerEnd.getRange() != outer.getResult())
        continue;
      if (mergeRanges(outer, inner, innerEnd, outerEnd)) {
        changed = true;
        break;
      }
    }
  }
}

struct Lower : impl::TgcLowerBase<Lower> {
  using TgcLowerBase::TgcLowerBase;

  void runOnOperation() final {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) {
      if (!kernel.isLowered())
        kernels.push_back(kernel);
    });
    for (KernelOp kernel : kernels)
      if (failed(KernelLowering(kernel).run()))
        return signalPassFailure();
    for (KernelOp kernel : kernels)
        mergeContiguousRanges(kernel);
  }
};

} // namespace
} // namespace mlir::tgc
