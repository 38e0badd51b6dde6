//===- RuntimeFiles.h - the C runtime a package ships ----------*- C++ -*-===//
//
// The text of lib/Runtime's C files, compiled into tgc so the package
// writer can copy them next to a model's source.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_RUNTIME_RUNTIMEFILES_H
#define TGC_RUNTIME_RUNTIMEFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tgc {

struct RuntimeFile {
  /// The file name in the package (`tgc_pool.c`).
  llvm::StringRef name;
  llvm::StringRef contents;
};

/// tgc_pool.h and tgc_pool.c: the default parallel-for hook.
llvm::ArrayRef<RuntimeFile> getRuntimeFiles();

/// The pool's C source, as named in a package: harnesses that link two
/// packages, or many candidates, compile one copy of it.
inline constexpr llvm::StringLiteral kPoolSourceName = "tgc_pool.c";

} // namespace mlir::tgc

#endif // TGC_RUNTIME_RUNTIMEFILES_H
