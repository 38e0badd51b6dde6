//===- PackageLayout.h - what the emitted package is made of ---*- C++ -*-===//
//
// One analysis of a linearized module that every file of the package is
// written from: the model's named inputs and outputs, the kernels in
// execution order with the buffer behind each of their arguments, the arena
// and the weights blob.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_PACKAGELAYOUT_H
#define TGC_CODEGEN_PACKAGELAYOUT_H

#include "Codegen/Weights.h"
#include "IR/TgcOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"
#include <optional>
#include <string>

namespace mlir::tgc {

/// A model input or output as the C API shows it.
struct IoTensor {
  /// As in the model (the `tgc.name` attribute).
  std::string name;
  /// The C identifier: the struct member, and upper-cased in macros.
  std::string cName;
  /// The whole batch, as the caller passes it.
  RankedTensorType type;
  /// The slice one image of the run loop reads or writes (the kernels see
  /// this; the same as `type` when the model runs the batch at once).
  RankedTensorType imageType;

  int64_t getElements() const { return type.getNumElements(); }
  int64_t getBytes() const;
  int64_t getImageElements() const { return imageType.getNumElements(); }
};

/// Where a buffer is while the run function executes.
struct BufferRef {
  enum class Kind { Input, Output, Arena, Weight };
  Kind kind;
  /// The input or output number, the byte offset in the arena, or the
  /// tensor number in the weights blob.
  int64_t index;
};

/// One call of the schedule.
struct KernelCall {
  KernelOp op;
  /// The C function: `<prefix>_<kernel name>`, unique in the model.
  std::string function;
  /// The kernel's buffers, inputs then outputs (its block arguments).
  llvm::SmallVector<BufferRef> args;
};

/// A model output no kernel writes in place (an output that is also an
/// input, a weight, an arena buffer or another output): copied at the end.
struct OutputCopy {
  unsigned output;
  BufferRef from;
};

struct ModelLayout {
  /// The --name prefix of every symbol and file.
  std::string prefix;
  /// The model file, from the module's `tgc.source` attribute (may be empty).
  std::string source;
  llvm::SmallVector<IoTensor> inputs;
  llvm::SmallVector<IoTensor> outputs;
  llvm::SmallVector<KernelCall> kernels;
  llvm::SmallVector<OutputCopy> copies;
  WeightsBlob weights;
  /// The run function computes this many images one after another
  /// (`tgc.images`, set by tgc-image-loop); the arena holds one.
  int64_t images = 1;
  /// ... or this many of them at once, each on a task of its own with an
  /// arena slice of arenaBytes (`tgc.parallel_images`).
  int64_t parallelImages = 1;
  /// From the planner's module attributes: one image's buffers.
  int64_t arenaBytes = 0;
  int64_t arenaAlign = 64;
  std::optional<int64_t> peakBytes;

  /// The distance between two images' arena slices (the planner's arena
  /// is aligned already; IR written by hand need not be).
  int64_t getArenaSliceBytes() const {
    return llvm::alignTo(arenaBytes, arenaAlign);
  }
  /// The arena the caller provides: one slice per image computed at once
  /// (one image: the planner's arena as it is).
  int64_t getArenaTotalBytes() const {
    return parallelImages == 1 ? arenaBytes
                               : parallelImages * getArenaSliceBytes();
  }
};

/// Analyzes a module at the linearize stage (docs/architecture.md, "Stages
/// 6-9"). `prefix` must be a C identifier. Emits diagnostics and fails when
/// the module is not at that stage or breaks its contract (a kernel result
/// outside the arena, an output no kernel writes, ...).
FailureOr<ModelLayout> analyzeModel(ModuleOp module, llvm::StringRef prefix);

/// True if the run function passes a buffer of `kind` to some kernel or
/// copies one.
bool usesBufferKind(const ModelLayout &layout, BufferRef::Kind kind);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_PACKAGELAYOUT_H
