//===- ElementwiseOpts.cpp - kernels without a reduction --------*- C++ -*-===//
//
// Stacked parts (a concatenation, Winograd's tile elements) are written out
// along their short axis so each copy's gates fold to constants; a transpose
// reads whole cache lines and writes runs of them in square register tiles
// (tgc-transpose-lanes); a pad of short rows copies several planes a step.
//
//===----------------------------------------------------------------------===//

#include "Codegen/ElementwiseOpts.h"
#include "Codegen/VectorAxis.h"

using namespace mlir;
using namespace mlir::tgc;
using namespace mlir::tgc::heuristic;

namespace {

/// Lanes of the small output axes a kernel without a reduction writes out
/// in full, at most (tinygrad upcasts such masked axes too); an axis whose
/// every element is a part of its own may have up to kMaxPartsUpcast
/// (Winograd's 16 or 36 tile elements). A longer axis of a few long parts
/// (a Concat of two 16-channel tensors) is left a loop: 32 copies ran no
/// faster than one gated loop.
constexpr int64_t kMaxStackUpcast = 16, kMaxPartsUpcast = 36;

/// The output axes of an elementwise kernel along which loads are under
/// different gates, when short: the axis a few tensors are stacked along
/// (a concatenation is pads and selects, so each element evaluates every
/// part's gate). Written out in full, each copy's gates fold to constants
/// and it computes only its own part: Winograd's 16 tile elements, built
/// from 4 strided loads each, cost 4 loads instead of 16 gated ones.
SmallVector<RangeOp> chooseStackAxes(KernelShape &shape) {
  SmallVector<RangeOp> axes;
  int64_t lanes = 1;
  for (RangeOp range : shape.outputs) {
    // Parts of a stack: loads under different gates along the axis. One
    // gate is a pad's border, which is no reason to write the axis out.
    llvm::SmallDenseSet<Value, 4> gates;
    for (Access access : shape.accesses)
      if (!access.isStore && shape.gateMoves(access, range))
        gates.insert(access.index.getGate());
    int64_t bound = range.getBound(), parts = gates.size();
    int64_t limit = parts >= bound ? kMaxPartsUpcast : kMaxStackUpcast;
    if (parts >= 2 && bound >= 2 && lanes * bound <= limit) {
      axes.push_back(range);
      lanes *= bound;
    }
  }
  return axes;
}

/// True if some load must build its vectors along `range` lane by lane
/// (every other element, or further apart).
bool assemblesLanes(KernelShape &shape, RangeOp range, int64_t lanes) {
  return llvm::any_of(shape.accesses, [&](const Access &access) {
    if (access.isStore)
      return false;
    StrideClass stride = shape.strideClass(access, range, lanes);
    return stride != StrideClass::Contiguous && stride != StrideClass::Constant;
  });
}

/// An elementwise kernel with stack axes: those written out in full, and
/// the axis its stores are contiguous along made vector lanes (the C
/// compiler does not vectorize a loop of 16 stores to as many planes).
/// Not a padded axis whose loads are assembled lane by lane: per vector,
/// each load's lanes are picked out of two or more vectors and the stores
/// are masked, which cost more than the copies' scalar loads and stores
/// (Winograd's input transforms of ResNet-18 stored NCHW, tile rows of 7
/// or 14 in 8 lanes, input read every 2nd or 4th element: 1.1-3.6x
/// slower than scalar on Zen 3, whose AVX2 masked stores are slow; 1.6x
/// for the 2x2 tiles' transform with the masked stores done lane by lane).
/// Returns whether the kernel had stack axes.
bool applyStackOpts(KernelOp kernel, KernelShape &shape,
                    const HeuristicOptions &options) {
  SmallVector<RangeOp> stack = chooseStackAxes(shape);
  if (stack.empty())
    return false;
  StoreOp store;
  kernel.walk([&](StoreOp op) { store = op; });
  auto [vector, lanes, padded, maxVectors] =
      chooseVectorAxis(shape, maxLanesOf(store.getValue().getType(), options));
  if (llvm::is_contained(stack, vector) ||
      (padded && assemblesLanes(shape, vector, lanes)))
    vector = RangeOp();
  std::optional<int64_t> vectorId;
  int64_t bound = 0;
  if (vector) {
    vectorId = vector.getId();
    bound = padded ? roundUp(vector.getBound(), lanes) : vector.getBound();
  }
  for (RangeOp range : stack)
    apply(kernel, OptKind::Upcast, range, range.getBound());
  if (!vectorId)
    return true;
  if (padded)
    apply(kernel, OptKind::Padto, findRange(kernel, *vectorId), lanes);
  apply(kernel, OptKind::Upcast, findRange(kernel, *vectorId), lanes);
  if (padded && bound > lanes && bound / lanes <= maxVectors)
    apply(kernel, OptKind::Upcast, findRange(kernel, *vectorId), bound / lanes);
  return true;
}

/// The kernel's one store, or null where it has none or several.
const Access *soleStore(const KernelShape &shape) {
  const Access *store = nullptr;
  for (const Access &access : shape.accesses)
    if (access.isStore) {
      if (store)
        return nullptr;
      store = &access;
    }
  return store;
}

/// The fewest consecutive elements of each output row a transpose's step
/// writes: where the axis takes no tile of tgc-transpose-lanes
/// (transposeTileLanes), a square tile of 4.
constexpr int64_t kTransposeStoreRun = 4;

/// The run along both axes of a transpose with math between its loads and
/// its stores (a residual add and Relu stored channels-first), which
/// tgc-transpose-lanes leaves as it is, where more of its accesses are
/// contiguous along the stores' axis than along the loads' (the stores and
/// the loads in the output's layout against the transposed input). The
/// vector then takes the stores' axis (chooseVectorRange counts them) and
/// the transposed input is gathered lane by lane; with a whole line of the
/// loads' axis it took that one, and scattered every store. The ResNet
/// block's last kernel (NHWC to NCHW, 64 channels of 56x56, with the
/// shortcut's add) ran 2.2x faster so inside the model on one thread and
/// 2.1x on two (0.118 -> 0.053 ms; runs of 4: 0.063), as BEAM found.
/// Where the loads' axis has more (Swin's normalization of its patches:
/// the mean, scale and bias), the vector stays there, and a run of 8 ran
/// it 0.81x as fast as 16.
constexpr int64_t kTransposeMathRun = 8;

/// Accesses (loads and stores) contiguous across `lanes` of `range`.
int64_t contiguousAccesses(KernelShape &shape, RangeOp range, int64_t lanes) {
  return llvm::count_if(shape.accesses, [&](const Access &access) {
    return shape.strideClass(access, range, lanes) == StrideClass::Contiguous;
  });
}

/// The fewest consecutive elements a transpose's step reads from a row.
constexpr int64_t kMinTransposeLoadRun = 4;

/// A transpose (a copy whose stores are contiguous along one axis and
/// whose loads stride along it but are contiguous along another): the
/// loads' axis upcast by a cache line (or the largest power-of-two part
/// of one, 4 or more, that divides it), so that each step of the loop reads
/// whole lines and writes a line's worth of rows instead of reading one
/// element of a line per store (attention's K^T copy, 256 x 128 with rows
/// 3 KiB apart: 42.8 -> 18 us under BEAM), and the stores' axis by the
/// lanes of tgc-transpose-lanes' tiles, so that each of those rows takes a
/// run of elements instead of one, a whole vector of them (runs of 8
/// rather than 4 in tiles of 8 x 8 floats, AVX2: K^T of 256 x 128 1.40x
/// faster, NHWC to NCHW of 112 x 112 pixels 1.00-1.16x with 8 to 64
/// channels). Returns whether it applied.
bool applyTransposeOpts(KernelOp kernel, KernelShape &shape,
                        const HeuristicOptions &options) {
  const Access *store = soleStore(shape);
  if (!store)
    return false;
  IndexOp storeIndex = store->index;
  auto type = cast<PtrType>(storeIndex.getType());
  int64_t line = 64 / getElementBytes(type.getElementType());
  RangeOp storeAxis;
  for (RangeOp range : shape.outputs)
    if (shape.strideClass(*store, range, line) == StrideClass::Contiguous)
      storeAxis = range;
  // A store axis of a line or less (a channels-last image of 3 to 16
  // channels) is a short row beside the next: the loop as it is stores one
  // contiguous stream and reads each input row in order. Upcast, each step
  // stored a line's worth of rows a line apart: NCHW to NHWC of 112x112
  // pixels ran 2-7x slower with 3, 4, 8 or 16 channels than with no
  // actions (Zen 3, GCC 12), and 2.6-3.6x faster with 32 or 64.
  if (!storeAxis || (int64_t)storeAxis.getBound() <= line)
    return false;
  for (const Access &load : shape.accesses) {
    if (load.isStore ||
        shape.strideClass(load, storeAxis, line) != StrideClass::Other)
      continue;
    for (RangeOp range : shape.outputs) {
      // A line, or the largest power-of-two part of one that divides the
      // axis (24 channels of a channels-last image in steps of 8).
      int64_t run = line;
      while (run >= kMinTransposeLoadRun && range.getBound() % run != 0)
        run /= 2;
      if (range == storeAxis || run < kMinTransposeLoadRun ||
          shape.strideClass(load, range, run) != StrideClass::Contiguous)
        continue;
      int64_t storeId = storeAxis.getId();
      // Only a copy moves in tiles: with math between the load and the
      // store (Swin's normalization of windows, stored channels-first),
      // runs of 8 ran 7% slower than 4.
      StoreOp storeOp;
      kernel.walk([&](StoreOp op) { storeOp = op; });
      bool copies = storeOp && storeOp.getValue().getDefiningOp<LoadOp>();
      int64_t storeBound = storeAxis.getBound();
      // With math, the loads' run no longer than the stores' where more
      // accesses are contiguous along the stores: see kTransposeMathRun.
      bool vectorAlongStores =
          !copies && storeBound % kTransposeMathRun == 0 &&
          contiguousAccesses(shape, storeAxis, kTransposeMathRun) >
              contiguousAccesses(shape, range, kTransposeMathRun);
      if (vectorAlongStores)
        run = std::min(run, kTransposeMathRun);
      if (!apply(kernel, OptKind::Upcast, range, run))
        return false;
      int64_t tile =
          transposeTileLanes(type.getElementType(), options.target.vectorBytes,
                             options.target.vectorRegisters);
      int64_t storeRun = copies && tile && tile <= run && storeBound % tile == 0
                             ? tile
                         : vectorAlongStores ? run
                                             : kTransposeStoreRun;
      if (storeBound % storeRun == 0)
        apply(kernel, OptKind::Upcast, findRange(kernel, storeId), storeRun);
      return true;
    }
  }
  return false;
}

/// Most bytes of a short row: a cache line.
constexpr int64_t kShortRowBytes = 64;

/// Most planes of a short-row pad copied per step.
constexpr int64_t kShortRowPlanes = 8;

/// A pad of planes of short rows (a border around 14x14 or 7x7 pixels:
/// rows of 16 or 10 floats, a gate on each load): the outermost axis the
/// gates do not move along (the channels) upcast by up to 8, so each step
/// copies a row of 8 planes, whose gates are the same and which
/// tgc-unswitch splits alike, where one plane's row of 7 or 14 is a
/// vector and a few scalars. ResNet-18's 256-channel pads to 16x16 ran
/// 1.7x faster so and its 512-channel pads to 10x10 (Winograd's tiles of
/// 4) 1.1x; rows upcast instead gained as much at 16x16 but ran 1.2-1.5x
/// slower at 10x10 (each step storing a column of the rows). Returns
/// whether it applied.
bool applyShortRowOpts(KernelOp kernel, KernelShape &shape) {
  if (shape.outputs.size() < 2)
    return false;
  RangeOp row = shape.outputs.back();
  const Access *store = soleStore(shape);
  bool gatedAlongRow = llvm::any_of(shape.accesses, [&](const Access &a) {
    return !a.isStore && shape.gateMoves(a, row);
  });
  if (!store || !gatedAlongRow ||
      shape.strideClass(*store, row, 2) != StrideClass::Contiguous)
    return false;
  IndexOp storeIndex = store->index;
  auto type = cast<PtrType>(storeIndex.getType());
  int64_t rowBytes =
      (int64_t)row.getBound() * getElementBytes(type.getElementType());
  if (rowBytes > kShortRowBytes)
    return false;
  for (RangeOp planes : shape.outputs) {
    if (planes == row || llvm::any_of(shape.accesses, [&](const Access &a) {
          return !a.isStore && shape.gateMoves(a, planes);
        }))
      continue;
    return apply(kernel, OptKind::Upcast, planes,
                 largestDivisor(planes.getBound(), kShortRowPlanes));
  }
  return false;
}

} // namespace

void mlir::tgc::heuristic::applyElementwiseOpts(
    KernelOp kernel, KernelShape &shape, const HeuristicOptions &options) {
  if (!applyStackOpts(kernel, shape, options) &&
      !applyTransposeOpts(kernel, shape, options))
    applyShortRowOpts(kernel, shape);
}
