//===- PackWeights.cpp - weights laid out for their kernel ----*- C++ -*-===//
//
// Only a transpose is done, of the window the kernel reads: every dim of
// the weight is walked by one range of the kernel from a start (0 for the
// whole weight; a GRU step reads one gate's rows of the stacked
// recurrent weight), or read at its start only, so moving dims around
// changes each access's coefficients and drops its constant offset, and
// nothing else. A range padded past its dim (PADTO, every access gated
// by `range < size`) pads the packed dim with zeros to the range's length,
// so that a register tile's last vector is a whole vector load.
//
//===----------------------------------------------------------------------===//

#include "Codegen/PackWeights.h"
#include "Codegen/Symbolic.h"
#include "IR/ConstantData.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include <cstring>

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// Erases `value`'s pure index arithmetic once nothing reads it.
void eraseIfDead(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op || !op->use_empty() ||
      !isa<AddOp, MulOp, SubOp, ConstOp, CmpltOp, AndOp>(op))
    return;
  SmallVector<Value> operands(op->getOperands());
  op->erase();
  for (Value operand : operands)
    eraseIfDead(operand);
}

/// The k of a condition `range < k`.
std::optional<int64_t> limitOn(Value cond, RangeOp range) {
  std::optional<IndexComparison> cmp =
      matchIndexComparison(cond.getDefiningOp());
  if (!cmp || !cond.getDefiningOp<CmpltOp>() || !cmp->subjectFirst ||
      cmp->subject != range.getResult())
    return std::nullopt;
  return cmp->constant;
}

/// True if `index`'s gate holds only where `range` < `size`: one of the
/// conditions it is the conjunction of is `range < k` with k <= size.
bool gatedBelow(IndexOp index, RangeOp range, int64_t size) {
  if (!index.getGate())
    return false;
  return llvm::any_of(conjunctsOf(index.getGate()), [&](Value conjunct) {
    std::optional<int64_t> k = limitOn(conjunct, range);
    return k && *k <= size;
  });
}

/// True if `gate` is a conjunction of `range < k` with k no less than the
/// size of the dim `range` walks, for ranges in `padded` (range and size):
/// the gates PADTO put on an access whose padding reads zeros once packed.
bool onlyPadding(Value gate, ArrayRef<std::pair<RangeOp, int64_t>> padded) {
  return llvm::all_of(conjunctsOf(gate), [&](Value conjunct) {
    return llvm::any_of(padded, [&](auto rangeAndSize) {
      std::optional<int64_t> k = limitOn(conjunct, rangeAndSize.first);
      return k && *k >= rangeAndSize.second;
    });
  });
}

/// True if every load through `index` reads zero where its gate is false
/// (its alternative is zero, or it has none: PADTO's gates).
bool readsZeroOutside(IndexOp index) {
  return llvm::all_of(index->getUsers(), [](Operation *user) {
    auto load = dyn_cast<LoadOp>(user);
    return load && (!load.getAlt() || matchPattern(load.getAlt(), m_Zero()) ||
                    matchPattern(load.getAlt(), m_AnyZeroFloat()));
  });
}

} // namespace

