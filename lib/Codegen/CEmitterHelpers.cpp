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
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

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
    // 2^x = 2^n * 2^f with n = floor(x) and f in [0, 1): 2^f by a degree-6
    // polynomial (least-squares fit of the relative error on Chebyshev
    // nodes; at most 1.05 ulp with FMA, 1.4 where f = x + 1 rounds; 1 at
    // f = 0, so integers are exact), 2^n from exponent bits, with x
    // clamped to [-127, 128]: n = 128 makes the bits of infinity and n =
    // -127 those of zero. So results below the smallest normal float (x <
    // -126) are zero, as under flush-to-zero: x86 cores take a microcode
    // assist of ~100 cycles for every op that makes or reads a subnormal,
    // and a masked softmax is full of them (Swin's shifted windows add
    // -100: its exp, sum and division kernels ran at 2-6 ns an element
    // instead of 0.6).
    // No calls and no branches, so C compilers vectorize loops over it
    // (libm's exp2f stops them): the selects are bit masks, because GCC
    // turns `c ? k : x` into a branch that its vectorizer then refuses.
    // Floor by truncation and a compare rather than the 1.5*2^23 trick,
    // which -ffast-math folds away. Always inlined: a loop vectorizes only
    // around the inlined body, and GCC stops inlining a plain static
    // function once a file calls it often (a softmax's 16 scalar lanes
    // made a GELU loop elsewhere in the file 10x slower). Metal inlines
    // everything anyway. Possibly unused: with vector extensions, the
    // vector exp2 computes its lanes without it.
    {"tgc_exp2f", R"C(#ifndef TGC_FORCE_INLINE
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__METAL_VERSION__)
#define TGC_FORCE_INLINE inline __attribute__((always_inline, unused))
#else
#define TGC_FORCE_INLINE inline
#endif
#endif
static TGC_FORCE_INLINE float tgc_exp2f(float x) {
  uint32_t nan = -(uint32_t)(x != x), low, high;
  uint32_t bits = tgc_float_bits(x) & ~nan; /* NaN: 0 until the end */
  float y = tgc_bits_float(bits), f, p;
  int32_t n;
  low = -(uint32_t)(y < -127.0f);
  bits = (bits & ~low) | (tgc_float_bits(-127.0f) & low);
  high = -(uint32_t)(y > 128.0f);
  bits = (bits & ~high) | (tgc_float_bits(128.0f) & high);
  y = tgc_bits_float(bits);
  n = (int32_t)y; /* toward zero: one less below a negative fraction */
  n -= (int32_t)((float)n > y);
  f = y - (float)n;
  p = 2.1612919e-4f;
  p = p * f + 1.2467846e-3f;
  p = p * f + 9.6754516e-3f;
  p = p * f + 5.5485282e-2f;
  p = p * f + 2.4022931e-1f;
  p = p * f + 6.9314706e-1f;
  p = p * f + 1.0f;
  p = p * tgc_bits_float((uint32_t)(n + 127) << 23);
  return tgc_bits_float((tgc_float_bits(p) & ~nan) |
                        (tgc_float_bits(x) & nan));
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
  if (helper == CHelper::Exp2f) {
    require(CHelper::FloatBits);
    require(CHelper::BitsFloat);
  }
}


//===----------------------------------------------------------------------===//
// Native vectors
//===----------------------------------------------------------------------===//

std::string mlir::tgc::getVectorTypeName(Type element, int64_t lanes) {
  if (!(element.isF32() || element.isF64()) || lanes < 2 || lanes > 64 ||
      !llvm::isPowerOf2_64(lanes))
    return "";
  return "tgc_f" + std::to_string(element.getIntOrFloatBitWidth()) + "x" +
         std::to_string(lanes);
}

void CHelperSet::requireVector(Type element, int64_t lanes) {
  if (getVectorTypeName(element, lanes).empty())
    return;
  vectors.insert({element.getIntOrFloatBitWidth(), lanes});
}

// Which spelling a source uses is decided once, and a build can force the
// portable one (-DTGC_VECTOR_EXTENSIONS=0), which the tests do.
static const char kVectorPrelude[] = R"C(#ifndef TGC_VECTOR_EXTENSIONS
#if defined(__GNUC__)
#define TGC_VECTOR_EXTENSIONS 1
#else
#define TGC_VECTOR_EXTENSIONS 0
#endif
#endif
/* Vectors passed to this file's static functions change no ABI, whatever
   -Wpsabi says when the ISA of their width is not enabled. */
