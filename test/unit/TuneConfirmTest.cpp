//===- TuneConfirmTest.cpp - tests for Driver/TuneConfirm ------*- C++ -*-===//
//
// The check inside the model sums each database entry's kernels over the
// places it applies, in both builds, and keeps a search's choice only when
// it is clearly faster there.
//
//===----------------------------------------------------------------------===//

#include "Driver/TuneConfirm.h"

#include <catch2/catch.hpp>

using namespace mlir::tgc;

namespace {

KernelRate rate(const char *function, double medianMs) {
  KernelRate rate;
  rate.function = function;
  rate.time.medianMs = medianMs;
  return rate;
}

} // namespace

TEST_CASE("an entry's model time sums the kernels it applies to", "[tune]") {
  llvm::StringMap<std::string> keyOfKernel;
  keyOfKernel["r_8_8_3_3"] = "conv";
  keyOfKernel["r_8_8_3_3n1"] = "conv"; // the same shape again
  keyOfKernel["E_64"] = "relu";
  std::vector<KernelRate> heuristic = {
      rate("net_r_8_8_3_3", 1.0), rate("net_E_64", 0.25),
      rate("net_r_8_8_3_3n1", 2.0), rate("net_E_65", 9.0)};
  std::vector<KernelRate> tuned = {
      rate("net_r_8_8_3_3", 0.5), rate("net_E_64", 0.5),
      rate("net_r_8_8_3_3n1", 1.5), rate("net_E_65", 9.0)};
  auto times = sumModelTimesByKey(keyOfKernel, "net", heuristic, tuned);
  REQUIRE(times.size() == 2); // E_65 has no entry
  CHECK(times["conv"].heuristicMs == 3.0);
  CHECK(times["conv"].tunedMs == 2.0);
  CHECK(times["relu"].heuristicMs == 0.25);
  CHECK(times["relu"].tunedMs == 0.5);

  // Another package prefix matches nothing.
  CHECK(sumModelTimesByKey(keyOfKernel, "model2", heuristic, tuned).empty());
}

TEST_CASE("a search's choice stays only when clearly faster in the model",
          "[tune]") {
  CHECK(keepsSearchChoice({1.0, 0.9}));
  CHECK(keepsSearchChoice({1.0, 0.97}));
  CHECK_FALSE(keepsSearchChoice({1.0, 0.99})); // within the noise
  CHECK_FALSE(keepsSearchChoice({1.0, 1.0}));
  CHECK_FALSE(keepsSearchChoice({1.0, 1.4}));
  CHECK_FALSE(keepsSearchChoice({1.0, 0.0})); // not measured
}

TEST_CASE("at the other thread count a choice goes only when clearly slower",
          "[tune]") {
  CHECK_FALSE(slowsSearchChoice({1.0, 0.9}));
  CHECK_FALSE(slowsSearchChoice({1.0, 1.0}));
  CHECK_FALSE(slowsSearchChoice({1.0, 1.01})); // within the noise
  CHECK(slowsSearchChoice({1.0, 1.05}));
  CHECK(slowsSearchChoice({1.0, 0.0})); // not measured
}

TEST_CASE("a choice is read against the kernels both builds share", "[tune]") {
  // Six shared kernels, the tuned build 10% slower on all but one (a
  // neighbour in its turns), and a changed one.
  std::map<std::string, ModelTimes> times{
      {"a", {1.0, 1.1}},      {"b", {2.0, 2.2}},   {"c", {0.5, 0.55}},
      {"d", {4.0, 4.4}},      {"e", {1.0, 1.155}}, {"f", {3.0, 3.3}},
      {"changed", {1.0, 0.9}}};
  auto isChanged = [](llvm::StringRef key) { return key == "changed"; };
  BuildNoise noise = sharedKernelNoise(times, isChanged);
  CHECK(noise.shift == Catch::Detail::Approx(1.1));
  // Five of six agree exactly, so the 80th percentile is the floor.
  CHECK(noise.margin == Catch::Detail::Approx(kModelTimingMargin));
  // 0.9 ms against 1.0 is 18% faster than the shared kernels ran.
  CHECK(keepsSearchChoice(times["changed"], noise));
  // Against the raw times, 1.05 would look 5% slower; it is 4.5% faster.
  CHECK(keepsSearchChoice({1.0, 1.05}, noise));
  CHECK_FALSE(slowsSearchChoice({1.0, 1.12}, noise));
  CHECK(slowsSearchChoice({1.0, 1.2}, noise));

  // Shared kernels spread wide: a choice must beat their spread.
  std::map<std::string, ModelTimes> noisy{{"a", {1.0, 1.0}},
                                          {"b", {1.0, 1.1}},
                                          {"c", {1.0, 0.9}},
                                          {"d", {1.0, 1.06}},
                                          {"e", {1.0, 0.94}}};
  BuildNoise wide = sharedKernelNoise(noisy, isChanged);
  CHECK(wide.shift == Catch::Detail::Approx(1.0));
  CHECK(wide.margin > 0.06);
  CHECK(wide.margin < 0.12);
  CHECK_FALSE(keepsSearchChoice({1.0, 0.95}, wide));
  CHECK(keepsSearchChoice({1.0, 0.85}, wide));
  // And never more than 15%: past that the timing says nothing.
  std::map<std::string, ModelTimes> wild{{"a", {1.0, 2.0}},
                                         {"b", {1.0, 0.5}},
                                         {"c", {1.0, 1.0}},
                                         {"d", {1.0, 3.0}},
                                         {"e", {1.0, 0.3}}};
  CHECK(sharedKernelNoise(wild, isChanged).margin ==
        Catch::Detail::Approx(0.15));

  // Fewer than five shared: the quiet host's margin, no shift.
  times.erase("a");
  times.erase("b");
  BuildNoise few = sharedKernelNoise(times, isChanged);
  CHECK(few.shift == 1.0);
  CHECK(few.margin == kModelTimingMargin);
}

TEST_CASE("choices are checked at the search's thread count and the other",
          "[tune]") {
  CHECK(confirmThreadCounts(1, 2) == llvm::SmallVector<unsigned>{1, 2});
  CHECK(confirmThreadCounts(1, 8) == llvm::SmallVector<unsigned>{1, 8});
  CHECK(confirmThreadCounts(2, 2) == llvm::SmallVector<unsigned>{2, 1});
  CHECK(confirmThreadCounts(4, 2) == llvm::SmallVector<unsigned>{4, 1});
  CHECK(confirmThreadCounts(1, 1) == llvm::SmallVector<unsigned>{1});
}
