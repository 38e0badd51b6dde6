//===- tgc-opt.cpp - run tgc passes on IR ---------------------*- C++ -*-===//
//
// Runs any tgc pass, or the whole `--tgc-pipeline`, on textual IR; lit's
// driver. Registers only what tgc parses and runs.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Passes.h"
#include "Codegen/Pipeline.h"
#include "Frontend/Passes.h"
#include "IR/TgcOps.h"
#include "Schedule/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::tgc::registerTgcFrontendPasses();
  mlir::tgc::registerTgcSchedulePasses();
  mlir::tgc::registerTgcCodegenPasses();
  mlir::tgc::registerTgcPipeline();
  mlir::DialectRegistry registry;
  registry.insert<mlir::tgc::TgcDialect, mlir::func::FuncDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tgc optimizer\n", registry));
}
