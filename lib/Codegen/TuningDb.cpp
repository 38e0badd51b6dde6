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

Json toJson(const TuningEntry &entry) {
  Json context = Json::object();
  forEachField(entry.context, [&](const char *name, const std::string &value) {
    context[name] = value;
  });
  return Json{{"key", entry.key},
              {"kernel", entry.kernelName},
              {"kernel_hash", entry.kernelHash},
              {"context", context},
              {"actions", entry.actions},
              {"heuristic_actions", entry.heuristicActions},
              {"heuristic_ms", entry.heuristicMs},
              {"best_ms", entry.bestMs},
              {"threads", entry.threads},
              {"beam", entry.beam},
              {"candidates", entry.candidates},
              {"search_actions", entry.searchActions},
              {"model_heuristic_ms", entry.modelHeuristicMs},
              {"model_tuned_ms", entry.modelTunedMs}};
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
    auto it = json.find(name);
    if (it == json.end() || !it->is_string())
      return fail(std::string("'") + name + "' is missing or not a string");
    to = it->get<std::string>();
    return true;
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
      !getNumber("model_tuned_ms", entry.modelTunedMs))
    return false;
  // Written since the search's choice is confirmed inside the model.
  if (json.contains("search_actions") &&
      !getStrings("search_actions", entry.searchActions))
    return false;
  for (const std::string &action : entry.actions)
    if (!parseOptAction(action))
      return fail("'" + action + "' is not an opt action");
  auto context = json.find("context");
  if (context == json.end() || !context->is_object())
    return fail("'context' is missing or not an object");
  bool ok = true;
  forEachField(entry.context, [&](const char *name, std::string &value) {
    auto it = context->find(name);
    if (!ok)
      return;
    if (it == context->end() || !it->is_string())
      ok = fail(std::string("context field '") + name +
                "' is missing or not a string");
    else
      value = it->get<std::string>();
  });
  return ok;
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
  entries = std::move(read);
  return true;
}

bool TuningDb::load(llvm::StringRef path, std::string &error,
                    bool missingIsEmpty) {
  if (missingIsEmpty && !llvm::sys::fs::exists(path)) {
    entries.clear();
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
