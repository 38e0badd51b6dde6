//===- CodegenTargetTest.cpp - tests for Codegen/Target, OptActions -*- C++ -*-=//
//
// What --cpu names mean to the kernel optimizer, and the text form of opt
// actions that kernels record and a tuning database stores.
//
//===----------------------------------------------------------------------===//

#include "Codegen/OptActions.h"
#include "Codegen/Target.h"
#include "Driver/Bench.h"

#include <catch2/catch.hpp>

using namespace mlir::tgc;

TEST_CASE("getCpuTarget knows vector widths from -march names", "[codegen]") {
  auto avx512 = getCpuTarget("skylake-avx512");
  REQUIRE(mlir::succeeded(avx512));
  CHECK(avx512->vectorBytes == 64);
  CHECK(avx512->vectorRegisters == 32);
  CHECK(avx512->fma);
  auto avx2 = getCpuTarget("haswell");
  REQUIRE(mlir::succeeded(avx2));
  CHECK(avx2->vectorBytes == 32);
  CHECK(avx2->vectorRegisters == 16);
  auto baseline = getCpuTarget("x86-64");
  REQUIRE(mlir::succeeded(baseline));
  CHECK(baseline->vectorBytes == 16);
  CHECK_FALSE(baseline->fma);
  auto neon = getCpuTarget("neoverse-n1");
  REQUIRE(mlir::succeeded(neon));
  CHECK(neon->vectorBytes == 16);
  CHECK(mlir::failed(getCpuTarget("skylake-avx513")));
  // The host is always known.
  auto host = getCpuTarget("");
  REQUIRE(mlir::succeeded(host));
  CHECK(host->vectorBytes >= 16);
}

TEST_CASE("opt actions print and parse", "[codegen]") {
  OptAction upcast{OptKind::Upcast, 1, 16};
  CHECK(toString(upcast) == "UPCAST(1,16)");
  OptAction pack{OptKind::Pack, 0, 32, 2};
  CHECK(toString(pack) == "PACK(0,32,2)");
  CHECK(toString(OptAction{OptKind::Roll, 5, 1}) == "ROLL(5,1)");
  for (const OptAction &action :
       {upcast, pack, OptAction{OptKind::Unroll, 2, 4},
        OptAction{OptKind::Thread, 0, 8}, OptAction{OptKind::Padto, 3, 16},
        OptAction{OptKind::Local, 1, 32}, OptAction{OptKind::Group, 2, 8},
        OptAction{OptKind::GroupTop, 2, 8}, OptAction{OptKind::Roll, 5, 0},
        OptAction{OptKind::Roll, 5, 1}}) {
    auto parsed = parseOptAction(toString(action));
    REQUIRE(parsed);
    CHECK(*parsed == action);
  }
  CHECK(!parseOptAction("UPCAST(1)"));
  CHECK(!parseOptAction("UPCAST(1,16,2)"));
  CHECK(!parseOptAction("PACK(1,16)"));
  CHECK(!parseOptAction("SPLIT(1,2)"));
  CHECK(!parseOptAction("UPCAST(a,2)"));
}

TEST_CASE("latency statistics", "[driver]") {
  LatencyStats one = summarizeLatencies({2.5});
  CHECK(one.minMs == 2.5);
  CHECK(one.medianMs == 2.5);
  CHECK(one.p90Ms == 2.5);
  CHECK(one.iterations == 1);
  // Ten runs: the median of an even count is the mean of the middle two;
  // p90 is the 9th smallest (nearest rank).
  LatencyStats ten =
      summarizeLatencies({10, 1, 9, 2, 8, 3, 7, 4, 6, 5});
  CHECK(ten.minMs == 1);
  CHECK(ten.medianMs == 5.5);
  CHECK(ten.p90Ms == 9);
  CHECK(ten.iterations == 10);
}
