//===- MetalEmitter.cpp - the Metal spelling of a kernel -------*- C++ -*-===//
//
// The Metal Shading Language is C++14 with address spaces (tinygrad's
// MetalRenderer): a kernel is `kernel void`, preceded by the largest
// threadgroup it runs with; buffers are `device` pointers bound by index;
// the thread's position arrives as parameters (gid: the threadgroup in the
// grid, lid: the thread in its threadgroup); workgroup memory is
// `threadgroup` and the barrier threadgroup_barrier. Math functions are
// overloaded (no `f` suffix). There are no 64-bit floats, no memcpy (bit
// copies are as_type) and `half` is a type name.
//
//===----------------------------------------------------------------------===//

#include "Codegen/GpuEmitter.h"
#include "Codegen/GpuLanguages.h"
#include "Codegen/GpuLaunch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tgc;

CStyleLanguage mlir::tgc::getMetalLanguage(KernelOp kernel) {
  CStyleLanguage language;
  LaunchDims dims = getLaunchDims(kernel);
  language.kernelPrefix = "[[max_total_threads_per_threadgroup(" +
                          std::to_string(dims.blockThreads()) +
                          ")]] kernel void";
  language.restrictQualifier = "";
  language.bufferPrefix = "device ";
  language.bufferIndexAttributes = true;
  language.extraParams = {"uint3 gid [[threadgroup_position_in_grid]]",
                          "uint3 lid [[thread_position_in_threadgroup]]"};
  language.indexType = getIndexType(kernel, "int", "long");
  language.floatFunctionSuffix = "";
  language.localPrefix = "threadgroup";
  language.barrier = "threadgroup_barrier(mem_flags::mem_threadgroup);";
  static const char *const axes[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    language.specialIndices["gidx" + std::to_string(i)] =
        std::string("gid.") + axes[i];
    language.specialIndices["lidx" + std::to_string(i)] =
        std::string("lid.") + axes[i];
  }
  language.nativeVectors = false;
  language.matrixUnit = MatrixUnit::MetalSimdgroup;
  return language;
}

LogicalResult mlir::tgc::checkMetalTypes(KernelOp kernel) {
  auto isF64 = [](Type type) {
    if (auto ptr = dyn_cast<PtrType>(type))
      type = ptr.getElementType();
    return getElementTypeOrSelf(type).isF64();
  };
  for (BlockArgument arg : kernel.getBlock().getArguments())
    if (isF64(arg.getType()))
      return kernel.emitOpError("has a buffer of 64-bit floats, which Metal "
                                "does not have");
  WalkResult result = kernel.walk([&](Operation *op) {
    for (Value value : op->getResults())
      if (isF64(value.getType())) {
        op->emitOpError("computes with 64-bit floats, which Metal does not "
                        "have");
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// `text` with every whole-word `word` replaced by `with`.
static std::string replaceWord(StringRef text, StringRef word, StringRef with) {
  auto isWordChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  std::string result;
  size_t at = 0;
  while (at < text.size()) {
    size_t found = text.find(word, at);
    if (found == StringRef::npos) {
      result += text.drop_front(at).str();
      break;
    }
    size_t end = found + word.size();
    bool whole = (found == 0 || !isWordChar(text[found - 1])) &&
                 (end == text.size() || !isWordChar(text[end]));
    result += text.slice(at, found).str();
    result += whole ? with.str() : word.str();
    at = end;
  }
  return result;
}

FailureOr<std::string> mlir::tgc::getMetalHelpers(StringRef cHelpers) {
  // The helpers only copy bits between a float and a uint32_t.
  std::string text = replaceWord(cHelpers, "half", "h16");
  text = replaceWord(text, "memcpy(&value, &bits, sizeof value);",
                     "value = as_type<float>(bits);");
  text = replaceWord(text, "memcpy(&bits, &value, sizeof bits);",
                     "bits = as_type<uint32_t>(value);");
  if (StringRef(text).contains("memcpy") || StringRef(text).contains("double"))
    return failure();
  return text;
}
