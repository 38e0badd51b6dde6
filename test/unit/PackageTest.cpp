//===- PackageTest.cpp - tests for Codegen/Package --------------*- C++ -*-===//
//
// writePackage end to end: a hand-written linearized module becomes a
// package that the system C compiler builds under -std=c99 -Werror
// -pedantic, and a C main linked against it prints the outputs. Covers
// embedded and file weights, the manifest, the safetensors header, the
// run function's error codes, the package's own CMakeLists.txt, two
// models with different prefixes linked into one program, and the tune
// harness timing two packages of one model in turns.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Package.h"
#include "Codegen/KernelCost.h"
#include "Codegen/Manifest.h"
#include "Codegen/OptActions.h"
#include "Codegen/Passes.h"
#include "Driver/TuneHarness.h"
#include "IR/TgcOps.h"
#include "TestScratch.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using Catch::Matchers::Contains;

namespace {

namespace fs = std::filesystem;

/// y = where(mask, x @ W^T + b, x @ W^T - b) with x 2x3, W 2x3 (a resource
/// blob), b = [10, 20] and mask = [true, false] (plain dense constants):
/// a reduction into the arena, then an elementwise kernel into the output.
const char *kModel = R"mlir(
module attributes {tgc.arena_bytes = 64 : i64, tgc.arena_align = 64 : i64,
                   tgc.peak_bytes = 16 : i64, tgc.source = "unit/affine.onnx"} {
  func.func @main(%x: tensor<2x3xf32> {tgc.name = "x"})
      -> (tensor<2x2xf32> {tgc.name = "y"}) {
    %w = tgc.const dense_resource<fc.weight> : tensor<2x3xf32>
    %b = tgc.const dense<[10.0, 20.0]> : tensor<2xf32>
    %m = tgc.const dense<[true, false]> : tensor<2xi1>
    %raw = tgc.kernel "r_2_2_3" (%x, %w) {arena_offset = array<i64: 0>, opts = ["LOCAL(0,2)"]}
        : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %wt: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c0 = tgc.const 0 : index
      %c2 = tgc.const 2 : index
      %c3 = tgc.const 3 : index
      %zero = tgc.const 0.0 : f32
      %i = tgc.range 2 global id 0
      %xrow = tgc.mul %i, %c3 : index
      %orow = tgc.mul %i, %c2 : index
      %j = tgc.range 2 global id 1
      %wrow = tgc.mul %j, %c3 : index
      %acc = tgc.define_reg 1 : !tgc.ptr<f32, reg>
      %a0 = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
      tgc.store %a0, %zero : !tgc.ptr<f32, reg>, f32
      %k = tgc.range 3 reduce id 2
      %xi = tgc.add %xrow, %k : index
      %px = tgc.index %in[%xi] : !tgc.ptr<f32>
      %vx = tgc.load %px : !tgc.ptr<f32> -> f32
      %wi = tgc.add %wrow, %k : index
      %pw = tgc.index %wt[%wi] : !tgc.ptr<f32>
      %vw = tgc.load %pw : !tgc.ptr<f32> -> f32
      %old = tgc.load %a0 : !tgc.ptr<f32, reg> -> f32
      %new = tgc.mulacc %vx, %vw, %old : f32
      tgc.store %a0, %new : !tgc.ptr<f32, reg>, f32
      tgc.end %k
      %s = tgc.load %a0 : !tgc.ptr<f32, reg> -> f32
      %oi = tgc.add %orow, %j : index
      %po = tgc.index %out[%oi] : !tgc.ptr<f32>
      tgc.store %po, %s : !tgc.ptr<f32>, f32
      tgc.end %j
      tgc.end %i
      tgc.sink
    }
    %y = tgc.kernel "E_2_2" (%raw, %b, %m) {arena_offset = array<i64: -1>}
        : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xi1>) -> tensor<2x2xf32> {
    ^bb0(%r: !tgc.ptr<f32>, %bp: !tgc.ptr<f32>, %mp: !tgc.ptr<i1>, %out: !tgc.ptr<f32>):
      %c2 = tgc.const 2 : index
      %i = tgc.range 2 global id 0
      %row = tgc.mul %i, %c2 : index
      %j = tgc.range 2 global id 1
      %idx = tgc.add %row, %j : index
      %pr = tgc.index %r[%idx] : !tgc.ptr<f32>
      %vr = tgc.load %pr : !tgc.ptr<f32> -> f32
      %pb = tgc.index %bp[%j] : !tgc.ptr<f32>
      %vb = tgc.load %pb : !tgc.ptr<f32> -> f32
      %pm = tgc.index %mp[%j] : !tgc.ptr<i1>
      %vm = tgc.load %pm : !tgc.ptr<i1> -> i1
      %plus = tgc.add %vr, %vb : f32
      %minus = tgc.sub %vr, %vb : f32
      %v = tgc.where %vm, %plus, %minus : i1, f32
      %po = tgc.index %out[%idx] : !tgc.ptr<f32>
      tgc.store %po, %v : !tgc.ptr<f32>, f32
      tgc.end %j
      tgc.end %i
      tgc.sink
    }
    return %y : tensor<2x2xf32>
  }
}
{-#
  dialect_resources: {
    builtin: {
      fc.weight: "0x040000000000803F00000000000080BF0000003F0000003F0000003F"
    }
  }
#-}
)mlir";

