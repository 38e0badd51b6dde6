//===- Bindings.h - NAME=VALUE command-line arguments ----------*- C++ -*-===//
//
// `--input-shape NAME=D0xD1...` and `--input NAME=FILE` name a graph input
// and give it a shape or a tensor file.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_BINDINGS_H
#define TGC_DRIVER_BINDINGS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::tgc {

/// Splits "NAME=VALUE" at the first '=' (a file path may contain more);
/// NAME and VALUE must not be empty. `option` names the flag in errors.
llvm::Expected<std::pair<std::string, std::string>>
splitBinding(llvm::StringRef argument, llvm::StringRef option);

/// Parses "D0xD1x..." (decimal dimensions >= 0, e.g. "1x3x224x224"; "" is
/// a scalar).
llvm::Expected<std::vector<int64_t>> parseShape(llvm::StringRef text);

} // namespace mlir::tgc

#endif // TGC_DRIVER_BINDINGS_H
