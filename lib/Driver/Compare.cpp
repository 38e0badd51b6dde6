//===- Compare.cpp - compare a computed tensor with a reference -*- C++ -*-===//
//
// ULP distances are computed on the bit patterns: mapping sign-magnitude
// floats onto a number line of consecutive integers makes the distance a
// subtraction, for every width alike.
//
//===----------------------------------------------------------------------===//

#include "Driver/Compare.h"

#include <cmath>
#include <cstring>
#include <limits>

using ::tgc::DType;
using ::tgc::HostTensor;

namespace mlir::tgc {
namespace {

constexpr uint64_t kNaNDistance = std::numeric_limits<uint64_t>::max();

/// Distance between two sign-magnitude patterns of `bits` width; the caller
/// has handled NaN.
uint64_t orderedDistance(uint64_t a, uint64_t b, unsigned bits) {
  uint64_t sign = uint64_t(1) << (bits - 1);
  uint64_t magA = a & (sign - 1), magB = b & (sign - 1);
  if ((a & sign) != (b & sign))
    return magA + magB; // across zero; +0 and -0 both have magnitude 0
  return magA > magB ? magA - magB : magB - magA;
}

/// Whether a pattern of `bits` width with `mantissaBits` is a NaN.
bool isNaNPattern(uint64_t v, unsigned bits, unsigned mantissaBits) {
  uint64_t mantissaMask = (uint64_t(1) << mantissaBits) - 1;
  uint64_t exponentMask = ((uint64_t(1) << (bits - 1 - mantissaBits)) - 1)
                          << mantissaBits;
  return (v & exponentMask) == exponentMask && (v & mantissaMask) != 0;
}

uint64_t patternDistance(uint64_t a, uint64_t b, unsigned bits,
                         unsigned mantissaBits) {
  bool nanA = isNaNPattern(a, bits, mantissaBits);
  bool nanB = isNaNPattern(b, bits, mantissaBits);
  if (nanA || nanB)
    return nanA && nanB ? 0 : kNaNDistance;
  return orderedDistance(a, b, bits);
}

template <typename T> T loadElement(const HostTensor &t, int64_t i) {
  T value;
  std::memcpy(&value, t.data.data() + i * sizeof(T), sizeof(T));
  return value;
}

bool isFloatType(DType dtype) {
  return dtype == DType::Float || dtype == DType::Double ||
         dtype == DType::Float16 || dtype == DType::BFloat16;
}

/// One floating element as a double, and its ULP distance to the reference.
struct FloatPair {
  double got, want;
  uint64_t ulp;
};

FloatPair floatPair(const HostTensor &got, const HostTensor &want, int64_t i) {
  switch (got.dtype) {
  case DType::Float: {
    float g = loadElement<float>(got, i), w = loadElement<float>(want, i);
    return {g, w, ulpDistance(g, w)};
  }
  case DType::Double: {
    double g = loadElement<double>(got, i), w = loadElement<double>(want, i);
    return {g, w, ulpDistance(g, w)};
  }
  case DType::Float16: {
    uint16_t g = loadElement<uint16_t>(got, i);
    uint16_t w = loadElement<uint16_t>(want, i);
    return {halfToFloat(g), halfToFloat(w), ulpDistanceF16(g, w)};
  }
  default: {
    uint16_t g = loadElement<uint16_t>(got, i);
    uint16_t w = loadElement<uint16_t>(want, i);
    return {bfloat16ToFloat(g), bfloat16ToFloat(w), ulpDistanceBF16(g, w)};
  }
  }
}

/// |got - want| of one integer or bool element, exact up to the rounding
/// of the final conversion to double.
double integerAbsError(const HostTensor &got, const HostTensor &want,
                       int64_t i) {
  auto distance = [](auto g, auto w) -> double {
    if (g == w)
      return 0;
    // Unsigned subtraction of the larger minus the smaller is exact for
    // every width, also for INT64_MIN against INT64_MAX.
    uint64_t hi = g > w ? uint64_t(g) : uint64_t(w);
    uint64_t lo = g > w ? uint64_t(w) : uint64_t(g);
    return double(hi - lo);
  };
  switch (got.dtype) {
  case DType::Int8:
    return distance(loadElement<int8_t>(got, i), loadElement<int8_t>(want, i));
  case DType::Int16:
    return distance(loadElement<int16_t>(got, i),
                    loadElement<int16_t>(want, i));
  case DType::Int32:
    return distance(loadElement<int32_t>(got, i),
                    loadElement<int32_t>(want, i));
  case DType::Int64:
    return distance(loadElement<int64_t>(got, i),
                    loadElement<int64_t>(want, i));
  case DType::UInt16:
    return distance(loadElement<uint16_t>(got, i),
                    loadElement<uint16_t>(want, i));
  case DType::UInt32:
    return distance(loadElement<uint32_t>(got, i),
                    loadElement<uint32_t>(want, i));
  case DType::UInt64:
    return distance(loadElement<uint64_t>(got, i),
                    loadElement<uint64_t>(want, i));
  case DType::Bool: // any non-zero byte is true
    return (loadElement<uint8_t>(got, i) != 0) !=
           (loadElement<uint8_t>(want, i) != 0);
  default:
    return distance(loadElement<uint8_t>(got, i),
                    loadElement<uint8_t>(want, i));
  }
}

bool withinTolerance(double got, double want, const Tolerance &tolerance) {
  if (std::isnan(got) || std::isnan(want))
    return std::isnan(got) && std::isnan(want);
  if (got == want) // also equal infinities, whose difference is NaN
    return true;
  // An infinite reference would make the relative bound infinite too.
  if (std::isinf(got) || std::isinf(want))
    return false;
  return std::fabs(got - want) <=
         tolerance.atol + tolerance.rtol * std::fabs(want);
}

double floatAbsError(double got, double want) {
  if (std::isnan(got) && std::isnan(want))
    return 0;
  if (got == want)
    return 0;
  if (std::isnan(got) || std::isnan(want))
    return std::numeric_limits<double>::infinity();
  return std::fabs(got - want);
}

} // namespace

uint64_t ulpDistance(float a, float b) {
  uint32_t bitsA, bitsB;
  std::memcpy(&bitsA, &a, 4);
  std::memcpy(&bitsB, &b, 4);
  return patternDistance(bitsA, bitsB, 32, 23);
}

uint64_t ulpDistance(double a, double b) {
  uint64_t bitsA, bitsB;
  std::memcpy(&bitsA, &a, 8);
  std::memcpy(&bitsB, &b, 8);
  return patternDistance(bitsA, bitsB, 64, 52);
}

uint64_t ulpDistanceF16(uint16_t a, uint16_t b) {
  return patternDistance(a, b, 16, 10);
}

uint64_t ulpDistanceBF16(uint16_t a, uint16_t b) {
  return patternDistance(a, b, 16, 7);
}

float halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  float magnitude;
  if (exponent == 0x1f)
    magnitude = mantissa ? std::numeric_limits<float>::quiet_NaN()
                         : std::numeric_limits<float>::infinity();
  else if (exponent == 0) // zero or subnormal: mantissa * 2^-24
    magnitude = std::ldexp(float(mantissa), -24);
  else
    magnitude = std::ldexp(float(mantissa | 0x400), int(exponent) - 25);
  uint32_t out;
  std::memcpy(&out, &magnitude, 4);
  out |= sign;
  float result;
  std::memcpy(&result, &out, 4);
  return result;
}

