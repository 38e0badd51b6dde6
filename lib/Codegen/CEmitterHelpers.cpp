//===- CEmitterHelpers.cpp - C helper functions a kernel may need -*- C++ -*-=//
//
// The text of the helpers. Half-precision values are computed in float and
// rounded back after every operation; for +, -, *, / and sqrt that double
// rounding gives the correctly rounded binary16 result, because float's 24
// bits are at least 2*11+2 (and 2*8+2 for bfloat16). Bit casts go through
// memcpy, which C99 defines and compilers turn into a register move.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CEmitterHelpers.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {
struct HelperText {
  llvm::StringRef name;
  llvm::StringRef definition;
};
} // namespace

// Indexed by CHelper; a helper's body only calls helpers listed before it.
static const HelperText kHelpers[] = {
    {"tgc_half_to_float", R"C(static float tgc_half_to_float(uint16_t half) {
  uint32_t sign = (uint32_t)(half & 0x8000u) << 16;
  uint32_t exponent = (half >> 10) & 0x1fu, mantissa = half & 0x3ffu, bits;
  float value;
  if (exponent == 0) {
    /* zero or subnormal: mantissa * 2^-24 is exact in float */
    value = (float)mantissa * 5.9604644775390625e-8f;
    return sign ? -value : value;
  }
  if (exponent == 0x1fu)
    bits = sign | 0x7f800000u | (mantissa << 13);
  else
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  memcpy(&value, &bits, sizeof value);
  return value;
}
)C"},
    {"tgc_float_to_half", R"C(static uint16_t tgc_float_to_half(float value) {
  uint32_t bits, sign, magnitude, mantissa, half, rest, halfway;
  int exponent, shift;
  memcpy(&bits, &value, sizeof bits);
  sign = (bits >> 16) & 0x8000u;
  magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) /* NaN stays a quiet NaN */
    return (uint16_t)(sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu));
  if (magnitude >= 0x47800000u) /* 2^16 and up, infinity included */
    return (uint16_t)(sign | 0x7c00u);
  exponent = (int)(magnitude >> 23);
  mantissa = magnitude & 0x7fffffu;
  if (exponent >= 113) {
    /* normal: rebias the exponent, round to nearest even; a carry into
       the exponent (up to infinity) is the right result */
    half = ((uint32_t)(exponent - 112) << 10) | (mantissa >> 13);
    rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
      ++half;
    return (uint16_t)(sign | half);
  }
  if (exponent < 102) /* below 2^-25: rounds to zero */
    return (uint16_t)sign;
  /* subnormal: the value in units of 2^-24, rounded to nearest even */
  mantissa |= 0x800000u;
  shift = 126 - exponent;
  half = mantissa >> shift;
  rest = mantissa & ((1u << shift) - 1u);
  halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (half & 1u)))
    ++half;
  return (uint16_t)(sign | half);
}
)C"},
    {"tgc_round_half", R"C(static float tgc_round_half(float value) {
  return tgc_half_to_float(tgc_float_to_half(value));
}
)C"},
    {"tgc_bf16_to_float", R"C(static float tgc_bf16_to_float(uint16_t bf16) {
  uint32_t bits = (uint32_t)bf16 << 16;
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}
)C"},
    {"tgc_float_to_bf16", R"C(static uint16_t tgc_float_to_bf16(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7fffffffu) > 0x7f800000u) /* NaN stays a quiet NaN */
    return (uint16_t)((bits >> 16) | 0x40u);
  bits += 0x7fffu + ((bits >> 16) & 1u); /* round to nearest even */
  return (uint16_t)(bits >> 16);
}
)C"},
    {"tgc_round_bf16", R"C(static float tgc_round_bf16(float value) {
  return tgc_bf16_to_float(tgc_float_to_bf16(value));
}
)C"},
    {"tgc_float_bits", R"C(static uint32_t tgc_float_bits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}
)C"},
    {"tgc_bits_float", R"C(static float tgc_bits_float(uint32_t bits) {
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}
)C"},
    {"tgc_double_bits", R"C(static uint64_t tgc_double_bits(double value) {
  uint64_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}
)C"},
    {"tgc_bits_double", R"C(static double tgc_bits_double(uint64_t bits) {
  double value;
  memcpy(&value, &bits, sizeof value);
  return value;
}
)C"},
};
static_assert(sizeof(kHelpers) / sizeof(kHelpers[0]) ==
                  static_cast<size_t>(CHelper::Count),
              "one text per helper");

llvm::StringRef mlir::tgc::getHelperName(CHelper helper) {
  return kHelpers[static_cast<size_t>(helper)].name;
}

void CHelperSet::require(CHelper helper) {
  needed.set(static_cast<size_t>(helper));
  if (helper == CHelper::RoundHalf) {
    require(CHelper::HalfToFloat);
    require(CHelper::FloatToHalf);
  }
  if (helper == CHelper::RoundBf16) {
    require(CHelper::Bf16ToFloat);
    require(CHelper::FloatToBf16);
  }
}

void CHelperSet::print(llvm::raw_ostream &os) const {
  for (size_t i = 0; i < needed.size(); ++i)
    if (needed.test(i))
      os << kHelpers[i].definition << "\n";
}
