//===- CEmitterLanguage.h - what differs between C dialects ----*- C++ -*-===//
//
// The few spellings that differ between plain C, CUDA and Metal, gathered in
// one struct so that the kernel renderer (CEmitterKernel.cpp) serves all of
// them: tinygrad's CStyleLanguage, whose CUDA and Metal subclasses override
// only qualifiers, thread indices, barriers and vector types.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_CEMITTERLANGUAGE_H
#define TGC_CODEGEN_CEMITTERLANGUAGE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include <string>

namespace mlir::tgc {

/// The matrix units tgc.wmma runs on (CEmitterMatrix.h).
enum class MatrixUnit {
  None,
  /// CUDA's warp matrix functions, tf32 m16n16k8.
  CudaWmma,
  /// Metal's simdgroup_float8x8.
  MetalSimdgroup,
};

struct CStyleLanguage {
  /// Written before a kernel's name ("static void" in C, where kernels are
  /// private to the model's source; `extern "C" __global__ void` in CUDA).
  std::string kernelPrefix = "static void";
  /// Qualifier of every buffer parameter ("__restrict__" in CUDA).
  std::string restrictQualifier = "restrict";
  /// The C type of `index` values and loop variables.
  std::string indexType = "ptrdiff_t";
  /// Suffix of the single-precision math functions (`exp2f`); Metal's are
  /// overloaded and have none.
  std::string floatFunctionSuffix = "f";
  /// Declaration prefix of a workgroup-shared buffer (`__shared__`);
  /// empty where the target has no such memory.
  std::string localPrefix;
  /// The statement of a workgroup barrier; empty where there is none.
  std::string barrier;
  /// tgc.special names (`gidx0`, `lidx1`) to the target's expression
  /// (`blockIdx.x`); empty on a CPU, where a kernel is one thread's loops.
  llvm::StringMap<std::string> specialIndices;

  /// Written before the type of every buffer parameter (Metal's `device`).
  std::string bufferPrefix;
  /// Whether each buffer parameter carries its binding, ` [[buffer(i)]]`
  /// (Metal, where the host binds buffers by index).
  bool bufferIndexAttributes = false;
  /// Parameters after the buffers (Metal's thread positions in the grid).
  llvm::SmallVector<std::string, 2> extraParams;

  /// Whether kernels split across threads (a `thread` range) run as tasks
  /// of the runtime's parallel-for hook; GPU targets have their own grid.
  bool threadPool = true;

  /// Whether vectors of f32 and f64 are one C value each (the `tgc_f32x16`
  /// types and macros of CEmitterHelpers: GCC/clang vector extensions, an
  /// array in a struct elsewhere) rather than one scalar per lane.
  bool nativeVectors = true;

  /// What renders the tensor-core ops; none on a CPU.
  MatrixUnit matrixUnit = MatrixUnit::None;
  /// Qualifier added to workgroup buffers the matrix units read or write
  /// (CUDA's wmma loads and stores want 256-bit aligned addresses).
  std::string matrixTileAlign;

  /// C99 for a CPU, with native vectors.
  static CStyleLanguage c() { return CStyleLanguage(); }
};

} // namespace mlir::tgc

#endif // TGC_CODEGEN_CEMITTERLANGUAGE_H
