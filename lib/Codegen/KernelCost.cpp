//===- KernelCost.cpp - the FLOPs and bytes of one run of a kernel -------===//
//
// Index arithmetic, casts, loads and stores are not FLOPs. A tensor-core
// product (tgc.wmma) is 2*m*n*k FLOPs shared by the warp that runs it: each
// of its threads is counted its share, since the GPU manifest multiplies by
// threads. Ops under a tgc.if on an index interval (tgc-unswitch's copies
// of a loop) count for the interval's share of the index's values.
//
// Counted in the kernel as it runs, the FLOPs of a padded axis include its
// idle lanes: a 1x1 convolution to 24 channels padded to 2 vectors of 16
// counts 32 outputs per pixel, and `--profile` overstated its GFLOP/s by
// a third. So the manifest scales the count by the kernel's useful_share,
// which PADTO sets. (Counting the kernel as scheduled instead, before any
// action, would not do: a Winograd transform selects one of 36
// expressions per element, and until tgc-unswitch splits its loop all 36
// count, 39x the work it does.)
//
//===----------------------------------------------------------------------===//

#include "Codegen/KernelCost.h"
#include "Codegen/CEmitterSupport.h"
#include "Codegen/Symbolic.h"
#include "Codegen/TensorCores.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tgc;

/// How many FLOPs one lane of `op` is: 0 for what is not float arithmetic.
static int64_t getOpFlops(Operation *op) {
  if (auto wmma = dyn_cast<WmmaOp>(op)) {
    auto acc = wmma.getAcc().getDefiningOp<DefineAccOp>();
    return 2 * acc.getM() * acc.getN() * wmma.getK() / kTensorCoreThreads;
  }
  if (!isa<Exp2Op, Log2Op, SinOp, SqrtOp, RecipOp, NegOp, TruncOp, AddOp, MulOp,
           SubOp, FdivOp, MaxOp, PowOp, CmpltOp, CmpneOp, CmpeqOp, WhereOp,
           MulaccOp>(op))
    return 0;
  // The value operand decides (a where's first operand is its condition).
  Value operand = op->getOperand(isa<WhereOp>(op) ? 1 : 0);
  if (!isa<FloatType>(getElementTypeOrSelf(operand.getType())))
    return 0;
  return isa<MulaccOp>(op) ? 2 : 1;
}

/// The lanes of `op`'s result: 1 for a scalar.
static int64_t getResultLanes(Operation *op) {
  if (op->getNumResults())
    if (auto vector = dyn_cast<VectorType>(op->getResult(0).getType()))
      return vector.getNumElements();
  return 1;
}

static int64_t getBufferBytes(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor.getNumElements() * getElementBytes(tensor.getElementType());
}

/// The share of an index's values where `cond` holds, for a conjunction
/// of comparisons of that index with constants (`lo - 1 < i`, `i < hi`);
/// 1 for any other condition.
static double getIntervalShare(Value cond) {
  Value subject;
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  for (Value conjunct : conjunctsOf(cond)) {
    std::optional<IndexComparison> cmp =
        matchIndexComparison(conjunct.getDefiningOp());
    if (!cmp || !conjunct.getDefiningOp<CmpltOp>() ||
        (subject && subject != cmp->subject))
      return 1;
    subject = cmp->subject;
    if (cmp->subjectFirst)
      hi = std::min(hi, cmp->constant);
    else
      lo = std::max(lo, cmp->constant + 1);
  }
  std::optional<IndexBounds> bounds =
      subject ? boundsOf(subject) : std::nullopt;
  if (!bounds)
    return 1;
  int64_t inside = std::min(hi, bounds->max + 1) - std::max(lo, bounds->min);
  return std::max<int64_t>(inside, 0) /
         static_cast<double>(bounds->max - bounds->min + 1);
}

KernelCost mlir::tgc::getKernelCost(KernelOp kernel) {
  KernelCost cost;
  // Iterations of the innermost open loop or if, as a double since an if's
  // share need not divide its loop's trips.
  SmallVector<double> trips{1};
  for (Operation &op : kernel.getBlock()) {
    if (auto range = dyn_cast<RangeOp>(op)) {
      trips.push_back(trips.back() * static_cast<double>(range.getBound()));
      continue;
    }
    if (auto guard = dyn_cast<IfOp>(op)) {
      trips.push_back(trips.back() * getIntervalShare(guard.getCond()));
      continue;
    }
    if (isa<EndOp, EndifOp>(op)) {
      if (trips.size() > 1)
        trips.pop_back();
      continue;
    }
    int64_t flops = getOpFlops(&op);
    if (!flops)
      continue;
    cost.flops += static_cast<int64_t>(
        std::llround(flops * getResultLanes(&op) * trips.back()));
  }
  llvm::SmallPtrSet<void *, 8> seen;
  for (Value input : kernel.getInputs())
    if (seen.insert(input.getAsOpaquePointer()).second)
      cost.bytes += getBufferBytes(input.getType());
  for (Value result : kernel.getResults())
    cost.bytes += getBufferBytes(result.getType());
  return cost;
}

KernelCost mlir::tgc::getUsefulCost(KernelOp kernel) {
  KernelCost cost = getKernelCost(kernel);
  if (FloatAttr share = kernel.getUsefulShareAttr())
    cost.flops = static_cast<int64_t>(std::llround(
        static_cast<double>(cost.flops) * share.getValueAsDouble()));
  return cost;
}
