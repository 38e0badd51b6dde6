//===- Compile.cpp - tgc compile: a model to a package ---------*- C++ -*-===//
//
// The stages run one pass manager each, rather than as one pipeline, so the
// driver can dump the module between them and time them one by one.
//
//===----------------------------------------------------------------------===//

#include "Driver/Compile.h"

#include "Codegen/Package.h"
#include "Codegen/Pipeline.h"
#include "Driver/Diagnostics.h"
#include "Driver/DumpStages.h"
#include "Driver/StagingDir.h"
#include "Driver/Tune.h"
#include "Driver/TuneGraph.h"
#include "IR/Images.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;

namespace mlir::tgc {
namespace {

/// Prints "tgc: <what> <ms> ms" to stderr when enabled, at destruction.
class StageTimer {
public:
  StageTimer(bool enabled, StringRef what)
      : enabled(enabled), what(what.str()),
        start(std::chrono::steady_clock::now()) {}
  ~StageTimer() {
    if (!enabled)
      return;
    std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    errs() << formatv("tgc: {0,-10} {1,10:f1} ms\n", what, elapsed.count());
  }

private:
  bool enabled;
  std::string what;
  std::chrono::steady_clock::time_point start;
};

/// Counts the errors reported while it lives and passes each diagnostic on
/// to the handler installed before it.
class ErrorCounter {
public:
  explicit ErrorCounter(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error)
            ++count;
          return failure(); // not handled: the next handler prints it
        }) {}
  unsigned errors() const { return count; }

private:
  unsigned count = 0;
  ScopedDiagnosticHandler handler;
};

/// Writes `module` as the dump of `stage`, marked with `tgc.stage` so that
/// tgc can continue from it.
LogicalResult dumpModule(ModuleOp module, StringRef stage, StringRef dir,
                         Location loc) {
  SmallString<256> path(dir);
  sys::path::append(path, dumpFileName(stage, getStageNames()));
  if (std::error_code ec =
          sys::fs::create_directories(sys::path::parent_path(path)))
    return emitError(loc) << sys::path::parent_path(path)
                          << ": cannot create folder: " << ec.message();
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  if (ec)
    return emitError(loc) << path << ": cannot write: " << ec.message();

  module->setAttr("tgc.stage", StringAttr::get(module.getContext(), stage));
  // Locations carry the ONNX node names, which errors after reloading the
  // dump still need.
  OpPrintingFlags flags;
  flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  module->print(os, flags);
  os << "\n";
  module->removeAttr("tgc.stage");
  os.close();
  if (os.has_error())
    return emitError(loc) << path << ": cannot write: " << os.error().message();
  return success();
}

/// Whether `file` is a package manifest (`{"format": "tgc-package", ...}`).
bool isManifest(StringRef file) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> text = MemoryBuffer::getFile(file);
  if (!text)
    return false;
  Expected<json::Value> value = json::parse((*text)->getBuffer());
  if (!value) {
    consumeError(value.takeError());
    return false;
  }
  const json::Object *object = value->getAsObject();
  return object && object->getString("format") == "tgc-package";
}

/// An existing output folder is replaced only if it is empty or holds a
/// package (a manifest `*.json`): `-o` pointed at a source tree by mistake
/// must not delete it.
LogicalResult checkReplaceable(Location loc, StringRef dir) {
  if (!sys::fs::is_directory(dir))
    return success(); // absent; a file in the way is StagingDir's error
  std::error_code ec;
  bool empty = true;
  for (sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    empty = false;
    if (sys::path::extension(it->path()) == ".json" && isManifest(it->path()))
      return success();
  }
  if (ec)
    return emitError(loc) << dir << ": " << ec.message();
  if (empty)
    return success();
  return emitError(loc) << dir
                        << ": exists and is not a tgc package (no manifest "
                           "<name>.json in it); not replacing it";
}

/// Position of `stage` in getStageNames(), or -1.
int stageIndex(StringRef stage) {
  ArrayRef<StringRef> names = getStageNames();
  const auto *it = find(names, stage);
  return it == names.end() ? -1 : int(it - names.begin());
}

/// Whether --name can prefix C symbols.
bool isValidPrefix(StringRef name) {
  if (name.empty() || isDigit(name.front()))
    return false;
  return all_of(name, [](char c) { return isAlnum(c) || c == '_'; });
}

/// This compile's tuning context and the database --tuning-db names (empty
/// without one, or when the file is missing and --beam will create it).
struct LoadedTuning {
  TuningContext context;
  TuningDb db;
};

