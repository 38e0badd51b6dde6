//===- OnnxTensor.h - ONNX tensors as MLIR attributes ----------*- C++ -*-===//
//
// Turns TensorProtos (initializers, Constant values, tensor attributes) into
// elements attributes, reading raw, typed and external data.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_FRONTEND_ONNXTENSOR_H
#define TGC_FRONTEND_ONNXTENSOR_H

#include "Frontend/OnnxTypes.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringRef.h"
#include <onnx/onnx_pb.h>
#include <string>

namespace mlir::tgc {

/// Turns TensorProtos into constants. External data is read from files
/// relative to `modelDir`, which must not be left.
class TensorConverter {
public:
  TensorConverter(MLIRContext *context, llvm::StringRef modelDir)
      : context(context), modelDir(modelDir.str()) {}

  /// Floating-point tensors with more elements than this become resource
  /// blobs; smaller ones and integer tensors stay plain dense attributes, so
  /// that shape arithmetic can constant-fold.
  static constexpr int64_t kMaxInlineFloatElements = 64;

  /// Converts `tensor`. With `allowResource`, large floating-point data
  /// becomes a `dense_resource` blob named after the tensor; otherwise the
  /// result is always a DenseElementsAttr. Errors are emitted at `loc` and
  /// name the tensor.
  FailureOr<ElementsAttr> convert(const onnx::TensorProto &tensor, Location loc,
                                  bool allowResource);

  /// The attribute for `bytes` in MLIR's raw layout (one byte per bool),
  /// a resource blob named after `name` where convert() would make one.
  FailureOr<ElementsAttr> fromBytes(RankedTensorType type, llvm::StringRef name,
                                    ArrayRef<char> bytes, Location loc,
                                    bool allowResource);

  /// The real path of the external data file of `tensor`, after checking
  /// that it lies inside the model's folder.
  FailureOr<std::string> resolveExternalPath(const onnx::TensorProto &tensor,
                                             Location loc);

private:
  /// The tensor's bytes in MLIR's raw layout (little-endian, one byte per
  /// bool), checked against the element count of `type`: raw data in place,
  /// anything else copied into `storage`.
  LogicalResult readBytes(const onnx::TensorProto &tensor,
                          RankedTensorType type, Location loc,
                          std::vector<char> &storage, ArrayRef<char> &bytes);
  LogicalResult readExternal(const onnx::TensorProto &tensor, Location loc,
                             std::vector<char> &bytes);

  MLIRContext *context;
  std::string modelDir;
};

} // namespace mlir::tgc

#endif // TGC_FRONTEND_ONNXTENSOR_H
