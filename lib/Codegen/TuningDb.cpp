//===- TuningDb.cpp - measured opt actions, keyed by kernel ----*- C++ -*-===//
//
// The key hashes printed IR rather than a structural hash of the ops:
// printed text is the same in every process and every build, which an
// entry written today and read by tomorrow's compile needs.
//
//===----------------------------------------------------------------------===//

#include "Codegen/TuningDb.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include <nlohmann/json.hpp>

using namespace mlir;
using namespace mlir::tgc;
using Json = nlohmann::ordered_json;

namespace {

constexpr const char *kFormat = "tgc-tuning-db";
constexpr int kVersion = 1;

std::string sha256Hex(llvm::StringRef text) {
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(text.data()),
                              text.size()));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

/// The fields of a context with their JSON names, in the fixed order of
/// serialize().
template <typename Context, typename Fn>
void forEachField(Context &context, Fn fn) {
  fn("target", context.target);
  fn("cpu", context.cpu);
  fn("cpu_model", context.cpuModel);
  fn("isa", context.isa);
  fn("compiler", context.compiler);
  fn("cflags", context.cflags);
  fn("options", context.options);
}

Json contextToJson(const TuningContext &context) {
  Json json = Json::object();
  forEachField(context, [&](const char *name, const std::string &value) {
    json[name] = value;
  });
  return json;
}

/// Reads `json`'s string field `name` into `to`; false with the problem
/// passed to `fail` if it is missing or not a string.
template <typename Fail>
bool readString(const Json &json, const char *name, std::string &to,
                Fail fail) {
  auto it = json.find(name);
  if (it == json.end() || !it->is_string())
    return fail(std::string("'") + name + "' is missing or not a string");
  to = it->get<std::string>();
  return true;
}

/// Reads `json`'s "context" object into `context`; false with the problem
/// passed to `fail` if it or a field is missing.
template <typename Fail>
bool contextFromJson(const Json &json, TuningContext &context, Fail fail) {
  auto object = json.find("context");
  if (object == json.end() || !object->is_object())
    return fail("'context' is missing or not an object");
  bool ok = true;
  forEachField(context, [&](const char *name, std::string &value) {
    auto it = object->find(name);
    if (!ok)
      return;
    if (it == object->end() || !it->is_string())
      ok = fail(std::string("context field '") + name +
                "' is missing or not a string");
    else
      value = it->get<std::string>();
  });
  return ok;
}

Json toJson(const TuningEntry &entry) {
  return Json{{"key", entry.key},
              {"kernel", entry.kernelName},
              {"kernel_hash", entry.kernelHash},
              {"context", contextToJson(entry.context)},
              {"actions", entry.actions},
              {"heuristic_actions", entry.heuristicActions},
              {"heuristic_ms", entry.heuristicMs},
              {"best_ms", entry.bestMs},
              {"threads", entry.threads},
              {"beam", entry.beam},
              {"candidates", entry.candidates},
              {"search_actions", entry.searchActions},
              {"model_heuristic_ms", entry.modelHeuristicMs},
              {"model_tuned_ms", entry.modelTunedMs},
              {"model_other_threads", entry.modelOtherThreads},
              {"model_other_heuristic_ms", entry.modelOtherHeuristicMs},
              {"model_other_tuned_ms", entry.modelOtherTunedMs},
              {"model_shift", entry.modelShift},
              {"model_margin", entry.modelMargin},
              {"model_other_shift", entry.modelOtherShift},
              {"model_other_margin", entry.modelOtherMargin}};
}

