//===- DriverCompareTest.cpp - tests for Driver/Compare ---------*- C++ -*-===//
//
// ULP distances at the tricky points of each float format, NaN and infinity
// handling, the tolerance rule, integer outputs, and mismatched tensors.
//
//===----------------------------------------------------------------------===//

#include "Driver/Compare.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir::tgc;
using Catch::Matchers::Contains;
using ::tgc::DType;
using ::tgc::HostTensor;

namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

template <typename T>
HostTensor makeTensor(DType dtype, std::vector<int64_t> shape,
                      std::vector<T> values) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.data.resize(values.size() * sizeof(T));
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

HostTensor floats(std::vector<float> values) {
  int64_t n = int64_t(values.size());
  return makeTensor<float>(DType::Float, {n}, std::move(values));
}

} // namespace

TEST_CASE("ulpDistance counts representable floats between two values",
          "[compare]") {
  CHECK(ulpDistance(1.0f, 1.0f) == 0);
  CHECK(ulpDistance(1.0f, std::nextafter(1.0f, 2.0f)) == 1);
  CHECK(ulpDistance(std::nextafter(1.0f, 2.0f), 1.0f) == 1);
  float up3 =
      std::nextafter(std::nextafter(std::nextafter(1.0f, 2.0f), 2.0f), 2.0f);
  CHECK(ulpDistance(1.0f, up3) == 3);
  // Across zero: the smallest subnormals on both sides are two apart, and
  // +0 and -0 are the same value.
  float tiny = std::numeric_limits<float>::denorm_min();
  CHECK(ulpDistance(tiny, -tiny) == 2);
  CHECK(ulpDistance(0.0f, -0.0f) == 0);
  // The largest finite float is next to infinity.
  CHECK(ulpDistance(std::numeric_limits<float>::max(),
                    std::numeric_limits<float>::infinity()) == 1);
  CHECK(ulpDistance(1.0, std::nextafter(1.0, 2.0)) == 1);
  CHECK(ulpDistance(-2.0, std::nextafter(-2.0, -3.0)) == 1);
}

TEST_CASE("ulpDistance treats NaN as equal only to NaN", "[compare]") {
  float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(ulpDistance(nan, nan) == 0);
  CHECK(ulpDistance(nan, -nan) == 0);
  CHECK(ulpDistance(nan, 1.0f) == kMax);
  CHECK(ulpDistance(0.0f, nan) == kMax);
  double dnan = std::numeric_limits<double>::quiet_NaN();
  CHECK(ulpDistance(dnan, 0.0) == kMax);
}

TEST_CASE("16-bit formats: conversion and ULP distance", "[compare]") {
  CHECK(halfToFloat(0x3c00) == 1.0f);
  CHECK(halfToFloat(0xc000) == -2.0f);
  CHECK(halfToFloat(0x0001) == std::ldexp(1.0f, -24)); // smallest subnormal
  CHECK(halfToFloat(0x7bff) == 65504.0f);              // largest finite
  CHECK(std::isinf(halfToFloat(0x7c00)));
  CHECK(std::isnan(halfToFloat(0x7e00)));
  CHECK(std::signbit(halfToFloat(0x8000)));
  CHECK(bfloat16ToFloat(0x3f80) == 1.0f);
  CHECK(bfloat16ToFloat(0xc040) == -3.0f);

  CHECK(ulpDistanceF16(0x3c00, 0x3c01) == 1);
  CHECK(ulpDistanceF16(0x0001, 0x8001) == 2);
  CHECK(ulpDistanceF16(0x7e00, 0x7e00) == 0);
  CHECK(ulpDistanceF16(0x7e00, 0x3c00) == kMax);
  // 0x7c00 is infinity in half but a finite number in bfloat16's layout.
  CHECK(ulpDistanceF16(0x7c00, 0x7bff) == 1);
  CHECK(ulpDistanceBF16(0x3f80, 0x3f82) == 2);
  CHECK(ulpDistanceBF16(0x7fc0, 0x7fc0) == 0);
  CHECK(ulpDistanceBF16(0x7fc0, 0x3f80) == kMax);
}