/// x = [[1, 2, 3], [4, 5, 6]], W = [[1, 0, -1], [.5, .5, .5]]:
/// x @ W^T = [[-2, 3], [-2, 7.5]]; column 0 adds 10, column 1 subtracts 20.
const char *kExpected = "y: 8 -17 8 -12.5\n";

/// This file's scratch folder.
fs::path scratchDir() { return tgc::test::scratchDir("package"); }

std::string readFile(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeFile(const fs::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

/// Parses the model and writes its package into a fresh `dir`.
bool writeModelPackage(const fs::path &dir, const std::string &name,
                       bool weightsInFile) {
  mlir::MLIRContext context;
  context.loadDialect<mlir::tgc::TgcDialect, mlir::func::FuncDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kModel, &context);
  if (!module)
    return false;
  fs::remove_all(dir);
  fs::create_directories(dir);
  mlir::tgc::PackageOptions options;
  options.name = name;
  options.weightsInFile = weightsInFile;
  return mlir::succeeded(
      mlir::tgc::writePackage(*module, options, dir.string()));
}

/// Runs a shell command; its stdout and stderr go to `log`.
int run(const std::string &command, const fs::path &log) {
  std::string line = "(" + command + ") > '" + log.string() + "' 2>&1";
  return std::system(line.c_str());
}

const char *kStrict = "cc -std=c99 -O1 -Wall -Wextra -Werror -pedantic";

/// Builds `sources` with a main, runs it with `args` and returns what it
/// prints.
std::string buildAndRun(const fs::path &dir, const std::string &main,
                        const std::string &sources, const std::string &includes,
                        const std::string &args = "") {
  fs::path mainFile = dir / "main.c", program = dir / "main",
           log = dir / "build.log";
  writeFile(mainFile, main);
  std::string build = std::string(kStrict) + " " + includes + " " + sources +
                      " '" + mainFile.string() + "' -o '" + program.string() +
                      "' -lm";
  int status = run(build, log);
  INFO("build: " << build << "\n" << readFile(log));
  REQUIRE(status == 0);
  fs::path output = dir / "output.txt";
  REQUIRE(run("'" + program.string() + "' " + args, output) == 0);
  return readFile(output);
}

const char *kEmbeddedMain = R"c(
#include "net.h"
#include <stdio.h>
int main(void) {
  static unsigned char arena[NET_ARENA_BYTES] __attribute__((aligned(64)));
  static const float x[NET_X_ELEMS] = {1, 2, 3, 4, 5, 6};
  float y[NET_Y_ELEMS];
  net_inputs in;
  net_outputs out;
  int i;
  in.x = x;
  out.y = y;
  /* Errors come before any write. */
  if (net_run(NULL, &out, arena) != NET_ERR_NULL) return 2;
  out.y = NULL;
  if (net_run(&in, &out, arena) != NET_ERR_NULL) return 3;
  out.y = y;
  if (net_run(&in, &out, NULL) != NET_ERR_NULL) return 4;
  if (net_run(&in, &out, arena + 1) != NET_ERR_ALIGN) return 5;
  if (net_run(&in, &out, arena) != NET_OK) return 6;
  printf("y:");
  for (i = 0; i < NET_Y_ELEMS; ++i) printf(" %g", y[i]);
  printf("\n");
  return 0;
}
)c";

} // namespace

