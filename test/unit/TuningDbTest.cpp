//===- TuningDbTest.cpp - tests for Codegen/TuningDb -------------*- C++ -*-===//
//
// The tuning database's promises: a kernel's hash sees its structure and
// nothing else, a key changes with every field of the context, the file
// reads back to the same entries and the same bytes, and a file that is not
// a database or holds an entry edited by hand is refused with the reason.
//
//===----------------------------------------------------------------------===//

#include "Codegen/TuningDb.h"
#include "IR/TgcOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// A row sum kernel over `rows` x 16 with the given name and location; its
/// input a function argument or (`constInput`) a constant.
std::string rowSum(const std::string &name, int rows, bool constInput,
                   const std::string &loc = "unknown") {
  std::string shape = std::to_string(rows) + "x16xf32";
  std::string out = std::to_string(rows) + "xf32";
  std::string input = constInput ? "%c" : "%a";
  std::string text = "func.func @f(%a: tensor<" + shape + ">) -> tensor<" +
                     out + "> {\n";
  if (constInput)
    text += "  %c = tgc.const dense<1.0> : tensor<" + shape + ">\n";
  text += "  %k = tgc.kernel \"" + name + "\" (" + input + ") : (tensor<" +
          shape + ">) -> tensor<" + out + "> {\n"
          "  ^bb0(%p: !tgc.ptr<f32>, %o: !tgc.ptr<f32>):\n"
          "    %c16 = tgc.const 16 : index\n"
          "    %i = tgc.range " + std::to_string(rows) + " global id 0\n"
          "    %j = tgc.range 16 reduce id 1\n"
          "    %a0 = tgc.mul %i, %c16 : index\n"
          "    %a1 = tgc.add %a0, %j : index\n"
          "    %q = tgc.index %p[%a1] : !tgc.ptr<f32>\n"
          "    %x = tgc.load %q : !tgc.ptr<f32> -> f32\n"
          "    tgc.end %j\n"
          "    %s = tgc.reduce add %x over %j : f32 loc(" + loc + ")\n"
          "    %r = tgc.index %o[%i] : !tgc.ptr<f32>\n"
          "    tgc.store %r, %s : !tgc.ptr<f32>, f32\n"
          "    tgc.end %i\n"
          "    tgc.sink\n"
          "  }\n"
          "  return %k : tensor<" + out + ">\n}\n";
  return text;
}

std::string hashOf(MLIRContext &context, const std::string &text) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  REQUIRE(module);
  KernelOp kernel;
  module->walk([&](KernelOp k) { kernel = k; });
  REQUIRE(kernel);
  return hashKernel(kernel);
}

TuningContext someContext() {
  TuningContext context;
  context.cpu = "sapphirerapids";
  context.cpuModel = "Some CPU";
  context.isa = "avx512f";
  context.compiler = "cc 12";
  context.cflags = "-O3 -march=native";
  context.options = "thread-tasks=8";
  return context;
}

TuningEntry someEntry(const std::string &kernelHash) {
  TuningEntry entry;
  entry.kernelName = "r_4_16";
  entry.kernelHash = kernelHash;
  entry.context = someContext();
  entry.key = makeTuningKey(kernelHash, entry.context.serialize());
  entry.actions = {"UNROLL(1,16)", "THREAD(0,2)"};
  entry.heuristicActions = {"UNROLL(1,16)"};
  entry.heuristicMs = 0.5;
  entry.bestMs = 0.25;
  entry.beam = 2;
  entry.candidates = 17;
  entry.searchActions = entry.actions;
  entry.modelHeuristicMs = 1.5;
  entry.modelTunedMs = 1.25;
  entry.modelOtherThreads = 2;
  entry.modelOtherHeuristicMs = 0.75;
  entry.modelOtherTunedMs = 0.625;
  entry.modelShift = 1.125;
  entry.modelMargin = 0.0625;
  entry.modelOtherShift = 0.875;
  entry.modelOtherMargin = 0.15;
  return entry;
}

} // namespace

