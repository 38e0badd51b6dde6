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

namespace mlir::tgc {

/// Writes `kernel` (lowered, expanded and linearized) as the C function
/// `functionName`, whose parameters are the kernel's block arguments in
/// order (inputs as pointers to const). Records the helpers it calls in
/// `helpers`. Emits a diagnostic and fails on an op the language cannot
/// express or that should not be left at this stage.
LogicalResult renderKernel(KernelOp kernel, llvm::StringRef functionName,
                           const CStyleLanguage &language, CHelperSet &helpers,
                           llvm::raw_ostream &os);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_CEMITTERKERNEL_H
