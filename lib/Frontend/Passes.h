//===- Passes.h - frontend passes ------------------------------*- C++ -*-===//
//
// The decompose stage: `tgc-decompose` (createTgcDecompose()), registered
// for tgc-opt by registerTgcFrontendPasses().
//
//===----------------------------------------------------------------------===//

#ifndef TGC_FRONTEND_PASSES_H
#define TGC_FRONTEND_PASSES_H

#include "IR/TgcOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tgc {

#define GEN_PASS_DECL
#include "Frontend/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Frontend/Passes.h.inc"

} // namespace mlir::tgc

#endif // TGC_FRONTEND_PASSES_H
