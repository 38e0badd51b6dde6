//===- OnnxTypes.h - ONNX element types as tgc types -----------*- C++ -*-===//
//
// The mapping of ONNX `TensorProto::DataType` numbers to tgc element types,
// for the importer and for decompositions that read a type from an
// attribute (Cast's `to`). Kept free of ONNX headers.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_FRONTEND_ONNXTYPES_H
#define TGC_FRONTEND_ONNXTYPES_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>

namespace mlir::tgc {

/// The tgc element type of an ONNX data type number, or null for the types
/// tgc does not support (STRING, complex, 8-bit floats, ...).
Type convertOnnxElementType(MLIRContext *context, int32_t dataType);

/// The ONNX name of a data type ("FLOAT", "STRING", ...), for messages.
llvm::StringRef onnxDataTypeName(int32_t dataType);

} // namespace mlir::tgc

#endif // TGC_FRONTEND_ONNXTYPES_H
