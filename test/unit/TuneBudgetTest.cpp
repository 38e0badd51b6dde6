//===- TuneBudgetTest.cpp - tests for Driver/Tune's time budget -*- C++ -*-===//
//
// The model's --budget-s is shared among its kernels by their work, and
// what a kernel's search runs over comes off the kernels after it.
//
//===----------------------------------------------------------------------===//

#include "Driver/Tune.h"

#include <catch2/catch.hpp>

using namespace mlir::tgc;

TEST_CASE("a kernel's budget is its work's part of what is left", "[tune]") {
  // Nothing spent yet: the share of the whole budget.
  CHECK(kernelBudgetSeconds(360, 0, 30, 100) == Approx(108));
  // The last kernel gets all that is left.
  CHECK(kernelBudgetSeconds(360, 300, 5, 5) == Approx(60));
  // Kernels that ran over leave less to the ones after them.
  CHECK(kernelBudgetSeconds(360, 200, 50, 100) == Approx(80));
}

TEST_CASE("a kernel's budget has a floor for its starting points", "[tune]") {
  // The budget is spent: each kernel still times its starting points.
  CHECK(kernelBudgetSeconds(360, 400, 50, 100) == Approx(2));
  CHECK(kernelBudgetSeconds(360, 359.9, 1, 1e6) == Approx(2));
  // A budget below the floor is the floor.
  CHECK(kernelBudgetSeconds(0.001, 0, 1, 3) == Approx(0.001));
}
