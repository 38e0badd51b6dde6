//===- DumpStages.h - which stages --dump-ir names -------------*- C++ -*-===//
//
// `--dump-ir` takes a comma list of stage names or `all`. Parsing it is kept
// apart from the pipeline so it can be tested against any list of names.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_DUMPSTAGES_H
#define TGC_DRIVER_DUMPSTAGES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mlir::tgc {

/// Parses `spec` ("" for none, "all", or "a,b,c"; spaces around names are
/// ignored, repeats are harmless) against `validStages`, given in pipeline
/// order. Returns the selected names in pipeline order (each once; the
/// strings are those of `validStages`). An unknown or empty name is an error
/// whose message lists the valid names.
llvm::Expected<llvm::SmallVector<llvm::StringRef>>
parseDumpStages(llvm::StringRef spec,
                llvm::ArrayRef<llvm::StringRef> validStages);

/// The file a stage's dump goes to, relative to the package folder:
/// `ir/NN-<stage>.mlir`, where NN (01, 02, ...) is the stage's position in
/// `validStages`.
std::string dumpFileName(llvm::StringRef stage,
                         llvm::ArrayRef<llvm::StringRef> validStages);

} // namespace mlir::tgc

#endif // TGC_DRIVER_DUMPSTAGES_H
