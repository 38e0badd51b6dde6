//===- TuneGraph.h - graph choices timed on the whole model ----*- C++ -*-===//
//
// Some choices change a model's graph, not one kernel's actions, and which
// is faster depends on the host more than on the graph. --winograd auto's
// cost rule takes a 3x3 convolution through Winograd only where its weights
// are reused over enough tiles: ResNet-18's 7x7 stage (16 tiles of 2x2 per
// image, 16/9 of 9.4 MB of weights per convolution) ran no faster that way
// on two hosts, and 10% faster as a model on a third (AVX-512, 2 vCPUs:
// 22.5 -> 20.4 ms), whose memory kept up with the 1.7x fewer multiplies.
// `tgc tune` builds the model with auto and with always, times both in
// turns, and records the faster in the database as a graph choice that a
// compile with --tuning-db (and --winograd auto) then follows.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_TUNEGRAPH_H
#define TGC_DRIVER_TUNEGRAPH_H

#include "Codegen/TuningDb.h"
#include "Driver/Tune.h"

#include <optional>
#include <string>

namespace mlir::tgc {

class DiagnosticPrinter;

/// The database key of the --winograd choice for `imported`, the model as
/// imported (its tgc.stage attribute removed).
std::string winogradChoiceKey(ModuleOp imported, const TuningContext &tuning);

/// The --winograd value `tgc tune` chose for `imported` in `tuning`, if
/// the database holds one.
std::optional<std::string> lookupWinogradChoice(ModuleOp imported,
                                                const TuningDb &db,
                                                const TuningContext &tuning);

/// The --winograd value to tune `modelPath`'s kernels with: options.winograd
/// unless it is auto; else the database's choice, or one made now and
/// recorded in `db`: "always" if that changes the graph and the model built
/// so runs faster than with auto by more than the noise between two builds,
/// else "auto". Not timed (auto, nothing recorded) for another CPU than
/// this one or for dynamic inputs without --input files.
FailureOr<std::string>
tuneWinogradChoice(MLIRContext &context, llvm::StringRef modelPath,
                   ModuleOp imported, TuningDb &db, const TuningContext &tuning,
                   const TuneOptions &options, DiagnosticPrinter *printer);

} // namespace mlir::tgc

#endif // TGC_DRIVER_TUNEGRAPH_H
