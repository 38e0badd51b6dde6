//===- Passes.h - kernel-level passes of tgc -------------------*- C++ -*-===//
//
// lower, symbolic, optimize, expand and linearize.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_PASSES_H
#define TGC_CODEGEN_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::tgc {
#define GEN_PASS_DECL
#include "Codegen/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "Codegen/Passes.h.inc"
} // namespace mlir::tgc

#endif // TGC_CODEGEN_PASSES_H
