//===- Target.h - what the kernel optimizer knows of a CPU -----*- C++ -*-===//
//
// The few facts about the target CPU that shape kernels: how wide its
// vector registers are, how many there are, and whether it has FMA. They
// come from `--cpu` (a name the C compiler's -march takes) or, without it,
// from the host.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_TARGET_H
#define TGC_CODEGEN_TARGET_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace mlir::tgc {

struct CpuTarget {
  /// The name the facts come from: an -march name, or the host's.
  std::string cpu;
  /// Bytes of the widest vector register the C compiler may use (64 for
  /// AVX-512, 32 for AVX2, 16 for SSE and NEON).
  unsigned vectorBytes = 16;
  /// Vector registers the compiler can allocate (32 with AVX-512 and on
  /// AArch64, 16 otherwise).
  unsigned vectorRegisters = 16;
  /// Fused multiply-add in hardware.
  bool fma = false;
};

/// The facts for `cpu`: "" or "native" for the host, else an x86 -march
/// name (`skylake-avx512`, `x86-64-v3`, `haswell`, ...) or an AArch64 one
/// (`armv8-a`, `neoverse-n1`, `apple-m1`, ...). Fails for a name it does not
/// know, so a typo is not silently tuned for SSE2.
FailureOr<CpuTarget> getCpuTarget(llvm::StringRef cpu);

/// What --cpu takes, for the error that refuses a name getCpuTarget does
/// not know (tgc's checkCpu, tgc-opt's --tgc-pipeline="cpu=...").
inline constexpr llvm::StringLiteral kCpuNamesHint =
    "an x86 -march name such as haswell or znver4, an AArch64 core such as "
    "neoverse-n1, or native";

} // namespace mlir::tgc

#endif // TGC_CODEGEN_TARGET_H
