//===- FoldConstantKernels.cpp - kernels of constants, run once -*- C++ -*-===//
//
// A kernel whose operands are all constants is evaluated when the model is
// compiled (KernelEvaluator.h) and its results replace it as constants.
// Kernels are visited in schedule order, so a chain of them folds: Swin's
// relative position index, and the region labels of its shifted-window
// masks scattered from constants, which otherwise took 6% of every run.
//
//===----------------------------------------------------------------------===//

#include "IR/ConstantData.h"
#include "IR/TgcOps.h"
#include "Schedule/KernelEvaluator.h"
#include "Schedule/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCFOLDCONSTANTKERNELS
#include "Schedule/Passes.h.inc"

namespace {

/// A result of `bytes` as a constant: an attribute while small enough for
/// the folds that read constants element by element, a resource blob past
/// that (as the weights are).
ElementsAttr makeFolded(RankedTensorType type, const std::vector<char> &bytes,
                        StringRef kernelName) {
  if (type.getNumElements() > kMaxFoldedElements)
    return makeBlobConstant(type, ("folded_" + kernelName).str(),
                            ArrayRef<char>(bytes.data(), bytes.size()));
  // Attributes hold booleans as bits; the buffer has a byte for each.
  if (type.getElementType().isInteger(1)) {
    SmallVector<bool> flags(bytes.begin(), bytes.end());
    return DenseElementsAttr::get(type, flags);
  }
  return DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(bytes.data(), bytes.size()));
}

/// Bytes the results of a kernel that does not reduce may add to the
/// weights.
constexpr int64_t kMaxMapGrowthBytes = 4096;

/// The bytes `constant` takes in the weights: one element for a splat.
int64_t storedBytes(ConstOp constant) {
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (dense && dense.isSplat())
    return getElementBytes(dense.getElementType());
  return getTensorBytes(constant.getType());
}

struct FoldConstantKernels
    : impl::TgcFoldConstantKernelsBase<FoldConstantKernels> {
  using TgcFoldConstantKernelsBase::TgcFoldConstantKernelsBase;

  void runOnOperation() final {
    for (auto func : getOperation().getOps<func::FuncOp>())
      for (KernelOp kernel :
           llvm::make_early_inc_range(func.getOps<KernelOp>()))
        foldKernel(kernel);
  }

  void foldKernel(KernelOp kernel) {
    SmallVector<ConstOp> inputs;
    llvm::SetVector<ConstOp> distinctInputs;
    for (Value input : kernel.getInputs()) {
      auto constant = input.getDefiningOp<ConstOp>();
      if (!constant)
        return;
      inputs.push_back(constant);
      distinctInputs.insert(constant);
    }
    // A model output is written into the caller's buffer by a kernel.
    for (Value result : kernel.getResults())
      for (Operation *user : result.getUsers())
        if (!isa<KernelOp>(user))
          return keep(kernel, "a result is a model output");
    int64_t inputBytes = 0, resultBytes = 0;
    for (ConstOp constant : distinctInputs)
      inputBytes += storedBytes(constant);
    for (Value result : kernel.getResults())
      resultBytes += getTensorBytes(result.getType());
    // Mapping or moving constants into a larger tensor costs a run about
    // what reading the result costs anyway: past a little, it is computed
    // there rather than shipped in the weights (a TopK's positions). A
    // reduce saves real work.
    bool reduces = !kernel.getBlock().getOps<ReduceAxisOp>().empty();
    int64_t growth = resultBytes - inputBytes;
    if (growth > (reduces ? maxGrowthBytes : kMaxMapGrowthBytes)) {
      std::string sizes = "its results (" + std::to_string(resultBytes) +
                          " bytes) outgrow its inputs (" +
                          std::to_string(inputBytes) + " bytes)";
      return keep(kernel, reduces ? sizes + " past max-growth-bytes"
                                  : sizes + " and it does not reduce");
    }

    std::string whyNot;
    FailureOr<SmallVector<std::vector<char>>> values =
        evaluateKernel(kernel, inputs, maxElementOps, whyNot);
    if (failed(values))
      return keep(kernel, whyNot);

    OpBuilder builder(kernel);
    for (auto [result, bytes] : llvm::zip(kernel.getResults(), *values)) {
      auto type = cast<RankedTensorType>(result.getType());
      auto folded = builder.create<ConstOp>(
          kernel.getLoc(),
          cast<TypedAttr>(makeFolded(type, bytes, kernel.getName())));
      result.replaceAllUsesWith(folded.getResult());
    }
    kernel.erase();
    for (ConstOp constant : distinctInputs)
      if (constant->use_empty())
        constant.erase();
  }

  void keep(KernelOp kernel, const std::string &why) {
    if (explain)
      kernel.emitRemark("kernel of constants kept: ") << why;
  }
};

} // namespace
} // namespace mlir::tgc
