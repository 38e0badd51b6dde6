//===- OnnxLibrary.h - calls into the ONNX library ------------*- C++ -*-===//
//
// The one place where tgc calls the ONNX library's checker and shape
// inference. They report errors by throwing; this boundary turns every
// exception into a message, so that the rest of the frontend (built without
// exceptions, like LLVM) sees plain return values.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_FRONTEND_ONNXLIBRARY_H
#define TGC_FRONTEND_ONNXLIBRARY_H

#include <onnx/onnx_pb.h>
#include <string>

namespace mlir::tgc::onnxlib {

/// Runs `onnx::checker::check_model`. Returns the checker's complaint, or an
/// empty string if the model passed.
std::string checkModel(const onnx::ModelProto &model);

/// Runs `onnx::shape_inference::InferShapes` in strict mode, writing the
/// inferred types into the graph's value_info and outputs. Returns the error
/// message, or an empty string on success.
std::string inferShapes(onnx::ModelProto &model);

} // namespace mlir::tgc::onnxlib

#endif // TGC_FRONTEND_ONNXLIBRARY_H