TEST_CASE("hashKernel sees structure, not names or places", "[tuning]") {
  DialectRegistry registry;
  registry.insert<TgcDialect, func::FuncDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string base = hashOf(context, rowSum("r_4_16", 4, false));
  CHECK(base.size() == 64);
  CHECK(base.find_first_not_of("0123456789abcdef") == std::string::npos);
  // The same kernel under another name, from another node: the same hash.
  CHECK(hashOf(context, rowSum("r_4_16_1", 4, false,
                               "\"model.onnx\":3:7")) == base);
  // Another bound, or the input a constant (PACK applies to it): another.
  CHECK(hashOf(context, rowSum("r_4_16", 8, false)) != base);
  CHECK(hashOf(context, rowSum("r_4_16", 4, true)) != base);
}

TEST_CASE("a tuning key changes with every context field", "[tuning]") {
  TuningContext context = someContext();
  std::string hash(64, 'a');
  std::string key = makeTuningKey(hash, context.serialize());
  CHECK(key == makeTuningKey(hash, someContext().serialize()));
  CHECK(makeTuningKey(std::string(64, 'b'), context.serialize()) != key);
  for (std::string TuningContext::*field :
       {&TuningContext::target, &TuningContext::cpu, &TuningContext::cpuModel,
        &TuningContext::isa, &TuningContext::compiler, &TuningContext::cflags,
        &TuningContext::options}) {
    TuningContext changed = context;
    changed.*field += "x";
    CHECK(makeTuningKey(hash, changed.serialize()) != key);
  }
  // A separator inside a value cannot make two contexts read alike.
  TuningContext a = context, b = context;
  a.cpu = "x;isa=y";
  b.cpu = "x";
  b.isa = "y";
  CHECK(a.serialize() != b.serialize());
}

TEST_CASE("a tuning database reads back to the same bytes", "[tuning]") {
  TuningDb db;
  db.insert(someEntry(std::string(64, 'b')));
  db.insert(someEntry(std::string(64, 'a')));
  std::string text = db.serialize();

  TuningDb read;
  std::string error;
  REQUIRE(read.parse(text, error));
  CHECK(read.serialize() == text);
  REQUIRE(read.getEntries().size() == 2);
  TuningEntry expected = someEntry(std::string(64, 'a'));
  const TuningEntry *entry = read.lookup(expected.key);
  REQUIRE(entry);
  CHECK(entry->kernelName == "r_4_16");
  CHECK(entry->actions == expected.actions);
  CHECK(entry->heuristicActions == expected.heuristicActions);
  CHECK(entry->context == expected.context);
  CHECK(entry->heuristicMs == 0.5);
  CHECK(entry->bestMs == 0.25);
  CHECK(entry->candidates == 17);
  CHECK(entry->searchActions == expected.searchActions);
  CHECK(entry->modelHeuristicMs == 1.5);
  CHECK(entry->modelTunedMs == 1.25);
  CHECK(entry->modelOtherThreads == 2);
  CHECK(entry->modelOtherHeuristicMs == 0.75);
  CHECK(entry->modelOtherTunedMs == 0.625);
  CHECK(entry->modelShift == 1.125);
  CHECK(entry->modelMargin == 0.0625);
  CHECK(entry->modelOtherShift == 0.875);
  CHECK(entry->modelOtherMargin == 0.15);
  CHECK(read.lookup(std::string(64, '0')) == nullptr);

  // A database from before the check inside the model: no model times, no
  // search actions, and it still reads.
  std::string old = text;
  for (const char *field :
       {"search_actions", "model_heuristic_ms", "model_tuned_ms",
        "model_other_threads", "model_other_heuristic_ms",
        "model_other_tuned_ms", "model_shift", "model_margin",
        "model_other_shift", "model_other_margin"}) {
    nlohmann::json json = nlohmann::json::parse(old);
    for (auto &item : json["entries"])
      item.erase(field);
    old = json.dump();
  }
  TuningDb older;
  REQUIRE(older.parse(old, error));
  REQUIRE(older.lookup(expected.key));
  CHECK(older.lookup(expected.key)->modelTunedMs == 0);
  CHECK(older.lookup(expected.key)->modelOtherThreads == 0);
  CHECK(older.lookup(expected.key)->searchActions.empty());
  // Judged, then, against the fixed margin of a quiet host.
  CHECK(older.lookup(expected.key)->modelShift == 1);
  CHECK(older.lookup(expected.key)->modelMargin == kModelTimingMargin);

  // Entries come out sorted by key, whatever the order they went in.
  TuningDb reversed;
  reversed.insert(someEntry(std::string(64, 'a')));
  reversed.insert(someEntry(std::string(64, 'b')));
  CHECK(reversed.serialize() == text);

  // Through a file.
  llvm::SmallString<128> path;
  REQUIRE(!llvm::sys::fs::createTemporaryFile("tgc-tuning", "json", path));
  REQUIRE(db.save(path, error));
  TuningDb loaded;
  REQUIRE(loaded.load(path, error));
  CHECK(loaded.serialize() == text);
  llvm::sys::fs::remove(path);
  CHECK_FALSE(loaded.load(path, error));
  CHECK(error.find(path.str().str()) != std::string::npos);
  CHECK(error.find("cannot read the tuning database") != std::string::npos);
  REQUIRE(loaded.load(path, error, /*missingIsEmpty=*/true));
  CHECK(loaded.getEntries().empty());
}

