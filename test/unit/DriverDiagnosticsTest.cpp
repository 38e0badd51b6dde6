//===- DriverDiagnosticsTest.cpp - tests for Driver/Diagnostics -*- C++ -*-===//
//
// The one-line error format: file, node and op type taken from the
// location, each kind of location, and messages that name their node.
//
//===----------------------------------------------------------------------===//

#include "Driver/Diagnostics.h"

#include "IR/TgcOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace mlir;

namespace {

struct Fixture {
  MLIRContext context;
  std::string printed;
  llvm::raw_string_ostream os{printed};
  tgc::DiagnosticPrinter printer{context, os, "fallback.onnx"};

  Fixture() { context.loadDialect<tgc::TgcDialect, func::FuncDialect>(); }

  Location nodeLoc(llvm::StringRef node, llvm::StringRef file) {
    return NameLoc::get(StringAttr::get(&context, node),
                        FileLineColLoc::get(&context, file, 0, 0));
  }
};

} // namespace

TEST_CASE("errors name the file and the node", "[diagnostics]") {
  Fixture f;
  emitError(f.nodeLoc("conv1", "m.onnx")) << "kernel too large";
  CHECK(f.printed == "tgc: error: m.onnx: node 'conv1': kernel too large\n");
  CHECK(f.printer.errorCount() == 1);
}

TEST_CASE("the op type of a node comes from its tgc.onnx_node",
          "[diagnostics]") {
  Fixture f;
  const char *ir = R"mlir(
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %y = tgc.onnx_node "Relu"(%x) {opset = 17 : i64}
          : (tensor<4xf32>) -> tensor<4xf32> loc(#relu)
      return %y : tensor<4xf32>
    }
    #relu = loc("relu_1"("m.onnx":0:0))
  )mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(ir, &f.context);
  REQUIRE(module);
  f.printer.recordNodeTypes(*module);
  emitError(f.nodeLoc("relu_1", "m.onnx")) << "unsupported here";
  emitError(f.nodeLoc("other", "m.onnx")) << "no type known";
  CHECK(f.printed == "tgc: error: m.onnx: node 'relu_1' (Relu): unsupported "
                     "here\n"
                     "tgc: error: m.onnx: node 'other': no type known\n");
}

TEST_CASE("locations without a node or a file", "[diagnostics]") {
  Fixture f;
  emitError(FileLineColLoc::get(&f.context, "x.npy", 0, 0)) << "bad shape";
  emitError(FileLineColLoc::get(&f.context, "d.mlir", 3, 7)) << "parse";
  emitError(UnknownLoc::get(&f.context)) << "somewhere";
  emitWarning(FileLineColLoc::get(&f.context, "m.onnx", 0, 0)) << "careful";
  CHECK(f.printed == "tgc: error: x.npy: bad shape\n"
                     "tgc: error: d.mlir:3:7: parse\n"
                     "tgc: error: fallback.onnx: somewhere\n"
                     "tgc: warning: m.onnx: careful\n");
  CHECK(f.printer.errorCount() == 3);
}

TEST_CASE("fused and call-site locations use their first node and file",
          "[diagnostics]") {
  Fixture f;
  Location fused = FusedLoc::get(
      &f.context, {f.nodeLoc("a", "m.onnx"), f.nodeLoc("b", "m.onnx")});
  emitError(fused) << "in a fused kernel";
  Location call = CallSiteLoc::get(f.nodeLoc("callee", "m.onnx"),
                                   FileLineColLoc::get(&f.context, "c", 1, 1));
  emitError(call) << "called";
  CHECK(f.printed == "tgc: error: m.onnx: node 'a': in a fused kernel\n"
                     "tgc: error: m.onnx: node 'callee': called\n");
}

TEST_CASE("a message that names its node is not prefixed twice",
          "[diagnostics]") {
  Fixture f;
  emitError(f.nodeLoc("n1", "m.onnx")) << "node 'n1' (Det): not supported";
  CHECK(f.printed == "tgc: error: m.onnx: node 'n1' (Det): not supported\n");
}

TEST_CASE("notes follow their error", "[diagnostics]") {
  Fixture f;
  emitError(f.nodeLoc("n", "m.onnx")).attachNote(f.nodeLoc("p", "m.onnx"))
      << "produced here";
  CHECK(f.printed == "tgc: error: m.onnx: node 'n': \n"
                     "tgc: note: m.onnx: node 'p': produced here\n");
}
