//===- ZeroProducts.cpp - drop the terms a zero multiplies -----*- C++ -*-===//
//
// A 3x3 convolution at 7x7 reads its padding for 2 of every 21 of its
// rows' taps and 2 of every 21 of its columns': 18% of its multiply-adds
// add a zero times a weight. The rows' zeros are loads under a gate that
// tgc-unswitch decides false in a copy of the loop, the columns' are lanes
// of the register tile that tgc-expand found past the border. Either way
// the product is still computed: GCC keeps `fma(0, w, acc)`, which is NaN
// for an infinite or NaN `w`.
//
// So where the other factor is a weight whose every element is finite (a
// constant input of the kernel, checked once), the product is a zero and
// its add becomes its other operand; an accumulator then stored back as
// it was loaded is not stored, and a loop or an if left with nothing that
// writes goes (a prefetch alone does not keep a loop). The sum differs
// only where it is a zero: a -0 the zero product would have made +0.
//
// Runs after tgc-unswitch, on the loop program, before tgc-mulacc fuses
// what is left.
//
//===----------------------------------------------------------------------===//

#include "Codegen/ZeroProducts.h"
#include "Codegen/OptActions.h"
#include "Codegen/Passes.h"
#include "IR/ConstantData.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCDROPZEROPRODUCTS
#include "Codegen/Passes.h.inc"

bool isFloatZero(Value value) {
  if (auto vector = value.getDefiningOp<VectorizeOp>())
    return llvm::all_of(vector.getSrcs(), isFloatZero);
  auto constant = value.getDefiningOp<ConstOp>();
  if (!constant)
    return false;
  if (auto scalar = dyn_cast<FloatAttr>(constant.getValue()))
    return scalar.getValue().isZero();
  auto elements = dyn_cast<DenseFPElementsAttr>(constant.getValue());
  return elements && elements.isSplat() &&
         elements.getSplatValue<APFloat>().isZero();
}

namespace {

/// True if no element of type `Bits` in `bytes` has every bit of `exponent`
/// set (an infinity or a NaN).
template <typename Bits>
bool noneHasExponent(ArrayRef<char> bytes, Bits exponent) {
  for (size_t at = 0; at + sizeof(Bits) <= bytes.size(); at += sizeof(Bits)) {
    Bits element;
    std::memcpy(&element, bytes.data() + at, sizeof(Bits));
    if ((element & exponent) == exponent)
      return false;
  }
  return true;
}

bool isFiniteAttr(Attribute attr) {
  if (auto scalar = dyn_cast<FloatAttr>(attr))
    return scalar.getValue().isFinite();
  auto elements = dyn_cast<DenseFPElementsAttr>(attr);
  return elements &&
         llvm::all_of(elements.getValues<APFloat>(),
                      [](const APFloat &x) { return x.isFinite(); });
}

} // namespace

bool FiniteWeights::isFiniteInput(ConstOp constant) {
  auto [it, inserted] = finiteInputs.try_emplace(constant, false);
  if (!inserted)
    return it->second;
  auto type = dyn_cast<RankedTensorType>(constant.getType());
  if (!type || !isa<FloatType>(type.getElementType()))
    return false;
  ArrayRef<char> bytes = getConstantBytes(constant);
  if (bytes.empty())
    return it->second = isFiniteAttr(constant.getValue());
  Type element = type.getElementType();
  if (element.isF32())
    return it->second = noneHasExponent<uint32_t>(bytes, 0x7f800000u);
  if (element.isF16())
    return it->second = noneHasExponent<uint16_t>(bytes, 0x7c00u);
  if (element.isBF16())
    return it->second = noneHasExponent<uint16_t>(bytes, 0x7f80u);
  if (element.isF64())
    return it->second = noneHasExponent<uint64_t>(bytes, 0x7ff0000000000000ull);
  return false;
}

bool FiniteWeights::isFinite(Value value, int depth) {
  if (depth > 8)
    return false;
  if (auto constant = value.getDefiningOp<ConstOp>())
    return isFiniteAttr(constant.getValue());
  if (auto vector = value.getDefiningOp<VectorizeOp>())
    return llvm::all_of(vector.getSrcs(),
                        [&](Value src) { return isFinite(src, depth + 1); });
  auto load = value.getDefiningOp<LoadOp>();
  if (!load || (load.getAlt() && !isFinite(load.getAlt(), depth + 1)))
    return false;
  // Through an index, or the buffer itself (its first element).
  auto index = load.getPtr().getDefiningOp<IndexOp>();
  Value input =
      findAddressedInput(kernel, index ? index.getBuf() : load.getPtr());
  auto constant = input ? input.getDefiningOp<ConstOp>() : ConstOp();
  return constant && isFiniteInput(constant);
}

bool onlyScalesSums(Value value, FiniteWeights &finite) {
  for (Operation *user : value.getUsers()) {
    if (auto vector = dyn_cast<VectorizeOp>(user)) {
      if (!llvm::all_equal(vector.getSrcs()) ||
          !onlyScalesSums(vector.getResult(), finite))
        return false;
      continue;
    }
    if (!isa<MulOp, MulaccOp>(user) ||
        !isa<FloatType>(getElementTypeOrSelf(user->getResult(0).getType())))
      return false;
    Value a = user->getOperand(0), b = user->getOperand(1);
    if ((a == value) == (b == value) || !finite.isFinite(a == value ? b : a))
      return false;
    if (isa<MulOp>(user) && !llvm::all_of(user->getUsers(), [](Operation *op) {
          return isa<AddOp>(op);
        }))
      return false;
  }
  return true;
}

