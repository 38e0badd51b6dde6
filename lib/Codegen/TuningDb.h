//===- TuningDb.h - measured opt actions, keyed by kernel ------*- C++ -*-===//
//
// What BEAM search (`tgc tune`) found for each kernel, so that a later
// compile applies it without searching. An entry is found by a key that
// hashes the kernel as lowered (before any action) together with the
// tuning context: the target, the CPU, the C compiler and the options that
// change the generated code. A kernel or a context that differs in any of
// these gets another key, so an entry never reaches a kernel it was not
// measured for.
//
// The file is JSON:
//   {"format": "tgc-tuning-db", "version": 1, "entries": [
//     {"key": ..., "kernel": "r_64_3136_576", "kernel_hash": ...,
//      "context": {"target": "c", "cpu": ..., ...},
//      "actions": ["UPCAST(0,16)", ...], "heuristic_actions": [...],
//      "heuristic_ms": 1.2, "best_ms": 0.8, "threads": 1, ...}, ...],
//    "graph_choices": [
//     {"key": ..., "model": "resnet18.onnx", "model_hash": ...,
//      "option": "winograd", "value": "always", "context": {...},
//      "model_ms": {"auto": 22.5, "always": 20.4}},
//     {..., "option": "conv-layout", "value": "auto", ...,
//      "model_ms": {"auto": 19.4, "nchw": 21.9}}, ...]}
// Entries are written sorted by key, so the same results give the same
// bytes.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_TUNINGDB_H
#define TGC_CODEGEN_TUNINGDB_H

#include "Codegen/OptActions.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>
#include <vector>

namespace mlir::tgc {

/// Everything besides the kernel that decides which actions are fastest.
struct TuningContext {
  /// "c".
  std::string target = "c";
  /// The CPU the code is for: the --cpu name, or the host's (LLVM's name).
  std::string cpu;
  /// The model name of the CPU the timings were taken on.
  std::string cpuModel;
  /// The instruction set extensions the code may use.
  std::string isa;
  /// The C compiler's command and the first line of its --version.
  std::string compiler;
  /// The flags candidates were built with.
  std::string cflags;
  /// Every compile option that changes the generated code, "name=value"
  /// joined by ' ' (thread tasks, ...).
  std::string options;

