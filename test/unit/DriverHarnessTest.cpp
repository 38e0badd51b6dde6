//===- DriverHarnessTest.cpp - tests for the run harness -------*- C++ -*-===//
//
// The generated C harness fills the package's I/O structs positionally with
// buffers of the signature's sizes; output file names are safe paths. The
// bench harness links a second build in where asked, and its pairs are read
// by their ratios.
//
//===----------------------------------------------------------------------===//

#include "Driver/Bench.h"
#include "Driver/Harness.h"
#include "Driver/KernelTimes.h"
#include "Driver/HostRunner.h"

#include <catch2/catch.hpp>

using namespace mlir::tgc;
using Catch::Matchers::Contains;
using ::tgc::DType;

namespace {

TensorSpec spec(const char *name, DType dtype,
                std::initializer_list<int64_t> shape) {
  TensorSpec s;
  s.name = name;
  s.dtype = dtype;
  s.shape.assign(shape.begin(), shape.end());
  return s;
}

/// A model of one float input x and one float output y, 4 elements each.
ModelSignature vectorToVector() {
  ModelSignature signature;
  signature.inputs.push_back(spec("x", DType::Float, {4}));
  signature.outputs.push_back(spec("y", DType::Float, {4}));
  return signature;
}

} // namespace

TEST_CASE("tensorBytes multiplies the shape by the element size", "[harness]") {
  CHECK(tensorBytes(spec("x", DType::Float, {2, 3})) == 24);
  CHECK(tensorBytes(spec("x", DType::Int64, {})) == 8);
  CHECK(tensorBytes(spec("x", DType::Bool, {5})) == 5);
  CHECK(tensorBytes(spec("x", DType::Float16, {4, 0})) == 0);
}

TEST_CASE("the harness matches the signature", "[harness]") {
  ModelSignature signature;
  signature.inputs.push_back(spec("image", DType::Float, {1, 3}));
  signature.inputs.push_back(spec("mask", DType::Bool, {1, 3}));
  signature.outputs.push_back(spec("scores", DType::Int64, {2}));
  std::string c = generateHarness(signature, "model");
  CHECK_THAT(c, Contains("#include \"model.h\""));
  CHECK_THAT(c, Contains("MODEL_NUM_INPUTS == NUM_IN"));
  CHECK_THAT(c, Contains("MODEL_ARENA_BYTES"));
  CHECK_THAT(c, Contains("static const size_t in_bytes[] = {12, 3};"));
  CHECK_THAT(c, Contains("static const size_t out_bytes[] = {16};"));
  CHECK_THAT(c, Contains("model_inputs inputs = {in[0], in[1]};"));
  CHECK_THAT(c, Contains("model_outputs outputs = {out[0]};"));
  CHECK_THAT(c, Contains("status = model_run(&inputs, &outputs, arena);"));
  CHECK_THAT(c, Contains("#define THREADS 1"));
}

TEST_CASE("a harness for several threads runs the model on the pool",
          "[harness]") {
  ModelSignature signature = vectorToVector();
  std::string c = generateHarness(signature, "net", 3);
  CHECK_THAT(c, Contains("#define THREADS 3"));
  CHECK_THAT(c, Contains("#include \"tgc_pool.h\""));
  CHECK_THAT(c, Contains("tgc_pool *pool = tgc_pool_create(THREADS);"));
  CHECK_THAT(c, Contains("status = net_run_parallel(&inputs, &outputs, arena, "
                         "tgc_pool_parallel_for,"));
}

TEST_CASE("a model without inputs gets placeholder initializers", "[harness]") {
  ModelSignature signature;
  signature.outputs.push_back(spec("y", DType::Float, {1}));
  std::string c = generateHarness(signature, "net");
  CHECK_THAT(c, Contains("static const size_t in_bytes[] = {0};"));
  CHECK_THAT(c, Contains("net_inputs inputs = {0};"));
}

TEST_CASE("tensor names become safe file names", "[harness]") {
  CHECK(tensorFileStem("output") == "output");
  CHECK(tensorFileStem("model/dense/BiasAdd:0") == "model_dense_BiasAdd:0");
  CHECK(tensorFileStem("..") == "_..");
  CHECK(tensorFileStem("") == "_");
  CHECK(withoutFilePrefix("x.npy: truncated", "x.npy") == "truncated");
  CHECK(withoutFilePrefix("y.npy: truncated", "x.npy") == "y.npy: truncated");
}

TEST_CASE("a bench harness pairs with a second package where given",
          "[harness]") {
  ModelSignature signature = vectorToVector();
  std::string alone = generateBenchHarness(signature, "net");
  CHECK_THAT(alone, Contains("#define HAS_OTHER 0"));
  CHECK_THAT(alone, !Contains("heuristic"));
  std::string paired = generateBenchHarness(signature, "net", 0, "heuristic");
  CHECK_THAT(paired, Contains("#include \"heuristic.h\""));
  CHECK_THAT(paired, Contains("#define HAS_OTHER 1"));
  CHECK_THAT(paired, Contains("HEURISTIC_ARENA_BYTES"));
  CHECK_THAT(paired, Contains("heuristic_inputs inputs = {in[0]};"));
  CHECK_THAT(paired, Contains("heuristic_run_parallel(&inputs, &outputs, "
                              "other_arena,"));
}

TEST_CASE("a paired speedup is the median of the pairs' ratios", "[harness]") {
  // Not the ratio of the medians (4 / 2 = 2): each pair shares its
  // seconds of the machine, and the pairs' ratios are 1, 3 and 1.5.
  double baseline[] = {2, 6, 4};
  double timed[] = {2, 2, 8.0 / 3};
  CHECK(pairedSpeedup(baseline, timed) == Approx(1.5));
}

TEST_CASE("a manifest's kernel choices are names with their actions",
          "[harness]") {
  const char *manifest = R"json({"kernels": [
    {"name": "r_4_8", "function": "net_r_4_8",
     "opts": ["UPCAST(1,8)", "UPCAST(0,4)"]},
    {"name": "E_4", "function": "net_E_4"}]})json";
  std::vector<std::string> choices = manifestKernelChoices(manifest);
  REQUIRE(choices.size() == 2);
  CHECK(choices[0] == "r_4_8 UPCAST(1,8) UPCAST(0,4)");
  CHECK(choices[1] == "E_4");
  CHECK(manifestKernelChoices("{").empty());
}