TEST_CASE("compareTensors applies |got - want| <= atol + rtol * |want|",
          "[compare]") {
  Tolerance tolerance; // rtol 1e-3, atol 1e-5
  SECTION("identical tensors pass with zero error") {
    Comparison c =
        compareTensors(floats({1, -2, 3}), floats({1, -2, 3}), tolerance);
    CHECK(c.passed());
    CHECK(c.isFloat);
    CHECK(c.maxAbsError == 0);
    CHECK(c.maxUlp == 0);
    CHECK(c.firstMismatch == -1);
  }
  SECTION("the relative part scales with the reference") {
    // 1000 * 1e-3 + 1e-5 = 1.00001 allows an error of 1 at 1000 ...
    CHECK(compareTensors(floats({1001}), floats({1000}), tolerance).passed());
    // ... but not at 100.
    Comparison c = compareTensors(floats({101}), floats({100}), tolerance);
    CHECK_FALSE(c.passed());
    CHECK(c.mismatches == 1);
    CHECK(c.firstMismatch == 0);
    CHECK(c.maxAbsError == Approx(1.0));
  }
  SECTION("the absolute part matters near zero") {
    CHECK(compareTensors(floats({5e-6f}), floats({0}), tolerance).passed());
    CHECK_FALSE(
        compareTensors(floats({5e-5f}), floats({0}), tolerance).passed());
    Tolerance loose{0, 1e-4};
    CHECK(compareTensors(floats({5e-5f}), floats({0}), loose).passed());
  }
  SECTION("mismatches are counted and the first one is located") {
    Comparison c =
        compareTensors(floats({0, 1, 2, 3}), floats({0, 1.5, 2, 4}), tolerance);
    CHECK(c.mismatches == 2);
    CHECK(c.firstMismatch == 1);
    CHECK(c.maxAbsError == Approx(1.0));
  }
}

TEST_CASE("compareTensors: NaN matches NaN, infinities match themselves",
          "[compare]") {
  float nan = std::numeric_limits<float>::quiet_NaN();
  float inf = std::numeric_limits<float>::infinity();
  Tolerance tolerance;
  Comparison same = compareTensors(floats({nan, inf, -inf}),
                                   floats({nan, inf, -inf}), tolerance);
  CHECK(same.passed());
  CHECK(same.maxAbsError == 0);
  CHECK(same.maxUlp == 0);

  Comparison nanVsNumber =
      compareTensors(floats({nan}), floats({1}), tolerance);
  CHECK_FALSE(nanVsNumber.passed());
  CHECK(std::isinf(nanVsNumber.maxAbsError));
  CHECK(nanVsNumber.maxUlp == kMax);
  CHECK_FALSE(compareTensors(floats({1}), floats({nan}), tolerance).passed());
  CHECK_FALSE(
      compareTensors(floats({inf}), floats({-inf}), tolerance).passed());
  CHECK_FALSE(
      compareTensors(floats({inf}), floats({1e30f}), tolerance).passed());
}

TEST_CASE("compareTensors: other float widths", "[compare]") {
  Tolerance tolerance;
  HostTensor want = makeTensor<double>(DType::Double, {2}, {1.0, 2.0});
  HostTensor got =
      makeTensor<double>(DType::Double, {2}, {1.0, std::nextafter(2.0, 3.0)});
  Comparison c = compareTensors(got, want, tolerance);
  CHECK(c.passed());
  CHECK(c.maxUlp == 1);

  HostTensor halfWant =
      makeTensor<uint16_t>(DType::Float16, {2}, {0x3c00, 0x4000}); // 1, 2
  HostTensor halfGot =
      makeTensor<uint16_t>(DType::Float16, {2}, {0x3c01, 0x4200}); // 1.001, 3
  Comparison h = compareTensors(halfGot, halfWant, tolerance);
  CHECK(h.isFloat);
  CHECK(h.mismatches == 1); // 1.000977 is within 1e-3 * 1 + 1e-5; 3 is not
  CHECK(h.firstMismatch == 1);
  CHECK(h.maxUlp == 512);
  CHECK(h.maxAbsError == Approx(1.0));
}

