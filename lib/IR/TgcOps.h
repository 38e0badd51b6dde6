//===- TgcOps.h - tgc ops --------------------------------------*- C++ -*-===//
//
// The generated op classes and small helpers shared by every stage.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_IR_TGCOPS_H
#define TGC_IR_TGCOPS_H

#include "IR/TgcDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "IR/TgcOps.h.inc"

namespace mlir::tgc {

/// `type` with its element type replaced by `element` (tensor, vector or
/// scalar alike).
Type withElementType(Type type, Type element);

/// True for the integer element types of tgc (si*, ui*, signless, index),
/// false for floats and i1.
bool isIntegerLike(Type elementType);

/// Bytes of one element in a buffer (1 for i1, 8 for index).
int64_t getElementBytes(Type element);

/// Bytes of a ranked tensor of static shape laid out in a buffer.
int64_t getTensorBytes(Type tensor);

/// Row-major strides, in elements, of a dense tensor of `shape`.
SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape);

/// Elementwise ops of the tensor graph: same-shaped tensor operands, one
/// result of that shape.
bool isGraphElementwise(Operation *op);

/// Movement ops of the tensor graph (views: reshape, permute, expand, pad,
/// shrink, flip).
bool isGraphMovement(Operation *op);

/// Largest non-splat constant the folds write or read as one attribute per
/// element; past it a weight is only ever handled as bytes.
constexpr int64_t kMaxFoldedElements = 4096;

/// The smallest and largest values of an integer type (i1 as unsigned).
std::pair<double, double> integerRange(IntegerType type);

/// 1.5 * 2^(p-1) for a float type of precision p: (x + c) - c rounds x half
/// to even for |x| <= 2^(p-2) (TensorBuilder::roundSmall, which
/// tgc-simplify recognizes as whole numbers by this constant).
double roundingMagic(FloatType type);

} // namespace mlir::tgc

#endif // TGC_IR_TGCOPS_H