float bfloat16ToFloat(uint16_t bits) {
  uint32_t widened = uint32_t(bits) << 16;
  float result;
  std::memcpy(&result, &widened, 4);
  return result;
}

Comparison compareTensors(const HostTensor &got, const HostTensor &want,
                          const Tolerance &tolerance) {
  Comparison result;
  result.isFloat = isFloatType(want.dtype);
  if (got.dtype != want.dtype) {
    result.problem = std::string("dtype ") + ::tgc::dtypeName(got.dtype) +
                     ", expected " + ::tgc::dtypeName(want.dtype);
    return result;
  }
  if (got.shape != want.shape) {
    result.problem = "shape " + ::tgc::shapeString(got.shape) + ", expected " +
                     ::tgc::shapeString(want.shape);
    return result;
  }
  if (!got.isConsistent() || !want.isConsistent()) {
    result.problem = "data size does not match shape and dtype";
    return result;
  }

  auto noteMismatch = [&](int64_t i) {
    if (result.mismatches++ == 0)
      result.firstMismatch = i;
  };
  int64_t count = want.numElements();
  for (int64_t i = 0; i < count; ++i) {
    if (result.isFloat) {
      FloatPair p = floatPair(got, want, i);
      result.maxAbsError =
          std::max(result.maxAbsError, floatAbsError(p.got, p.want));
      result.maxUlp = std::max(result.maxUlp, p.ulp);
      bool oneRoundingApart = got.dtype == DType::BFloat16 && p.ulp <= 1 &&
                              std::isfinite(p.got) && std::isfinite(p.want);
      if (!oneRoundingApart && !withinTolerance(p.got, p.want, tolerance))
        noteMismatch(i);
      continue;
    }
    double error = integerAbsError(got, want, i);
    result.maxAbsError = std::max(result.maxAbsError, error);
    if (error != 0)
      noteMismatch(i);
  }
  return result;
}

} // namespace mlir::tgc