TEST_CASE("a file that is not a tuning database is refused", "[tuning]") {
  TuningDb db;
  std::string error;
  CHECK_FALSE(db.parse("{", error));
  CHECK(error == "is not valid JSON");
  CHECK_FALSE(db.parse(R"({"entries": []})", error));
  CHECK(error.find("is not a tuning database") != std::string::npos);
  CHECK_FALSE(db.parse(R"({"format": "tgc-tuning-db", "version": 9,
                           "entries": []})",
                       error));
  CHECK(error.find("unsupported version") != std::string::npos);

  TuningDb one;
  one.insert(someEntry(std::string(64, 'a')));
  std::string good = one.serialize();
  REQUIRE(db.parse(good, error));

  auto edited = [&](const std::string &from, const std::string &to) {
    std::string text = good;
    size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  // A context edited by hand no longer matches the key.
  CHECK_FALSE(db.parse(edited("\"sapphirerapids\"", "\"znver4\""), error));
  CHECK(error ==
        "entry 0: the key is not the hash of its kernel_hash and context");
  CHECK_FALSE(db.parse(edited("\"UNROLL(1,16)\"", "\"SPIN(1,16)\""), error));
  CHECK(error == "entry 0: 'SPIN(1,16)' is not an opt action");
  CHECK_FALSE(db.parse(edited("\"kernel\":", "\"kernel_name\":"), error));
  CHECK(error == "entry 0: 'kernel' is missing or not a string");
  // A refused file leaves the entries read before in place.
  CHECK(db.getEntries().size() == 1);
}

namespace {

GraphChoice someGraphChoice(const std::string &modelHash) {
  GraphChoice choice;
  choice.model = "resnet18.onnx";
  choice.modelHash = modelHash;
  choice.option = "winograd";
  choice.value = "always";
  choice.given = {{"conv-layout", "auto"}};
  choice.context = someContext();
  choice.key = makeGraphChoiceKey(modelHash, choice.option, choice.given,
                                  choice.context.serialize());
  choice.modelMs = {{"auto", 22.5}, {"always", 20.25}};
  return choice;
}

} // namespace

