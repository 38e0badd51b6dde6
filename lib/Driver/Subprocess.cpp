//===- Subprocess.cpp - files and programs of build-and-run -----*- C++ -*-===//

#include "Driver/Subprocess.h"
#include "Driver/Model.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace mlir::tgc {

std::string joinPath(StringRef dir, const Twine &name) {
  SmallString<256> path(dir);
  sys::path::append(path, name);
  return std::string(path);
}

std::string readFileTail(StringRef path, size_t most) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file = MemoryBuffer::getFile(path);
  if (!file)
    return "";
  return (*file)->getBuffer().rtrim().take_back(most).str();
}

LogicalResult writeFile(MLIRContext &context, StringRef path,
                        StringRef contents) {
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  if (!ec) {
    os << contents;
    os.close();
    ec = os.error();
  }
  if (ec)
    return emitError(fileLoc(context, path))
           << "cannot write: " << ec.message();
  return success();
}

int runProgram(ArrayRef<std::string> args, std::optional<StringRef> stdoutPath,
               std::optional<StringRef> stderrPath, std::string &error,
               unsigned secondsToWait) {
  // A name with a separator is a path (a program built next to the
  // package); a bare name (cc, nvcc) is looked up on PATH.
  ErrorOr<std::string> program = sys::findProgramByName(args.front());
  if (!program) {
    error = "'" + args.front() + "' not found";
    return -1;
  }
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {std::nullopt, stdoutPath, stderrPath};
  int status = sys::ExecuteAndWait(*program, argRefs, /*Env=*/std::nullopt,
                                   redirects, secondsToWait,
                                   /*MemoryLimit=*/0, &error);
  return status < 0 ? -1 : status;
}

} // namespace mlir::tgc