#if defined(__clang__)
#if __has_warning("-Wpsabi")
#pragma clang diagnostic ignored "-Wpsabi"
#endif
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
/* Masked loads and stores for partial vectors (their first n lanes). */
#if TGC_VECTOR_EXTENSIONS && defined(__AVX512F__) && \
    (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define TGC_MASKED_AVX512 1
#if defined(__AVX512VL__)
#define TGC_MASKED_AVX512VL 1
#endif
#endif
#if TGC_VECTOR_EXTENSIONS && defined(__AVX__) && \
    (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define TGC_MASKED_AVX 1
#endif
#if TGC_VECTOR_EXTENSIONS && defined(__SSE2__) && \
    (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define TGC_SSE 1
#endif
/* clang warns about unused static inline functions in a .c file. */
#if defined(__GNUC__)
#define TGC_VECTOR_FN static inline __attribute__((unused))
#else
#define TGC_VECTOR_FN static inline
#endif
/* A loaded vector that feeds several FMAs of a register tile is kept in a
   register. Without AVX-512's broadcast operands, GCC otherwise folds the
   load into every FMA that uses it: a 4x16 AVX2 tile then loaded its two
   weight vectors 4 times each, 12 loads per 8 FMAs, and a 1024^3 matmul
   ran at 63 GFLOP/s instead of 88. An empty asm that may change the
   register is the only portable way to say so. */
#if TGC_VECTOR_EXTENSIONS && defined(__AVX__) && !defined(__AVX512F__) && \
    (defined(__x86_64__) || defined(__i386__))
#define TGC_IN_REGISTER(x) __asm__("" : "+x"(x))
#else
#define TGC_IN_REGISTER(x) ((void)0)
#endif
)C";

// One vector type: @T@ its name, @E@ the element's C type, @M@ the signed
// integer of the same width, @N@ the lanes, @B@ the bytes, @X@ `x` repeated
// @N@ times. With GCC/clang vector extensions every operation is the C
// operator, which the compiler emits as one SIMD instruction (or several
// for vectors wider than the machine's); an unaligned, may_alias twin type
// does loads and stores. Elsewhere a vector is an array in a struct and each
// operation a loop over it.
static const char kVectorType[] = R"C(/* @T@: @N@ x @E@ */
#ifndef @T@_defined
#define @T@_defined
#if TGC_VECTOR_EXTENSIONS
typedef @E@ @T@ __attribute__((vector_size(@B@)));
typedef @E@ @T@_u __attribute__((vector_size(@B@), aligned(sizeof(@E@)), may_alias));
typedef @M@ @T@_m __attribute__((vector_size(@B@)));
#define @T@_load(p) ((@T@) * (const @T@_u *)(p))
#define @T@_store(p, x) (*(@T@_u *)(p) = (x))
#define @T@_lane(x, i) ((x)[i])
#define @T@_make(...) ((@T@){__VA_ARGS__})
/* permute(a, b, index...): lane k is lane index_k of a, or lane
   index_k - @N@ of b where index_k >= @N@; the @N@ indices are constants.
   One permute instruction, where made lane by lane each lane is an
   insert. */
#if defined(__clang__)
#define @T@_permute(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define @T@_permute(a, b, ...) __builtin_shuffle(a, b, (@T@_m){__VA_ARGS__})
#endif
#define @T@_add(a, b) ((a) + (b))
#define @T@_sub(a, b) ((a) - (b))
#define @T@_mul(a, b) ((a) * (b))
#define @T@_div(a, b) ((a) / (b))
#define @T@_neg(a) (-(a))
#define @T@_recip(a) (@T@_splat(1) / (a))
#define @T@_fma(a, b, c) ((a) * (b) + (c))
/* Macros, not functions: a vector argument of a function compiled without
   the ISA of its width changes the ABI, which GCC warns about. The
   arguments are always names or constants, so evaluating them twice is
   free. */
#define @T@_select(m, a, b) \
  ((@T@)(((@T@_m)(a) & (m)) | ((@T@_m)(b) & ~(m))))
/* max_num(c, x) is c > x ? c : x, x where either is NaN: x86's maxps, one
   instruction (defined so below), and tgc.max(c, x) for a c that is no
   NaN. tgc.max(a, b) is then max_num(a, b) but where a is NaN. For a
   constant c that is no NaN, max_by_num(x, c) is c >= x ? c : x, which is
   tgc.max(x, c) where x is NaN or the other zero too; the emitter writes
   max_num(c, x) for a c that is not a zero, where it is the same. */
@MAXNUM@#ifndef @T@_max_num
#define @T@_max_num(c, x) @T@_select((@T@_m)((c) > (x)), c, x)
#endif
#define @T@_max(a, b) @T@_select((@T@_m)((a) != (a)), a, @T@_max_num(a, b))
#define @T@_max_by_num(x, c) @T@_select((@T@_m)((c) >= (x)), c, x)
/* min_neg(c, x) is -c < x ? -c : x, x where x is NaN: x86's minps(-c, x),
   and tgc's spelling of a minimum, -max(-x, c), for a c that is a number
   and not a zero. */
#ifndef @T@_min_neg
#define @T@_min_neg(c, x) @T@_select((@T@_m)(-(c) < (x)), -(c), x)
#endif
/* The first n lanes from p, the rest from alt; only those n are read (a
   row at the very end of a buffer is safe), and only n are written. */
@PART@#ifndef @T@_load_part
#define @T@_load_part(p, n, alt) __extension__({ \
  @T@ part_ = (alt); \
  int lane_; \
  for (lane_ = 0; lane_ < (n); ++lane_) \
    part_[lane_] = (p)[lane_]; \
  part_; })