TEST_CASE("embedded weights: the package builds strictly and computes",
          "[package]") {
  fs::path dir = scratchDir() / "embedded";
  REQUIRE(writeModelPackage(dir, "net", /*weightsInFile=*/false));
  for (const char *file :
       {"net.h", "net.c", "net_weights.c", "net.json", "CMakeLists.txt"})
    CHECK(fs::exists(dir / file));
  CHECK_FALSE(fs::exists(dir / "net.safetensors"));

  std::string header = readFile(dir / "net.h");
  CHECK_THAT(header, Contains("#define NET_ARENA_BYTES 64"));
  CHECK_THAT(header, Contains("#define NET_WEIGHTS_BYTES 130"));
  CHECK_THAT(header, Contains("#define NET_X_SHAPE { 2, 3 }"));
  CHECK_THAT(header, Contains("cc -std=c99 -O2 -c net.c net_weights.c"));
  CHECK_THAT(header, Contains("extern \"C\""));

  // Binary weights in one string literal, never as numbers.
  std::string weights = readFile(dir / "net_weights.c");
  CHECK_THAT(weights, Contains("const unsigned char net_weights[130] ="));
  CHECK_THAT(weights, Contains("\"\\000\\000\\200\\077"));
  CHECK_THAT(weights, Contains("__attribute__((aligned(64)))"));

  std::string sources = "'" + (dir / "net.c").string() + "' '" +
                        (dir / "net_weights.c").string() + "'";
  CHECK(buildAndRun(dir, kEmbeddedMain, sources, "-I'" + dir.string() + "'") ==
        kExpected);
}

TEST_CASE("the manifest lists I/O, arena, weights and kernel costs",
          "[package]") {
  fs::path dir = scratchDir() / "manifest";
  REQUIRE(writeModelPackage(dir, "net", /*weightsInFile=*/false));
  auto manifest = nlohmann::json::parse(readFile(dir / "net.json"));
  CHECK(manifest["name"] == "net");
  CHECK(manifest["source"] == "unit/affine.onnx");
  CHECK(manifest["inputs"][0]["name"] == "x");
  CHECK(manifest["inputs"][0]["dtype"] == "float32");
  CHECK(manifest["inputs"][0]["shape"] == nlohmann::json::array({2, 3}));
  CHECK(manifest["outputs"][0]["c_name"] == "y");
  CHECK(manifest["arena_bytes"] == 64);
  CHECK(manifest["arena_align"] == 64);
  CHECK(manifest["peak_bytes"] == 16);
  CHECK(manifest["arena_waste_bytes"] == 48);
  CHECK(manifest["weights_mode"] == "embed");
  CHECK(manifest["weights_bytes"] == 130);
  CHECK(manifest["files"]["sources"] ==
        nlohmann::json::array({"net.c", "net_weights.c"}));

  auto kernels = manifest["kernels"];
  REQUIRE(kernels.size() == 2);
  // 2x2 outputs, 3 multiply-adds each, counted as 2 FLOPs.
  CHECK(kernels[0]["name"] == "r_2_2_3");
  CHECK(kernels[0]["function"] == "net_r_2_2_3");
  CHECK(kernels[0]["flops"] == 24);
  CHECK(kernels[0]["bytes"] == 24 + 24 + 16);
  CHECK(kernels[0]["opts"] == nlohmann::json::array({"LOCAL(0,2)"}));
  // add, sub and where per element; the index math is not counted.
  CHECK(kernels[1]["flops"] == 12);
  CHECK(kernels[1]["bytes"] == 16 + 8 + 2 + 16);
  CHECK_FALSE(kernels[1].contains("opts"));
}