TEST_CASE("graph choices read back and are refused when edited", "[tuning]") {
  TuningDb db;
  db.insert(someEntry(std::string(64, 'a')));
  std::string entriesOnly = db.serialize();
  // A database without graph choices is written as before they existed.
  CHECK(entriesOnly.find("graph_choices") == std::string::npos);
  db.insertGraphChoice(someGraphChoice(std::string(64, 'd')));
  db.insertGraphChoice(someGraphChoice(std::string(64, 'c')));
  std::string text = db.serialize();

  TuningDb read;
  std::string error;
  REQUIRE(read.parse(text, error));
  CHECK(read.serialize() == text);
  REQUIRE(read.getGraphChoices().size() == 2);
  GraphChoice expected = someGraphChoice(std::string(64, 'c'));
  const GraphChoice *choice = read.lookupGraphChoice(expected.key);
  REQUIRE(choice);
  CHECK(choice->value == "always");
  CHECK(choice->model == "resnet18.onnx");
  CHECK(choice->context == expected.context);
  CHECK(choice->modelMs == expected.modelMs);
  CHECK(read.lookupGraphChoice(std::string(64, '0')) == nullptr);
  // The key of a kernel entry is no graph choice's, and the reverse.
  CHECK(read.lookup(expected.key) == nullptr);

  // Every part of the key changes it.
  TuningContext other = someContext();
  other.cpu = "znver4";
  CHECK(choice->given == expected.given);
  CHECK(makeGraphChoiceKey(expected.modelHash, "winograd", expected.given,
                           other.serialize()) != expected.key);
  CHECK(makeGraphChoiceKey(std::string(64, 'e'), "winograd", expected.given,
                           expected.context.serialize()) != expected.key);
  CHECK(makeGraphChoiceKey(expected.modelHash, "conv_layout", expected.given,
                           expected.context.serialize()) != expected.key);
  CHECK(makeGraphChoiceKey(expected.modelHash, "winograd",
                           {{"conv-layout", "nhwc"}},
                           expected.context.serialize()) != expected.key);

  auto edited = [&](const std::string &from, const std::string &to) {
    std::string copy = text;
    size_t at = copy.rfind(from);
    REQUIRE(at != std::string::npos);
    return copy.replace(at, from.size(), to);
  };
  CHECK_FALSE(read.parse(edited("\"sapphirerapids\"", "\"znver4\""), error));
  CHECK(error == "graph choice 1: the key is not the hash of its "
                 "model_hash, option, given and context");
  // The other options it was chosen with are part of the key.
  CHECK_FALSE(read.parse(
      edited("\"conv-layout\": \"auto\"", "\"conv-layout\": \"nhwc\""), error));
  CHECK(error == "graph choice 1: the key is not the hash of its "
                 "model_hash, option, given and context");
  CHECK_FALSE(
      read.parse(edited("\"value\": \"always\"", "\"value\": \"2x2\""), error));
  CHECK(error == "graph choice 1: winograd value '2x2' is not auto or always");
  CHECK_FALSE(read.parse(
      edited("\"option\": \"winograd\"", "\"option\": \"layout\""), error));
  CHECK(error ==
        "graph choice 1: unknown option 'layout' (winograd or conv-layout)");
  // A layout's choice takes the layouts, not Winograd's values.
  CHECK_FALSE(read.parse(
      edited("\"option\": \"winograd\"", "\"option\": \"conv-layout\""),
      error));
  CHECK(error ==
        "graph choice 1: conv-layout value 'always' is not auto, nchw or nhwc");
}

TEST_CASE("a graph choice from before 'given' was recorded still reads",
          "[tuning]") {
  GraphChoice older = someGraphChoice(std::string(64, 'f'));
  older.given.clear();
  older.key = makeGraphChoiceKey(older.modelHash, older.option, {},
                                 older.context.serialize());
  TuningDb db;
  db.insertGraphChoice(older);
  std::string text = db.serialize();
  size_t given = text.find("\"given\": {},");
  REQUIRE(given != std::string::npos);
  text.erase(given, std::string("\"given\": {},").size());

  TuningDb read;
  std::string error;
  REQUIRE(read.parse(text, error));
  const GraphChoice *choice = read.lookupGraphChoice(older.key);
  REQUIRE(choice);
  CHECK(choice->given.empty());
  // No lookup finds it: every lookup gives the other options.
  CHECK(read.lookupGraphChoice(someGraphChoice(older.modelHash).key) ==
        nullptr);
}