TEST_CASE("compareTensors: bfloat16 passes one rounding step away",
          "[compare]") {
  Tolerance tolerance;
  // 0.48033667f (0x3ef5eeb0) rounded to nearest is 0x3ef6, truncated
  // 0x3ef5: 0.4805 against 0.4785, 4e-3 apart, beyond rtol 1e-3.
  HostTensor want = makeTensor<uint16_t>(DType::BFloat16, {4},
                                         {0x3ef5, 0x3f80, 0x7fc0, 0xff80});
  HostTensor oneUp = makeTensor<uint16_t>(DType::BFloat16, {4},
                                          {0x3ef6, 0x3f80, 0x7fc1, 0xff80});
  Comparison c = compareTensors(oneUp, want, tolerance);
  CHECK(c.passed());
  CHECK(c.maxUlp == 1);
  CHECK(c.maxAbsError == Approx(0.001953125));

  // Two units apart fails, and NaN still matches only NaN.
  HostTensor twoUp = makeTensor<uint16_t>(DType::BFloat16, {4},
                                          {0x3ef7, 0x3f80, 0x7fc0, 0xff80});
  Comparison two = compareTensors(twoUp, want, tolerance);
  CHECK(two.mismatches == 1);
  CHECK(two.firstMismatch == 0);
  HostTensor notNan = makeTensor<uint16_t>(DType::BFloat16, {4},
                                           {0x3ef5, 0x3f80, 0x7f80, 0xff80});
  CHECK(compareTensors(notNan, want, tolerance).mismatches == 1);
  // Infinity and the largest finite value are one unit apart too, but
  // never equal.
  HostTensor finite = makeTensor<uint16_t>(DType::BFloat16, {4},
                                           {0x3ef5, 0x3f80, 0x7fc0, 0xff7f});
  CHECK(compareTensors(finite, want, tolerance).mismatches == 1);

  // float16 keeps the plain rule: 1 + 2^-10 * 2 is 2 units from 1.
  HostTensor halfWant = makeTensor<uint16_t>(DType::Float16, {1}, {0x3c00});
  HostTensor halfGot = makeTensor<uint16_t>(DType::Float16, {1}, {0x3c02});
  CHECK(compareTensors(halfGot, halfWant, tolerance).mismatches == 1);
}

TEST_CASE("compareTensors: integers and bools must match exactly",
          "[compare]") {
  Tolerance tolerance;
  HostTensor want = makeTensor<int64_t>(DType::Int64, {3}, {5000, -7, 0});
  HostTensor got = makeTensor<int64_t>(DType::Int64, {3}, {5001, -7, 2});
  Comparison c = compareTensors(got, want, tolerance);
  CHECK_FALSE(c.isFloat);
  CHECK(c.mismatches == 2);
  CHECK(c.firstMismatch == 0);
  CHECK(c.maxAbsError == 2);
  CHECK(c.maxUlp == 0);

  int64_t lo = std::numeric_limits<int64_t>::min();
  int64_t hi = std::numeric_limits<int64_t>::max();
  Comparison extremes =
      compareTensors(makeTensor<int64_t>(DType::Int64, {1}, {lo}),
                     makeTensor<int64_t>(DType::Int64, {1}, {hi}), tolerance);
  CHECK(extremes.maxAbsError == Approx(18446744073709551615.0));

  HostTensor boolWant = makeTensor<uint8_t>(DType::Bool, {3}, {1, 0, 1});
  HostTensor boolGot = makeTensor<uint8_t>(DType::Bool, {3}, {1, 1, 1});
  CHECK(compareTensors(boolGot, boolWant, tolerance).mismatches == 1);
  CHECK(compareTensors(boolWant, boolWant, tolerance).passed());

  HostTensor u8 = makeTensor<uint8_t>(DType::UInt8, {2}, {200, 3});
  HostTensor u8b = makeTensor<uint8_t>(DType::UInt8, {2}, {3, 3});
  CHECK(compareTensors(u8, u8b, tolerance).maxAbsError == 197);
}

TEST_CASE("compareTensors: a dtype or shape mismatch fails", "[compare]") {
  Tolerance tolerance;
  HostTensor f = floats({1, 2});
  HostTensor i = makeTensor<int32_t>(DType::Int32, {2}, {1, 2});
  Comparison dtype = compareTensors(i, f, tolerance);
  CHECK_FALSE(dtype.passed());
  CHECK_THAT(dtype.problem, Contains("dtype int32, expected float32"));

  HostTensor reshaped = makeTensor<float>(DType::Float, {1, 2}, {1, 2});
  Comparison shape = compareTensors(reshaped, f, tolerance);
  CHECK_FALSE(shape.passed());
  CHECK_THAT(shape.problem, Contains("shape [1,2], expected [2]"));

  HostTensor broken = floats({1, 2});
  broken.data.pop_back();
  CHECK_FALSE(compareTensors(broken, f, tolerance).passed());
}
