//===- Pipeline.cpp - the compile pipeline as named stages ----*- C++ -*-===//
//
// The one list of what `tgc compile` runs, stage by stage; tgc-opt's
// --tgc-pipeline builds the same list.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Pipeline.h"
#include "Codegen/Passes.h"
#include "Codegen/Target.h"
#include "Frontend/Passes.h"
#include "IR/TgcOps.h"
#include "Schedule/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::tgc {

/// The facts of --cpu; checkCompileOptions (and, in tgc-opt, CpuNameParser)
/// rejects an unknown one before the pipeline runs.
static CpuTarget cpuTargetOf(const PipelineOptions &options) {
  FailureOr<CpuTarget> cpu = getCpuTarget(options.cpu);
  return succeeded(cpu) ? *cpu : CpuTarget();
}

static const Stage kStages[] = {
    // every ONNX node becomes elementwise, reduce and movement ops
    {"decompose",
     [](OpPassManager &pm, const PipelineOptions &options) {
       TgcDecomposeOptions decompose;
       // auto's cost rule is measured on CPUs; a GPU target gets Winograd
       // only when asked for.
       decompose.winograd = options.target != "c" && options.winograd == "auto"
                                ? "never"
                                : options.winograd;
       decompose.convLayout =
           options.target != "c" && options.convLayout == "auto"
               ? "nchw"
               : options.convLayout;
       decompose.vectorRegisters = cpuTargetOf(options).vectorRegisters;
       pm.addPass(createTgcDecompose(decompose));
     }},
    // algebraic rules and constant folding on the tensor graph
    {"simplify",
     [](OpPassManager &pm, const PipelineOptions &) {
       pm.addPass(createTgcSimplify());
     }},
    // a batch that no op mixes becomes one image in a loop (C only);
    // realize points; every other op fuses into a tgc.kernel; kernels of
    // constants computed now
    {"schedule",
     [](OpPassManager &pm, const PipelineOptions &options) {
       if (options.target == "c") {
         TgcImageLoopOptions imageLoop;
         imageLoop.mode = options.imageLoop;
         imageLoop.parallel = options.parallelImages;
         pm.addPass(createTgcImageLoop(imageLoop));
       }
       pm.addPass(createTgcSchedule());
       pm.addPass(createTgcFoldConstantKernels());
     }},
    // intermediate buffers placed in one arena
    {"plan", [](OpPassManager &pm,
                const PipelineOptions &) { pm.addPass(createTgcPlan()); }},
    // kernels become loop programs; one-hot gathers indexed loads; index
    // math simplified by bounds; reductions nested by the input's strides
    {"lower",
     [](OpPassManager &pm, const PipelineOptions &) {
       pm.addPass(createTgcLower());
       pm.addPass(createTgcCollapseGather());
       pm.addPass(createTgcSymbolic());
       pm.addPass(createTgcOrderReductions());
     }},
    // kernel opt actions for the target CPU (none with --no-opt)
    {"optimize",
     [](OpPassManager &pm, const PipelineOptions &options) {
       TgcOptimizeOptions opts;
       opts.heuristic = options.optimize;
       CpuTarget target = cpuTargetOf(options);
       opts.vectorBytes = target.vectorBytes;
       opts.vectorRegisters = target.vectorRegisters;
       opts.threadTasks = options.threadTasks;
       opts.tuningDb = options.tuningDb;
       opts.tuningContext = options.tuningContext;
       // CUDA and Metal: workgroups instead of SIMD lanes and CPU threads.
       if (options.target == "cuda" || options.target == "metal") {
         TgcGpuOptimizeOptions gpu;
         gpu.heuristic = options.optimize;
         // The tile of each target's matrix units (TensorCores.h): CUDA's
         // tf32 wmma is m16n16k8, Metal's simdgroup_float8x8 8x8x8.
         gpu.tensorCoreTile = options.target == "cuda" ? 16 : 8;
         pm.addPass(createTgcGpuOptimize(gpu));
         return;
       }
       pm.addPass(createTgcOptimize(opts));
     }},
    // output loops nested for weight reuse (CPU); upcast ranges become
    // lanes and vectors; the index math of each lane simplified;
    // contiguous lanes become vector loads and stores, and square tiles of
    // transposed lanes a transpose in registers (CPU)
    {"expand",
     [](OpPassManager &pm, const PipelineOptions &options) {
       TgcExpandOptions expand;
       if (options.target != "cuda" && options.target != "metal") {
         pm.addPass(createTgcOrderLoops());
         CpuTarget target = cpuTargetOf(options);
         expand.vectorRegisters = target.vectorRegisters;
         expand.vectorBytes = target.vectorBytes;
       }
       pm.addPass(createTgcExpand(expand));
       TgcSymbolicOptions symbolic;
       symbolic.distributeProducts = true;
       pm.addPass(createTgcSymbolic(symbolic));
       pm.addPass(createTgcDevectorize());
       if (options.target == "cuda" || options.target == "metal")
         return;
       // transposed copies through registers, tiles of the host's vectors
       CpuTarget target = cpuTargetOf(options);
       TgcTransposeLanesOptions transpose;
       transpose.vectorBytes = target.vectorBytes;
       transpose.vectorRegisters = target.vectorRegisters;
       pm.addPass(createTgcTransposeLanes(transpose));
     }},
    // ops placed in their loops, reduces into accumulators, loops copied
    // per piece of the index their gates compare (and the lanes those
    // copies decide folded into vector loads), products of padding's
    // zeros and finite weights dropped, the others fused into the adds
    // that read them, broadcasts moved next to their first reader,
    // short window loops marked to stay loops in C (CPU)
    {"linearize",
     [](OpPassManager &pm, const PipelineOptions &options) {
       pm.addPass(createTgcLinearize());
       // CUDA and Metal: output axes become thread and block indices
       if (options.target == "cuda" || options.target == "metal")
         pm.addPass(createTgcGpuDims());
       else {
         pm.addPass(createTgcUnswitch());
         // a copy's decided gates leave lanes of one part's loads, which
         // were selects of every part's before
         pm.addPass(createTgcDevectorize());
       }
       // sums lose the products of their padding's zeros and weights
       pm.addPass(createTgcDropZeroProducts());
       pm.addPass(createTgcMulacc());
       pm.addPass(createTgcSinkBroadcasts());
       // short window loops the C compiler keeps as loops (CPU)
       if (options.target != "cuda" && options.target != "metal") {
         TgcKeepRolledOptions rolled;
         rolled.vectorRegisters = cpuTargetOf(options).vectorRegisters;
         pm.addPass(createTgcKeepRolled(rolled));
       }
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
/// cpu=: a name getCpuTarget knows (empty: the host), refused otherwise
/// while the options are parsed, as `tgc` refuses --cpu (checkCpu): the
/// pipeline's builder cannot fail, and an unknown name would otherwise
/// build for CpuTarget's defaults.
struct CpuNameParser : llvm::cl::parser<std::string> {
  using llvm::cl::parser<std::string>::parser;
  bool parse(llvm::cl::Option &option, StringRef argName, StringRef arg,
             std::string &value) {
    if (failed(getCpuTarget(arg)))
      return option.error("unknown CPU '" + arg + "' (" + kCpuNamesHint + ")");
    value = arg.str();
    return false;
  }
};

struct PipelineCliOptions : PassPipelineOptions<PipelineCliOptions> {
  Option<std::string> after{*this, "after",
                            llvm::cl::desc("the stage the input has reached"),
                            llvm::cl::init("import")};
  Option<bool> optimize{*this, "optimize",
                        llvm::cl::desc("apply kernel opt actions"),
                        llvm::cl::init(true)};
  Option<std::string, CpuNameParser> cpu{
      *this, "cpu", llvm::cl::desc("the CPU to tune for (empty: host)"),
      llvm::cl::init("")};
  Option<int64_t> threadTasks{
      *this, "thread-tasks",
      llvm::cl::desc("most tasks a big kernel is split into (0: none)"),
      llvm::cl::init(8)};
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("c, cuda or metal"),
                             llvm::cl::init("c")};
  Option<std::string> imageLoop{
      *this, "image-loop",
      llvm::cl::desc("compute a batch one image at a time: auto, always or "
                     "never"),
      llvm::cl::init("auto")};
  Option<int64_t> parallelImages{
      *this, "parallel-images",
      llvm::cl::desc("images of a looped batch computed at once, one per "
                     "thread"),
      llvm::cl::init(1)};
  Option<std::string> winograd{
      *this, "winograd",
      llvm::cl::desc("3x3 convolutions through Winograd F(m x m, 3x3): auto, "
                     "always, never, 2x2 or 4x4"),
      llvm::cl::init("auto")};
  Option<std::string> convLayout{
      *this, "conv-layout",
      llvm::cl::desc("the order convolutions compute and store in: auto, "
                     "nchw or nhwc"),
      llvm::cl::init("auto")};
};
} // namespace

void registerTgcPipeline() {
  PassPipelineRegistration<PipelineCliOptions>(
      "tgc-pipeline", "run exactly what `tgc compile` runs",
      [](OpPassManager &pm, const PipelineCliOptions &cli) {
        PipelineOptions options;
        options.optimize = cli.optimize;
        options.cpu = cli.cpu;
        options.threadTasks = cli.threadTasks;
        options.target = cli.target;
        options.imageLoop = cli.imageLoop;
        options.parallelImages = cli.parallelImages;
        options.winograd = cli.winograd;
        options.convLayout = cli.convLayout;
        buildTgcPipeline(pm, options, cli.after);
      });
}

} // namespace mlir::tgc