/// Reads entry `index` of the file; false with `error` set if a field is
/// missing or of the wrong type.
bool fromJson(const Json &json, size_t index, TuningEntry &entry,
              std::string &error) {
  auto fail = [&](const std::string &what) {
    error = "entry " + std::to_string(index) + ": " + what;
    return false;
  };
  if (!json.is_object())
    return fail("is not an object");
  auto getString = [&](const char *name, std::string &to) {
    return readString(json, name, to, fail);
  };
  auto getStrings = [&](const char *name, std::vector<std::string> &to) {
    auto it = json.find(name);
    if (it == json.end() || !it->is_array())
      return fail(std::string("'") + name + "' is missing or not a list");
    for (const Json &item : *it) {
      if (!item.is_string())
        return fail(std::string("'") + name + "' holds a non-string");
      to.push_back(item.get<std::string>());
    }
    return true;
  };
  auto getNumber = [&](const char *name, auto &to) {
    auto it = json.find(name);
    if (it == json.end())
      return true; // measurements are informative; absent means unknown
    if (!it->is_number())
      return fail(std::string("'") + name + "' is not a number");
    to = it->get<std::decay_t<decltype(to)>>();
    return true;
  };
  if (!getString("key", entry.key) || !getString("kernel", entry.kernelName) ||
      !getString("kernel_hash", entry.kernelHash) ||
      !getStrings("actions", entry.actions) ||
      !getStrings("heuristic_actions", entry.heuristicActions) ||
      !getNumber("heuristic_ms", entry.heuristicMs) ||
      !getNumber("best_ms", entry.bestMs) ||
      !getNumber("threads", entry.threads) || !getNumber("beam", entry.beam) ||
      !getNumber("candidates", entry.candidates) ||
      !getNumber("model_heuristic_ms", entry.modelHeuristicMs) ||
      !getNumber("model_tuned_ms", entry.modelTunedMs) ||
      !getNumber("model_other_threads", entry.modelOtherThreads) ||
      !getNumber("model_other_heuristic_ms", entry.modelOtherHeuristicMs) ||
      !getNumber("model_other_tuned_ms", entry.modelOtherTunedMs) ||
      !getNumber("model_shift", entry.modelShift) ||
      !getNumber("model_margin", entry.modelMargin) ||
      !getNumber("model_other_shift", entry.modelOtherShift) ||
      !getNumber("model_other_margin", entry.modelOtherMargin))
    return false;
  // Written since the search's choice is confirmed inside the model.
  if (json.contains("search_actions") &&
      !getStrings("search_actions", entry.searchActions))
    return false;
  for (const std::string &action : entry.actions)
    if (!parseOptAction(action))
      return fail("'" + action + "' is not an opt action");
  return contextFromJson(json, entry.context, fail);
}

Json toJson(const GraphChoice &choice) {
  Json times = Json::object();
  for (const auto &[value, ms] : choice.modelMs)
    times[value] = ms;
  return Json{{"key", choice.key},
              {"model", choice.model},
              {"model_hash", choice.modelHash},
              {"option", choice.option},
              {"value", choice.value},
              {"given", choice.given},
              {"context", contextToJson(choice.context)},
              {"model_ms", times}};
}

/// Reads graph choice `index`; false with `error` set if a field is missing
/// or of the wrong type, or the value is not one the option takes.
bool fromJson(const Json &json, size_t index, GraphChoice &choice,
              std::string &error) {
  auto fail = [&](const std::string &what) {
    error = "graph choice " + std::to_string(index) + ": " + what;
    return false;
  };
  if (!json.is_object())
    return fail("is not an object");
  for (auto [name, to] : {std::pair{"key", &choice.key},
                          {"model", &choice.model},
                          {"model_hash", &choice.modelHash},
                          {"option", &choice.option},
                          {"value", &choice.value}})
    if (!readString(json, name, *to, fail))
      return false;
  if (choice.option == "winograd") {
    if (choice.value != "auto" && choice.value != "always")
      return fail("winograd value '" + choice.value +
                  "' is not auto or always");
  } else if (choice.option == "conv-layout") {
    if (choice.value != "auto" && choice.value != "nchw" &&
        choice.value != "nhwc")
      return fail("conv-layout value '" + choice.value +
                  "' is not auto, nchw or nhwc");
  } else {
    return fail("unknown option '" + choice.option +
                "' (winograd or conv-layout)");
  }
  // A choice from before the other options were recorded has none: its
  // key is then no lookup's, and a later tune makes the choice again.
  if (auto given = json.find("given"); given != json.end()) {
    if (!given->is_object())
      return fail("'given' is not an object");
    for (const auto &[name, value] : given->items()) {
      if (!value.is_string())
        return fail("'given' holds a non-string");
      choice.given[name] = value.get<std::string>();
    }
  }
  if (auto times = json.find("model_ms"); times != json.end()) {
    if (!times->is_object())
      return fail("'model_ms' is not an object");
    for (const auto &[value, ms] : times->items()) {
      if (!ms.is_number())
        return fail("'model_ms' holds a non-number");
      choice.modelMs[value] = ms.get<double>();
    }
  }
  return contextFromJson(json, choice.context, fail);
}

} // namespace

