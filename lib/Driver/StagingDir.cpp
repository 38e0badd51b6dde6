//===- StagingDir.cpp - folders that vanish unless committed ---*- C++ -*-===//

#include "Driver/StagingDir.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;
namespace fs = llvm::sys::fs;

namespace mlir::tgc {
namespace {

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
  return StagingDir(target, *temp);
}

StagingDir::StagingDir(StagingDir &&other)
    : targetPath(std::move(other.targetPath)),
      tempPath(std::move(other.tempPath)) {
  other.tempPath.clear();
}

StagingDir::~StagingDir() {
  if (!tempPath.empty())
    fs::remove_directories(tempPath);
}

Error StagingDir::commit() {
  if (tempPath.empty())
    return createStringError(targetPath + ": already committed");
  if (!fs::exists(targetPath)) {
    if (std::error_code ec = fs::rename(tempPath, targetPath))
      return fileError(targetPath, "cannot rename the temporary folder", ec);
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
  return ScratchDir(std::string(path));
}

ScratchDir::ScratchDir(ScratchDir &&other) : dirPath(std::move(other.dirPath)) {
  other.dirPath.clear();
}

ScratchDir::~ScratchDir() {
  if (!dirPath.empty())
    fs::remove_directories(dirPath);
}

} // namespace mlir::tgc
