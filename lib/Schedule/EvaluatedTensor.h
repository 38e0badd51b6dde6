//===- EvaluatedTensor.h - tensors of the kernel evaluator ----*- C++ -*-===//
//
// The values KernelEvaluator.cpp computes with: a tensor's elements held as
// doubles (floats) or int64 (integers), the element type's rules for
// rounding and wrapping, and their bytes as a buffer holds them.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_SCHEDULE_EVALUATEDTENSOR_H
#define TGC_SCHEDULE_EVALUATEDTENSOR_H

#include "IR/TgcOps.h"
#include "llvm/ADT/APFloat.h"
#include <string>
#include <vector>

namespace mlir::tgc::evaluator {

/// How a tensor's elements are held and compared.
enum class Domain { Float, Signed, Unsigned };

/// An element type's domain and width, looked up once per tensor rather
/// than once per element.
struct Format {
  explicit Format(Type element);

  /// The low bits of `bits` as an integer of this type: sign-extended, or
  /// zero-extended for unsigned types and i1 (uint64 keeps its bits).
  int64_t wrap(uint64_t bits) const {
    if (width >= 64)
      return static_cast<int64_t>(bits);
    uint64_t mask = (uint64_t(1) << width) - 1;
    bits &= mask;
    if (domain == Domain::Signed && ((bits >> (width - 1)) & 1))
      bits |= ~mask;
    return static_cast<int64_t>(bits);
  }

  /// `value` rounded to this float type, held as a double.
  double round(double value) const {
    if (width == 64)
      return value;
    if (width == 32)
      return static_cast<float>(value);
    bool lost;
    llvm::APFloat converted(value);
    converted.convert(*semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
    converted.convert(llvm::APFloat::IEEEdouble(),
                      llvm::APFloat::rmNearestTiesToEven, &lost);
    return converted.convertToDouble();
  }

  /// The smallest value of this integer type.
  int64_t minimum() const {
    return domain == Domain::Unsigned ? 0 : wrap(uint64_t(1) << (width - 1));
  }

  Domain domain;
  unsigned width;
  const llvm::fltSemantics *semantics;
};

/// A tensor's elements, row-major: floats as doubles rounded to their type,
/// integers (and i1, 0 or 1) as int64 of their width's value (wrap).
struct Tensor {
  RankedTensorType type;
  Format format{type.getElementType()};
  std::vector<double> floats;
  std::vector<int64_t> ints;

  Type element() const { return type.getElementType(); }
  bool isFloat() const { return format.domain == Domain::Float; }
  int64_t size() const { return type.getNumElements(); }
};

/// A tensor of `type` filled with zeros.
Tensor zeros(RankedTensorType type);

/// `bytes`, laid out as in a buffer (host byte order, as the weights are;
/// one byte per i1), into `tensor`'s elements, and back.
void decodeElements(ArrayRef<char> bytes, Tensor &tensor);
std::vector<char> encodeElements(const Tensor &tensor);

/// The elements of a tensor constant, or failure with the reason in
/// `whyNot` (data missing, a shape not static).
FailureOr<Tensor> readConstant(ConstOp constant, std::string &whyNot);

/// Copies element `from` of `src` to element `to` of `result` (same type).
inline void copyElement(const Tensor &src, int64_t from, Tensor &result,
                        int64_t to) {
  if (result.isFloat())
    result.floats[to] = src.floats[from];
  else
    result.ints[to] = src.ints[from];
}

/// tgc.max of two floats: a where a is NaN or greater, else b.
inline double maxFloat(double a, double b) { return (a != a || a > b) ? a : b; }

/// The result of an elementwise op of the tensor graph on `operands`, or
/// failure with the reason in `whyNot`: an op it does not know, or a value
/// C leaves undefined (EvaluateElementwise.cpp).
FailureOr<Tensor> evaluateElementwise(Operation *op,
                                      ArrayRef<const Tensor *> operands,
                                      std::string &whyNot);

} // namespace mlir::tgc::evaluator

#endif // TGC_SCHEDULE_EVALUATEDTENSOR_H