TEST_CASE("file weights: safetensors layout, check and run", "[package]") {
  fs::path dir = scratchDir() / "file";
  REQUIRE(writeModelPackage(dir, "net", /*weightsInFile=*/true));
  CHECK_FALSE(fs::exists(dir / "net_weights.c"));
  std::string file = readFile(dir / "net.safetensors");

  // 8-byte little-endian header length, JSON, data 64-byte aligned.
  REQUIRE(file.size() > 8);
  uint64_t length = 0;
  for (int i = 7; i >= 0; --i)
    length = (length << 8) | static_cast<unsigned char>(file[i]);
  CHECK((8 + length) % 64 == 0);
  REQUIRE(8 + length + 130 == file.size());
  auto header = nlohmann::json::parse(file.substr(8, length));
  CHECK(header["__metadata__"]["format"] == "tgc");
  CHECK(header["fc.weight"]["dtype"] == "F32");
  CHECK(header["fc.weight"]["shape"] == nlohmann::json::array({2, 3}));
  CHECK(header["fc.weight"]["data_offsets"] == nlohmann::json::array({0, 24}));
  CHECK(header["const1"]["data_offsets"] == nlohmann::json::array({64, 72}));
  CHECK(header["const2"]["dtype"] == "BOOL");
  CHECK(header["const2"]["data_offsets"] == nlohmann::json::array({128, 130}));
  // Padding tensors keep the data free of holes, as readers require.
  CHECK(header["__tgc_pad0"]["data_offsets"] ==
        nlohmann::json::array({24, 64}));
  CHECK(header["__tgc_pad1"]["data_offsets"] ==
        nlohmann::json::array({72, 128}));
  // Booleans are one byte each.
  CHECK(file[8 + length + 128] == 1);
  CHECK(file[8 + length + 129] == 0);

  std::string header_h = readFile(dir / "net.h");
  CHECK_THAT(header_h, Contains("int net_weights_check(const void *file, "
                                "size_t size);"));
  CHECK_THAT(header_h, Contains("void *arena, const void *weights);"));

  const char *main = R"c(
#include "net.h"
#include <stdio.h>
static unsigned char file[NET_WEIGHTS_FILE_BYTES + 64] __attribute__((aligned(64)));
int main(int argc, char **argv) {
  static unsigned char arena[NET_ARENA_BYTES] __attribute__((aligned(64)));
  static const float x[NET_X_ELEMS] = {1, 2, 3, 4, 5, 6};
  float y[NET_Y_ELEMS];
  net_inputs in;
  net_outputs out;
  size_t size;
  int i;
  FILE *f = fopen(argc > 1 ? argv[1] : NET_WEIGHTS_FILE, "rb");
  if (!f) return 2;
  size = fread(file, 1, sizeof file, f);
  fclose(f);
  if (net_weights_check(file, size) != NET_OK) return 3;
  if (net_weights_check(file, size - 1) != NET_ERR_WEIGHTS) return 4;
  in.x = x;
  out.y = y;
  if (net_run(&in, &out, arena, NULL) != NET_ERR_NULL) return 5;
  if (net_run(&in, &out, arena, file + 8) != NET_ERR_ALIGN) return 6;
  if (net_run(&in, &out, arena, file) != NET_OK) return 7;
  printf("y:");
  for (i = 0; i < NET_Y_ELEMS; ++i) printf(" %g", y[i]);
  printf("\n");
  /* One flipped bit in the data fails the checksum. */
  file[size - 1] ^= 1;
  printf("corrupt: %d\n", net_weights_check(file, size) == NET_ERR_WEIGHTS);
  return 0;
}
)c";
  std::string output =
      buildAndRun(dir, main, "'" + (dir / "net.c").string() + "'",
                  "-I'" + dir.string() + "'",
                  "'" + (dir / "net.safetensors").string() + "'");
  CHECK(output == std::string(kExpected) + "corrupt: 1\n");
}