FailureOr<LoadedTuning> loadTuning(Location loc, const CompileOptions &options,
                                   const PipelineOptions &pipeline) {
  FailureOr<TuningContext> context =
      getTuningContext(loc, options.cpu, pipeline.threadTasks);
  if (failed(context))
    return failure();
  LoadedTuning loaded{std::move(*context), TuningDb()};
  std::string error;
  if (!options.kernels.tuningDb.empty() &&
      !loaded.db.load(options.kernels.tuningDb, error,
                      /*missingIsEmpty=*/options.beam > 0))
    return emitError(loc) << error;
  return loaded;
}

/// --winograd and --conv-layout auto with --tuning-db: the value `tgc tune`
/// timed fastest for this model on this host (TuneGraph.h), where the
/// database has one.
void applyGraphChoices(ModuleOp imported, const CompileOptions &options,
                       const LoadedTuning &tuning, PipelineOptions &pipeline) {
  if (options.kernels.tuningDb.empty())
    return;
  std::string modelHash = hashModelGraph(imported);
  for (GraphOption option : kGraphOptions) {
    if (graphOptionValue(options.kernels, option) != "auto")
      continue;
    if (std::optional<std::string> value = lookupGraphChoice(
            modelHash, option, pipeline, tuning.db, tuning.context)) {
      graphOptionValue(pipeline, option) = *value;
      if (options.verbose)
        errs() << "tgc: tuning db: --" << graphOptionName(option) << " "
               << *value << "\n";
    }
  }
}

/// Searches the kernels the tuning database lacks when asked to (--beam),
/// and points the optimize stage at the database.
LogicalResult prepareTuning(ModuleOp module, const CompileOptions &options,
                            LoadedTuning &tuning, PipelineOptions &pipeline,
                            std::optional<ScratchDir> &scratch) {
  Location loc = module.getLoc();
  TuningDb &db = tuning.db;
  const TuningContext &context = tuning.context;
  std::string error;
  std::string path = options.kernels.tuningDb;
  std::vector<KeyedKernel> kernels;
  if (options.beam > 0 || options.verbose)
    kernels = keyKernels(module, context);
  if (options.beam > 0) {
    TuneOptions tune;
    tune.beam = options.beam;
    tune.cpu = options.cpu;
    tune.verbose = options.verbose;
    tune.dbPath = options.kernels.tuningDb;
    LogicalResult tuned = tuneLoweredModule(module, kernels, db, context, tune);
    if (path.empty()) {
      Expected<ScratchDir> dir = ScratchDir::create("tgc-tuning");
      if (!dir)
        return emitError(loc) << toString(dir.takeError());
      scratch.emplace(std::move(*dir));
      path = (scratch->path() + "/tuning.json").str();
    }
    if (!db.save(path, error))
      return emitError(loc) << error;
    if (failed(tuned))
      return failure();
  }
  if (options.verbose) {
    auto [found, distinct] = countTunedKernels(kernels, db);
    errs() << formatv("tgc: tuning db: {0} of {1} distinct kernels have "
                      "entries\n",
                      found, distinct);
  }
  pipeline.tuningDb = path;
  pipeline.tuningContext = context.serialize();
  return success();
}

} // namespace

LogicalResult checkCompileOptions(Location loc, const CompileOptions &options) {
  if (!isValidPrefix(options.name))
    return emitError(loc) << "--name '" << options.name
                          << "' is not a C identifier (letters, digits and "
                             "'_', not starting with a digit)";
  if (options.target != "c" && options.target != "cuda" &&
      options.target != "metal")
    return emitError(loc) << "--target " << options.target
                          << ": unknown target (c, cuda or metal)";
  if (failed(checkCpu(loc, options.cpu)))
    return failure();
  Expected<SmallVector<StringRef>> dumps =
      parseDumpStages(options.dumpStages, getStageNames());
  if (!dumps)
    return emitError(loc) << toString(dumps.takeError());
  return success();
}

