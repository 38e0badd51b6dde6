//===- Optimize.cpp - apply kernel opt actions ----------------*- C++ -*-===//
//
// The pass of the "optimize" stage: a kernel that records no actions yet
// gets either the actions named by the `actions` option (tests, replaying
// a search), those a tuning database holds for it (TuningDb.h), or the
// heuristic's (Heuristic.cpp). The actions themselves are in OptActions.cpp.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Heuristic.h"
#include "Codegen/OptActions.h"
#include "Codegen/Passes.h"
#include "Codegen/TuningDb.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCOPTIMIZE
#include "Codegen/Passes.h.inc"

namespace {

struct Optimize : impl::TgcOptimizeBase<Optimize> {
  using TgcOptimizeBase::TgcOptimizeBase;

  void runOnOperation() final {
    FailureOr<SmallVector<OptAction>> listed = parseOptActionList(
        actions, getOperation(), "tgc-optimize", "UPCAST(0,4)");
    if (failed(listed))
      return signalPassFailure();
    for (const OptAction &action : *listed)
      if (action.kind == OptKind::Tc) {
        getOperation().emitError("tgc-optimize: TC is a GPU action (a CPU "
                                 "has no tensor cores)");
        return signalPassFailure();
      }

    TuningDb database;
    if (!tuningDb.empty()) {
      std::string error;
      if (!database.load(tuningDb, error)) {
        getOperation().emitError("tgc-optimize: ") << error;
        return signalPassFailure();
      }
    }
    // Keys first: actions on one kernel may repack a weight another reads.
    llvm::DenseMap<Operation *, const TuningEntry *> tuned;
    if (!tuningDb.empty() || tuningReport)
      getOperation().walk([&](KernelOp kernel) {
        if (!kernel.isLowered() || kernel.getOpts())
          return;
        std::string hash = hashKernel(kernel);
        std::string key = makeTuningKey(hash, tuningContext);
        const TuningEntry *entry = database.lookup(key);
        if (entry)
          tuned[kernel] = entry;
        if (tuningReport)
          kernel.emitRemark("tuning: kernel hash ")
              << hash << ", key " << key
              << (entry ? ": entry applied" : ": no entry");
      });

    HeuristicOptions options;
    options.target.vectorBytes = vectorBytes;
    options.target.vectorRegisters = vectorRegisters;
    options.threadTasks = threadTasks;
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
      if (!listed->empty())
        return WalkResult::advance();
      if (const TuningEntry *entry = tuned.lookup(kernel)) {
        for (const std::string &text : entry->actions) {
          std::string whyNot;
          if (failed(applyOptAction(kernel, *parseOptAction(text), &whyNot))) {
            kernel.emitOpError("tuning database ")
                << tuningDb << ": entry " << entry->key << " does not apply: "
                << text << ": " << whyNot;
            return WalkResult::interrupt();
          }
        }
        // An entry with no actions still marks the kernel as decided.
        if (!kernel.getOpts())
          kernel.setOptsAttr(Builder(kernel).getArrayAttr({}));
        return WalkResult::advance();
      }
      if (heuristic)
        applyHeuristic(kernel, options);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tgc