std::string TuningContext::serialize() const {
  std::string text;
  forEachField(*this, [&](const char *name, const std::string &value) {
    // A separator inside a value would let two contexts serialize alike.
    std::string flat = value;
    std::replace(flat.begin(), flat.end(), ';', ',');
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    text += (text.empty() ? "" : ";") + std::string(name) + "=" + flat;
  });
  return text;
}

std::string mlir::tgc::hashKernel(KernelOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (Value input : kernel.getInputs())
    os << (input.getDefiningOp<ConstOp>() ? "const " : "input ")
       << input.getType() << "\n";
  for (Type type : kernel.getResultTypes())
    os << "result " << type << "\n";
  // Numbered within the kernel (it is isolated from above), without
  // locations, which name the ONNX nodes.
  OpPrintingFlags flags;
  flags.useLocalScope();
  AsmState state(kernel, flags);
  Block &block = kernel.getBlock();
  for (BlockArgument arg : block.getArguments()) {
    arg.printAsOperand(os, state);
    os << ": " << arg.getType() << "\n";
  }
  for (Operation &op : block) {
    op.print(os, state);
    os << "\n";
  }
  return sha256Hex(text);
}

namespace {

/// `text` with the name of every `dense_resource<NAME>` replaced by its
/// number in order of first use. A blob's name is unique in its context:
/// MLIR appends a counter to a name taken, so the same graph decomposed
/// twice in one context (TuneGraph's auto and always) names its
/// transformed weights apart (`w_winograd`, `w_winograd_1`) and would hash
/// apart.
std::string numberResources(StringRef text) {
  static constexpr StringLiteral kOpen = "dense_resource<";
  llvm::StringMap<unsigned> numbers;
  std::string out;
  out.reserve(text.size());
  while (true) {
    size_t at = text.find(kOpen);
    size_t end = at == StringRef::npos ? at : text.find('>', at);
    if (end == StringRef::npos) {
      out += text;
      return out;
    }
    size_t nameStart = at + kOpen.size();
    StringRef name = text.slice(nameStart, end);
    unsigned number = numbers.try_emplace(name, numbers.size()).first->second;
    out += text.take_front(nameStart);
    out += "#" + std::to_string(number);
    text = text.drop_front(end);
  }
}

} // namespace

std::string mlir::tgc::hashModelGraph(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  // Weights are constants: their bytes would make the hash cost as much as
  // the model and tie it to values that do not change what is fastest.
  OpPrintingFlags flags;
  flags.elideLargeElementsAttrs(16).elideLargeResourceString(16);
  // The ops only: the module's attributes name the file it came from
  // (tgc.source), and a model moved or reached by another path is the same
  // model.
  for (Operation &op : module.getBody()->getOperations()) {
    op.print(os, flags);
    os << "\n";
  }
  return sha256Hex(numberResources(text));
}

std::string
mlir::tgc::makeGraphChoiceKey(llvm::StringRef modelHash, llvm::StringRef option,
                              const std::map<std::string, std::string> &given,
                              llvm::StringRef serializedContext) {
  // Option names and values are words: no separator can hide in them.
  // None given is the key of a choice from before they were recorded.
  std::string others;
  for (const auto &[name, value] : given)
    others += name + "=" + value + ";";
  if (!others.empty())
    others += "\n";
  return sha256Hex(
      (modelHash + "\n" + option + "\n" + others + serializedContext).str());
}

std::string mlir::tgc::makeTuningKey(llvm::StringRef kernelHash,
                                     llvm::StringRef serializedContext) {
  return sha256Hex((kernelHash + "\n" + serializedContext).str());
}