FailureOr<SmallVector<RangeOp>>
mlir::tgc::getWeightDims(KernelOp kernel, unsigned input, std::string *whyNot,
                         SmallVectorImpl<int64_t> *starts) {
  auto fail = [&](const char *why) -> FailureOr<SmallVector<RangeOp>> {
    if (whyNot)
      *whyNot = why;
    return failure();
  };
  if (!kernel.isLowered() || input >= kernel.getInputs().size())
    return fail("the kernel has no such input");
  auto constant = kernel.getInputs()[input].getDefiningOp<ConstOp>();
  auto type = constant ? dyn_cast<RankedTensorType>(constant.getType())
                       : RankedTensorType();
  if (!type || !type.hasStaticShape())
    return fail("the input is not a constant weight");
  if (type.getNumElements() == 0)
    return fail("the weight is empty");
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return fail("the weight's elements are not whole bytes");
  int64_t bytes = type.getNumElements() * element.getIntOrFloatBitWidth() / 8;
  if ((int64_t)getConstantBytes(constant).size() != bytes)
    return fail("the weight's bytes cannot be read");

  ArrayRef<int64_t> shape = type.getShape();
  size_t rank = shape.size();
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  SmallVector<RangeOp> dims;
  SmallVector<int64_t> window;
  for (OpOperand &use : kernel.getBlock().getArgument(input).getUses()) {
    auto index = dyn_cast<IndexOp>(use.getOwner());
    if (!index || use.getOperandNumber() != 0)
      return fail("the weight is read other than through tgc.index");
    LinearSum sum = linearSumOf(index.getIdx());
    // The constant offset, digit by digit of the row-major strides: where
    // the window starts in each dim (a row of a GRU's stacked gates).
    if (sum.constant < 0)
      return fail("an access has an offset outside the weight");
    SmallVector<int64_t> from(rank, 0);
    int64_t rest = sum.constant;
    for (size_t d = 0; d < rank; ++d) {
      from[d] = rest / strides[d];
      rest %= strides[d];
    }
    if (rank > 0 && from[0] >= shape[0])
      return fail("an access has an offset outside the weight");
    SmallVector<RangeOp> here(rank);
    for (auto [atom, coef] : sum.terms) {
      auto range = atom.getDefiningOp<RangeOp>();
      if (!range)
        return fail("an index is not a sum of loop indices");
      // A range longer than its dim must start at 0 and be gated below the
      // dim's size.
      int64_t bound = range.getBound();
      bool placed = false;
      for (size_t d = 0; d < rank && !placed; ++d)
        if (strides[d] == coef && !here[d] &&
            (from[d] + bound <= shape[d] ||
             (from[d] == 0 && gatedBelow(index, range, shape[d])))) {
          here[d] = range;
          placed = true;
        }
      if (!placed)
        return fail("a loop walks past a dim of the weight");
    }
    if (!dims.empty() && (here != dims || from != window))
      return fail("two accesses walk the weight differently");
    dims = std::move(here);
    window = std::move(from);
  }
  if (dims.empty())
    return fail("nothing reads the weight");
  if (starts)
    starts->assign(window.begin(), window.end());
  return dims;
}

namespace {
/// One dim of the packed tensor: a whole dim of the weight, or the blocks
/// or the elements in a block of the dim that is packed.
struct PackedDim {
  unsigned dim;
  int64_t size;
  /// This dim's index times `scale` is its part of the old dim's index.
  int64_t scale;
  /// What the index of this dim is, from the range walking the old dim:
  /// r, r / block or r % block.
  enum { Whole, Blocks, InBlock } part;
};
} // namespace

