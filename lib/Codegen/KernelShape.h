//===- KernelShape.h - what the CPU heuristic reads of a kernel -*- C++ -*-===//
//
// The loads, stores and ranges of a lowered kernel as the CPU heuristic's
// choices read them (Heuristic.cpp, VectorAxis.cpp, ElementwiseOpts.cpp):
// which ranges are outputs and which are summed, how each access's address
// moves along a range, and which loads are constant weights that PACK can
// transpose.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_KERNELSHAPE_H
#define TGC_CODEGEN_KERNELSHAPE_H

#include "Codegen/Heuristic.h"

namespace mlir::tgc::heuristic {

/// A load from or store to a kernel buffer.
struct Access {
  IndexOp index;
  bool isStore;
  /// Runs in the reduction loop (its address moves with a reduce range).
  bool inReduce;
  /// For a weight that PACK can transpose: the input and the range of each
  /// of its dims (PackWeights.h).
  std::optional<unsigned> weight;
  SmallVector<RangeOp> weightDims;
};

/// How an access's address moves across the lanes of a vector. StrideTwo
/// reads every other element (a convolution or pool of stride 2):
/// tgc-devectorize makes it two contiguous loads and a permute, which is
/// neither a vector load nor a gather of lanes.
enum class StrideClass { Constant, Contiguous, StrideTwo, Other };

/// A kernel's output and reduce ranges and its buffer accesses, collected
/// in one walk, with the dependence memo that every question about them
/// shares.
class KernelShape {
public:
  explicit KernelShape(KernelOp kernel);

  bool reduces() const { return reduce != nullptr; }
  /// The ranges, outermost first, in program order.
  SmallVector<RangeOp> outputs, reductions;
  SmallVector<Access> accesses;
  ReduceOp reduce;
  /// Iterations of the reduction per output element.
  int64_t reduceSize = 1;
  /// Reductions in the kernel: two convolutions fused into one (a residual
  /// block's projection shortcut and its last 1x1 convolution), or a
  /// product summed over a pool's pixels, make two.
  int64_t reduceOps = 0;

  /// How the address moves across `lanes` consecutive values of `range`.
  StrideClass strideClass(Access access, RangeOp range, int64_t lanes);
  /// True if `access`'s address or gate changes along `range`.
  bool moves(Access access, RangeOp range) {
    return dependsOn(access.index.getIdx(), range.getResult(), memo) ||
           gateMoves(access, range);
  }
  /// True if `access`'s gate changes along `range` (a pad's border along
  /// its rows and columns).
  bool gateMoves(Access access, RangeOp range) {
    Value gate = access.index.getGate();
    return gate && dependsOn(gate, range.getResult(), memo);
  }
  /// True if `access`'s gate changes within some vector of `lanes`
  /// consecutive values of `range` (from 0, as UPCAST makes them); a part
  /// boundary at a multiple of `lanes` only changes between vectors.
  bool gateMovesWithinVector(Access access, RangeOp range, int64_t lanes);

private:
  DependenceMemo memo;
};

/// `bound` rounded up to a multiple of `lanes`: a padded axis's length.
inline int64_t roundUp(int64_t bound, int64_t lanes) {
  return (bound + lanes - 1) / lanes * lanes;
}

/// The largest divisor of `bound` up to `most` (1 if none is 2 or more).
inline int64_t largestDivisor(int64_t bound, int64_t most) {
  for (int64_t amount = std::min(most, bound); amount > 1; --amount)
    if (bound % amount == 0)
      return amount;
  return 1;
}

/// True if a PACK of `access`'s weight can make `range` its innermost dim.
inline bool packable(const Access &access, RangeOp range) {
  return access.weight && llvm::is_contained(access.weightDims, range);
}

/// Applies `kind` by `amount` to `range`, if there is one and `amount` is 2
/// or more; returns whether it applied.
bool apply(KernelOp kernel, OptKind kind, RangeOp range, int64_t amount);

/// Lanes of a vector of `type`'s elements on the target (a bool takes a
/// byte).
int64_t maxLanesOf(Type type, const HeuristicOptions &options);

} // namespace mlir::tgc::heuristic

#endif // TGC_CODEGEN_KERNELSHAPE_H
