//===- ZeroProducts.h - terms a zero multiplies into a sum -----*- C++ -*-===//
//
// A convolution reads its padding as zeros and multiplies them into its
// sums like any other input. Where the other factor is a constant weight
// whose elements are all finite, such a product is a zero and adds nothing,
// so it can go (tgc-drop-zero-products), and a loop whose gated loads only
// ever make such products is worth copying with the gate decided false
// (tgc-unswitch): that copy then has nothing left to do.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_ZEROPRODUCTS_H
#define TGC_CODEGEN_ZEROPRODUCTS_H

#include "IR/TgcOps.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::tgc {

/// Which of a kernel's constant inputs hold only finite numbers, looked at
/// once each: a weight is read through many loads.
class FiniteWeights {
public:
  explicit FiniteWeights(KernelOp kernel) : kernel(kernel) {}

  /// True if every value `value` can take is a finite number: a finite
  /// constant, a load from a constant input of the kernel that is finite
  /// throughout (with a finite alternative where gated), or a vector of
  /// those.
  bool isFinite(Value value, int depth = 0);

private:
  bool isFiniteInput(ConstOp constant);

  KernelOp kernel;
  DenseMap<Operation *, bool> finiteInputs;
};

/// True if `value` is a floating-point zero of either sign: a constant, or
/// a vector of such constants.
bool isFloatZero(Value value);

/// True if `value` is only multiplied by finite weights and those products
/// only added (directly or broadcast to a vector first): where it is zero,
/// it adds nothing to anything.
bool onlyScalesSums(Value value, FiniteWeights &finite);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_ZEROPRODUCTS_H