void mlir::tgc::packWeight(KernelOp kernel, unsigned input, RangeOp range,
                           int64_t block) {
  SmallVector<int64_t> starts;
  SmallVector<RangeOp> dims =
      *getWeightDims(kernel, input, /*whyNot=*/nullptr, &starts);
  auto constant = kernel.getInputs()[input].getDefiningOp<ConstOp>();
  auto type = cast<RankedTensorType>(constant.getType());
  ArrayRef<int64_t> shape = type.getShape();
  size_t rank = shape.size();
  // Each dim as long as the range walking it (longer where it is padded,
  // shorter in a window); one element where none does.
  SmallVector<int64_t> walkedShape(rank, 1);
  SmallVector<std::pair<RangeOp, int64_t>> padded;
  for (unsigned d = 0; d < rank; ++d) {
    if (!dims[d])
      continue;
    walkedShape[d] = dims[d].getBound();
    if (walkedShape[d] > shape[d])
      padded.push_back({dims[d], shape[d]});
  }

  // The new order: dims of size 1, then the dims by where their loops
  // open (the packed dim's blocks where its range opens), then the
  // elements of a block.
  llvm::DenseMap<Operation *, unsigned> position;
  for (Operation &op : kernel.getBlock())
    if (isa<RangeOp>(op))
      position[&op] = position.size();
  SmallVector<PackedDim> packed, walked;
  std::optional<PackedDim> inBlock;
  for (unsigned d = 0; d < rank; ++d) {
    int64_t size = walkedShape[d];
    if (!dims[d]) {
      packed.push_back({d, size, 1, PackedDim::Whole});
    } else if (dims[d] != range) {
      walked.push_back({d, size, 1, PackedDim::Whole});
    } else if (block > 1 && block < size) {
      walked.push_back({d, size / block, block, PackedDim::Blocks});
      inBlock = PackedDim{d, block, 1, PackedDim::InBlock};
    } else {
      inBlock = PackedDim{d, size, 1, PackedDim::Whole};
    }
  }
  llvm::stable_sort(walked, [&](const PackedDim &a, const PackedDim &b) {
    return position.lookup(dims[a.dim]) < position.lookup(dims[b.dim]);
  });
  llvm::append_range(packed, walked);
  packed.push_back(*inBlock);

  SmallVector<int64_t> newShape;
  for (const PackedDim &p : packed)
    newShape.push_back(p.size);
  SmallVector<int64_t> oldStrides = rowMajorStrides(shape);
  SmallVector<int64_t> newStrides = rowMajorStrides(newShape);

  // Element n of the new tensor is the old one at the same multi-index
  // past the window's starts, or zero past the end of a padded dim.
  ArrayRef<char> raw = getConstantBytes(constant);
  int64_t elementBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  int64_t count = 1;
  for (int64_t size : newShape)
    count *= size;
  std::vector<char> data(count * elementBytes, 0);
  SmallVector<int64_t> at(packed.size(), 0);
  for (int64_t n = 0; n < count; ++n) {
    SmallVector<int64_t> oldIndex(starts);
    for (auto [i, p] : llvm::enumerate(packed))
      oldIndex[p.dim] += at[i] * p.scale;
    int64_t old = 0;
    bool inside = true;
    for (unsigned d = 0; d < rank; ++d) {
      inside &= oldIndex[d] < shape[d];
      old += oldIndex[d] * oldStrides[d];
    }
    if (inside)
      std::memcpy(&data[n * elementBytes], &raw[old * elementBytes],
                  elementBytes);
    for (int i = (int)packed.size() - 1; i >= 0; --i) {
      if (++at[i] < newShape[i])
        break;
      at[i] = 0;
    }
  }

  auto newType = RankedTensorType::get(newShape, type.getElementType());
  ElementsAttr value = makeConstantLike(constant, newType, data, "_packed");
  OpBuilder builder(constant);
  auto newConstant =
      builder.create<ConstOp>(constant.getLoc(), cast<TypedAttr>(value));
  kernel.getInputsMutable()[input].assign(newConstant);
  if (constant->use_empty())
    constant.erase();

  for (Operation *user : llvm::make_early_inc_range(
           kernel.getBlock().getArgument(input).getUsers())) {
    auto index = cast<IndexOp>(user);
    builder.setInsertionPoint(index);
    Location loc = index.getLoc();
    Value blockSize;
    if (inBlock->part == PackedDim::InBlock)
      blockSize = builder.create<ConstOp>(loc, builder.getIndexAttr(block));
    LinearSum sum;
    for (auto [i, p] : llvm::enumerate(packed)) {
      if (!dims[p.dim])
        continue;
      Value r = dims[p.dim].getResult();
      if (p.part == PackedDim::Blocks)
        r = builder.create<IdivOp>(loc, r, blockSize);
      else if (p.part == PackedDim::InBlock)
        r = builder.create<ModOp>(loc, r, blockSize);
      sum.terms.push_back({r, newStrides[i]});
    }
    Value old = index.getIdx();
    index.getIdxMutable().assign(buildLinearSum(builder, loc, sum));
    eraseIfDead(old);
    // Past a padded dim the packed weight holds zeros: a gate that only
    // stops the padding goes, and the access is a whole vector.
    if (Value gate = index.getGate(); gate && !padded.empty() &&
                                      onlyPadding(gate, padded) &&
                                      readsZeroOutside(index)) {
      index.getGateMutable().clear();
      index.setPadding(false);
      for (Operation *user : index->getUsers())
        cast<LoadOp>(user).getAltMutable().clear();
      eraseIfDead(gate);
    }
  }
}
