//===- OnnxLibrary.cpp - calls into the ONNX library ----------*- C++ -*-===//
//
// Compiled with exceptions and RTTI (unlike the rest of tgc): the ONNX
// library throws, and nothing may escape from here.
//
//===----------------------------------------------------------------------===//

#include "Frontend/OnnxLibrary.h"

#include <exception>
#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

namespace mlir::tgc::onnxlib {

std::string checkModel(const onnx::ModelProto &model) {
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception &e) {
    return e.what();
  } catch (...) {
    return "unknown error in the ONNX checker";
  }
  return {};
}

std::string inferShapes(onnx::ModelProto &model) {
  try {
    // Strict mode: a node whose inference fails is an error, not a silently
    // unknown shape (tgc needs every shape). Types are not checked against
    // the schemas: old exporters wrote e.g. int64 Constants at opsets whose
    // Constant allowed only floats, and the checker has seen the model.
    onnx::ShapeInferenceOptions options(/*check_type_val=*/false,
                                        /*strict_mode_val=*/1,
                                        /*data_prop_val=*/false);
    onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception &e) {
    return e.what();
  } catch (...) {
    return "unknown error in ONNX shape inference";
  }
  return {};
}

} // namespace mlir::tgc::onnxlib
