//===- WeightsTest.cpp - tests for Codegen/Weights --------------*- C++ -*-===//
//
// buildWeightsBlob: one tensor per distinct value. Equal values share a
// tensor whether they are one attribute or not (each weight packed for a
// kernel is a resource of its own, and an unrolled recurrent net packs
// the same weight once per step).
//
//===----------------------------------------------------------------------===//

#include "Codegen/Weights.h"
#include "IR/TgcOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// w.a and w.b hold [1, 2], w.c [1, 3], %d is [1, 2] as a dense attribute
/// and %e [1, 2] of another type (i32 bits, not floats).
const char *kConstants = R"mlir(
func.func @main() {
  %a = tgc.const dense_resource<w.a> : tensor<2xf32>
  %b = tgc.const dense_resource<w.b> : tensor<2xf32>
  %c = tgc.const dense_resource<w.c> : tensor<2xf32>
  %d = tgc.const dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tgc.const dense<[1065353216, 1073741824]> : tensor<2xi32>
  %a2 = tgc.const dense_resource<w.a> : tensor<2xf32>
  return
}
{-#
  dialect_resources: {
    builtin: {
      w.a: "0x040000000000803F00000040",
      w.b: "0x040000000000803F00000040",
      w.c: "0x040000000000803F00004040"
    }
  }
#-}
)mlir";

} // namespace

TEST_CASE("equal weights share one tensor in the blob", "[weights]") {
  MLIRContext context;
  context.loadDialect<func::FuncDialect, TgcDialect>();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kConstants, &context);
  REQUIRE(module);
  SmallVector<ConstOp> consts;
  module->walk([&](ConstOp op) { consts.push_back(op); });
  REQUIRE(consts.size() == 6);

  DenseMap<Operation *, unsigned> tensorOf;
  FailureOr<WeightsBlob> blob = buildWeightsBlob(consts, tensorOf);
  REQUIRE(succeeded(blob));
  // [1, 2] as f32 (a, b, d and a again), [1, 3] as f32, [1, 2]'s bits as
  // i32: three tensors, each 8 bytes at a 64-byte boundary.
  REQUIRE(blob->tensors.size() == 3);
  CHECK(tensorOf[consts[0]] == 0);
  CHECK(tensorOf[consts[1]] == 0);
  CHECK(tensorOf[consts[2]] == 1);
  CHECK(tensorOf[consts[3]] == 0);
  CHECK(tensorOf[consts[4]] == 2);
  CHECK(tensorOf[consts[5]] == 0);
  CHECK(blob->tensors[0].name == "w.a");
  CHECK(blob->tensors[1].name == "w.c");
  CHECK(blob->tensors[1].offset == 64);
  CHECK(blob->tensors[2].offset == 128);
  CHECK(blob->data.size() == 136);
}