#define @T@_store_part(p, n, x) do { \
  int lane_; \
  for (lane_ = 0; lane_ < (n); ++lane_) \
    (p)[lane_] = (x)[lane_]; \
} while (0)
#endif
#else
typedef struct { @E@ v[@N@]; } @T@;
#define @T@_lane(x, i) ((x).v[i])
#define @T@_make(...) ((@T@){{__VA_ARGS__}})
TGC_VECTOR_FN @T@ @T@_load(const @E@ *p) {
  @T@ r;
  memcpy(r.v, p, sizeof r.v);
  return r;
}
TGC_VECTOR_FN void @T@_store(@E@ *p, @T@ x) { memcpy(p, x.v, sizeof x.v); }
TGC_VECTOR_FN @T@ @T@_permute_(@T@ a, @T@ b, const int *index) {
  @T@ r;
  int i;
  for (i = 0; i < @N@; ++i)
    r.v[i] = index[i] < @N@ ? a.v[index[i]] : b.v[index[i] - @N@];
  return r;
}
#define @T@_permute(a, b, ...) @T@_permute_(a, b, (const int[]){__VA_ARGS__})
TGC_VECTOR_FN @T@ @T@_load_part(const @E@ *p, int n, @T@ alt) {
  memcpy(alt.v, p, n * sizeof *p);
  return alt;
}
TGC_VECTOR_FN void @T@_store_part(@E@ *p, int n, @T@ x) {
  memcpy(p, x.v, n * sizeof *p);
}
#define TGC_LANEWISE(op, expr) \
  TGC_VECTOR_FN @T@ @T@_##op(@T@ a, @T@ b) { \
    int i; \
    for (i = 0; i < @N@; ++i) \
      a.v[i] = expr; \
    return a; \
  }
TGC_LANEWISE(add, a.v[i] + b.v[i])
TGC_LANEWISE(sub, a.v[i] - b.v[i])
TGC_LANEWISE(mul, a.v[i] * b.v[i])
TGC_LANEWISE(div, a.v[i] / b.v[i])
TGC_LANEWISE(max, (a.v[i] != a.v[i] || a.v[i] > b.v[i]) ? a.v[i] : b.v[i])
TGC_LANEWISE(max_num, a.v[i] > b.v[i] ? a.v[i] : b.v[i])
TGC_LANEWISE(max_by_num, b.v[i] >= a.v[i] ? b.v[i] : a.v[i])
TGC_LANEWISE(min_neg, -a.v[i] < b.v[i] ? -a.v[i] : b.v[i])
#undef TGC_LANEWISE
TGC_VECTOR_FN @T@ @T@_neg(@T@ a) {
  int i;
  for (i = 0; i < @N@; ++i)
    a.v[i] = -a.v[i];
  return a;
}
TGC_VECTOR_FN @T@ @T@_recip(@T@ a) {
  int i;
  for (i = 0; i < @N@; ++i)
    a.v[i] = 1 / a.v[i];
  return a;
}
TGC_VECTOR_FN @T@ @T@_fma(@T@ a, @T@ b, @T@ c) {
  int i;
  for (i = 0; i < @N@; ++i)
    c.v[i] += a.v[i] * b.v[i];
  return c;
}
#endif
#define @T@_splat(x) @T@_make(@X@)
@EXP2@#endif
)C";

