//===- TestScratch.h - scratch folders for the unit tests -------*- C++ -*-===//
//
// Tests that write files put them under one folder per test process, in
// the system's temp directory, which goes when the process exits; each
// test file takes a subfolder of its own, so their file names never meet.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_TEST_UNIT_TESTSCRATCH_H
#define TGC_TEST_UNIT_TESTSCRATCH_H

#include <filesystem>
#include <string>
#include <system_error>
#include <unistd.h>

namespace tgc::test {

/// `<temp>/tgc-unit-test-<pid>/<suite>`, created if missing. The process's
/// folder is removed at exit.
inline std::filesystem::path scratchDir(const std::string &suite) {
  namespace fs = std::filesystem;
  struct ProcessFolder {
    fs::path path = fs::temp_directory_path() /
                    ("tgc-unit-test-" + std::to_string(::getpid()));
    ~ProcessFolder() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  };
  static ProcessFolder folder;
  fs::path dir = folder.path / suite;
  fs::create_directories(dir);
  return dir;
}

} // namespace tgc::test

#endif // TGC_TEST_UNIT_TESTSCRATCH_H
