//===- Optimize.cpp - apply kernel opt actions ----------------*- C++ -*-===//
//
// The pass of the "optimize" stage: a kernel that records no actions yet
// gets either the actions named by the `actions` option (tests, replaying
// a search) or the heuristic's (Heuristic.cpp). The actions themselves are
// in OptActions.cpp.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Heuristic.h"
#include "Codegen/OptActions.h"
#include "Codegen/Passes.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCOPTIMIZE
#include "Codegen/Passes.h.inc"

namespace {

struct Optimize : impl::TgcOptimizeBase<Optimize> {
  using TgcOptimizeBase::TgcOptimizeBase;

  void runOnOperation() final {
    SmallVector<OptAction> listed;
    SmallVector<StringRef> words;
    StringRef(actions).split(words, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (StringRef word : words) {
      std::optional<OptAction> action = parseOptAction(word);
      if (!action) {
        getOperation().emitError("tgc-optimize: '")
            << word.trim() << "' is not an opt action, such as UPCAST(0,4)";
        return signalPassFailure();
      }
      listed.push_back(*action);
    }

    HeuristicOptions options;
    options.target.vectorBytes = vectorBytes;
    options.target.vectorRegisters = vectorRegisters;
    options.threadTasks = threadTasks;
    WalkResult result = getOperation().walk([&](KernelOp kernel) {
      if (!kernel.isLowered() || kernel.getOpts())
        return WalkResult::advance();
      for (const OptAction &action : listed) {
        std::string whyNot;
        if (failed(applyOptAction(kernel, action, &whyNot))) {
          kernel.emitOpError("cannot apply ")
              << toString(action) << ": " << whyNot;
          return WalkResult::interrupt();
        }
      }
      if (listed.empty() && heuristic)
        applyHeuristic(kernel, options);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tgc
