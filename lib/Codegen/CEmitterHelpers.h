//===- CEmitterHelpers.h - C helper functions a kernel may need -*- C++ -*-===//
//
// Small static C functions (half-precision conversions, bit casts) that the
// emitted source defines only when a kernel uses them: an unused static
// function is a warning under -Wall, and the emitted C must build with
// -Werror.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_CEMITTERHELPERS_H
#define TGC_CODEGEN_CEMITTERHELPERS_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <bitset>
#include <set>
#include <string>

namespace mlir::tgc {

enum class CHelper {
  HalfToFloat, // float tgc_half_to_float(uint16_t): IEEE binary16 bits
  FloatToHalf, // uint16_t tgc_float_to_half(float): round to nearest even
  RoundHalf,   // float tgc_round_half(float): to the nearest binary16 value
  Bf16ToFloat, // float tgc_bf16_to_float(uint16_t)
  FloatToBf16, // uint16_t tgc_float_to_bf16(float): round to nearest even
  RoundBf16,   // float tgc_round_bf16(float)
  FloatBits,   // uint32_t tgc_float_bits(float)
  BitsFloat,   // float tgc_bits_float(uint32_t)
  DoubleBits,  // uint64_t tgc_double_bits(double)
  BitsDouble,  // double tgc_bits_double(uint64_t)
  Exp2f,       // float tgc_exp2f(float): 2^x without libm, vectorizable
  Count
};

/// The C name of a helper (`tgc_half_to_float`).
llvm::StringRef getHelperName(CHelper helper);

/// The C type of a vector of `lanes` values of `element` rendered as one C
/// value (`tgc_f32x16`), or "" if such vectors are rendered lane by lane.
/// Native vectors are f32 and f64 with a power-of-two lane count from 2 to
/// 64; their operations are macros named after the type (`tgc_f32x16_add`).
std::string getVectorTypeName(mlir::Type element, int64_t lanes);

/// The helpers a source needs, printed in dependency order.
class CHelperSet {
public:
  /// Marks `helper` and the helpers its body calls as needed.
  void require(CHelper helper);
  /// Marks the native vector type of `lanes` `element`s as needed.
  void requireVector(mlir::Type element, int64_t lanes);
  bool empty() const { return needed.none() && vectors.empty(); }
  /// Prints the definitions of the needed vector types and helpers.
  void print(llvm::raw_ostream &os) const;

private:
  std::bitset<static_cast<size_t>(CHelper::Count)> needed;
  /// (element bits, lanes) of each native vector type.
  std::set<std::pair<unsigned, int64_t>> vectors;
};

} // namespace mlir::tgc

#endif // TGC_CODEGEN_CEMITTERHELPERS_H
