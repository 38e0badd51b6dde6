//===- CudaEmitter.cpp - the CUDA spelling of a kernel ---------*- C++ -*-===//
//
// CUDA C++ is C with a handful of differences for tgc's kernels (tinygrad's
// CUDARenderer): a kernel is `extern "C" __global__` (C linkage, so the host
// glue and a debugger see the name tgc chose) with `__launch_bounds__` of
// its block size, buffers are `__restrict__`, thread and block indices are
// the built-in variables, workgroup memory is `__shared__`. Helpers become
// `__device__` functions; memcpy is available in device code, so their
// bodies are the C ones.
//
//===----------------------------------------------------------------------===//

#include "Codegen/GpuEmitter.h"
#include "Codegen/GpuLanguages.h"
#include "Codegen/GpuLaunch.h"
#include "Codegen/Symbolic.h"
#include <climits>

using namespace mlir;
using namespace mlir::tgc;

std::string mlir::tgc::getIndexType(KernelOp kernel, StringRef narrow,
                                    StringRef wide) {
  bool fits = true;
  kernel.walk([&](Operation *op) {
    for (Value result : op->getResults()) {
      if (!fits || !result.getType().isIndex())
        continue;
      std::optional<IndexBounds> bounds = boundsOf(result);
      fits = bounds && bounds->min >= INT_MIN && bounds->max <= INT_MAX;
    }
  });
  return (fits ? narrow : wide).str();
}

CStyleLanguage mlir::tgc::getCudaLanguage(KernelOp kernel) {
  CStyleLanguage language;
  LaunchDims dims = getLaunchDims(kernel);
  language.kernelPrefix = "extern \"C\" __global__ void __launch_bounds__(" +
                          std::to_string(dims.blockThreads()) + ")";
  language.restrictQualifier = "__restrict__";
  language.indexType = getIndexType(kernel, "int", "long long");
  language.localPrefix = "__shared__";
  language.barrier = "__syncthreads();";
  static const char *const axes[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    language.specialIndices["gidx" + std::to_string(i)] =
        std::string("blockIdx.") + axes[i];
    language.specialIndices["lidx" + std::to_string(i)] =
        std::string("threadIdx.") + axes[i];
  }
  // Lanes are scalars: a GPU thread is the SIMD lane already.
  language.nativeVectors = false;
  language.matrixUnit = MatrixUnit::CudaWmma;
  language.matrixTileAlign = "__align__(32)";
  return language;
}

std::string mlir::tgc::getCudaHelpers(StringRef cHelpers) {
  // Every helper definition starts a line with "static ".
  std::string result;
  StringRef rest = cHelpers;
  while (!rest.empty()) {
    auto [line, next] = rest.split('\n');
    if (line.starts_with("static "))
      result += "static __device__ " + line.drop_front(7).str();
    else
      result += line.str();
    result += "\n";
    rest = next;
  }
  return result;
}
