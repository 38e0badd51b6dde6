//===- StagingDir.cpp - folders that vanish unless committed ---*- C++ -*-===//

#include "Driver/StagingDir.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace llvm;
namespace fs = llvm::sys::fs;

namespace mlir::tgc {
namespace {

//===----------------------------------------------------------------------===//
// Cleanup on Ctrl-C. The interrupt function runs inside a signal handler,
// where taking a lock could deadlock, so the live folders sit in a fixed
// table of atomic pointers. Removing a folder there is not async-signal-safe;
// it is a best effort by a process that is about to end anyway.
//===----------------------------------------------------------------------===//

constexpr int kMaxLiveFolders = 32;
std::atomic<char *> liveFolders[kMaxLiveFolders];

void removeLiveFoldersAndExit() {
  for (std::atomic<char *> &slot : liveFolders)
    if (char *path = slot.exchange(nullptr))
      fs::remove_directories(path);
  // LLVM restored the default handlers before calling this function: end
  // the process the way the interrupt would have.
  std::raise(SIGINT);
}

void trackFolder(const std::string &path) {
  static std::once_flag installed;
  std::call_once(installed,
                 [] { sys::SetInterruptFunction(removeLiveFoldersAndExit); });
  char *copy = strdup(path.c_str());
  for (std::atomic<char *> &slot : liveFolders) {
    char *expected = nullptr;
    if (slot.compare_exchange_strong(expected, copy))
      return;
  }
  std::free(copy); // more than kMaxLiveFolders: this one is not tracked
}

void untrackFolder(const std::string &path) {
  for (std::atomic<char *> &slot : liveFolders) {
    char *tracked = slot.load();
    if (tracked && path == tracked &&
        slot.compare_exchange_strong(tracked, nullptr)) {
      std::free(tracked);
      return;
    }
  }
}

Error fileError(const Twine &path, const Twine &what, std::error_code ec) {
  return createStringError(ec, path + ": " + what + ": " + ec.message());
}

/// `target` as an absolute path without "." components or trailing
/// separators, so "out/", "./out" and "out" are one folder, and "." has a
/// parent to hold its sibling.
Expected<std::string> normalizeTarget(StringRef target) {
  if (target.empty())
    return createStringError("the output folder name is empty");
  SmallString<256> path(target);
  if (std::error_code ec = fs::make_absolute(path))
    return fileError(target, "cannot resolve the path", ec);
  sys::path::remove_dots(path, /*remove_dot_dot=*/false);
  StringRef trimmed = path;
  while (trimmed.size() > 1 && sys::path::is_separator(trimmed.back()))
    trimmed = trimmed.drop_back();
  if (sys::path::parent_path(trimmed).empty())
    return createStringError(target + ": cannot write into the root folder");
  return trimmed.str();
}

/// A new empty folder `<target><suffix>-XXXXXX` next to the absolute
/// `target`.
Expected<std::string> uniqueSibling(StringRef target, StringRef suffix) {
  SmallString<256> result;
  if (std::error_code ec =
          fs::createUniqueDirectory(Twine(target) + suffix, result))
    return fileError(Twine(target) + suffix + "-XXXXXX", "cannot create folder",
                     ec);
  return std::string(result);
}

} // namespace

Expected<StagingDir> StagingDir::create(StringRef targetArg) {
  Expected<std::string> normalized = normalizeTarget(targetArg);
  if (!normalized)
    return normalized.takeError();
  std::string target = std::move(*normalized);
  fs::file_status status;
  if (!fs::status(target, status) && fs::exists(status) &&
      !fs::is_directory(status))
    return createStringError(target + ": exists and is not a folder");
  StringRef parent = sys::path::parent_path(target);
  if (std::error_code ec = fs::create_directories(parent))
    return fileError(parent, "cannot create folder", ec);
  Expected<std::string> temp = uniqueSibling(target, ".tmp");
  if (!temp)
    return temp.takeError();
  trackFolder(*temp);
  return StagingDir(target, *temp);
}

StagingDir::StagingDir(StagingDir &&other)
    : targetPath(std::move(other.targetPath)),
      tempPath(std::move(other.tempPath)) {
  other.tempPath.clear();
}

StagingDir::~StagingDir() {
  if (tempPath.empty())
    return;
  fs::remove_directories(tempPath);
  untrackFolder(tempPath);
}

Error StagingDir::commit() {
  if (tempPath.empty())
    return createStringError(targetPath + ": already committed");
  if (!fs::exists(targetPath)) {
    if (std::error_code ec = fs::rename(tempPath, targetPath))
      return fileError(targetPath, "cannot rename the temporary folder", ec);
    untrackFolder(tempPath);
    tempPath.clear();
    return Error::success();
  }

  // Move the old folder aside first: rename() cannot replace a non-empty
  // folder, and removing it before the new one is in place would lose it on
  // a failed rename.
  Expected<std::string> aside = uniqueSibling(targetPath, ".old");
  if (!aside)
    return aside.takeError();
  if (std::error_code ec = fs::rename(targetPath, *aside)) {
    fs::remove_directories(*aside);
    return fileError(targetPath, "cannot move the existing folder aside", ec);
  }
  if (std::error_code ec = fs::rename(tempPath, targetPath)) {
    fs::rename(*aside, targetPath); // best effort: put the old one back
    return fileError(targetPath, "cannot rename the temporary folder", ec);
  }
  untrackFolder(tempPath);
  tempPath.clear();
  fs::remove_directories(*aside);
  return Error::success();
}

Expected<ScratchDir> ScratchDir::create(StringRef prefix) {
  SmallString<256> path;
  // A relative model lands in the system temporary folder ($TMPDIR).
  if (std::error_code ec = fs::createUniqueDirectory(prefix, path))
    return fileError(prefix + "-XXXXXX", "cannot create a temporary folder",
                     ec);
  trackFolder(std::string(path));
  return ScratchDir(std::string(path));
}

ScratchDir::ScratchDir(ScratchDir &&other) : dirPath(std::move(other.dirPath)) {
  other.dirPath.clear();
}

ScratchDir::~ScratchDir() {
  if (dirPath.empty())
    return;
  fs::remove_directories(dirPath);
  untrackFolder(dirPath);
}

} // namespace mlir::tgc
