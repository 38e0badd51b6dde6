//===- IndexRunsTest.cpp - tests for TensorBuilder::matchIndexRuns -*- C++ -*-//
//
// Constant gather indices that a view can read: progressions and runs of
// equal values along one, as nearest and linear resizing make them.
//
//===----------------------------------------------------------------------===//

#include "Frontend/TensorBuilder.h"

#include <catch2/catch.hpp>

using namespace mlir::tgc;
using Runs = TensorBuilder::IndexRuns;

namespace {

/// The runs matched in `indices`, which must read every index back.
Runs matched(std::vector<int64_t> indices) {
  std::optional<Runs> runs = TensorBuilder::matchIndexRuns(indices);
  REQUIRE(runs);
  for (size_t j = 0; j < indices.size(); ++j)
    CHECK(runs->at(j) == indices[j]);
  return *runs;
}

} // namespace

TEST_CASE("progressions are runs of one", "[frontend]") {
  Runs up = matched({2, 4, 6, 8});
  CHECK(up.run == 1);
  CHECK(up.step == 2);
  CHECK(up.rowCount(4) == 4);
  Runs down = matched({5, 4, 3});
  CHECK(down.step == -1);
  CHECK(matched({7}).rowCount(1) == 1);
}

TEST_CASE("one repeated index is one run", "[frontend]") {
  Runs same = matched({3, 3, 3});
  CHECK(same.run == 3);
  CHECK(same.rowCount(3) == 1);
}

TEST_CASE("runs may start short and end short", "[frontend]") {
  // Nearest x2: aligned runs.
  Runs aligned = matched({0, 0, 1, 1, 2, 2});
  CHECK(aligned.run == 2);
  CHECK(aligned.phase == 0);
  CHECK(aligned.rowCount(6) == 3);
  // Linear x2 (half_pixel) with one edge repeat: (o + 1) / 2.
  Runs shifted = matched({0, 1, 1, 2, 2, 3});
  CHECK(shifted.run == 2);
  CHECK(shifted.phase == 1);
  CHECK(shifted.rowCount(6) == 4);
  // x3 with the first run two short, the last one short.
  Runs third = matched({4, 5, 5, 5, 6, 6});
  CHECK(third.run == 3);
  CHECK(third.phase == 2);
  CHECK(third.rowCount(6) == 3);
  // Only two runs, the second cut by the end.
  Runs cut = matched({0, 0, 0, 1});
  CHECK(cut.run == 3);
  CHECK(cut.phase == 0);
}

TEST_CASE("indices that no view reads are not matched", "[frontend]") {
  // Edges clamped: a first run longer than the others.
  CHECK_FALSE(TensorBuilder::matchIndexRuns({0, 0, 0, 1, 1, 2, 2}));
  // Runs of different lengths in the middle.
  CHECK_FALSE(TensorBuilder::matchIndexRuns({0, 0, 1, 1, 1, 2, 2, 2, 2}));
  // Runs that are no progression.
  CHECK_FALSE(TensorBuilder::matchIndexRuns({0, 0, 1, 1, 3, 3}));
  CHECK_FALSE(TensorBuilder::matchIndexRuns({0, 1, 3}));
  CHECK_FALSE(TensorBuilder::matchIndexRuns({}));
}
