//===- TuneGraph.h - graph choices timed on the whole model ----*- C++ -*-===//
//
// Some choices change a model's graph, not one kernel's actions, and which
// is faster depends on the host more than on the graph.
//
// --winograd auto's cost rule takes a 3x3 convolution through Winograd only
// where its weights are reused over enough tiles: ResNet-18's 7x7 stage
// (16 tiles of 2x2 per image, 16/9 of 9.4 MB of weights per convolution)
// ran no faster that way on two hosts, and 10% faster as a model on a third
// (AVX-512, 2 vCPUs: 22.5 -> 20.4 ms), whose memory kept up with the 1.7x
// fewer multiplies.
//
// --conv-layout auto's rule weighs channel counts and joins measured on a
// few models: GoogLeNet ran 1.05x faster channels last, DenseNet-121 and
// SqueezeNet as fast either way, the small convnets it keeps NCHW from
// 1.07x to 1.45x faster so.
//
// `tgc tune` builds the model with auto and with each value that makes
// another graph, times them in turns, and records the fastest (auto unless
// another beats it by more than the noise between two builds) in the
// database as a graph choice, which a compile with --tuning-db (and the
// option left auto) then follows.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_TUNEGRAPH_H
#define TGC_DRIVER_TUNEGRAPH_H

#include "Codegen/TuningDb.h"
#include "Driver/Tune.h"

#include <map>
#include <optional>
#include <string>

namespace mlir::tgc {

class DiagnosticPrinter;

/// An option `tgc tune` times against its auto, in the order it tunes them
/// (the layout with the convolutions Winograd's choice left).
enum class GraphOption { Winograd, ConvLayout };
constexpr GraphOption kGraphOptions[] = {GraphOption::Winograd,
                                         GraphOption::ConvLayout};

/// The option's name on the command line (--NAME) and in the database.
llvm::StringRef graphOptionName(GraphOption option);

/// The option's value among `choices`: TuneOptions, KernelChoices or
/// PipelineOptions, which name them alike.
template <typename Choices>
std::string &graphOptionValue(Choices &choices, GraphOption option) {
  return option == GraphOption::Winograd ? choices.winograd
                                         : choices.convLayout;
}
template <typename Choices>
const std::string &graphOptionValue(const Choices &choices,
                                    GraphOption option) {
  return option == GraphOption::Winograd ? choices.winograd
                                         : choices.convLayout;
}

/// The other graph options' values in `choices`, by name: what a choice
/// for `option` is made and looked up with (GraphChoice::given).
template <typename Choices>
std::map<std::string, std::string> otherGraphOptions(const Choices &choices,
                                                     GraphOption option) {
  std::map<std::string, std::string> given;
  for (GraphOption other : kGraphOptions)
    if (other != option)
      given[graphOptionName(other).str()] = graphOptionValue(choices, other);
  return given;
}

/// The value `tgc tune` chose for `option` for the model whose graph
/// hashes to `modelHash` (hashModelGraph of the model as imported, its
/// tgc.stage attribute removed), the other options as `choices` hold them
/// (earlier ones chosen, later ones as given), in `tuning`, if the
/// database holds one.
template <typename Choices>
std::optional<std::string>
lookupGraphChoice(llvm::StringRef modelHash, GraphOption option,
                  const Choices &choices, const TuningDb &db,
                  const TuningContext &tuning) {
  if (const GraphChoice *choice = db.lookupGraphChoice(makeGraphChoiceKey(
          modelHash, graphOptionName(option),
          otherGraphOptions(choices, option), tuning.serialize())))
    return choice->value;
  return std::nullopt;
}

/// The value of `option` to tune `modelPath`'s kernels with: the one
/// `options` give unless it is auto; else, the other options as `options`
/// hold them, the database's choice, or one made now and recorded in `db`:
/// the value of those that change the graph whose model runs fastest if it
/// beats auto by more than the noise between two builds, else "auto". Not
/// timed (auto, nothing recorded) for another CPU than this one or for
/// dynamic inputs without --input files.
FailureOr<std::string>
tuneGraphChoice(MLIRContext &context, llvm::StringRef modelPath,
                ModuleOp imported, GraphOption option, TuningDb &db,
                const TuningContext &tuning, const TuneOptions &options,
                DiagnosticPrinter *printer);

} // namespace mlir::tgc

#endif // TGC_DRIVER_TUNEGRAPH_H
