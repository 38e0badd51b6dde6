//===- tgc-translate.cpp - ONNX import and source emitters ----*- C++ -*-===//
//
// The translations in and out of the tgc dialect, for lit: ONNX files in,
// C/CUDA/Metal source out.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CEmitter.h"
#include "Codegen/GpuEmitter.h"
#include "Frontend/OnnxImport.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::tgc::registerOnnxImportTranslation();
  mlir::tgc::registerEmitCTranslation();
  mlir::tgc::registerEmitGpuTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "tgc translations\n"));
}
