//===- Pipeline.h - the named stages of tgc --------------------*- C++ -*-===//
//
// The compile pipeline as a list of named stages, so that the driver can
// dump the IR after any of them and tgc-opt can run exactly what tgc runs.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_PIPELINE_H
#define TGC_CODEGEN_PIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace mlir::tgc {

struct PipelineOptions {
  /// False for --no-opt: no kernel optimization actions.
  bool optimize = true;
  /// The CPU the C is for (--cpu); empty means the host.
  std::string cpu;
  /// Most tasks an axis of a big kernel is split into for the runtime's
  /// thread pool (0: kernels are not split). Eight tasks give two or four
  /// threads equal shares and leave room to balance a busy core.
  int64_t threadTasks = 8;
  /// "c", "cuda" or "metal".
  std::string target = "c";
  /// tgc-image-loop's mode for the C target (--image-loop): auto, always
  /// or never. GPUs want the whole batch at once: never there.
  std::string imageLoop = "auto";
  /// tgc-image-loop's `parallel` (--parallel-images): images of a looped
  /// batch computed at once, one per thread, each with its own arena slice.
  int64_t parallelImages = 1;
  /// tgc-decompose's `winograd` (--winograd): auto, always, never, 2x2 or
  /// 4x4; auto is never on a GPU target (its rule was measured on CPUs).
  std::string winograd = "auto";
  /// tgc-decompose's `conv-layout` (--conv-layout): auto, nchw or nhwc;
  /// auto is nchw on a GPU target (channels last was measured on CPUs).
  std::string convLayout = "auto";
  /// A tuning database (TuningDb.h) whose entries the optimize stage
  /// applies, and the serialized context its keys are made with.
  std::string tuningDb;
  std::string tuningContext;
};

/// One named stage of the pipeline and the passes it runs.
struct Stage {
  llvm::StringRef name;
  void (*addPasses)(OpPassManager &pm, const PipelineOptions &options);
};

/// The pass stages in order: decompose, simplify, schedule, plan, lower,
/// optimize, expand, linearize. (import comes before them and render and
/// package after them; neither is a pass.)
llvm::ArrayRef<Stage> getStages();

/// Every stage name users may give to --dump-ir, in order, including
/// "import", "render" and "package".
llvm::ArrayRef<llvm::StringRef> getStageNames();

/// Adds every stage that comes after `afterStage` ("import" for all).
void buildTgcPipeline(OpPassManager &pm, const PipelineOptions &options,
                      llvm::StringRef afterStage = "import");

/// The stage a module has reached, from its `tgc.stage` attribute (set by
/// the driver when it dumps); "import" if absent.
llvm::StringRef getModuleStage(ModuleOp module);

/// Registers `--tgc-pipeline` for tgc-opt.
void registerTgcPipeline();

} // namespace mlir::tgc

#endif // TGC_CODEGEN_PIPELINE_H
