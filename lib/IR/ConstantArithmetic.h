//===- ConstantArithmetic.h - elementwise math on weights ------*- C++ -*-===//
//
// Float arithmetic on a weight, computed at compile time: TensorBuilder
// folds it as the frontend builds it (so that a convolution's weight
// dequantized from int8 is a constant when the Winograd choice looks at
// it), tgc-simplify wherever it is left.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_IR_CONSTANTARITHMETIC_H
#define TGC_IR_CONSTANTARITHMETIC_H

#include "IR/TgcOps.h"

namespace mlir::tgc {

/// The value of `op` (cast, neg, recip, sqrt, add, sub, mul, fdiv or max
/// with a float32 or float64 result) when its operands are constants, one
/// of them a weight of the result's size and the others splats or
/// constants broadcast by an expand, maybe reshaped: a constant in that
/// weight's form (a resource blob stays a blob). Null otherwise.
ElementsAttr foldWeightArithmetic(Operation *op);

} // namespace mlir::tgc

#endif // TGC_IR_CONSTANTARITHMETIC_H
