//===- CEmitterMatrix.cpp - tensor-core ops in CUDA and Metal --*- C++ -*-===//
//
// CUDA: the warp matrix functions of <mma.h> in tf32 (m16n16k8, float
// accumulation). tf32 wmma exists from sm_80 (Ampere) on; a package is
// built for sm_75 too (Turing, the oldest GPU this CUDA supports), so
// every op has a second spelling behind `__CUDA_ARCH__ < 800` that does
// the same tile product on the CUDA cores from the same workgroup tiles:
// each of the warp's 32 threads owns the tile elements e = lane + 32 s.
// A package then runs everywhere, with tensor cores where there are some,
// and sm_75 code never holds a tf32 instruction. Host code and the CPU
// emulation (no __CUDA_ARCH__) see the wmma spelling.
//
// Metal: simdgroup_float8x8, which every Apple GPU from the A14/M1 (Apple
// 7) on multiplies in full f32.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CEmitterMatrix.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

constexpr const char *kBelowSm80 =
    "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800";

/// The tile the target's matrix units take: m, n, k.
struct TileShape {
  int64_t m, n, k;
};

std::optional<TileShape> tileOf(MatrixUnit unit) {
  switch (unit) {
  case MatrixUnit::CudaWmma:
    return TileShape{16, 16, 8};
  case MatrixUnit::MetalSimdgroup:
    return TileShape{8, 8, 8};
  case MatrixUnit::None:
    break;
  }
  return std::nullopt;
}

std::string str(int64_t value) { return std::to_string(value); }

/// nvcuda::wmma::fragment<use, 16, 16, 8, type[, layout]>.
std::string fragment(StringRef use, StringRef type, StringRef layout = "") {
  std::string text = "nvcuda::wmma::fragment<nvcuda::wmma::" + use.str() +
                     ", 16, 16, 8, " + type.str();
  if (!layout.empty())
    text += ", nvcuda::wmma::" + layout.str();
  return text + ">";
}

} // namespace

FailureOr<SmallVector<std::string>>
mlir::tgc::renderDefineAcc(DefineAccOp op, const CStyleLanguage &language,
                           StringRef name) {
  std::optional<TileShape> shape = tileOf(language.matrixUnit);
  if (!shape)
    return op.emitOpError("needs tensor cores, which this target does not "
                          "have (the TC action is for CUDA and Metal)");
  WmmaOp user;
  for (Operation *use : op->getUsers())
    if (auto wmma = dyn_cast<WmmaOp>(use))
      user = wmma;
  if ((int64_t)op.getM() != shape->m || (int64_t)op.getN() != shape->n ||
      (user && (int64_t)user.getK() != shape->k))
    return op.emitOpError("is a tile this target's tensor cores do not "
                          "take; they take ")
           << shape->m << "x" << shape->n << "x" << shape->k;
  std::string n = name.str();
  if (language.matrixUnit == MatrixUnit::MetalSimdgroup)
    return SmallVector<std::string>{
        "simdgroup_float8x8 " + n +
        " = make_filled_simdgroup_matrix<float, 8, 8>(0.0f);"};
  int64_t perThread = shape->m * shape->n / 32;
  return SmallVector<std::string>{
      kBelowSm80,
      "float " + n + "[" + str(perThread) + "] = {};",
      "#else",
      fragment("accumulator", "float") + " " + n + ";",
      "nvcuda::wmma::fill_fragment(" + n + ", 0.0f);",
      "#endif"};
}

SmallVector<std::string> mlir::tgc::renderWmma(WmmaOp op,
                                               const CStyleLanguage &language,
                                               StringRef acc, StringRef a,
                                               StringRef b) {
  std::string c = acc.str(), x = a.str(), y = b.str();
  if (language.matrixUnit == MatrixUnit::MetalSimdgroup)
    return {"{",
            "  simdgroup_float8x8 tc_a, tc_b;",
            "  simdgroup_load(tc_a, " + x + ", 8);",
            "  simdgroup_load(tc_b, " + y + ", 8);",
            "  simdgroup_multiply_accumulate(" + c + ", tc_a, tc_b, " + c +
                ");",
            "}"};
  return {kBelowSm80,
          "for (int tc_e = (int)threadIdx.x; tc_e < 256; tc_e += 32) {",
          "  float tc_sum = " + c + "[tc_e / 32];",
          "  for (int tc_k = 0; tc_k < 8; ++tc_k)",
          "    tc_sum += " + x + "[tc_e / 16 * 8 + tc_k] * " + y +
              "[tc_k * 16 + tc_e % 16];",
          "  " + c + "[tc_e / 32] = tc_sum;",
          "}",
          "#else",
          "{",
          "  " + fragment("matrix_a", "nvcuda::wmma::precision::tf32",
                          "row_major") +
              " tc_a;",
          "  " + fragment("matrix_b", "nvcuda::wmma::precision::tf32",
                          "row_major") +
              " tc_b;",
          "  nvcuda::wmma::load_matrix_sync(tc_a, " + x + ", 8);",
          "  nvcuda::wmma::load_matrix_sync(tc_b, " + y + ", 16);",
          "  for (int tc_t = 0; tc_t < tc_a.num_elements; ++tc_t)",
          "    tc_a.x[tc_t] = nvcuda::wmma::__float_to_tf32(tc_a.x[tc_t]);",
          "  for (int tc_t = 0; tc_t < tc_b.num_elements; ++tc_t)",
          "    tc_b.x[tc_t] = nvcuda::wmma::__float_to_tf32(tc_b.x[tc_t]);",
          "  nvcuda::wmma::mma_sync(" + c + ", tc_a, tc_b, " + c + ");",
          "}",
          "#endif"};
}

SmallVector<std::string>
mlir::tgc::renderStoreAcc(StoreAccOp op, const CStyleLanguage &language,
                          StringRef dst, StringRef acc) {
  std::string d = dst.str(), c = acc.str();
  if (language.matrixUnit == MatrixUnit::MetalSimdgroup)
    return {"simdgroup_store(" + c + ", " + d + ", 8);"};
  return {kBelowSm80,
          "for (int tc_e = (int)threadIdx.x; tc_e < 256; tc_e += 32)",
          "  " + d + "[tc_e] = " + c + "[tc_e / 32];",
          "#else",
          "nvcuda::wmma::store_matrix_sync(" + d + ", " + c +
              ", 16, nvcuda::wmma::mem_row_major);",
          "#endif"};
}