TEST_CASE("two models with different prefixes link into one program",
          "[package]") {
  fs::path a = scratchDir() / "two" / "a", b = scratchDir() / "two" / "b";
  REQUIRE(writeModelPackage(a, "net", /*weightsInFile=*/false));
  REQUIRE(writeModelPackage(b, "other", /*weightsInFile=*/false));
  const char *main = R"c(
#include "net.h"
#include "other.h"
#include <stdio.h>
int main(void) {
  static unsigned char arena[NET_ARENA_BYTES] __attribute__((aligned(64)));
  static unsigned char arena2[OTHER_ARENA_BYTES] __attribute__((aligned(64)));
  static const float x[NET_X_ELEMS] = {1, 2, 3, 4, 5, 6};
  float y[NET_Y_ELEMS], y2[OTHER_Y_ELEMS];
  net_inputs in;
  net_outputs out;
  other_inputs in2;
  other_outputs out2;
  int i;
  in.x = x;
  out.y = y;
  in2.x = x;
  out2.y = y2;
  if (net_run(&in, &out, arena) != NET_OK) return 2;
  if (other_run(&in2, &out2, arena2) != OTHER_OK) return 3;
  printf("y:");
  for (i = 0; i < NET_Y_ELEMS; ++i) printf(" %g", y[i] == y2[i] ? y[i] : -1.0f);
  printf("\n");
  return 0;
}
)c";
  std::string sources = "'" + (a / "net.c").string() + "' '" +
                        (a / "net_weights.c").string() + "' '" +
                        (b / "other.c").string() + "' '" +
                        (b / "other_weights.c").string() + "'";
  CHECK(buildAndRun(scratchDir() / "two", main, sources,
                    "-I'" + a.string() + "' -I'" + b.string() + "'") ==
        kExpected);
}

