//===- Weights.h - the weights of a model as one blob ----------*- C++ -*-===//
//
// Every tensor constant a kernel reads, laid out at 64-byte aligned offsets
// in one blob, and the two ways the package ships it: bytes in a C string
// literal (`<name>_weights.c`) or a safetensors file.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_WEIGHTS_H
#define TGC_CODEGEN_WEIGHTS_H

#include "IR/TgcOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tgc {

/// One tensor of the blob.
struct WeightTensor {
  /// The resource key (`fc1.weight`) or `const<N>` for a plain dense
  /// constant; unique within the blob.
  std::string name;
  RankedTensorType type;
  /// Byte offset in the blob, a multiple of WeightsBlob::kAlign.
  int64_t offset = 0;
  int64_t bytes = 0;
};

struct WeightsBlob {
  /// Alignment of every tensor in the blob and of the blob itself: a cache
  /// line, and enough for any vector load a kernel may do.
  static constexpr int64_t kAlign = 64;

  std::vector<WeightTensor> tensors;
  /// The blob, padding zeroed. Element bytes are in the host's order
  /// (little-endian on every target tgc emits for).
  std::vector<char> data;
  /// FNV-1a 64 of `data`.
  uint64_t checksum = 0;
};

/// Builds the blob from the tensor constants `consts`, in order. Constants
/// with the same value share one tensor; `tensorOf` maps each op to the
/// index of its tensor. Fails (with a diagnostic on the op) when a value's
/// bytes are unavailable, e.g. a `dense_resource` whose blob is missing.
FailureOr<WeightsBlob>
buildWeightsBlob(llvm::ArrayRef<ConstOp> consts,
                 llvm::DenseMap<Operation *, unsigned> &tensorOf);

/// FNV-1a, 64-bit: small enough to write again in the emitted C.
uint64_t fnv1a64(llvm::ArrayRef<char> data);

/// Writes `data` as the lines of a C string literal: printable ASCII as is,
/// every other byte as a three-digit octal escape. Binary data this way
/// compiles far faster than a list of numbers.
void writeCStringLiteral(llvm::ArrayRef<char> data, llvm::raw_ostream &os);

/// The start of the safetensors file: the 8-byte little-endian length of
/// the JSON header, then the header (each tensor's dtype, shape and
/// data_offsets; `__metadata__` with the format and the checksum), padded
/// with spaces so that the data that follows starts 64-byte aligned. Gaps
/// between aligned tensors are covered by `__tgc_pad<N>` byte tensors, as
/// readers require the data to be indexed without holes.
std::string getSafetensorsHeader(const WeightsBlob &blob,
                                 llvm::StringRef modelName);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_WEIGHTS_H
