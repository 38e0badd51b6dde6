//===- StagingDir.h - folders that vanish unless committed -----*- C++ -*-===//
//
// tgc never leaves a partial package behind: it writes into a temporary
// sibling of the output folder and renames it into place only on success.
// Scratch folders (for `run` and `verify`) are removed in every case. Both
// kinds are also removed when tgc is interrupted (SIGINT, SIGTERM, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_STAGINGDIR_H
#define TGC_DRIVER_STAGINGDIR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::tgc {

/// A folder `<target>.tmp-XXXXXX` next to `target`. commit() moves it to
/// `target`, replacing a folder that was there; without a successful
/// commit() the destructor removes it and `target` stays as it was.
class StagingDir {
public:
  /// Creates the temporary folder (and the parents of `target` if missing).
  /// Fails if `target` exists and is not a folder.
  static llvm::Expected<StagingDir> create(llvm::StringRef target);

  StagingDir(StagingDir &&other);
  StagingDir &operator=(StagingDir &&) = delete;
  StagingDir(const StagingDir &) = delete;
  ~StagingDir();

  /// The temporary folder to write into.
  llvm::StringRef path() const { return tempPath; }
  /// The target as an absolute path.
  llvm::StringRef target() const { return targetPath; }

  /// Renames the temporary folder to the target. An existing target is
  /// first moved aside and removed only after the rename succeeded, so a
  /// failure leaves it in place.
  llvm::Error commit();

private:
  StagingDir(std::string target, std::string temp)
      : targetPath(std::move(target)), tempPath(std::move(temp)) {}

  std::string targetPath;
  std::string tempPath; ///< empty once committed or moved from
};

/// A fresh folder under the system's temporary folder, named
/// `<prefix>-XXXXXX`, removed with everything in it by the destructor.
class ScratchDir {
public:
  static llvm::Expected<ScratchDir> create(llvm::StringRef prefix);

  ScratchDir(ScratchDir &&other);
  ScratchDir &operator=(ScratchDir &&) = delete;
  ScratchDir(const ScratchDir &) = delete;
  ~ScratchDir();

  llvm::StringRef path() const { return dirPath; }

private:
  explicit ScratchDir(std::string path) : dirPath(std::move(path)) {}

  std::string dirPath; ///< empty once moved from
};

} // namespace mlir::tgc

#endif // TGC_DRIVER_STAGINGDIR_H
