//===- Compare.h - compare a computed tensor with a reference --*- C++ -*-===//
//
// What `tgc verify` prints per output: the largest absolute error, the
// largest distance in units in the last place (floats) or the number of
// mismatching elements (integers, bool), and whether the output passes.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_COMPARE_H
#define TGC_DRIVER_COMPARE_H

#include "Support/TensorFile.h"

#include <cstdint>
#include <string>

namespace mlir::tgc {

/// An element of a floating output passes when
///   |got - want| <= atol + rtol * |want|,
/// or when both are NaN, or both are the same infinity. A bfloat16 element
/// also passes one unit in the last place away: its 8 significant bits
/// hold no value in between, so two correct roundings (to nearest even, or
/// by truncation as the ONNX 1.12 test generator does) can differ by one
/// unit, a relative step of up to 2^-7, coarser than any usual rtol.
/// Integer and bool outputs must match exactly (a relative tolerance would
/// let a class index of 5000 be off by 5).
struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-5;
};

struct Comparison {
  /// Empty, or why the tensors cannot be compared element by element (a
  /// dtype or shape mismatch); such a comparison never passes.
  std::string problem;
  /// Whether the element type is floating (f16, bf16, f32, f64).
  bool isFloat = false;
  /// Largest |got - want| over the elements; infinite where one side is
  /// NaN or infinite and the other is not.
  double maxAbsError = 0;
  /// Largest distance in units in the last place of the element type
  /// (floats only); UINT64_MAX where one side is NaN and the other is not.
  uint64_t maxUlp = 0;
  /// Elements outside the tolerance.
  int64_t mismatches = 0;
  /// Flat index of the first element outside the tolerance, or -1.
  int64_t firstMismatch = -1;

  bool passed() const { return problem.empty() && mismatches == 0; }
};

/// Compares `got` with the reference `want`, element by element.
Comparison compareTensors(const ::tgc::HostTensor &got,
                          const ::tgc::HostTensor &want,
                          const Tolerance &tolerance);

/// Distance in units in the last place between two values of one float
/// type: how many representable values lie between them, plus one (0 when
/// equal; +0 and -0 are equal; 0 between two NaNs; UINT64_MAX between a NaN
/// and a non-NaN).
uint64_t ulpDistance(float a, float b);
uint64_t ulpDistance(double a, double b);
/// The same for IEEE half and bfloat16, given as their bit patterns.
uint64_t ulpDistanceF16(uint16_t a, uint16_t b);
uint64_t ulpDistanceBF16(uint16_t a, uint16_t b);

/// IEEE half and bfloat16 bit patterns to float (exact).
float halfToFloat(uint16_t bits);
float bfloat16ToFloat(uint16_t bits);

} // namespace mlir::tgc

#endif // TGC_DRIVER_COMPARE_H
