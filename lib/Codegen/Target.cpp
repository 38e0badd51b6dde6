//===- Target.cpp - what the kernel optimizer knows of a CPU ---*- C++ -*-===//
//
// LLVM's target parser knows the features of every x86 -march name and of
// the host; the vector width follows from them. AArch64 has 128-bit NEON
// on every core tgc targets (SVE widths are not a compile-time fact).
//
//===----------------------------------------------------------------------===//

#include "Codegen/Target.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/X86TargetParser.h"

using namespace mlir;
using namespace mlir::tgc;

static CpuTarget fromX86Features(llvm::StringRef cpu,
                                 const llvm::StringMap<bool> &features) {
  auto has = [&](llvm::StringRef name) { return features.lookup(name); };
  CpuTarget target;
  target.cpu = cpu.str();
  if (has("avx512f")) {
    target.vectorBytes = 64;
    target.vectorRegisters = 32;
  } else if (has("avx")) {
    target.vectorBytes = 32;
  }
  target.fma = has("fma");
  return target;
}

static bool isAArch64Name(llvm::StringRef cpu) {
  return cpu.starts_with("armv8") || cpu.starts_with("armv9") ||
         cpu.starts_with("cortex-a") || cpu.starts_with("neoverse") ||
         cpu.starts_with("apple-") || cpu == "aarch64";
}

FailureOr<CpuTarget> mlir::tgc::getCpuTarget(llvm::StringRef cpu) {
  if (cpu.empty() || cpu == "native") {
    llvm::StringRef host = llvm::sys::getHostCPUName();
#if defined(__aarch64__) || defined(_M_ARM64)
    CpuTarget target;
    target.cpu = host.str();
    target.vectorRegisters = 32;
    target.fma = true;
    return target;
#else
    llvm::StringMap<bool> features;
    for (const auto &entry : llvm::sys::getHostCPUFeatures())
      features[entry.getKey()] = entry.getValue();
    return fromX86Features(host, features);
#endif
  }
  if (isAArch64Name(cpu)) {
    CpuTarget target;
    target.cpu = cpu.str();
    target.vectorRegisters = 32;
    target.fma = true;
    return target;
  }
  if (llvm::X86::parseArchX86(cpu) == llvm::X86::CK_None)
    return failure();
  llvm::SmallVector<llvm::StringRef> names;
  llvm::X86::getFeaturesForCPU(cpu, names);
  llvm::StringMap<bool> features;
  for (llvm::StringRef name : names)
    features[name] = true;
  return fromX86Features(cpu, features);
}
