//===- PackWeights.cpp - weights laid out for the kernel that reads them -*- C++ -*-=//
//
// Only a pure transpose is done: every dim of the weight is walked by one
// range of the kernel, so moving dims around changes each access's
// coefficients and nothing else, and the packed tensor has exactly the
// bytes of the original.
//
//===----------------------------------------------------------------------===//

#include "Codegen/PackWeights.h"
#include "Codegen/Symbolic.h"
#include "IR/ConstantData.h"
#include "mlir/IR/Builders.h"
#include <cstring>

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// Erases `value`'s pure index arithmetic once nothing reads it.
void eraseIfDead(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op || !op->use_empty() || !isa<AddOp, MulOp, SubOp, ConstOp>(op))
    return;
  SmallVector<Value> operands(op->getOperands());
  op->erase();
  for (Value operand : operands)
    eraseIfDead(operand);
}

} // namespace

FailureOr<SmallVector<RangeOp>> mlir::tgc::getWeightDims(KernelOp kernel,
                                                         unsigned input,
                                                         std::string *whyNot) {
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
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return fail("the weight's elements are not whole bytes");
  int64_t bytes = type.getNumElements() * element.getIntOrFloatBitWidth() / 8;
  if ((int64_t)getConstantBytes(constant).size() != bytes)
    return fail("the weight's bytes cannot be read");

  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  SmallVector<RangeOp> dims;
  for (OpOperand &use : kernel.getBlock().getArgument(input).getUses()) {
    auto index = dyn_cast<IndexOp>(use.getOwner());
    if (!index || use.getOperandNumber() != 0)
      return fail("the weight is read other than through tgc.index");
    LinearSum sum = linearSumOf(index.getIdx());
    if (sum.constant != 0)
      return fail("an access has a constant offset");
    SmallVector<RangeOp> here(shape.size());
    for (auto [atom, coef] : sum.terms) {
      auto range = atom.getDefiningOp<RangeOp>();
      if (!range)
        return fail("an index is not a sum of loop indices");
      bool placed = false;
      for (size_t d = 0; d < shape.size() && !placed; ++d)
        if (strides[d] == coef && shape[d] == (int64_t)range.getBound() &&
            !here[d]) {
          here[d] = range;
          placed = true;
        }
      if (!placed)
        return fail("a loop walks no whole dim of the weight");
    }
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape[d] > 1 && !here[d])
        return fail("a dim of the weight is walked by no loop");
    if (!dims.empty() && here != dims)
      return fail("two accesses walk the weight differently");
    dims = std::move(here);
  }
  if (dims.empty())
    return fail("nothing reads the weight");
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
  SmallVector<RangeOp> dims = *getWeightDims(kernel, input);
  auto constant = kernel.getInputs()[input].getDefiningOp<ConstOp>();
  auto type = cast<RankedTensorType>(constant.getType());
  ArrayRef<int64_t> shape = type.getShape();
  size_t rank = shape.size();

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
    if (!dims[d]) {
      packed.push_back({d, shape[d], 1, PackedDim::Whole});
    } else if (dims[d] != range) {
      walked.push_back({d, shape[d], 1, PackedDim::Whole});
    } else if (block > 1 && block < shape[d]) {
      walked.push_back({d, shape[d] / block, block, PackedDim::Blocks});
      inBlock = PackedDim{d, block, 1, PackedDim::InBlock};
    } else {
      inBlock = PackedDim{d, shape[d], 1, PackedDim::Whole};
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

  // Element n of the new tensor is the old one at the same multi-index.
  ArrayRef<char> raw = getConstantBytes(constant);
  int64_t elementBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  std::vector<char> data(raw.size());
  SmallVector<int64_t> at(packed.size(), 0);
  int64_t count = type.getNumElements();
  for (int64_t n = 0; n < count; ++n) {
    int64_t old = 0;
    for (auto [i, p] : llvm::enumerate(packed))
      old += at[i] * p.scale * oldStrides[p.dim];
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
  }
}
