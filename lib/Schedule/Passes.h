//===- Passes.h - graph-level passes of tgc --------------------*- C++ -*-===//
//
// simplify, schedule and plan.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_SCHEDULE_PASSES_H
#define TGC_SCHEDULE_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::tgc {
#define GEN_PASS_DECL
#include "Schedule/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "Schedule/Passes.h.inc"
} // namespace mlir::tgc

#endif // TGC_SCHEDULE_PASSES_H
