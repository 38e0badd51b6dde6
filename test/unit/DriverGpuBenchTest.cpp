//===- DriverGpuBenchTest.cpp - tests for tgc bench --target cuda -*- C++ -*-=//
//
// The per-kernel report joins the manifest's costs with the measured
// times; the CUDA timing main times runs and kernels with events and, where
// nvcc is installed, compiles for a real GPU (sm_80) without a warning.
//
//===----------------------------------------------------------------------===//

#include "Driver/Compile.h"
#include "Driver/GpuBench.h"
#include "Driver/GpuRunner.h"
#include "IR/TgcOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace mlir::tgc;
using Catch::Matchers::Contains;

namespace {

namespace fs = std::filesystem;

const char *kManifest = R"json({
  "kernels": [
    {"function": "net_a", "flops": 2000000, "bytes": 8000000,
     "grid": [4, 1, 1], "block": [256, 1, 1]},
    {"function": "net_b", "flops": 0, "bytes": 1000000,
     "grid": [2, 3, 1], "block": [16, 16, 1]}
  ]
})json";

struct Diagnostics {
  mlir::MLIRContext context;
  std::string text;
  mlir::ScopedDiagnosticHandler handler{&context, [this](mlir::Diagnostic &d) {
                                          text += d.str() + "\n";
                                          return mlir::success();
                                        }};
};

} // namespace

TEST_CASE("kernel rates come from the manifest's costs and the median time",
          "[gpubench]") {
  Diagnostics diag;
  mlir::Location loc = mlir::UnknownLoc::get(&diag.context);
  // Three runs: net_a takes 1, 2 and 4 ms (median 2), net_b 0.5 ms.
  auto rates = computeKernelRates(loc, kManifest,
                                  {{1.0, 0.5}, {4.0, 0.5}, {2.0, 0.5}});
  REQUIRE(mlir::succeeded(rates));
  REQUIRE(rates->size() == 2);
  const KernelRate &a = (*rates)[0], &b = (*rates)[1];
  CHECK(a.function == "net_a");
  CHECK(a.grid == "4x1x1");
  CHECK(a.block == "256x1x1");
  CHECK(a.time.medianMs == 2.0);
  CHECK(a.time.minMs == 1.0);
  CHECK(a.time.iterations == 3);
  // 8 MB in 2 ms is 4 GB/s; 2 MFLOP in 2 ms is 1 GFLOP/s.
  CHECK(a.gbPerS == Approx(4.0));
  CHECK(a.gflopPerS == Approx(1.0));
  CHECK(b.grid == "2x3x1");
  CHECK(b.gbPerS == Approx(2.0));
  CHECK(b.gflopPerS == 0.0);
}

TEST_CASE("kernel times that do not match the manifest are an error",
          "[gpubench]") {
  Diagnostics diag;
  mlir::Location loc = mlir::UnknownLoc::get(&diag.context);
  CHECK(mlir::failed(computeKernelRates(loc, kManifest, {{1.0}})));
  CHECK_THAT(diag.text, Contains("timed run 0 reported 1 kernel times for 2 "
                                 "kernels"));
  CHECK(mlir::failed(computeKernelRates(loc, kManifest, {})));
  CHECK_THAT(diag.text, Contains("no kernel times"));
  CHECK(mlir::failed(computeKernelRates(loc, "{", {{1.0, 2.0}})));
  CHECK_THAT(diag.text, Contains("not JSON"));
}

TEST_CASE("the CUDA timing main builds with nvcc", "[gpubench]") {
  mlir::DialectRegistry registry;
  registry.insert<TgcDialect, mlir::func::FuncDialect>();
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  fs::path dir = fs::temp_directory_path() /
                 ("tgc-gpu-bench-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "package");
  CompileOptions options;
  options.target = "cuda";
  ModelSignature signature;
  std::string model =
      std::string(TGC_ONNX_TEST_DATA_DIR) + "/node/test_add/model.onnx";
  if (!fs::exists(model)) {
    WARN("skipped: " << model << " is not installed");
    return;
  }
  REQUIRE(mlir::succeeded(compileIntoFolder(context, model,
                                            (dir / "package").string(),
                                            options, nullptr, &signature)));
  std::string harness = generateCudaBenchHarness(signature, "net");
  CHECK_THAT(harness, Contains("net_run_timed(&inputs, &outputs, arena, "
                               "weights, stream,"));
  CHECK_THAT(harness, Contains("cudaEvent_t start, end, "
                               "marks[NET_NUM_KERNELS + 1];"));
  CHECK_THAT(harness, Contains("printf(\"run %.6f\\n\", elapsed(start, "
                               "end));"));

  const char *nvcc = "/usr/local/cuda/bin/nvcc";
  if (::access(nvcc, X_OK) != 0) {
    WARN("skipped the nvcc build: " << nvcc << " is not installed");
    fs::remove_all(dir);
    return;
  }
  std::ofstream(dir / "bench.cu") << harness;
  fs::path log = dir / "nvcc.log";
  std::string command =
      std::string(nvcc) + " -std=c++17 -c -arch=sm_80 -Werror all-warnings "
      "-Xcompiler -Wall,-Wextra,-Werror -I'" + (dir / "package").string() +
      "' '" + (dir / "bench.cu").string() + "' -o '" +
      (dir / "bench.o").string() + "' > '" + log.string() + "' 2>&1";
  int status = std::system(command.c_str());
  std::ifstream in(log);
  std::string output((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
  INFO(command << "\n" << output);
  CHECK(status == 0);
  CHECK(output.empty());
  fs::remove_all(dir);
}