// tgc_exp2f (see above) on a vector of floats, lane for lane the same
// arithmetic; appended to f32 vector types.
static const char kVectorExp2[] = R"C(#if TGC_VECTOR_EXTENSIONS
TGC_VECTOR_FN @T@ @T@_exp2(@T@ x) {
  @T@ lo = @T@_splat(-127.0f), hi = @T@_splat(128.0f), y, f, p;
  @T@_m nan = (@T@_m)(x != x), n;
  y = @T@_select(nan, @T@_splat(0.0f), x);
  y = @T@_select((@T@_m)(y < lo), lo, y);
  y = @T@_select((@T@_m)(y > hi), hi, y);
  n = __builtin_convertvector(y, @T@_m);
  n += (@T@_m)(__builtin_convertvector(n, @T@) > y); /* true is -1 */
  f = y - __builtin_convertvector(n, @T@);
  p = @T@_splat(2.1612919e-4f);
  p = p * f + @T@_splat(1.2467846e-3f);
  p = p * f + @T@_splat(9.6754516e-3f);
  p = p * f + @T@_splat(5.5485282e-2f);
  p = p * f + @T@_splat(2.4022931e-1f);
  p = p * f + @T@_splat(6.9314706e-1f);
  p = p * f + @T@_splat(1.0f);
  p = p * (@T@)((n + 127) << 23);
  return @T@_select(nan, x, p);
}
#else
TGC_VECTOR_FN @T@ @T@_exp2(@T@ x) {
  int i;
  for (i = 0; i < @N@; ++i)
    x.v[i] = tgc_exp2f(x.v[i]);
  return x;
}
#endif
)C";

// AVX-512 masked moves for the partial loads and stores of the vector
// types that fill a 512-bit register, or a 256-bit one with AVX-512VL:
// @W@ the intrinsics' width prefix, @S@ their element suffix, @K@ the
// mask type, @R@ the intrinsics' vector type, @G@ the macro that says the
// ISA has them.
static const char kVectorMaskedPart[] = R"C(#if defined(@G@)
#define @T@_load_part(p, n, alt) \
  ((@T@)@W@_mask_loadu_@S@((@R@)(alt), (@K@)((1u << (n)) - 1), (p)))
#define @T@_store_part(p, n, x) \
  @W@_mask_storeu_@S@((p), (@K@)((1u << (n)) - 1), (@R@)(x))
#endif
)C";

// AVX's masked moves (vmaskmovps) for the 128- and 256-bit vector types
// where AVX-512's are missing: an AVX2 machine would otherwise move a
// partial vector lane by lane (7 loads and inserts for a row of 7 pixels).
// The mask is the lanes below n, @I@ their indices; masked-off lanes are
// neither read nor written. @RI@ is the intrinsics' integer vector type.
static const char kVectorAvxPart[] =
    R"C(#if !defined(@T@_load_part) && defined(TGC_MASKED_AVX)
#define @T@_part_mask(n) ((@T@_m){@I@} < (n))
#define @T@_load_part(p, n, alt) \
  ((@T@)@W@_blendv_@S@((@R@)(alt), \
      @W@_maskload_@S@((p), (@RI@)@T@_part_mask(n)), (@R@)@T@_part_mask(n)))
#define @T@_store_part(p, n, x) \
  @W@_maskstore_@S@((p), (@RI@)@T@_part_mask(n), (@R@)(x))
#endif
)C";

// x86's maxps for max_num: c > x ? c : x, the second operand (x) where
// either is NaN, so exactly tgc.max(c, x) for a c that is a number; its
// minps for min_neg. @W@ the intrinsics' width prefix, @S@ their element
// suffix, @R@ their vector type, @G@ the macro that says the ISA has them.
static const char kVectorMaxNumber[] = R"C(#if defined(@G@)
#define @T@_max_num(c, x) ((@T@)@W@_max_@S@((@R@)(c), (@R@)(x)))
#define @T@_min_neg(c, x) ((@T@)@W@_min_@S@((@R@)(-(c)), (@R@)(x)))
#endif
)C";

