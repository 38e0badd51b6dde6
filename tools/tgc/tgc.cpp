//===- tgc.cpp - the tgc command line ---------------------------*- C++ -*-===//
//
// Parses `tgc compile|run|verify` with CLI11 and hands the options to
// lib/Driver, which does all the work and reports every error as
// `tgc: error: <file>: ...`. Exit status: 0 on success, 1 on any error.
//
//===----------------------------------------------------------------------===//

#include "Driver/Bench.h"
#include "Driver/Bindings.h"
#include "Driver/Compile.h"
#include "Driver/Diagnostics.h"
#include "Driver/Run.h"
#include "Driver/Tune.h"
#include "Driver/Verify.h"
#include "IR/TgcOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <cstdlib>

using namespace mlir;

namespace {

constexpr const char *kVersion = "tgc 0.1";

/// A check that the option's value is a number above (or, with
/// `orZero`, not below) zero. CLI11's PositiveNumber says "Value 0 not in
/// range 0.000000 to 1797...", which reads as if 0 were allowed.
CLI::Validator numberAtLeast(bool orZero) {
  return CLI::Validator(
      [orZero](std::string &value) -> std::string {
        char *end = nullptr;
        double number = std::strtod(value.c_str(), &end);
        bool valid = !value.empty() && *end == '\0' &&
                     (orZero ? number >= 0 : number > 0);
        if (valid)
          return "";
        return value + (orZero ? " is not a number of 0 or more"
                               : " is not a number above 0");
      },
      orZero ? "NONNEGATIVE" : "POSITIVE");
}
const CLI::Validator kPositive = numberAtLeast(false);
const CLI::Validator kNonNegative = numberAtLeast(true);

struct Arguments {
  std::string model;
  bool verbose = false;
  // compile
  std::string outputDir;
  std::vector<std::string> inputShapes;
  std::vector<std::string> boundInputs;
  std::string weights = "embed";
  bool noOpt = false;
  mlir::tgc::CompileOptions compile;
  // run
  std::vector<std::string> inputs;
  mlir::tgc::RunOptions run;
  // verify
  mlir::tgc::VerifyOptions verify;
  // bench
  mlir::tgc::BenchOptions bench;
  // tune
  mlir::tgc::TuneOptions tune;
  std::string report;
};

/// --image-loop, the same for every command that compiles.
void addImageLoop(CLI::App *cmd, std::string &mode) {
  cmd->add_option("--image-loop", mode,
                  "auto (default), always or never: compute a batch one "
                  "image at a time where no op mixes images (C target; auto: "
                  "where the batch's activations overflow the cache and the "
                  "weights do enough work per image)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

/// --winograd, the same for every command that compiles.
void addWinograd(CLI::App *cmd, std::string &mode) {
  cmd->add_option("--winograd", mode,
                  "auto (default), always, never, 2x2 or 4x4: compute 3x3 "
                  "stride-1 convolutions through Winograd F(m x m, 3x3), "
                  "2.25x (2x2 tiles) or 4x (4x4) fewer multiplies for 16/9 "
                  "or 4x the weight bytes (auto: constant weights, 64 or "
                  "more channels in, 16 or more out, 32 or more 2x2 tiles per "
                  "image (16 where --cpu has fewer than 32 vector registers), "
                  "4x4 tiles where there are 32 of those; C target; "
                  "always: wherever it applies, the tile as auto's)")
      ->check(CLI::IsMember({"auto", "always", "never", "2x2", "4x4"}));
}

/// --conv-layout, the same for every command that compiles.
void addConvLayout(CLI::App *cmd, std::string &layout) {
  cmd->add_option("--conv-layout", layout,
                  "auto (default), nchw or nhwc: the order convolutions "
                  "compute and store their outputs in; nhwc (channels last) "
                  "makes a 1x1 convolution read each pixel's channels "
                  "contiguously (auto: nhwc for models of 1x1 and grouped "
                  "or depthwise convolutions whose 1x1 ones have channels "
                  "in multiples of 8, such as MobileNets and ResNeXt, and "
                  "for those of dense ones over 64 or more channels that "
                  "join no channels, such as ResNets and VGG; C target)")
      ->check(CLI::IsMember({"auto", "nchw", "nhwc"}));
}

/// What --tuning-db holds, for the commands that run what they compile.
constexpr const char *kTunedActions =
    "the actions `tgc tune` found, for the kernels it has entries for";

/// --tuning-db (`what` says what its entries are for), --image-loop,
/// --winograd and --conv-layout: every command that compiles a package
/// takes them alike.
void addKernelChoices(CLI::App *cmd, mlir::tgc::KernelChoices &choices,
                      const std::string &what) {
  cmd->add_option("--tuning-db", choices.tuningDb, "FILE: " + what);
  addImageLoop(cmd, choices.imageLoop);
  addWinograd(cmd, choices.winograd);
  addConvLayout(cmd, choices.convLayout);
}

void addCompile(CLI::App &app, Arguments &args) {
  CLI::App *cmd = app.add_subcommand(
      "compile", "Compile a model (.onnx, or the .mlir dump of any stage) to "
                 "a C package");
  cmd->add_option("MODEL", args.model, "model.onnx or a stage's .mlir dump")
      ->required();
  cmd->add_option("-o,--output", args.outputDir,
                  "package folder (replaced only if the compile succeeds)")
      ->required();
  cmd->add_option("--target", args.compile.target,
                  "c (default), cuda or metal")
      ->check(CLI::IsMember({"c", "cuda", "metal"}));
  cmd->add_option("--name", args.compile.name,
                  "prefix of the package's files and C symbols (default net)");
  cmd->add_option("--input-shape", args.inputShapes,
                  "NAME=D0xD1...: bind an input's dynamic dimensions "
                  "(repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--bind-input", args.boundInputs,
                  "NAME=FILE: compile an input in as a constant with the "
                  "value in FILE (.npy or .pb); it is then no input of the "
                  "package (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--cpu", args.compile.cpu,
                  "CPU the C is tuned for (default: this host)");
  cmd->add_option("--dump-ir", args.compile.dumpStages,
                  "STAGE[,STAGE...] or all: write the IR after each named "
                  "stage to DIR/ir/NN-STAGE.mlir");
  cmd->add_flag("--no-opt", args.noOpt, "no kernel optimizations");
  addKernelChoices(cmd, args.compile.kernels,
                   "apply the actions `tgc tune` found for kernels whose key "
                   "(kernel, CPU, C compiler, options) has an entry");
  cmd->add_option("--parallel-images", args.compile.parallelImages,
                  "N: where the run loops over the batch's images, compute N "
                  "of them at once, one per thread, each in its own slice of "
                  "an N times larger arena (default 1)")
      ->check(kPositive);
  cmd->add_option("--beam", args.compile.beam,
                  "N: BEAM-search the kernels the tuning database lacks "
                  "(N lists kept per round) and add them to it")
      ->check(kPositive);
  cmd->add_option("--weights", args.weights,
                  "embed (in the C source) or file (NAME.safetensors)")
      ->check(CLI::IsMember({"embed", "file"}));
  cmd->add_flag("-v,--verbose", args.verbose, "print stage timings to stderr");
}

void addRun(CLI::App &app, Arguments &args) {
  CLI::App *cmd = app.add_subcommand(
      "run", "Compile a model for this host, run it on tensor files and "
             "write its outputs");
  cmd->add_option("MODEL", args.model, "model.onnx or a stage's .mlir dump")
      ->required();
  cmd->add_option("--input", args.inputs,
                  "NAME=FILE: an input tensor, .npy or .pb (one per input)")
      ->allow_extra_args(false);
  cmd->add_option("--output-dir", args.run.outputDir,
                  "where <output name>.npy go (default: .)");
  cmd->add_option("--output-format", args.run.outputFormat, "npy or pb")
      ->check(CLI::IsMember({"npy", "pb"}));
  cmd->add_option("--threads", args.run.threads,
                  "threads of the runtime's pool the model runs on (default "
                  "1)")
      ->check(kPositive);
  addKernelChoices(cmd, args.run.kernels, kTunedActions);
  cmd->add_flag("-v,--verbose", args.verbose,
                "print stage timings and the C compiler's command line");
}

void addVerify(CLI::App &app, Arguments &args) {
  CLI::App *cmd = app.add_subcommand(
      "verify", "Run a model on reference data and compare its outputs");
  cmd->add_option("MODEL", args.model,
                  "a CASE folder (model.onnx + test_data_set_*), or a model "
                  "file with --inputs and --expected")
      ->required();
  cmd->add_option("--inputs", args.verify.inputsDir,
                  "folder of inputs: NAME.npy|.pb or input_N.pb");
  cmd->add_option("--expected", args.verify.expectedDir,
                  "folder of reference outputs: NAME.npy|.pb or output_N.pb");
  cmd->add_option("--target", args.verify.target,
                  "c (default), cuda or metal: a GPU package runs on this "
                  "machine's GPU, or else on the CPU emulation")
      ->check(CLI::IsMember({"c", "cuda", "metal"}));
  cmd->add_option("--rtol", args.verify.tolerance.rtol,
                  "relative tolerance (default 1e-3)")
      ->check(kNonNegative);
  cmd->add_option("--atol", args.verify.tolerance.atol,
                  "absolute tolerance (default 1e-5)")
      ->check(kNonNegative);
  addKernelChoices(cmd, args.verify.kernels,
                   std::string(kTunedActions) +
                       " (C target): checks a tuned package");
  cmd->add_flag("-v,--verbose", args.verbose, "print stage timings");
}

void addBench(CLI::App &app, Arguments &args) {
  CLI::App *cmd = app.add_subcommand(
      "bench", "Compile a model for this host (or its NVIDIA GPU) and time "
               "it: min, median and p90 latency (and per kernel on a GPU or "
               "with --profile)");
  cmd->add_option("MODEL", args.model,
                  "model.onnx, a stage's .mlir dump, or a CASE folder (its "
                  "first data set's inputs)")
      ->required();
  cmd->add_option("--input", args.inputs,
                  "NAME=FILE: an input tensor, .npy or .pb (default: the "
                  "CASE's, else made up)");
  cmd->add_option("--target", args.bench.target,
                  "c (default: this CPU) or cuda: the CUDA package and each "
                  "kernel, on this machine's NVIDIA GPU (built with nvcc), "
                  "or else on the CPU emulation, whose times mean nothing")
      ->check(CLI::IsMember({"c", "cuda"}));
  cmd->add_option("--threads", args.bench.threads,
                  "threads of the runtime's pool (default 1; C only)")
      ->check(kPositive);
  cmd->add_option("--iterations", args.bench.iterations,
                  "timed runs (default: about two seconds' worth)")
      ->check(kPositive);
  cmd->add_flag("--json", args.bench.json,
                "print one JSON object: median_ms, min_ms, p90_ms, "
                "iterations, threads, model (and kernels, on a GPU or with "
                "--profile)");
  cmd->add_flag("--scaling", args.bench.scaling,
                "with --threads 2 or more (C only): pair each timed run with "
                "one on a single thread, in turns in the same process, and "
                "print both and the median over the pairs of their ratio "
                "(JSON: one_thread, speedup)");
  cmd->add_flag("--against-heuristic", args.bench.againstHeuristic,
                "with --tuning-db (C only): pair each timed run with one of "
                "the same model built with the heuristic's actions, on the "
                "same threads, in turns in the same process, and print both "
                "and the median over the pairs of their ratio (JSON: "
                "heuristic, tuned_speedup, tuned_kernels: how many kernels "
                "are not the heuristic's)");
  cmd->add_flag("--profile", args.bench.profile,
                "C: each kernel's time inside the model too (as many runs "
                "again, with the package's NAME_KERNEL_DONE hook reading "
                "the clock; a batch's images are then not run side by "
                "side), its share, GB/s, GFLOP/s and opt actions");
  cmd->add_flag("--no-opt", args.noOpt, "no kernel optimizations");
  addKernelChoices(cmd, args.bench.kernels, kTunedActions);
  cmd->add_flag("-v,--verbose", args.verbose,
                "print stage timings and the C compiler's command line");
}

void addTune(CLI::App &app, Arguments &args) {
  CLI::App *cmd = app.add_subcommand(
      "tune", "BEAM-search kernel opt actions for this host and write them "
              "to a tuning database (tgc compile --tuning-db applies them)");
  cmd->add_option("MODEL", args.model,
                  "model.onnx, a dump up to the lower stage, or a CASE "
                  "folder");
  cmd->add_option("-o,--output", args.tune.dbPath,
                  "the tuning database (JSON) to extend; kernels it has "
                  "entries for are not searched again");
  cmd->add_option("--report", args.report,
                  "DB.json: list each kernel's time with the heuristic's "
                  "actions and with the tuned ones, and the speedups");
  cmd->add_option("--beam", args.tune.beam,
                  "action lists kept each round (default 2)")
      ->check(kPositive);
  cmd->add_option("--input", args.inputs,
                  "NAME=FILE: the shape of an input with dynamic dimensions "
                  "(.npy or .pb)");
  cmd->add_option("--threads", args.tune.threads,
                  "threads the candidates run on (default 1)")
      ->check(kPositive);
  cmd->add_option("--timeout-ms", args.tune.timeoutMs,
                  "time budget of one candidate (default 1000)")
      ->check(kPositive);
  cmd->add_option("--compile-timeout-s", args.tune.compileTimeoutSeconds,
                  "seconds any compile of the search may take (a "
                  "candidate's, the shared harness's, the re-timed pair's); "
                  "a slower candidate is dropped (default 60, 0: no limit)")
      ->check(kNonNegative);
  cmd->add_option("--budget-s", args.tune.budgetSeconds,
                  "seconds for the model's search, shared among its kernels "
                  "by their times inside it (the heuristic's build, timed "
                  "first), at least 2 s each: no compile starts "
                  "after a kernel's share, and what one runs over comes off "
                  "the kernels after it (default 360, 0: no limit)")
      ->check(kNonNegative);
  cmd->add_flag("--cold", args.tune.cold,
                "evict the caches (an 8 MiB read) before every timed run, "
                "as the rest of a model does (default: weights warm from "
                "the run before)");
  cmd->add_option("--cpu", args.tune.cpu,
                  "CPU the C is tuned for (default: this host)");
  addImageLoop(cmd, args.tune.imageLoop);
  addWinograd(cmd, args.tune.winograd);
  addConvLayout(cmd, args.tune.convLayout);
  cmd->add_flag("-v,--verbose", args.verbose,
                "print every round and each dropped candidate");
}

/// Turns the NAME=VALUE arguments into driver options; false on a
/// malformed one (reported at the model's location).
bool bindArguments(MLIRContext &context, Arguments &args) {
  Location loc = FileLineColLoc::get(&context, args.model, 0, 0);
  for (const std::string &binding : args.inputShapes) {
    auto split = mlir::tgc::splitBinding(binding, "--input-shape");
    if (!split) {
      emitError(loc) << llvm::toString(split.takeError());
      return false;
    }
    auto shape = mlir::tgc::parseShape(split->second);
    if (!shape) {
      emitError(loc) << "--input-shape " << binding << ": "
                     << llvm::toString(shape.takeError());
      return false;
    }
    args.compile.inputShapes[split->first] = std::move(*shape);
  }
  for (const std::string &binding : args.boundInputs) {
    auto split = mlir::tgc::splitBinding(binding, "--bind-input");
    if (!split) {
      emitError(loc) << llvm::toString(split.takeError());
      return false;
    }
    ::tgc::Result<::tgc::HostTensor> tensor =
        ::tgc::readTensorFile(split->second);
    if (!tensor) {
      emitError(FileLineColLoc::get(&context, split->second, 0, 0))
          << "--bind-input " << binding << ": " << tensor.error();
      return false;
    }
    args.compile.constantInputs[split->first] = std::move(*tensor);
  }
  for (const std::string &binding : args.inputs) {
    auto split = mlir::tgc::splitBinding(binding, "--input");
    if (!split) {
      emitError(loc) << llvm::toString(split.takeError());
      return false;
    }
    args.run.inputs.push_back(*split);
    args.tune.inputs.push_back(*split);
    args.bench.inputs.push_back(std::move(*split));
  }
  args.compile.weightsInFile = args.weights == "file";
  args.compile.optimize = !args.noOpt;
  args.bench.optimize = !args.noOpt;
  args.bench.verbose = args.verbose;
  args.tune.verbose = args.verbose;
  args.compile.verbose = args.run.verbose = args.verify.verbose = args.verbose;
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  CLI::App app("tgc: an ahead-of-time compiler from ONNX models to C", "tgc");
  app.set_version_flag("--version", kVersion);
  // Usage errors look like every other tgc error.
  app.failure_message([](const CLI::App *, const CLI::Error &error) {
    return std::string("tgc: error: ") + error.what() +
           "\nRun 'tgc --help' or 'tgc COMMAND --help' for the options.\n";
  });
  app.require_subcommand(1);
  Arguments args;
  addCompile(app, args);
  addRun(app, args);
  addVerify(app, args);
  addBench(app, args);
  addTune(app, args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &error) {
    // CLI11 prints help and version requests with status 0, and usage
    // errors with its own codes; tgc promises 1 for every error.
    return app.exit(error) == 0 ? 0 : 1;
  }

  DialectRegistry registry;
  registry.insert<mlir::tgc::TgcDialect, func::FuncDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  mlir::tgc::DiagnosticPrinter printer(context, llvm::errs(), args.model);
  if (!bindArguments(context, args))
    return 1;

  LogicalResult result = failure();
  if (app.got_subcommand("compile")) {
    result = mlir::tgc::compileModel(context, args.model, args.outputDir,
                                     args.compile, &printer);
  } else if (app.got_subcommand("run")) {
    result = mlir::tgc::runModel(context, args.model, args.run, &printer,
                                 llvm::outs());
  } else if (app.got_subcommand("tune")) {
    if (!args.report.empty())
      result = mlir::tgc::reportTuningDb(context, args.report, llvm::outs());
    else if (args.model.empty())
      emitError(UnknownLoc::get(&context))
          << "tgc tune needs a MODEL (or --report DB.json)";
    else
      result = mlir::tgc::tuneModel(context, args.model, args.tune, &printer);
  } else if (app.got_subcommand("bench")) {
    result = mlir::tgc::benchModel(context, args.model, args.bench, &printer,
                                   llvm::outs());
  } else {
    result = mlir::tgc::verifyModel(context, args.model, args.verify, &printer,
                                    llvm::outs());
  }
  llvm::outs().flush();
  return succeeded(result) ? 0 : 1;
}
