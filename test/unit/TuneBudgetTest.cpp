//===- TuneBudgetTest.cpp - tests for Driver/Tune's time budget -*- C++ -*-===//
//
// The model's --budget-s is shared among its kernels by their work, and
// what a kernel's search runs over comes off the kernels after it. A
// kernel's work counts its reductions' loops side by side, not nested.
//
//===----------------------------------------------------------------------===//

#include "Driver/Tune.h"
#include "IR/TgcOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// Rows of 16 summed, plus (`shortcut`) rows of 4 summed into the same
/// output: two reductions one after the other in one kernel, as a
/// convolution with its projection shortcut's fused in.
std::string rowSums(bool shortcut) {
  std::string text =
      "func.func @f(%a: tensor<8x16xf32>, %b: tensor<8x4xf32>) -> "
      "tensor<8xf32> {\n"
      "  %k = tgc.kernel \"r_8_16\" (%a, %b) : (tensor<8x16xf32>, "
      "tensor<8x4xf32>) -> tensor<8xf32> {\n"
      "  ^bb0(%p: !tgc.ptr<f32>, %q: !tgc.ptr<f32>, %o: !tgc.ptr<f32>):\n"
      "    %c16 = tgc.const 16 : index\n"
      "    %c4 = tgc.const 4 : index\n"
      "    %i = tgc.range 8 global id 0\n"
      "    %j = tgc.range 16 reduce id 1\n"
      "    %a0 = tgc.mul %i, %c16 : index\n"
      "    %a1 = tgc.add %a0, %j : index\n"
      "    %pa = tgc.index %p[%a1] : !tgc.ptr<f32>\n"
      "    %x = tgc.load %pa : !tgc.ptr<f32> -> f32\n"
      "    tgc.end %j\n"
      "    %s = tgc.reduce add %x over %j : f32\n";
  if (shortcut)
    text += "    %m = tgc.range 4 reduce id 2\n"
            "    %b0 = tgc.mul %i, %c4 : index\n"
            "    %b1 = tgc.add %b0, %m : index\n"
            "    %pb = tgc.index %q[%b1] : !tgc.ptr<f32>\n"
            "    %y = tgc.load %pb : !tgc.ptr<f32> -> f32\n"
            "    tgc.end %m\n"
            "    %t = tgc.reduce add %y over %m : f32\n"
            "    %u = tgc.add %s, %t : f32\n";
  text += std::string("    %r = tgc.index %o[%i] : !tgc.ptr<f32>\n") +
          "    tgc.store %r, " + (shortcut ? "%u" : "%s") +
          " : !tgc.ptr<f32>, f32\n"
          "    tgc.end %i\n"
          "    tgc.sink\n"
          "  }\n"
          "  return %k : tensor<8xf32>\n}\n";
  return text;
}

double workOf(const std::string &text) {
  DialectRegistry registry;
  registry.insert<TgcDialect, func::FuncDialect>();
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  REQUIRE(module);
  KernelOp kernel;
  module->walk([&](KernelOp k) { kernel = k; });
  REQUIRE(kernel);
  return kernelWork(kernel);
}

} // namespace

TEST_CASE("a kernel's work sums its reductions' loops", "[tune]") {
  // 8 outputs, each 16 steps.
  CHECK(workOf(rowSums(false)) == Approx(8 * 16));
  // And 4 more steps each: 8 x (16 + 4), not 8 x 16 x 4.
  CHECK(workOf(rowSums(true)) == Approx(8 * (16 + 4)));
}

TEST_CASE("a kernel's budget is its work's part of what is left", "[tune]") {
  // Nothing spent yet: the share of the whole budget.
  CHECK(kernelBudgetSeconds(360, 0, 30, 100) == Approx(108));
  // The last kernel gets all that is left.
  CHECK(kernelBudgetSeconds(360, 300, 5, 5) == Approx(60));
  // Kernels that ran over leave less to the ones after them.
  CHECK(kernelBudgetSeconds(360, 200, 50, 100) == Approx(80));
  // The floors of the 10 kernels after it are set aside first.
  CHECK(kernelBudgetSeconds(360, 0, 50, 100, 10) == Approx(170));
  CHECK(kernelBudgetSeconds(360, 0, 100, 100, 30) == Approx(300));
}

TEST_CASE("a kernel's budget has a floor for its starting points", "[tune]") {
  // The budget is spent: each kernel still times its starting points.
  CHECK(kernelBudgetSeconds(360, 400, 50, 100) == Approx(2));
  CHECK(kernelBudgetSeconds(360, 359.9, 1, 1e6) == Approx(2));
  // A budget below the floor is the floor.
  CHECK(kernelBudgetSeconds(0.001, 0, 1, 3) == Approx(0.001));
}
