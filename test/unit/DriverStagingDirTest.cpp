//===- DriverStagingDirTest.cpp - tests for Driver/StagingDir --*- C++ -*-===//
//
// The all-or-nothing output folder: nothing is left behind without a
// commit, a commit replaces an existing folder, and failures leave the
// target as it was.
//
//===----------------------------------------------------------------------===//

#include "Driver/StagingDir.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace mlir::tgc;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

/// A fresh folder for one test case, removed at the end of it.
struct TestFolder {
  fs::path path;
  TestFolder() {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("tgc-staging-test-" + std::to_string(::getpid()) + "-" +
            std::to_string(counter++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TestFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  /// Names in the folder, sorted.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto &entry : fs::directory_iterator(path))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
};

void writeFile(const fs::path &path, const std::string &text) {
  std::ofstream(path) << text;
}

std::string readFile(const fs::path &path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace

TEST_CASE("a staging folder is a sibling removed without a commit",
          "[staging]") {
  TestFolder folder;
  fs::path target = folder.path / "out";
  std::string temp;
  {
    auto staging = StagingDir::create(target.string());
    REQUIRE(static_cast<bool>(staging));
    temp = staging->path().str();
    CHECK(fs::path(temp).parent_path() == folder.path);
    CHECK(fs::path(temp).filename().string().rfind("out.tmp-", 0) == 0);
    CHECK(fs::is_directory(temp));
    writeFile(fs::path(temp) / "a.c", "int a;");
  }
  CHECK_FALSE(fs::exists(temp));
  CHECK_FALSE(fs::exists(target));
  CHECK(folder.entries().empty());
}

TEST_CASE("commit renames the staging folder into place", "[staging]") {
  TestFolder folder;
  fs::path target = folder.path / "sub" / "out";
  auto staging = StagingDir::create(target.string() + "/");
  REQUIRE(static_cast<bool>(staging));
  writeFile(fs::path(staging->path().str()) / "a.c", "new");
  REQUIRE_FALSE(static_cast<bool>(staging->commit()));
  CHECK(readFile(target / "a.c") == "new");
  CHECK(fs::is_directory(target));
  // Only the target is left: no temporary or moved-aside folder.
  std::vector<std::string> entries;
  for (const auto &entry : fs::directory_iterator(folder.path / "sub"))
    entries.push_back(entry.path().filename().string());
  CHECK(entries == std::vector<std::string>{"out"});
  // A second commit is an error, not a second rename.
  llvm::Error again = staging->commit();
  REQUIRE(static_cast<bool>(again));
  CHECK_THAT(llvm::toString(std::move(again)), Contains("already committed"));
}

TEST_CASE("commit replaces an existing folder; failure keeps it", "[staging]") {
  TestFolder folder;
  fs::path target = folder.path / "out";
  fs::create_directories(target / "ir");
  writeFile(target / "old.c", "old");
  writeFile(target / "ir" / "01-import.mlir", "old");

  {
    auto failed = StagingDir::create(target.string());
    REQUIRE(static_cast<bool>(failed));
    writeFile(fs::path(failed->path().str()) / "new.c", "new");
  } // dropped without commit, as after a compile error
  CHECK(readFile(target / "old.c") == "old");
  CHECK(folder.entries() == std::vector<std::string>{"out"});

  auto staging = StagingDir::create(target.string());
  REQUIRE(static_cast<bool>(staging));
  writeFile(fs::path(staging->path().str()) / "new.c", "new");
  REQUIRE_FALSE(static_cast<bool>(staging->commit()));
  CHECK(readFile(target / "new.c") == "new");
  CHECK_FALSE(fs::exists(target / "old.c"));
  CHECK_FALSE(fs::exists(target / "ir"));
  CHECK(folder.entries() == std::vector<std::string>{"out"});
}

TEST_CASE("the target is normalized to an absolute path", "[staging]") {
  TestFolder folder;
  auto staging =
      StagingDir::create((folder.path / "." / "out").string() + "//");
  REQUIRE(static_cast<bool>(staging));
  CHECK(staging->target() == (folder.path / "out").string());
  CHECK(fs::path(staging->path().str()).parent_path() == folder.path);

  auto root = StagingDir::create("/");
  REQUIRE_FALSE(static_cast<bool>(root));
  CHECK_THAT(llvm::toString(root.takeError()),
             Contains("cannot write into the root folder"));
  auto empty = StagingDir::create("");
  REQUIRE_FALSE(static_cast<bool>(empty));
  CHECK_THAT(llvm::toString(empty.takeError()), Contains("name is empty"));
}

TEST_CASE("a target that is a file is refused", "[staging]") {
  TestFolder folder;
  fs::path target = folder.path / "out";
  writeFile(target, "not a folder");
  auto staging = StagingDir::create(target.string());
  REQUIRE_FALSE(static_cast<bool>(staging));
  CHECK_THAT(llvm::toString(staging.takeError()),
             Contains("exists and is not a folder"));
  CHECK(folder.entries() == std::vector<std::string>{"out"});
  CHECK(readFile(target) == "not a folder");
}

TEST_CASE("a scratch folder is removed with its contents", "[staging]") {
  std::string path;
  {
    auto scratch = ScratchDir::create("tgc-scratch-test");
    REQUIRE(static_cast<bool>(scratch));
    path = scratch->path().str();
    CHECK(fs::path(path).is_absolute());
    fs::create_directories(fs::path(path) / "pkg" / "deep");
    writeFile(fs::path(path) / "pkg" / "deep" / "x.c", "x");
    ScratchDir moved = std::move(*scratch);
    CHECK(moved.path() == path);
  }
  CHECK_FALSE(fs::exists(path));
}
