/* cuda_fp16.h: CUDA's __half, emulated: the 16 bits of an IEEE half, with
 * the conversions that tensor-core code uses (round to nearest even, as
 * __float2half does on a GPU).
 */
#ifndef TGC_GPU_EMU_CUDA_FP16_H
#define TGC_GPU_EMU_CUDA_FP16_H

#include <cstdint>
#include <cstring>

struct __half {
  uint16_t bits;
};

inline float __half2float(__half h) {
  uint32_t sign = (uint32_t)(h.bits >> 15) << 31;
  uint32_t exponent = (h.bits >> 10) & 0x1f, mantissa = h.bits & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else { /* subnormal: normalize */
    int shift = 0;
    while (!(mantissa & 0x400)) {
      mantissa <<= 1;
      ++shift;
    }
    bits = sign | ((uint32_t)(113 - shift) << 23) | ((mantissa & 0x3ff) << 13);
  }
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

inline __half __float2half(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7fffffffu;
  __half h;
  if (magnitude > 0x7f800000u) { /* NaN stays NaN */
    h.bits = (uint16_t)(sign | 0x7e00);
  } else if (magnitude >= 0x477ff000u) { /* rounds past 65504 */
    h.bits = (uint16_t)(sign | 0x7c00);
  } else if (magnitude < 0x38800000u) { /* subnormal or zero in half */
    float scaled;
    uint32_t m = magnitude;
    std::memcpy(&scaled, &m, sizeof scaled);
    /* 2^24 * x rounded to an integer (nearest even) is the subnormal. */
    float units = scaled * 16777216.0f;
    uint32_t whole = (uint32_t)units;
    float rest = units - (float)whole;
    if (rest > 0.5f || (rest == 0.5f && (whole & 1)))
      ++whole;
    h.bits = (uint16_t)(sign | whole);
  } else {
    uint32_t rounded = magnitude - 0x38000000u; /* rebias 127 -> 15 */
    rounded += 0xfff + ((rounded >> 13) & 1);  /* nearest even */
    h.bits = (uint16_t)(sign | (rounded >> 13));
  }
  return h;
}

#endif /* TGC_GPU_EMU_CUDA_FP16_H */