LogicalResult compileIntoFolder(MLIRContext &context, StringRef modelPath,
                                StringRef dir, const CompileOptions &options,
                                DiagnosticPrinter *printer,
                                ModelSignature *signature) {
  Location loc = fileLoc(context, modelPath);
  if (failed(checkCompileOptions(loc, options)))
    return failure();
  SmallVector<StringRef> dumps =
      cantFail(parseDumpStages(options.dumpStages, getStageNames()));
  auto wantDump = [&](StringRef stage) { return is_contained(dumps, stage); };
  ErrorCounter counter(context);

  OwningOpRef<ModuleOp> module;
  {
    StageTimer timer(options.verbose, "import");
    ImportOptions importOptions;
    importOptions.inputShapes = options.inputShapes;
    importOptions.constantInputs = options.constantInputs;
    importOptions.containerCounts = options.containerCounts;
    module = openModel(context, modelPath, importOptions);
  }
  if (!module) {
    if (counter.errors() == 0)
      emitError(loc) << "cannot open the model";
    return failure();
  }
  if (printer)
    printer->recordNodeTypes(*module);

  std::string reached = getModuleStage(*module).str();
  int reachedIndex = stageIndex(reached);
  if (reachedIndex < 0)
    return emitError(loc) << "unknown stage '" << reached
                          << "' in the module's tgc.stage attribute";
  // The attribute only marks dumps; the rest of the pipeline must see the
  // same module whether it started from the ONNX file or from a dump.
  (*module)->removeAttr("tgc.stage");
  // tgc-image-loop (stage schedule) says how many images run at once; a dump
  // from after it has passed that stage, and takes --parallel-images here.
  if (reachedIndex >= stageIndex("schedule"))
    setModelParallelImages(*module, options.parallelImages);
  if (reached == "import" && wantDump("import") &&
      failed(dumpModule(*module, "import", dir, loc)))
    return failure();

  PipelineOptions pipelineOptions;
  pipelineOptions.optimize = options.optimize;
  pipelineOptions.cpu = options.cpu;
  pipelineOptions.target = options.target;
  pipelineOptions.imageLoop = options.kernels.imageLoop;
  pipelineOptions.parallelImages = options.parallelImages;
  pipelineOptions.winograd = options.kernels.winograd;
  pipelineOptions.convLayout = options.kernels.convLayout;
  // Tuned actions for the optimize stage: a database from --tuning-db,
  // extended by a search with --beam.
  bool tuning = (!options.kernels.tuningDb.empty() || options.beam > 0) &&
                options.target == "c" && options.optimize;
  std::optional<ScratchDir> tuningScratch;
  // Loaded once (the context runs the C compiler for its version) for the
  // graph choices before decompose and the kernel entries at optimize.
  std::optional<LoadedTuning> loaded;
  if (tuning && reachedIndex < stageIndex("optimize")) {
    FailureOr<LoadedTuning> read = loadTuning(loc, options, pipelineOptions);
    if (failed(read))
      return failure();
    loaded.emplace(std::move(*read));
    if (reachedIndex < stageIndex("decompose"))
      applyGraphChoices(*module, options, *loaded, pipelineOptions);
  }
  for (const Stage &stage : getStages()) {
    if (stageIndex(stage.name) <= reachedIndex)
      continue;
    if (stage.name == "optimize" && loaded &&
        failed(prepareTuning(*module, options, *loaded, pipelineOptions,
                             tuningScratch)))
      return failure();
    PassManager pm(&context, ModuleOp::getOperationName());
    stage.addPasses(pm, pipelineOptions);
    unsigned errorsBefore = counter.errors();
    LogicalResult ran = success();
    {
      StageTimer timer(options.verbose, stage.name);
      ran = pm.run(*module);
    }
    if (failed(ran)) {
      if (counter.errors() == errorsBefore)
        emitError(loc) << "stage '" << stage.name << "' failed";
      return failure();
    }
    if (wantDump(stage.name) &&
        failed(dumpModule(*module, stage.name, dir, loc)))
      return failure();
  }

  if (signature) {
    FailureOr<ModelSignature> compiled = getModuleSignature(*module);
    if (failed(compiled))
      return failure();
    *signature = std::move(*compiled);
  }

  PackageOptions packageOptions;
  packageOptions.name = options.name;
  packageOptions.target = options.target;
  packageOptions.weightsInFile = options.weightsInFile;
  StageTimer timer(options.verbose, "package");
  unsigned errorsBefore = counter.errors();
  if (failed(writePackage(*module, packageOptions, dir))) {
    if (counter.errors() == errorsBefore)
      emitError(loc) << "writing the package failed";
    return failure();
  }
  return success();
}

LogicalResult compileModel(MLIRContext &context, StringRef modelPath,
                           StringRef outputDir, const CompileOptions &options,
                           DiagnosticPrinter *printer) {
  Location loc = fileLoc(context, modelPath);
  // Cheap checks first, so a typo in an option never touches the disk.
  if (failed(checkCompileOptions(loc, options)) ||
      failed(classifyModel(context, modelPath)) ||
      failed(checkReplaceable(loc, outputDir)))
    return failure();
  Expected<StagingDir> staging = StagingDir::create(outputDir);
  if (!staging)
    return emitError(loc) << toString(staging.takeError());
  if (failed(compileIntoFolder(context, modelPath, staging->path(), options,
                               printer, /*signature=*/nullptr)))
    return failure(); // the StagingDir destructor removes the folder
  if (Error error = staging->commit())
    return emitError(loc) << toString(std::move(error));
  return success();
}

} // namespace mlir::tgc