bool TuningDb::parse(llvm::StringRef text, std::string &error) {
  Json json = Json::parse(text.begin(), text.end(), /*cb=*/nullptr,
                          /*allow_exceptions=*/false);
  if (json.is_discarded()) {
    error = "is not valid JSON";
    return false;
  }
  if (!json.is_object() || json.value("format", "") != kFormat) {
    error = std::string("is not a tuning database (no \"format\": \"") +
            kFormat + "\")";
    return false;
  }
  auto version = json.find("version");
  if (version == json.end() || !version->is_number_integer() ||
      version->get<int>() != kVersion) {
    error = "has an unsupported version (this tgc reads version " +
            std::to_string(kVersion) + ")";
    return false;
  }
  auto list = json.find("entries");
  if (list == json.end() || !list->is_array()) {
    error = "has no \"entries\" list";
    return false;
  }
  std::map<std::string, TuningEntry> read;
  for (auto [index, item] : llvm::enumerate(*list)) {
    TuningEntry entry;
    if (!fromJson(item, index, entry, error))
      return false;
    // A key is only trusted if it is the one its kernel and context give:
    // an entry edited by hand must not reach other kernels.
    if (entry.key !=
        makeTuningKey(entry.kernelHash, entry.context.serialize())) {
      error = "entry " + std::to_string(index) +
              ": the key is not the hash of its kernel_hash and context";
      return false;
    }
    std::string key = entry.key;
    read[key] = std::move(entry);
  }
  // Written since graph choices are tuned; older databases have none.
  std::map<std::string, GraphChoice> choices;
  if (auto list = json.find("graph_choices"); list != json.end()) {
    if (!list->is_array()) {
      error = "\"graph_choices\" is not a list";
      return false;
    }
    for (auto [index, item] : llvm::enumerate(*list)) {
      GraphChoice choice;
      if (!fromJson(item, index, choice, error))
        return false;
      if (choice.key != makeGraphChoiceKey(choice.modelHash, choice.option,
                                           choice.given,
                                           choice.context.serialize())) {
        error = "graph choice " + std::to_string(index) +
                ": the key is not the hash of its model_hash, option, "
                "given and context";
        return false;
      }
      std::string key = choice.key;
      choices[key] = std::move(choice);
    }
  }
  entries = std::move(read);
  graphChoices = std::move(choices);
  return true;
}

bool TuningDb::load(llvm::StringRef path, std::string &error,
                    bool missingIsEmpty) {
  if (missingIsEmpty && !llvm::sys::fs::exists(path)) {
    entries.clear();
    graphChoices.clear();
    return true;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path);
  if (!file) {
    error = path.str() + ": cannot read the tuning database: " +
            file.getError().message();
    return false;
  }
  if (!parse((*file)->getBuffer(), error)) {
    error = path.str() + ": " + error;
    return false;
  }
  return true;
}

std::string TuningDb::serialize() const {
  Json list = Json::array();
  for (const auto &[key, entry] : entries)
    list.push_back(toJson(entry));
  Json json{{"format", kFormat}, {"version", kVersion}, {"entries", list}};
  if (!graphChoices.empty()) {
    Json choices = Json::array();
    for (const auto &[key, choice] : graphChoices)
      choices.push_back(toJson(choice));
    json["graph_choices"] = choices;
  }
  return json.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

bool TuningDb::save(llvm::StringRef path, std::string &error) const {
  std::string temporary = (path + ".tmp").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temporary, ec);
    if (!ec) {
      os << serialize();
      os.close();
      ec = os.error();
    }
    if (ec) {
      error = temporary + ": cannot write: " + ec.message();
      llvm::sys::fs::remove(temporary);
      return false;
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    error = path.str() + ": cannot write: " + ec.message();
    llvm::sys::fs::remove(temporary);
    return false;
  }
  return true;
}

const TuningEntry *TuningDb::lookup(llvm::StringRef key) const {
  auto it = entries.find(key.str());
  return it == entries.end() ? nullptr : &it->second;
}

TuningEntry *TuningDb::lookup(StringRef key) {
  auto it = entries.find(key.str());
  return it == entries.end() ? nullptr : &it->second;
}

void TuningDb::insert(TuningEntry entry) {
  std::string key = entry.key;
  entries[key] = std::move(entry);
}

const GraphChoice *TuningDb::lookupGraphChoice(llvm::StringRef key) const {
  auto it = graphChoices.find(key.str());
  return it == graphChoices.end() ? nullptr : &it->second;
}

void TuningDb::insertGraphChoice(GraphChoice choice) {
  std::string key = choice.key;
  graphChoices[key] = std::move(choice);
}