namespace {

/// True if `a * b` is a zero times a finite number.
bool isZeroProduct(Value a, Value b, FiniteWeights &finite) {
  return (isFloatZero(a) && finite.isFinite(b)) ||
         (isFloatZero(b) && finite.isFinite(a));
}

/// The other term of a sum one of whose terms is a zero product, or null.
Value otherTerm(Operation *op, FiniteWeights &finite) {
  if (auto fma = dyn_cast<MulaccOp>(op))
    return isZeroProduct(fma.getA(), fma.getB(), finite) ? fma.getC() : Value();
  auto add = dyn_cast<AddOp>(op);
  if (!add || !isa<FloatType>(getElementTypeOrSelf(add.getType())))
    return {};
  for (unsigned i = 0; i < 2; ++i)
    if (auto mul = add->getOperand(i).getDefiningOp<MulOp>();
        mul && isZeroProduct(mul.getLhs(), mul.getRhs(), finite))
      return add->getOperand(1 - i);
  return {};
}

/// Replaces each sum with a zero product by its other term, in program
/// order: a chain of such sums becomes the first one's other term. Returns
/// whether any went.
bool dropZeroTerms(KernelOp kernel, FiniteWeights &finite) {
  bool dropped = false;
  for (Operation &op : llvm::make_early_inc_range(kernel.getBlock()))
    if (Value term = otherTerm(&op, finite)) {
      op.getResult(0).replaceAllUsesWith(term);
      op.erase();
      dropped = true;
    }
  return dropped;
}

bool isRegister(Value ptr) {
  auto index = ptr.getDefiningOp<IndexOp>();
  return index && index.getBuf().getDefiningOp<DefineRegOp>();
}

/// Erases stores of a register's own value, loaded since no store to it
/// and in the same loop: an accumulator whose every term went.
void dropUnchangedStores(KernelOp kernel) {
  SmallVector<StoreOp> unchanged;
  for (Operation &op : kernel.getBlock()) {
    auto store = dyn_cast<StoreOp>(op);
    auto load = store ? store.getValue().getDefiningOp<LoadOp>() : LoadOp();
    if (!load || load.getPtr() != store.getPtr() || !isRegister(load.getPtr()))
      continue;
    Value reg = load.getPtr().getDefiningOp<IndexOp>().getBuf();
    bool written = false;
    for (Operation *between = load->getNextNode(); !written && between != store;
         between = between->getNextNode()) {
      auto other = dyn_cast<StoreOp>(between);
      auto index = other ? other.getPtr().getDefiningOp<IndexOp>() : IndexOp();
      written = isa<RangeOp, EndOp, IfOp, EndifOp>(between) ||
                (other && (!index || index.getBuf() == reg));
    }
    if (!written)
      unchanged.push_back(store);
  }
  for (StoreOp store : unchanged)
    store->erase();
}

bool isRemovable(Operation *op) {
  return !isa<SinkOp>(op) && (isPure(op) || isa<LoadOp, PrefetchOp>(op));
}

/// Erases ops that nothing reads and that write nothing, last first so
/// that their operands' definitions follow.
void eraseDeadOps(KernelOp kernel) {
  SmallVector<Operation *> ops;
  for (Operation &op : kernel.getBlock())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty() && isRemovable(op) && !isa<PrefetchOp>(op))
      op->erase();
}

/// Erases each loop (range to end) and if (to endif) whose ops write
/// nothing that is read after it: inner ones first, so that an outer one
/// left empty goes too.
void eraseIdleSpans(KernelOp kernel) {
  SmallVector<Operation *> open;
  Block &block = kernel.getBlock();
  for (Operation *op = &block.front(); op;) {
    Operation *next = op->getNextNode();
    if (isa<RangeOp, IfOp>(op)) {
      open.push_back(op);
    } else if (isa<EndOp, EndifOp>(op) && !open.empty()) {
      Operation *opener = open.pop_back_val();
      SmallVector<Operation *> span;
      bool idle = true;
      for (Operation *in = opener->getNextNode(); idle && in != op;
           in = in->getNextNode()) {
        span.push_back(in);
        idle =
            isRemovable(in) && llvm::all_of(in->getUsers(), [&](Operation *u) {
              return u->getBlock() == &block && u->isBeforeInBlock(op);
            });
      }
      if (idle) {
        op->erase();
        // Users before their operands: nothing outside reads the span.
        for (Operation *in : llvm::reverse(span))
          in->erase();
        opener->erase();
      }
    }
    op = next;
  }
}

struct DropZeroProducts : impl::TgcDropZeroProductsBase<DropZeroProducts> {
  using TgcDropZeroProductsBase::TgcDropZeroProductsBase;

  void runOnOperation() final {
    getOperation().walk([&](KernelOp kernel) {
      if (!kernel.isLowered() || kernel.getBlock().empty())
        return;
      FiniteWeights finite(kernel);
      if (!dropZeroTerms(kernel, finite))
        return;
      eraseDeadOps(kernel);
      dropUnchangedStores(kernel);
      eraseDeadOps(kernel);
      eraseIdleSpans(kernel);
    });
  }
};

} // namespace
} // namespace mlir::tgc