  /// The fields as "name=value" joined by ';', in a fixed order (a ';' in
  /// a value becomes ','): what the key hashes and what the
  /// `tuning-context` option of tgc-optimize takes.
  std::string serialize() const;
  bool operator==(const TuningContext &other) const {
    return serialize() == other.serialize();
  }
};

/// SHA-256, in hex, of the structure of `kernel` as lowered: the types of
/// its operands and results, which operands are constants (PACK needs
/// them), and its body printed without locations. Kernels that differ only
/// in their name, their place in the model, the values of their weights or
/// their arena offsets hash alike; any other difference changes the hash.
std::string hashKernel(KernelOp kernel);

/// The database key of a kernel with hash `kernelHash` in `context`
/// (its serialized form): the SHA-256 of both, in hex.
std::string makeTuningKey(llvm::StringRef kernelHash,
                          llvm::StringRef serializedContext);

/// The least a kernel must gain or lose inside the model to count: the
/// noise between two builds of the same kernels on a quiet host.
constexpr double kModelTimingMargin = 0.02;

struct TuningEntry {
  std::string key;
  /// The kernel's name in the model it was tuned on (for reports).
  std::string kernelName;
  std::string kernelHash;
  TuningContext context;
  /// The fastest actions found, in the order they apply.
  std::vector<std::string> actions;
  /// What the heuristic chose, and the times of both in milliseconds
  /// (median of the runs of the search).
  std::vector<std::string> heuristicActions;
  double heuristicMs = 0;
  double bestMs = 0;
  /// Threads the kernel ran on while timed.
  unsigned threads = 1;
  /// The beam width and the candidates timed.
  unsigned beam = 0;
  unsigned candidates = 0;
  /// What the search found, timing the kernel alone. `actions` are these
  /// unless the model disagreed (see below); then the heuristic's.
  std::vector<std::string> searchActions;
  /// The kernel's time inside the model (summed over the places it runs),
  /// with the heuristic's actions and with the search's, each kernel read
  /// at the package's NAME_KERNEL_DONE hook; 0 when not measured. A search's
  /// choice that is not faster there is not applied.
  double modelHeuristicMs = 0;
  double modelTunedMs = 0;
  /// The same at the other thread count the package may run at (one
  /// thread, or all of the host's CPUs where the search ran on one); 0
  /// threads when not measured. A choice slower there is not applied
  /// either.
  unsigned modelOtherThreads = 0;
  double modelOtherHeuristicMs = 0;
  double modelOtherTunedMs = 0;
  /// What the times were judged against, at each count: how the tuned
  /// build ran the kernels both builds share unchanged, as a factor of the
  /// heuristic's build (their median), and the spread about it that a
  /// choice had to clear (TuneConfirm's sharedKernelNoise). A database
  /// from before they were recorded reads as 1 and kModelTimingMargin.
  double modelShift = 1, modelMargin = kModelTimingMargin;
  double modelOtherShift = 1, modelOtherMargin = kModelTimingMargin;
};

/// A choice for the whole model that changes its graph rather than one
/// kernel's actions: whether --winograd auto's cost rule stands or every
/// 3x3 convolution it applies to takes Winograd ("always"), and whether
/// --conv-layout auto's rule stands or the other layout ("nchw", "nhwc")
/// runs faster. Winograd's trade (16/9 or 4x the weight bytes for fewer
/// multiplies) turns on how fast the host streams weights against how
/// fast it multiplies, the layout's on channel counts and on what reads
/// joined channels, which no rule weighs exactly; `tgc tune` times the
/// model built each way (TuneGraph.h).
struct GraphChoice {
  /// makeGraphChoiceKey(modelHash, option, given, the context's serialized
  /// form).
  std::string key;
  /// The model's file name (for reports) and hashModelGraph of it.
  std::string model;
  std::string modelHash;
  /// The compile option chosen ("winograd", "conv-layout") and its value.
  std::string option;
  std::string value;
  /// The other graph options' values it was chosen with, by name: a later
  /// option's as given (auto unless set), an earlier one's as chosen. The
  /// layout that runs fastest with Winograd's kernels may not without.
  std::map<std::string, std::string> given;
  TuningContext context;
  /// The model's time in milliseconds built with each value timed (the
  /// lowest median of the rounds); empty when only one value exists.
  std::map<std::string, double> modelMs;
};

/// SHA-256, in hex, of a model's graph as imported: its ops printed
/// without locations, constants of more than 16 elements elided, and
/// without the module's attributes (which name its file), and blobs known
/// by their order of first use rather than their names. Models that
/// differ only in the values or names of their weights or where their
/// file is hash alike.
std::string hashModelGraph(mlir::ModuleOp module);

/// The database key of graph choice `option` for a model of hash
/// `modelHash`, the other graph options `given`, in `serializedContext`.
std::string makeGraphChoiceKey(llvm::StringRef modelHash,
                               llvm::StringRef option,
                               const std::map<std::string, std::string> &given,
                               llvm::StringRef serializedContext);

class TuningDb {
public:
  /// Reads `path`. Sets `error` (naming the file and the problem) and
  /// returns false on a file that cannot be read or is not a tuning
  /// database; a missing file is an error too unless `missingIsEmpty`.
  bool load(llvm::StringRef path, std::string &error,
            bool missingIsEmpty = false);
  /// Parses the JSON text of a database; `error` without a file name.
  bool parse(llvm::StringRef text, std::string &error);
  /// The JSON text, entries sorted by key.
  std::string serialize() const;
  /// Writes serialize() to `path` through a temporary file renamed over
  /// it, so a reader never sees half a database.
  bool save(llvm::StringRef path, std::string &error) const;

  /// The entry for `key`, or null.
  const TuningEntry *lookup(llvm::StringRef key) const;
  TuningEntry *lookup(llvm::StringRef key);
  /// Adds `entry`, replacing any entry with the same key.
  void insert(TuningEntry entry);
  const std::map<std::string, TuningEntry> &getEntries() const {
    return entries;
  }

  /// The graph choice for `key`, or null; adding one replaces any with
  /// the same key.
  const GraphChoice *lookupGraphChoice(llvm::StringRef key) const;
  void insertGraphChoice(GraphChoice choice);
  const std::map<std::string, GraphChoice> &getGraphChoices() const {
    return graphChoices;
  }

private:
  std::map<std::string, TuningEntry> entries;
  std::map<std::string, GraphChoice> graphChoices;
};

} // namespace mlir::tgc

#endif // TGC_CODEGEN_TUNINGDB_H