TEST_CASE("a model's graph hash sees ops and shapes, not weight values",
          "[tuning]") {
  DialectRegistry registry;
  registry.insert<TgcDialect, func::FuncDialect>();
  MLIRContext context(registry);
  auto hashOfModel = [&](const std::string &text) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
    REQUIRE(module);
    return hashModelGraph(*module);
  };
  std::string ones = rowSum("k", 4, /*constInput=*/true);
  std::string twos = ones;
  twos.replace(twos.find("dense<1.0>"), 10, "dense<2.0>");
  std::string wider = rowSum("k", 8, /*constInput=*/true);
  // A splat is short enough to print: its value is part of the text.
  CHECK(hashOfModel(ones) != hashOfModel(twos));
  CHECK(hashOfModel(ones) == hashOfModel(ones));
  CHECK(hashOfModel(ones) != hashOfModel(wider));
  // A large constant is elided: two models that differ only in its values
  // hash alike.
  auto withWeights = [](int first) {
    std::string values;
    for (int i = 0; i < 64; ++i)
      values += (i ? ", " : "") + std::to_string(i == 0 ? first : i) + ".0";
    return "func.func @f() -> tensor<64xf32> {\n"
           "  %c = tgc.const dense<[" +
           values +
           "]> : tensor<64xf32>\n"
           "  return %c : tensor<64xf32>\n}\n";
  };
  CHECK(hashOfModel(withWeights(7)) == hashOfModel(withWeights(9)));

  // Blobs are known by their order of use, not their names: a graph
  // decomposed twice in one context names its new weights apart (MLIR
  // appends a counter), and must hash alike.
  auto withBlobs = [](const std::string &first, const std::string &second) {
    std::string blob = "\"0x04000000" + std::string(8 * 4, '0') + "\"";
    return "func.func @f() -> (tensor<2x2xf32>, tensor<4xf32>) {\n"
           "  %a = tgc.const dense_resource<" +
           first +
           "> : tensor<2x2xf32>\n"
           "  %b = tgc.const dense_resource<" +
           second +
           "> : tensor<4xf32>\n"
           "  return %a, %b : tensor<2x2xf32>, tensor<4xf32>\n}\n"
           "{-#\n  dialect_resources: {\n    builtin: {\n      " +
           first + ": " + blob + ",\n      " + second + ": " + blob +
           "\n    }\n  }\n#-}\n";
  };
  std::string named = hashOfModel(withBlobs("w_winograd", "v"));
  CHECK(hashOfModel(withBlobs("w_winograd_1", "v_1")) == named);
  CHECK(hashOfModel(withBlobs("v", "w_winograd")) == named);
  // A name used twice is one blob: not the graph of two.
  auto twice = [](const std::string &second) {
    std::string blob = "\"0x04000000" + std::string(8 * 4, '0') + "\"";
    return "func.func @f() -> (tensor<4xf32>, tensor<4xf32>) {\n"
           "  %a = tgc.const dense_resource<w> : tensor<4xf32>\n"
           "  %b = tgc.const dense_resource<" +
           second +
           "> : tensor<4xf32>\n"
           "  return %a, %b : tensor<4xf32>, tensor<4xf32>\n}\n"
           "{-#\n  dialect_resources: {\n    builtin: {\n      w: " +
           blob + (second == "w" ? "" : ",\n      " + second + ": " + blob) +
           "\n    }\n  }\n#-}\n";
  };
  CHECK(hashOfModel(twice("w")) != hashOfModel(twice("v")));
}
