//===- Subprocess.h - files and programs of build-and-run -------*- C++ -*-===//
//
// `tgc run`, `verify`, `bench`, `tune` and the GPU runner all write C
// next to a package, run a compiler and then a program, and quote the end
// of a failing program's output in their error. The pieces they share.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_SUBPROCESS_H
#define TGC_DRIVER_SUBPROCESS_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>

namespace mlir::tgc {

/// `dir/name` with the host's separator.
std::string joinPath(llvm::StringRef dir, const llvm::Twine &name);

/// The last `most` bytes of a file (a compiler's or a program's output),
/// trailing whitespace dropped, for an error message; empty if unreadable.
std::string readFileTail(llvm::StringRef path, size_t most = 4000);

/// Writes `contents` (C source or a tensor's raw bytes) to `path`, as they
/// are; an error naming the file if it cannot.
LogicalResult writeFile(MLIRContext &context, llvm::StringRef path,
                        llvm::StringRef contents);

/// Runs `args` (args[0] a path, or a program found on PATH) with stdout and
/// stderr sent to the files given (inherited where not): its exit status,
/// or -1 with `error` set if it did not run, crashed, or ran past
/// `secondsToWait` (0: no limit), when it is killed.
int runProgram(llvm::ArrayRef<std::string> args,
               std::optional<llvm::StringRef> stdoutPath,
               std::optional<llvm::StringRef> stderrPath, std::string &error,
               unsigned secondsToWait = 0);

} // namespace mlir::tgc

#endif // TGC_DRIVER_SUBPROCESS_H
