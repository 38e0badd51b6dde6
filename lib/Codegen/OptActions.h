//===- OptActions.h - kernel opt actions on a lowered kernel ---*- C++ -*-===//
//
// tinygrad's Opt: an action on one axis of a kernel (a tgc.range, named by
// its id) with an amount. The heuristic, a tuning database and BEAM search
// all speak this vocabulary; a kernel records the actions applied to it in
// its `opts` attribute, in order, as "KIND(axis,amount)".
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_OPTACTIONS_H
#define TGC_CODEGEN_OPTACTIONS_H

#include "IR/TgcOps.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace mlir::tgc {

enum class OptKind {
  /// Output axis into `amount` lanes computed together: a register tile,
  /// or the lanes of a vector (tgc-expand decides which).
  Upcast,
  /// Reduce axis into `amount` lanes accumulated side by side.
  Unroll,
  /// Output axis into `amount` tasks run on the threads of the runtime's
  /// pool: a `thread` range around the whole kernel body.
  Thread,
  /// Output axis padded up to a multiple of `amount`; accesses past the
  /// old bound are gated off.
  Padto,
  /// GPU: output axis into a workgroup axis of `amount` threads.
  Local,
  /// GPU: reduce axis into `amount` threads of a workgroup that combine
  /// their partial results (the inner part of the axis).
  Group,
  /// GPU: as Group, with the outer part of the axis split across threads.
  GroupTop,
  /// Not a split: weight input `input` (a constant) transposed so that the
  /// dim walked by the axis comes last, in blocks of `amount` elements
  /// (PackWeights.h).
  Pack,
  /// GPU: a matmul-shaped reduce on tensor cores (TensorCores.h): output
  /// axes `axis` (M) and `nAxis` (N) in tiles of `amount` (16 on CUDA, 8 on
  /// Metal), reduce axis `kAxis` in steps of 8, one warp a tile.
  Tc,
  /// Not a split: C only, whether the C compiler keeps the short reduce
  /// loop `axis` a loop (amount 1) or may write its steps out (amount 0),
  /// in place of tgc-keep-rolled's rule. Which one keeps a register tile
  /// in registers is up to the compiler's register allocator, so only
  /// timing tells (KeepRolled.cpp).
  Roll,
};

struct OptAction {
  OptKind kind;
  /// The id of the tgc.range the action splits.
  int64_t axis;
  int64_t amount;
  /// PACK only: the kernel input (operand index) of the weight.
  int64_t input = 0;
  /// TC only: the N and K axes (`axis` is M, `amount` the tile).
  int64_t nAxis = 0;
  int64_t kAxis = 0;

  bool operator==(const OptAction &other) const {
    return kind == other.kind && axis == other.axis &&
           amount == other.amount && input == other.input &&
           nAxis == other.nAxis && kAxis == other.kAxis;
  }
};

/// "UPCAST(1,16)", "PACK(0,32,1)", "TC(0,1,2,16)" (M, N, K axes, tile),
/// "ROLL(3,1)".
std::string toString(const OptAction &action);

/// Parses toString's form; std::nullopt if `text` is not one.
std::optional<OptAction> parseOptAction(llvm::StringRef text);

/// The actions of an optimize pass's `actions` option, separated by ';'.
/// A word that is no action is an error on `op` that names `pass` and shows
/// `example`.
FailureOr<SmallVector<OptAction>> parseOptActionList(llvm::StringRef text,
                                                     Operation *op,
                                                     llvm::StringRef pass,
                                                     llvm::StringRef example);

/// The actions recorded in `kernel`'s `opts`, in order (unparsable entries
/// are skipped).
SmallVector<OptAction> getAppliedActions(KernelOp kernel);

/// Why `action` cannot apply to the lowered, not yet expanded `kernel`, or
/// an empty string if it can.
std::string checkOptAction(KernelOp kernel, const OptAction &action);

/// Applies `action` to `kernel` and appends it to the kernel's `opts`.
/// Fails, changing nothing, with the reason in `whyNot` (when non-null) if
/// checkOptAction objects.
LogicalResult applyOptAction(KernelOp kernel, const OptAction &action,
                             std::string *whyNot = nullptr);

/// The range of `kernel` whose id is `axis`, or null.
RangeOp findRange(KernelOp kernel, int64_t axis);

/// The operand of `kernel` (one of its inputs) that `index` addresses, or
/// null when it addresses an output.
Value findAddressedInput(KernelOp kernel, IndexOp index);
/// The same for a pointer `buf` into one of the kernel's buffers (a block
/// argument of its body): null for an output or any other pointer.
Value findAddressedInput(KernelOp kernel, Value buf);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_OPTACTIONS_H