TEST_CASE("a tune harness times two packages of one model in turns",
          "[package][tune]") {
  fs::path dir = scratchDir() / "tune";
  fs::path h = dir / "h", b = dir / "b";
  REQUIRE(writeModelPackage(h, "h", /*weightsInFile=*/true));
  REQUIRE(writeModelPackage(b, "b", /*weightsInFile=*/true));
  // x: 2x3 floats in, y: 2x2 floats out.
  std::string harness = mlir::tgc::generateTuneHarness(
      {24}, {mlir::tgc::FillKind::Float32}, {16}, {"h", "b"});
  CHECK_THAT(harness, Contains("#define NUM_PKG 2"));
  CHECK_THAT(harness, Contains("h_outputs outputs = {out[0][0]};"));
  CHECK_THAT(harness, Contains("b_outputs outputs = {out[1][0]};"));
  writeFile(dir / "harness.c", harness);
  fs::path program = dir / "pair", log = dir / "build.log";
  std::string build =
      std::string(kStrict) + " -I'" + h.string() + "' -I'" + b.string() +
      "' '" + (h / "h.c").string() + "' '" + (b / "b.c").string() + "' '" +
      (dir / "harness.c").string() + "' '" + (h / "tgc_pool.c").string() +
      "' -o '" + program.string() + "' -lm -pthread";
  int status = run(build, log);
  INFO("build: " << build << "\n" << readFile(log));
  REQUIRE(status == 0);

  // WEIGHTS... THREADS MAX_RUNS BUDGET_MS CUTOFF_MS FLUSH_BYTES OUTPUTS.
  auto timePair = [&](const std::string &options) {
    std::string command = "'" + program.string() + "' '" +
                          (h / "h.safetensors").string() + "' '" +
                          (b / "b.safetensors").string() + "' " + options +
                          " '" + (dir / "outputs.bin").string() + "' 2>'" +
                          (dir / "run.log").string() + "'";
    INFO(command);
    REQUIRE(run(command, dir / "times.txt") == 0);
    return mlir::tgc::readTuneSamples((dir / "times.txt").string(), 2);
  };
  for (const char *options : {"1 4 1000 0 0", "2 4 1000 0 1048576"}) {
    INFO("options: " << options);
    auto rounds = timePair(options);
    // No early stop without a cutoff and within the budget: every round,
    // each with a sample of each package.
    CHECK(rounds.size() == 4);
    for (const auto &round : rounds) {
      CHECK(round[0] > 0);
      CHECK(round[1] > 0);
    }
    // Each package's outputs, one after the other: the same model on the
    // same inputs computes the same bytes.
    std::string outputs = readFile(dir / "outputs.bin");
    REQUIRE(outputs.size() == 32);
    CHECK(outputs.substr(0, 16) == outputs.substr(16));
    CHECK(outputs.substr(0, 16) != std::string(16, '\0'));
  }
  // A line of another count of numbers is no round of two packages.
  CHECK(mlir::tgc::readTuneSamples((dir / "times.txt").string(), 1).empty());
  // The usage names the weights file of each package.
  CHECK(run("'" + program.string() + "' only-one", dir / "usage.txt") != 0);
  CHECK_THAT(readFile(dir / "usage.txt"),
             Contains("WEIGHTS (one per package)"));
}

TEST_CASE("the package's CMakeLists.txt builds the library", "[package]") {
  fs::path dir = scratchDir() / "cmake";
  REQUIRE(writeModelPackage(dir, "net", /*weightsInFile=*/false));
  std::string cmake = readFile(dir / "CMakeLists.txt");
  CHECK_THAT(cmake, Contains("add_library(net STATIC net.c net_weights.c)"));
  CHECK_THAT(cmake, Contains("C_STANDARD 99"));
  fs::path build = dir / "build", log = dir / "cmake.log";
  int status = run("cmake -S '" + dir.string() + "' -B '" + build.string() +
                       "' -DCMAKE_C_FLAGS=-Werror && cmake --build '" +
                       build.string() + "'",
                   log);
  INFO(readFile(log));
  CHECK(status == 0);
  CHECK(fs::exists(build / "libnet.a"));
}

TEST_CASE("writePackage refuses what it cannot write", "[package]") {
  mlir::MLIRContext context;
  context.loadDialect<mlir::tgc::TgcDialect, mlir::func::FuncDialect>();
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(
      &context, [&](mlir::Diagnostic &diagnostic) {
        diagnostics += diagnostic.str() + "\n";
        return mlir::success();
      });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kModel, &context);
  REQUIRE(module);
  fs::path dir = scratchDir() / "refused";
  fs::create_directories(dir);

  mlir::tgc::PackageOptions options;
  options.target = "cuda";
  CHECK(mlir::failed(mlir::tgc::writePackage(*module, options, dir.string())));
  // A CUDA package needs its output axes mapped to GPU threads first.
  CHECK_THAT(diagnostics, Contains("tgc-gpu-dims maps them to GPU threads"));

  options.target = "c";
  options.name = "my-net";
  CHECK(mlir::failed(mlir::tgc::writePackage(*module, options, dir.string())));
  CHECK_THAT(diagnostics, Contains("'my-net' is not a C identifier"));
  // Nothing is written when the module is refused.
  CHECK(fs::is_empty(dir));
}

