//===- GpuOptimize.cpp - apply kernel opt actions for a GPU ----*- C++ -*-===//
//
// The optimize stage of the CUDA and Metal targets: the same actions as
// tgc-optimize (OptActions.h), chosen by the GPU heuristic.
//
//===----------------------------------------------------------------------===//

#include "Codegen/GpuHeuristic.h"
#include "Codegen/OptActions.h"
#include "Codegen/Passes.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCGPUOPTIMIZE
#include "Codegen/Passes.h.inc"

namespace {

struct GpuOptimize : impl::TgcGpuOptimizeBase<GpuOptimize> {
  using TgcGpuOptimizeBase::TgcGpuOptimizeBase;

  void runOnOperation() final {
    FailureOr<SmallVector<OptAction>> listed = parseOptActionList(
        actions, getOperation(), "tgc-gpu-optimize", "LOCAL(0,32)");
    if (failed(listed))
      return signalPassFailure();
    for (const OptAction &action : *listed) {
      if (action.kind == OptKind::Thread || action.kind == OptKind::Roll) {
        getOperation().emitError("tgc-gpu-optimize: ")
            << toString(action) << " is a CPU action";
        return signalPassFailure();
      }
      if (action.kind == OptKind::Tc && action.amount != tensorCoreTile) {
        getOperation().emitError("tgc-gpu-optimize: ")
            << toString(action) << " needs tiles of " << action.amount
            << "; this target's tensor cores take "
            << (tensorCoreTile ? std::to_string(tensorCoreTile)
                               : std::string("none"));
        return signalPassFailure();
      }
    }

    GpuHeuristicOptions options;
    options.maxThreads = maxThreads;
    options.tensorCoreTile = tensorCoreTile;
    WalkResult result = getOperation().walk([&](KernelOp kernel) {
      if (!kernel.isLowered() || kernel.getOpts())
        return WalkResult::advance();
      for (const OptAction &action : *listed) {
        std::string whyNot;
        if (failed(applyOptAction(kernel, action, &whyNot))) {
          kernel.emitOpError("cannot apply ")
              << toString(action) << ": " << whyNot;
          return WalkResult::interrupt();
        }
      }
      if (listed->empty() && heuristic)
        applyGpuHeuristic(kernel, options);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tgc
