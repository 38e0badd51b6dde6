//===- CEmitterTranslation.cpp - tgc-translate --emit-c --------*- C++ -*-===//
//
// Registers the C emitter as a translation, so that lit can check it with
// `tgc-translate --emit-c %s | FileCheck %s` and compile what it writes.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CEmitter.h"
#include "IR/TgcOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;
using namespace mlir::tgc;

void mlir::tgc::registerEmitCTranslation() {
  // A static local rather than a global: the option exists only in the
  // tool that registers the translation, the way MLIR's own translations
  // declare theirs.
  static llvm::cl::opt<std::string> prefix(
      "emit-c-name", llvm::cl::desc("Prefix of the symbols --emit-c writes"),
      llvm::cl::init("net"));
  TranslateFromMLIRRegistration registration(
      "emit-c", "C99 source of a linearized tgc module (self-contained)",
      [](ModuleOp module, raw_ostream &os) {
        CEmitterOptions options;
        options.name = prefix;
        return emitC(module, os, options);
      },
      [](DialectRegistry &registry) {
        registry.insert<TgcDialect, func::FuncDialect>();
      });
}