/// A 40x48 matmul over K = 20 with a bias and a ReLU, as lowered (the case
/// of test/lit/Codegen/gpu-tensor-cores.mlir).
const char *kMatmulKernel = R"mlir(
func.func @matmul_bias_relu(%a: tensor<40x20xf32>, %b: tensor<20x48xf32>,
                            %bias: tensor<48xf32>) -> tensor<40x48xf32> {
  %k = tgc.kernel "r_40_48_20" (%a, %b, %bias)
      : (tensor<40x20xf32>, tensor<20x48xf32>, tensor<48xf32>) -> tensor<40x48xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %pbias: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c20 = tgc.const 20 : index
    %c48 = tgc.const 48 : index
    %zero = tgc.const 0.0 : f32
    %i = tgc.range 40 global id 0
    %j = tgc.range 48 global id 1
    %k = tgc.range 20 reduce id 2
    %ai = tgc.mul %i, %c20 : index
    %ak = tgc.add %ai, %k : index
    %p = tgc.index %pa[%ak] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %bk = tgc.mul %k, %c48 : index
    %bj = tgc.add %bk, %j : index
    %q = tgc.index %pb[%bj] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %pbj = tgc.index %pbias[%j] : !tgc.ptr<f32>
    %bv = tgc.load %pbj : !tgc.ptr<f32> -> f32
    %t = tgc.add %s, %bv : f32
    %r = tgc.max %t, %zero : f32
    %oi = tgc.mul %i, %c48 : index
    %oj = tgc.add %oi, %j : index
    %o = tgc.index %out[%oj] : !tgc.ptr<f32>
    tgc.store %o, %r : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<40x48xf32>
}
)mlir";

/// `text` parsed, with the dialects of a kernel loaded into `context`.
static mlir::OwningOpRef<mlir::ModuleOp>
parseKernels(mlir::MLIRContext &context, const char *text) {
  context.loadDialect<mlir::tgc::TgcDialect, mlir::func::FuncDialect>();
  return mlir::parseSourceString<mlir::ModuleOp>(text, &context);
}

static mlir::tgc::KernelOp lastKernel(mlir::ModuleOp module) {
  mlir::tgc::KernelOp kernel;
  module->walk([&](mlir::tgc::KernelOp op) { kernel = op; });
  return kernel;
}

TEST_CASE("a tensor-core product counts its FLOPs in the kernel's cost",
          "[package]") {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      parseKernels(context, kMatmulKernel);
  REQUIRE(module);
  mlir::tgc::KernelOp kernel = lastKernel(*module);
  REQUIRE(kernel);
  std::optional<mlir::tgc::OptAction> tc =
      mlir::tgc::parseOptAction("TC(0,1,2,16)");
  REQUIRE(tc);
  std::string whyNot;
  REQUIRE(mlir::succeeded(mlir::tgc::applyOptAction(kernel, *tc, &whyNot)));
  // On tensor cores the tiles are padded to 48x48 and K to 24: 3x3 warps
  // of 32 threads, 3 products of 16x16x8 each, every thread counted its
  // 1/32 share; then the bias and the ReLU for each of the 40x48 elements
  // of the output (the padded rows' are under an `if` on the row, which
  // counts for its 40/48 share of the rows).
  CHECK(mlir::tgc::getKernelCost(kernel).flops ==
        2 * 48 * 48 * 24 + 2 * 40 * 48);
}

// A scale of 7x6 elements, one multiply each.
static const char *kScaleKernel = R"mlir(
func.func @scale(%x: tensor<7x6xf32>) -> tensor<7x6xf32> {
  %k = tgc.kernel "E_7_6" (%x) : (tensor<7x6xf32>) -> tensor<7x6xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c6 = tgc.const 6 : index
    %two = tgc.const 2.0 : f32
    %i = tgc.range 7 global id 0
    %j = tgc.range 6 global id 1
    %row = tgc.mul %i, %c6 : index
    %a = tgc.add %row, %j : index
    %p = tgc.index %in[%a] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %y = tgc.mul %v, %two : f32
    %o = tgc.index %out[%a] : !tgc.ptr<f32>
    tgc.store %o, %y : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<7x6xf32>
}
)mlir";

