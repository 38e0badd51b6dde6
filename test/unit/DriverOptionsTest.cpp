//===- DriverOptionsTest.cpp - tests for --dump-ir and bindings -*- C++ -*-===//
//
// The parsing behind `--dump-ir STAGES`, `--input-shape NAME=D0xD1` and
// `--input NAME=FILE`, checked against a fixed list of stage names so the
// tests do not depend on the pipeline.
//
//===----------------------------------------------------------------------===//

#include "Driver/Bindings.h"
#include "Driver/DumpStages.h"

#include <catch2/catch.hpp>

using namespace mlir::tgc;
using Catch::Matchers::Contains;

namespace {

const llvm::StringRef kStages[] = {"import", "decompose", "schedule", "lower",
                                   "render"};

std::vector<std::string> parse(llvm::StringRef spec) {
  auto result = parseDumpStages(spec, kStages);
  REQUIRE(static_cast<bool>(result));
  return std::vector<std::string>(result->begin(), result->end());
}

std::string parseError(llvm::StringRef spec) {
  auto result = parseDumpStages(spec, kStages);
  REQUIRE_FALSE(static_cast<bool>(result));
  return llvm::toString(result.takeError());
}

} // namespace

TEST_CASE("--dump-ir selects stages in pipeline order", "[dump-ir]") {
  CHECK(parse("").empty());
  CHECK(parse("lower") == std::vector<std::string>{"lower"});
  CHECK(parse("lower,import") == std::vector<std::string>{"import", "lower"});
  CHECK(parse(" schedule , decompose ,schedule") ==
        std::vector<std::string>{"decompose", "schedule"});
  CHECK(parse("all") == std::vector<std::string>{"import", "decompose",
                                                 "schedule", "lower",
                                                 "render"});
  CHECK(parse("lower,all").size() == 5);
}

TEST_CASE("--dump-ir rejects unknown and empty names, listing valid ones",
          "[dump-ir]") {
  std::string unknown = parseError("import,lowr");
  CHECK_THAT(unknown, Contains("unknown stage 'lowr'"));
  CHECK_THAT(unknown,
             Contains("valid stages: import, decompose, schedule, lower, "
                      "render, or all"));
  CHECK_THAT(parseError("import,,lower"), Contains("empty stage name"));
  CHECK_THAT(parseError("import,"), Contains("empty stage name"));
  CHECK_THAT(parseError("Import"), Contains("unknown stage 'Import'"));
}

TEST_CASE("dump files are numbered by pipeline position", "[dump-ir]") {
  CHECK(dumpFileName("import", kStages) == "ir/01-import.mlir");
  CHECK(dumpFileName("lower", kStages) == "ir/04-lower.mlir");
  CHECK(dumpFileName("render", kStages) == "ir/05-render.mlir");
}

TEST_CASE("NAME=VALUE bindings", "[bindings]") {
  auto ok = splitBinding("input=data/x=1.npy", "--input");
  REQUIRE(static_cast<bool>(ok));
  CHECK(ok->first == "input");
  CHECK(ok->second == "data/x=1.npy");
  for (const char *bad : {"input", "=x.npy", "input=", ""}) {
    auto result = splitBinding(bad, "--input");
    REQUIRE_FALSE(static_cast<bool>(result));
    CHECK_THAT(
        llvm::toString(result.takeError()),
        Contains("--input '" + std::string(bad) + "': expected NAME=VALUE"));
  }
}

TEST_CASE("shapes D0xD1x...", "[bindings]") {
  auto shape = parseShape("1x3x224x224");
  REQUIRE(static_cast<bool>(shape));
  CHECK(*shape == std::vector<int64_t>{1, 3, 224, 224});
  auto zero = parseShape("0x4");
  REQUIRE(static_cast<bool>(zero));
  CHECK(*zero == std::vector<int64_t>{0, 4});
  auto scalar = parseShape("");
  REQUIRE(static_cast<bool>(scalar));
  CHECK(scalar->empty());
  for (const char *bad : {"1x", "x3", "1x-3", "1,3", "0x10x", "1xx2", "ax2",
                          "99999999999999999999"}) {
    auto result = parseShape(bad);
    REQUIRE_FALSE(static_cast<bool>(result));
    CHECK_THAT(llvm::toString(result.takeError()),
               Contains("expected dimensions like 1x3x224x224"));
  }
}
