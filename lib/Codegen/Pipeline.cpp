//===- Pipeline.cpp - the compile pipeline as named stages ----*- C++ -*-===//
//
// The one list of what `tgc compile` runs, stage by stage; tgc-opt's
// --tgc-pipeline builds the same list.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Pipeline.h"
#include "Codegen/Passes.h"
#include "Frontend/Passes.h"
#include "IR/TgcOps.h"
#include "Schedule/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::tgc {

static const Stage kStages[] = {
    // every ONNX node becomes elementwise, reduce and movement ops
    {"decompose",
     [](OpPassManager &pm, const PipelineOptions &) {
       pm.addPass(createTgcDecompose());
     }},
    // algebraic rules and constant folding on the tensor graph
    {"simplify",
     [](OpPassManager &pm, const PipelineOptions &) {
       pm.addPass(createTgcSimplify());
     }},
    // realize points; every other op fuses into a tgc.kernel
    {"schedule",
     [](OpPassManager &pm, const PipelineOptions &) {
       pm.addPass(createTgcSchedule());
     }},
    // intermediate buffers placed in one arena
    {"plan",
     [](OpPassManager &pm, const PipelineOptions &) {
       pm.addPass(createTgcPlan());
     }},
    // kernels become loop programs; index math simplified by bounds
    {"lower",
     [](OpPassManager &pm, const PipelineOptions &) {
       pm.addPass(createTgcLower());
       pm.addPass(createTgcSymbolic());
     }},
    // kernel opt actions (none with --no-opt)
    {"optimize",
     [](OpPassManager &pm, const PipelineOptions &options) {
       TgcOptimizeOptions opts;
       opts.upcast = options.optimize ? 16 : 1;
       pm.addPass(createTgcOptimize(opts));
     }},
    // upcast ranges become lanes; the index math of each lane simplified
    {"expand",
     [](OpPassManager &pm, const PipelineOptions &) {
       pm.addPass(createTgcExpand());
       pm.addPass(createTgcSymbolic());
     }},
    // ops placed in their loops, reduces into accumulators
    {"linearize",
     [](OpPassManager &pm, const PipelineOptions &) {
       pm.addPass(createTgcLinearize());
     }},
};

llvm::ArrayRef<Stage> getStages() { return kStages; }

llvm::ArrayRef<llvm::StringRef> getStageNames() {
  static const llvm::StringRef names[] = {
      "import", "decompose", "simplify", "schedule", "plan",   "lower",
      "optimize", "expand",  "linearize", "render",  "package"};
  return names;
}

void buildTgcPipeline(OpPassManager &pm, const PipelineOptions &options,
                      llvm::StringRef afterStage) {
  bool started = afterStage == "import";
  for (const Stage &stage : kStages) {
    if (started)
      stage.addPasses(pm, options);
    started |= stage.name == afterStage;
  }
}

llvm::StringRef getModuleStage(ModuleOp module) {
  if (auto stage = module->getAttrOfType<StringAttr>("tgc.stage"))
    return stage.getValue();
  return "import";
}

namespace {
struct PipelineCliOptions : PassPipelineOptions<PipelineCliOptions> {
  Option<std::string> after{*this, "after",
                            llvm::cl::desc("the stage the input has reached"),
                            llvm::cl::init("import")};
  Option<bool> optimize{*this, "optimize",
                        llvm::cl::desc("apply kernel opt actions"),
                        llvm::cl::init(true)};
};
} // namespace

void registerTgcPipeline() {
  PassPipelineRegistration<PipelineCliOptions>(
      "tgc-pipeline", "run exactly what `tgc compile` runs",
      [](OpPassManager &pm, const PipelineCliOptions &cli) {
        PipelineOptions options;
        options.optimize = cli.optimize;
        buildTgcPipeline(pm, options, cli.after);
      });
}

} // namespace mlir::tgc