TEST_CASE("a padded kernel's FLOPs count its elements, not its idle lanes",
          "[package]") {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      parseKernels(context, kScaleKernel);
  REQUIRE(module);
  mlir::tgc::KernelOp kernel = lastKernel(*module);
  REQUIRE(kernel);
  CHECK(mlir::tgc::getUsefulCost(kernel).flops == 7 * 6);
  for (const char *text : {"PADTO(0,8)", "PADTO(1,8)"}) {
    std::string whyNot;
    REQUIRE(mlir::succeeded(mlir::tgc::applyOptAction(
        kernel, *mlir::tgc::parseOptAction(text), &whyNot)));
  }
  // The padded loops multiply 8x8 times; 42 of those hold elements.
  CHECK(mlir::tgc::getKernelCost(kernel).flops == 8 * 8);
  CHECK(mlir::tgc::getUsefulCost(kernel).flops == 7 * 6);
}

// Two parts along the outer axis, then a bias: one add per element once
// tgc-unswitch has copied the inner loop per part (the axis is threaded,
// so the copies go under ifs on it), or split the axis into one loop per
// part (AXIS global).
static const char *kConcatKernel = R"mlir(
func.func @concat(%a: tensor<1x8xf32>, %b: tensor<3x8xf32>) -> tensor<4x8xf32> {
  %k = tgc.kernel "E_4_8" (%a, %b) : (tensor<1x8xf32>, tensor<3x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %c1 = tgc.const 1 : index
    %c8 = tgc.const 8 : index
    %m8 = tgc.const -8 : index
    %zero = tgc.const 0.0 : f32
    %one = tgc.const 1.0 : f32
    %c = tgc.range 4 AXIS id 0
    %inA = tgc.cmplt %c, %c1 : index
    %inB = tgc.cmplt %c0, %c : index
    %row = tgc.mul %c, %c8 : index
    %j = tgc.range 8 global id 1
    %at = tgc.add %row, %j : index
    %atB = tgc.add %at, %m8 : index
    %ia = tgc.index %pa[%at], %inA : !tgc.ptr<f32>
    %ib = tgc.index %pb[%atB], %inB : !tgc.ptr<f32>
    %va = tgc.load %ia else %zero : !tgc.ptr<f32> -> f32
    %vb = tgc.load %ib else %zero : !tgc.ptr<f32> -> f32
    %v = tgc.where %inB, %vb, %va : i1, f32
    %s = tgc.add %v, %one : f32
    %o = tgc.index %out[%at] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %c
    tgc.sink
  }
  return %k : tensor<4x8xf32>
}
)mlir";

TEST_CASE("a loop copied per part counts each copy for its part's share",
          "[package]") {
  // Copied under an if per part (threaded), or split into a loop per part.
  auto [axis, expectedIfs] = GENERATE(std::pair<std::string, int>{"thread", 2},
                                      std::pair<std::string, int>{"global", 0});
  std::string source = kConcatKernel;
  source.replace(source.find("AXIS"), 4, axis);
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      parseKernels(context, source.c_str());
  REQUIRE(module);
  // Before: the select and the add for each of the 32 elements.
  CHECK(mlir::tgc::getKernelCost(lastKernel(*module)).flops == 2 * 32);
  mlir::PassManager pm(&context);
  pm.addPass(mlir::tgc::createTgcUnswitch());
  REQUIRE(mlir::succeeded(pm.run(*module)));
  int ifs = 0, wheres = 0;
  module->walk([&](mlir::tgc::IfOp) { ++ifs; });
  module->walk([&](mlir::tgc::WhereOp) { ++wheres; });
  REQUIRE(ifs == expectedIfs);
  REQUIRE(wheres == 0);
  // After: the part of 1 row counts 1/4 of 32 adds, the part of 3 rows 3/4.
  CHECK(mlir::tgc::getKernelCost(lastKernel(*module)).flops == 32);
}
