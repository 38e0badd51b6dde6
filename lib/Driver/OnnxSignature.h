//===- OnnxSignature.h - an ONNX graph's inputs and outputs ----*- C++ -*-===//
//
// Reads only the graph's input and output declarations, without checking or
// importing the model: `run` needs them to tell which dimensions its input
// tensors bind before the import can run.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_ONNXSIGNATURE_H
#define TGC_DRIVER_ONNXSIGNATURE_H

#include "Driver/Model.h"

#include <string>

namespace mlir::tgc {

/// Fills `signature` from the ONNX file at `path`; on failure returns false
/// and sets `error` to what is wrong (without the file name).
bool readOnnxSignature(llvm::StringRef path, ModelSignature &signature,
                       std::string &error);

} // namespace mlir::tgc

#endif // TGC_DRIVER_ONNXSIGNATURE_H