static std::string instantiate(StringRef text,
                               ArrayRef<std::pair<StringRef, std::string>> subs) {
  std::string result;
  while (!text.empty()) {
    size_t at = text.find('@');
    result += text.take_front(at).str();
    if (at == StringRef::npos)
      break;
    text = text.drop_front(at);
    bool replaced = false;
    for (const auto &[key, value] : subs)
      if (text.starts_with(key)) {
        result += value;
        text = text.drop_front(key.size());
        replaced = true;
        break;
      }
    if (!replaced) {
      result += '@';
      text = text.drop_front();
    }
  }
  return result;
}

void CHelperSet::print(llvm::raw_ostream &os) const {
  // Scalar helpers first: the vector types' fallbacks call them.
  for (size_t i = 0; i < needed.size(); ++i)
    if (needed.test(i))
      os << kHelpers[i].definition << "\n";
  if (!vectors.empty())
    os << kVectorPrelude << "\n";
  for (auto [bits, lanes] : vectors) {
    std::string name = "tgc_f" + std::to_string(bits) + "x" +
                       std::to_string(lanes);
    SmallVector<std::string> xs(lanes, "x");
    SmallVector<std::pair<StringRef, std::string>> subs = {
        {"@T@", name},
        {"@E@", bits == 32 ? "float" : "double"},
        {"@M@", bits == 32 ? "int32_t" : "int64_t"},
        {"@N@", std::to_string(lanes)},
        {"@B@", std::to_string(lanes * bits / 8)},
        {"@X@", llvm::join(xs, ", ")}};
    int64_t bytes = lanes * bits / 8;
    std::string part;
    if (bytes == 64 || bytes == 32) {
      SmallVector<std::pair<StringRef, std::string>> masked = {
          {"@T@", name},
          {"@G@", bytes == 64 ? "TGC_MASKED_AVX512" : "TGC_MASKED_AVX512VL"},
          {"@W@", bytes == 64 ? "_mm512" : "_mm256"},
          {"@S@", bits == 32 ? "ps" : "pd"},
          {"@K@", lanes == 16 ? "__mmask16" : "__mmask8"},
          {"@R@", std::string(bytes == 64 ? "__m512" : "__m256") +
                      (bits == 32 ? "" : "d")}};
      part += instantiate(kVectorMaskedPart, masked);
    }
    if (bytes == 32 || bytes == 16) {
      SmallVector<std::string> indices;
      for (int64_t lane = 0; lane < lanes; ++lane)
        indices.push_back(std::to_string(lane));
      std::string width = bytes == 32 ? "256" : "128";
      SmallVector<std::pair<StringRef, std::string>> masked = {
          {"@T@", name},
          {"@I@", llvm::join(indices, ", ")},
          {"@W@", bytes == 32 ? "_mm256" : "_mm"},
          {"@S@", bits == 32 ? "ps" : "pd"},
          {"@RI@", "__m" + width + "i"},
          {"@R@", "__m" + width + (bits == 32 ? "" : "d")}};
      part += instantiate(kVectorAvxPart, masked);
    }
    subs.push_back({"@PART@", part});
    std::string maxNumber;
    if (bytes == 64 || bytes == 32 || bytes == 16) {
      StringRef width = bytes == 64 ? "512" : bytes == 32 ? "256" : "128";
      SmallVector<std::pair<StringRef, std::string>> maxSubs = {
          {"@T@", name},
          {"@G@", bytes == 64   ? "TGC_MASKED_AVX512"
                  : bytes == 32 ? "TGC_MASKED_AVX"
                                : "TGC_SSE"},
          {"@W@", bytes == 16 ? "_mm" : "_mm" + width.str()},
          {"@S@", bits == 32 ? "ps" : "pd"},
          {"@R@", "__m" + width.str() + (bits == 32 ? "" : "d")}};
      maxNumber = instantiate(kVectorMaxNumber, maxSubs);
    }
    subs.push_back({"@MAXNUM@", maxNumber});
    // Only where exp2 is used: the portable spelling calls tgc_exp2f.
    bool exp2 = bits == 32 && needed.test(static_cast<size_t>(CHelper::Exp2f));
    subs.push_back(
        {"@EXP2@", exp2 ? instantiate(kVectorExp2, subs) : std::string()});
    os << instantiate(kVectorType, subs) << "\n";
  }
}
