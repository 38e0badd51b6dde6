//===- DriverSubprocessTest.cpp - tests for Driver/Subprocess --*- C++ -*-===//
//
// runProgram: a program's exit status, its output in the file asked for,
// and a program that runs past its limit stopped with an error instead of
// waiting on it.
//
//===----------------------------------------------------------------------===//

#include "Driver/Subprocess.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace mlir::tgc;
namespace fs = std::filesystem;

namespace {

/// A file name of this test's own in the temporary folder.
std::string scratchFile(const std::string &name) {
  return (fs::temp_directory_path() /
          ("tgc-subprocess-test-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

std::string readText(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

TEST_CASE("runProgram returns the exit status and fills the output file",
          "[subprocess]") {
  std::string out = scratchFile("out.txt"), error;
  CHECK(runProgram({"sh", "-c", "echo made; exit 3"}, llvm::StringRef(out),
                   std::nullopt, error) == 3);
  CHECK(readText(out) == "made\n");
  CHECK(runProgram({"true"}, std::nullopt, std::nullopt, error) == 0);
  fs::remove(out);
}

TEST_CASE("runProgram names a program it cannot find", "[subprocess]") {
  std::string error;
  CHECK(runProgram({"tgc-no-such-program"}, std::nullopt, std::nullopt,
                   error) == -1);
  CHECK(error.find("tgc-no-such-program") != std::string::npos);
}

TEST_CASE("runProgram stops a program that runs past its limit",
          "[subprocess]") {
  std::string error;
  auto start = std::chrono::steady_clock::now();
  CHECK(runProgram({"sleep", "30"}, std::nullopt, std::nullopt, error,
                   /*secondsToWait=*/1) == -1);
  CHECK(!error.empty());
  // Stopped, not waited for: well under the 30 s it asked for.
  CHECK(secondsSince(start) < 20);
  // Within the limit, a program's status is its own.
  CHECK(runProgram({"sh", "-c", "exit 4"}, std::nullopt, std::nullopt, error,
                   /*secondsToWait=*/10) == 4);
}
