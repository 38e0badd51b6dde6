//===- KernelShape.cpp - a kernel's accesses, classified --------*- C++ -*-===//
//
// Collects a kernel's ranges and buffer accesses once, so that the
// heuristic's many questions about them (does this load move along that
// range, and how) are answered from one walk and one dependence memo.
//
//===----------------------------------------------------------------------===//

#include "Codegen/KernelShape.h"
#include "Codegen/PackWeights.h"
#include "Codegen/Symbolic.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::tgc::heuristic {

KernelShape::KernelShape(KernelOp kernel) {
  Block &block = kernel.getBlock();
  for (Operation &op : block) {
    if (auto range = dyn_cast<RangeOp>(op)) {
      if (range.getAxis() == AxisType::reduce)
        reductions.push_back(range);
      else if (range.getAxis() == AxisType::global ||
               range.getAxis() == AxisType::loop)
        outputs.push_back(range);
    }
    if (auto r = dyn_cast<ReduceOp>(op)) {
      if (!reduce)
        reduce = r;
      ++reduceOps;
    }
  }
  for (RangeOp r : reductions)
    reduceSize *= r.getBound();
  for (Operation &op : block) {
    Value ptr;
    bool isStore = false;
    if (auto load = dyn_cast<LoadOp>(op))
      ptr = load.getPtr();
    else if (auto store = dyn_cast<StoreOp>(op)) {
      ptr = store.getPtr();
      isStore = true;
    }
    auto index = ptr ? ptr.getDefiningOp<IndexOp>() : IndexOp();
    if (!index || !isa<BlockArgument>(index.getBuf()))
      continue;
    bool inReduce = llvm::any_of(reductions, [&](RangeOp r) {
      return dependsOn(index.getIdx(), r.getResult(), memo);
    });
    Access access{index, isStore, inReduce, std::nullopt, {}};
    unsigned input = cast<BlockArgument>(index.getBuf()).getArgNumber();
    if (!isStore && input < kernel.getInputs().size())
      if (auto dims = getWeightDims(kernel, input); succeeded(dims)) {
        access.weight = input;
        access.weightDims = std::move(*dims);
      }
    accesses.push_back(std::move(access));
  }
}

bool KernelShape::gateMovesWithinVector(Access access, RangeOp range,
                                        int64_t lanes) {
  Value gate = access.index.getGate();
  return gate && !gateUniformPerVector(gate, range.getResult(), lanes, memo);
}

StrideClass KernelShape::strideClass(Access access, RangeOp range,
                                     int64_t lanes) {
  std::optional<int64_t> stride =
      getLaneStride(access.index.getIdx(), range.getResult(), lanes);
  if (!stride || gateMovesWithinVector(access, range, lanes))
    return StrideClass::Other;
  if (*stride == 0)
    return StrideClass::Constant;
  if (*stride == 2 && !access.isStore)
    return StrideClass::StrideTwo;
  return *stride == 1 ? StrideClass::Contiguous : StrideClass::Other;
}

bool apply(KernelOp kernel, OptKind kind, RangeOp range, int64_t amount) {
  if (!range || amount < 2)
    return false;
  return succeeded(
      applyOptAction(kernel, {kind, (int64_t)range.getId(), amount}));
}

int64_t maxLanesOf(Type type, const HeuristicOptions &options) {
  return std::max<int64_t>(1, options.target.vectorBytes /
                                  getElementBytes(getElementTypeOrSelf(type)));
}

} // namespace mlir::tgc::heuristic
