//===- CEmitterKernel.h - one linearized kernel as a C function -*- C++ -*-===//
//
// The op-by-op renderer shared by the C-family emitters.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_CEMITTERKERNEL_H
#define TGC_CODEGEN_CEMITTERKERNEL_H

#include "Codegen/CEmitterHelpers.h"
#include "Codegen/CEmitterLanguage.h"
#include "IR/TgcOps.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace mlir::tgc {

/// Writes `kernel` (lowered, expanded and linearized) as the C function
/// `functionName`, whose parameters are the kernel's block arguments in
/// order (inputs as pointers to const). A kernel with a thread range is
/// instead a task function `void functionName(void *task_args, ptrdiff_t
/// task)` that runs task `task`, and `functionName_args` is the struct of
/// its buffer pointers, in the same order and names (`data0`, ...).
/// Records the helpers it calls in `helpers`. Emits a diagnostic and fails
/// on an op the language cannot express or that should not be left at
/// this stage.
LogicalResult renderKernel(KernelOp kernel, llvm::StringRef functionName,
                           const CStyleLanguage &language, CHelperSet &helpers,
                           llvm::raw_ostream &os);

/// The number of tasks of a kernel split across threads (the bound of its
/// thread range), or std::nullopt.
std::optional<int64_t> getThreadTasks(KernelOp kernel);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_CEMITTERKERNEL_H
