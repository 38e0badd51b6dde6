//===- GpuEmitterTranslation.cpp - tgc-translate --emit-cuda/metal -*- C++ -*-=//
//
// Registers the kernel renderers as translations, so that lit can check
// the CUDA and Metal they write (and compile the CUDA with nvcc).
//
//===----------------------------------------------------------------------===//

#include "Codegen/GpuEmitter.h"
#include "IR/TgcOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;
using namespace mlir::tgc;

void mlir::tgc::registerEmitGpuTranslations() {
  static llvm::cl::opt<std::string> prefix(
      "emit-gpu-name",
      llvm::cl::desc("Prefix of the symbols --emit-cuda/--emit-metal write"),
      llvm::cl::init("net"));
  auto dialects = [](DialectRegistry &registry) {
    registry.insert<TgcDialect, func::FuncDialect>();
  };
  auto emit = [](GpuTarget target) {
    return [target](ModuleOp module, raw_ostream &os) {
      FailureOr<ModelLayout> layout = analyzeModel(module, prefix);
      if (failed(layout))
        return failure();
      return emitGpuKernels(*layout, target, os);
    };
  };
  TranslateFromMLIRRegistration cuda(
      "emit-cuda", "CUDA C++ kernels of a tgc module mapped by tgc-gpu-dims",
      emit(GpuTarget::Cuda), dialects);
  TranslateFromMLIRRegistration metal(
      "emit-metal",
      "Metal Shading Language kernels of a tgc module mapped by tgc-gpu-dims",
      emit(GpuTarget::Metal), dialects);
}
