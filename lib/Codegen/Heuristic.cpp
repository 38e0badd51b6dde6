//===- Heuristic.cpp - opt actions for a kernel without search -*- C++ -*-===//
//
// The shape of a fast CPU kernel for a reduction (matmul, convolution,
// row sums): one axis becomes the lanes of a SIMD vector, chosen where
// every load of the reduction loop is contiguous or constant along it, so
// that tgc-devectorize can turn lanes into vector loads; a second output
// axis, along which the vector load does not move, becomes copies of the
// accumulators, so each loaded vector feeds several FMAs (a register tile,
// as in BLAS microkernels). Accumulators are kept to half the vector
// registers, the rest hold loaded values; with 16 registers, where half
// leave two FMA units idle, a tile of three vectors takes three quarters.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Heuristic.h"
#include "Codegen/PackWeights.h"
#include "Codegen/Symbolic.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

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
  bool moves(Access access, RangeOp range) {
    return dependsOn(access.index.getIdx(), range.getResult(), memo) ||
           gateMoves(access, range);
  }
  bool gateMoves(Access access, RangeOp range) {
    Value gate = access.index.getGate();
    return gate && dependsOn(gate, range.getResult(), memo);
  }

private:
  DependenceMemo memo;
};

KernelShape::KernelShape(KernelOp kernel) {
  Block &block = kernel.getBlock();
  for (Operation &op : block) {
    if (auto range = dyn_cast<RangeOp>(op)) {
      if (range.getAxis() == AxisType::reduce)
        reductions.push_back(range);
      else if (range.getAxis() == AxisType::global ||
               range.getAxis() == AxisType::loop)
        outputs.push_back(range);
    }
    if (auto r = dyn_cast<ReduceOp>(op)) {
      if (!reduce)
        reduce = r;
      ++reduceOps;
    }
  }
  for (RangeOp r : reductions)
    reduceSize *= r.getBound();
  for (Operation &op : block) {
    Value ptr;
    bool isStore = false;
    if (auto load = dyn_cast<LoadOp>(op))
      ptr = load.getPtr();
    else if (auto store = dyn_cast<StoreOp>(op)) {
      ptr = store.getPtr();
      isStore = true;
    }
    auto index = ptr ? ptr.getDefiningOp<IndexOp>() : IndexOp();
    if (!index || !isa<BlockArgument>(index.getBuf()))
      continue;
    bool inReduce = llvm::any_of(reductions, [&](RangeOp r) {
      return dependsOn(index.getIdx(), r.getResult(), memo);
    });
    Access access{index, isStore, inReduce, std::nullopt, {}};
    unsigned input = cast<BlockArgument>(index.getBuf()).getArgNumber();
    if (!isStore && input < kernel.getInputs().size())
      if (auto dims = getWeightDims(kernel, input); succeeded(dims)) {
        access.weight = input;
        access.weightDims = std::move(*dims);
      }
    accesses.push_back(std::move(access));
  }
}

StrideClass KernelShape::strideClass(Access access, RangeOp range,
                                     int64_t lanes) {
  std::optional<int64_t> stride =
      getLaneStride(access.index.getIdx(), range.getResult(), lanes);
  if (!stride || gateMoves(access, range))
    return StrideClass::Other;
  if (*stride == 0)
    return StrideClass::Constant;
  if (*stride == 2 && !access.isStore)
    return StrideClass::StrideTwo;
  return *stride == 1 ? StrideClass::Contiguous : StrideClass::Other;
}

/// Accumulators a kernel without a register tile keeps side by side, so
/// that dependent FMAs (4 cycles each) overlap.
constexpr int64_t kIndependentVectors = 4;

/// Output axes whose stores are scattered lane by lane are worth it only
/// when each output takes this many reduction steps or more.
constexpr int64_t kMinReduceForScatter = 64;

/// Most vectors of a padded axis that are all upcast into registers, so
/// that each vector's gate is a constant lane count. A longer axis runs its
/// vectors in a loop, and the last one's lanes are counted at run time
/// (PartialVectors.h: kLaneLimitAttr).
constexpr int64_t kMaxPaddedVectors = 4;

/// `bound` rounded up to a multiple of `lanes`: a padded axis's length.
int64_t roundUp(int64_t bound, int64_t lanes) {
  return (bound + lanes - 1) / lanes * lanes;
}

/// The lanes an axis of `bound` is padded to, a multiple of `lanes`
/// (PADTO, then partial vector loads and stores), or 0 if it is not worth
/// it: at most an eighth of the lanes idle (a sixth where `loadsWhole`:
/// the axis needs no PACK), in at most `maxVectors`
/// vectors (rows of 14 or 7 pixels in 16 or 8 lanes; 28 or 56 in 2 or 4
/// vectors of 16, where a divisor would give 4 or 8 lanes; SqueezeNet's
/// pools to rows of 55 and 27 in 4 and 2 vectors of 16, 24x and 18x
/// faster than scalar; as a last resort, any number: ViT's 197 tokens in
/// 13 vectors of 16). With `lastResort`, a quarter of the lanes may idle.
int64_t paddedLanes(int64_t bound, int64_t lanes,
                    int64_t maxVectors = kMaxPaddedVectors,
                    bool loadsWhole = true, bool lastResort = false) {
  int64_t padded = roundUp(bound, lanes);
  int64_t idleShare = lastResort ? 4 : loadsWhole ? 6 : 8;
  if (bound % lanes == 0 || padded / lanes > maxVectors ||
      (padded - bound) * idleShare > padded)
    return 0;
  return padded;
}

/// True if a PACK of `access`'s weight can make `range` its innermost dim.
bool packable(const Access &access, RangeOp range) {
  return access.weight && llvm::is_contained(access.weightDims, range);
}

/// True if every reduction-loop load along `range` is a vector load as
/// it is (or, with `strideTwo`, two and a permute; with `packed`, once
/// PACK has transposed its weight, zero-padded to the padded axis).
/// Gathered lane by lane instead, RegNet's 1x1 convolutions of 440
/// channels in 28 vectors of 16 ran 1.5x slower than in 55 packed vectors
/// of 8, and MnasNet's to 40 channels in 3 of 16 2x slower than in 5
/// packed of 8.
bool loadsWhole(KernelShape &shape, RangeOp range, int64_t lanes,
                bool strideTwo = false, bool packed = false) {
  return llvm::all_of(shape.accesses, [&](const Access &access) {
    if (access.isStore || !access.inReduce)
      return true;
    StrideClass stride = shape.strideClass(access, range, lanes);
    return stride == StrideClass::Contiguous ||
           stride == StrideClass::Constant ||
           (strideTwo && stride == StrideClass::StrideTwo) ||
           (packed && packable(access, range));
  });
}

/// True if every store along `range` writes whole vectors of `lanes`.
bool storesWhole(KernelShape &shape, RangeOp range, int64_t lanes) {
  return llvm::all_of(shape.accesses, [&](const Access &access) {
    return !access.isStore ||
           shape.strideClass(access, range, lanes) == StrideClass::Contiguous;
  });
}

/// True if an output axis besides `range` is longer than 1: something a
/// register tile could span.
bool hasOtherOutputAxis(KernelShape &shape, RangeOp range) {
  return llvm::any_of(shape.outputs, [&](RangeOp other) {
    return other != range && other.getBound() > 1;
  });
}

/// How well `range` serves as vector lanes: -1 if it cannot, else twice
/// the reduction-loop loads that become vector loads (after packing
/// weights), less twice those that must be gathered lane by lane, plus one
/// if the stores are whole vectors. Loads of every other element count
/// for nothing either way: a depthwise convolution of stride 2 vectorizes
/// along its output row, but a strided convolution that can take its lanes
/// from packed weights along the output channels still does.
int64_t vectorScore(KernelShape &shape, RangeOp range, int64_t lanes,
                    bool allowGathers, bool allowScatter = false,
                    bool padded = false, int64_t maxVectors = kMaxPaddedVectors,
                    bool lastResort = false) {
  bool isOutput = range.getAxis() != AxisType::reduce;
  if (padded ? !isOutput || !paddedLanes(range.getBound(), lanes, maxVectors,
                                         loadsWhole(shape, range, lanes,
                                                    /*strideTwo=*/true),
                                         lastResort)
             : (int64_t)range.getBound() % lanes != 0)
    return -1;
  int64_t contiguous = 0, gathers = 0;
  bool wholeStores = storesWhole(shape, range, lanes);
  for (const Access &access : shape.accesses) {
    if (access.isStore || !access.inReduce)
      continue;
    StrideClass stride = shape.strideClass(access, range, lanes);
    if (stride == StrideClass::Contiguous ||
        (stride != StrideClass::Constant && packable(access, range)))
      ++contiguous;
    else if (stride == StrideClass::Other)
      ++gathers;
  }
  // Stores move with every output axis: lane by lane they cost about what
  // a short reduction does.
  if (isOutput && !wholeStores && shape.reduceSize < kMinReduceForScatter &&
      !allowScatter)
    return -1;
  if (gathers && !allowGathers)
    return -1;
  if (contiguous == 0 && (!isOutput || !wholeStores))
    return -1;
  return 2 * contiguous - 2 * gathers + (isOutput && wholeStores ? 1 : 0);
}

/// The vector axis and its lane count: an output axis if one has only
/// contiguous or constant loads, else a reduce axis (the lanes are summed
/// once at the end), else an output axis whose stores are contiguous even
/// if some loads are gathered, else one whose loads are all contiguous or
/// constant though its stores are scattered (a convolution of 3 channels
/// reads the input with stride 2: its output channels, with the weights
/// packed, still make 27 vector FMAs per scattered store). Wider vectors
/// first; at each width, an output axis a little shorter than one vector
/// (padded, its last lanes masked) when no axis fits whole, unless only its
/// stores favour it and another axis has vector loads.
struct VectorChoice {
  RangeOp range;
  int64_t lanes = 0;
  /// The axis is padded to `lanes` first (PADTO).
  bool padded = false;
  /// Most vectors of the padded axis that are all upcast into registers.
  int64_t maxVectors = kMaxPaddedVectors;
};

/// Elements of a reduction's padded output axis taken as a last resort
/// that are all upcast into vectors: 4 of 16 lanes, 8 of 8 or 4 (no more
/// accumulators than AVX2's registers hold beside the loads). SqueezeNet's
/// first max pool, rows of 55 read every other element, in 7 vectors of 8
/// on AVX2 rather than a chain of scalar max ops (that 4 vectors of 16
/// avoid on AVX-512).
constexpr int64_t kMaxLastResortElements = 64;
constexpr int64_t kMaxLastResortVectors = 8;

/// An output axis of `lanes` whose reduction-loop loads are vector loads
/// (none gathered), whatever its stores.
RangeOp vectorLoadAxis(KernelShape &shape, int64_t lanes) {
  for (RangeOp range : llvm::reverse(shape.outputs))
    if (vectorScore(shape, range, lanes, /*allowGathers=*/false,
                    /*allowScatter=*/true) >= 2)
      return range;
  return {};
}

/// True if some reduction-loop load does not move along `range`: each of
/// its values is broadcast to the vector's lanes, and a register tile can
/// share the vector's loads (ViT's attention scores: a row of K^T per
/// query element).
bool broadcastsAlong(KernelShape &shape, RangeOp range) {
  return llvm::any_of(shape.accesses, [&](const Access &access) {
    return !access.isStore && access.inReduce && !shape.moves(access, range);
  });
}

RangeOp chooseTileAxis(KernelShape &shape, RangeOp vector, int64_t lanes);

/// A register tile of whole vectors of half the lanes fills the
/// accumulators if another output axis divides by this many or up to
/// twice as many (14 or 16 pixels).
constexpr int64_t kMinHalfVectorTile = 8;

/// True if padded vectors of `lanes` along `range`, their weights packed,
/// would gain nothing on whole vectors of `lanes` / 2: there is no tile
/// for their broadcasts to feed, or the narrower vectors have one that
/// fills the accumulators. MnasNet's 1x1 convolutions
/// to 120 channels on 28x28 pixels ran 15% slower in 8 packed vectors of
/// 16 than in 15 of 8 by 16 pixels, but RegNet's to 440 channels on 7x7
/// 1.5x faster in 28 of 16 than in 55 of 8 by 7 pixels.
bool tilesHalfVectors(KernelShape &shape, RangeOp range, int64_t lanes) {
  // Without another output axis the tile, if any, is a reduction around
  // the innermost one, which takes whole vectors of either width: a 1x1
  // convolution summed over its pixels for a global pool (SqueezeNet's
  // classifier, 512 -> 1000 channels by 13 pixels of 13x13, ran 1.6x
  // faster in 63 packed vectors of 16 than in 125 of 8 on a Sapphire
  // Rapids, the model 0.88x the time; on a Cascade Lake it had run 10%
  // slower). Without any tile, nothing shares the padded vectors' loads.
  if (!hasOtherOutputAxis(shape, range)) {
    RangeOp tile = chooseTileAxis(shape, range, lanes);
    return !tile || tile.getAxis() != AxisType::reduce;
  }
  if ((int64_t)range.getBound() % (lanes / 2) != 0)
    return false;
  return llvm::any_of(shape.outputs, [&](RangeOp other) {
    for (int64_t d = kMinHalfVectorTile;
         other != range && d <= 2 * kMinHalfVectorTile; ++d)
      if ((int64_t)other.getBound() % d == 0)
        return true;
    return false;
  });
}

/// The output axis with the best vectorScore (returned in `bestScore`)
/// among those padded past kMaxPaddedVectors (their vectors in a loop, the
/// last one's lanes counted at run time) whose loads are vector loads,
/// their weights packed and zero-padded where `sharedByTile`, and with
/// `sharedByTile` only those along which some load is broadcast: the
/// tile's broadcasts feed all the vectors (ShuffleNetV2's 1x1
/// convolutions to 116 and 232 channels, in 8 and 15 vectors of 16 rather
/// than 29 of 4 and 29 of 8).
RangeOp longPaddedAxis(KernelShape &shape, int64_t lanes, bool sharedByTile,
                       int64_t &bestScore, bool strideTwo = false) {
  RangeOp best;
  bestScore = 0;
  for (RangeOp range : llvm::reverse(shape.outputs)) {
    int64_t score = vectorScore(shape, range, lanes, /*allowGathers=*/false,
                                /*allowScatter=*/false, /*padded=*/true,
                                /*maxVectors=*/INT64_MAX);
    bool packed =
        sharedByTile &&
        roundUp(range.getBound(), lanes) / lanes > kMaxPaddedVectors &&
        !tilesHalfVectors(shape, range, lanes);
    if (score > bestScore &&
        loadsWhole(shape, range, lanes, strideTwo, packed) &&
        (!sharedByTile || broadcastsAlong(shape, range))) {
      best = range;
      bestScore = score;
    }
  }
  return best;
}

/// True if the reduction-loop loads that move along `range` are constant
/// weights PACK can make `range` the innermost dim of, one at least.
bool onlyWeightsMove(KernelShape &shape, RangeOp range) {
  bool any = false;
  for (const Access &access : shape.accesses) {
    if (access.isStore || !access.inReduce || !shape.moves(access, range))
      continue;
    if (!packable(access, range))
      return false;
    any = true;
  }
  return any;
}

/// Most vectors of a padded output axis that are all upcast into registers
/// where a register tile's broadcasts feed them and only weights move along
/// it (packed, zero-padded), up to a quarter of their lanes idle: one past
/// kMaxPaddedVectors, and the tile then takes two thirds of the registers.
/// Otherwise such an axis takes whole vectors of half the lanes, 8 of
/// AVX-512's 16. Channels-last 1x1 convolutions at 56x56 and 28x28
/// (MnasNet's, MobileNetV3's), in the model: from 24 to 72 channels 1.75x
/// faster as 5 vectors of 16 by 4 pixels (20 accumulators) than as 1 of 8
/// by 16 pixels (with 16 accumulators, 5 vectors by 2 pixels gained
/// nothing); from 72 to 24, 2 vectors (8 lanes idle) by 8 pixels, 1.5x;
/// from 120 to 40, 3 vectors by 4 pixels, 1.6x; MobileNetV2's from 96 and
/// 144 to 24, 1.04x. Not for depthwise convolutions, whose every load
/// moves with the vector: nothing is broadcast; nor where the outputs are
/// stored channels first, each vector's lanes scattered (a convolution to
/// 68 channels at 14x14 keeps its pixels as the lanes).
constexpr int64_t kMaxSharedPaddedVectors = kMaxPaddedVectors + 1;

/// The output axis that pads to vectors of `lanes` under the conditions
/// above, or none.
RangeOp sharedPaddedAxis(KernelShape &shape, int64_t lanes) {
  for (RangeOp range : llvm::reverse(shape.outputs)) {
    int64_t padded =
        paddedLanes(range.getBound(), lanes, kMaxSharedPaddedVectors,
                    /*loadsWhole=*/false, /*lastResort=*/true);
    if (padded && storesWhole(shape, range, lanes) &&
        broadcastsAlong(shape, range) && onlyWeightsMove(shape, range) &&
        loadsWhole(shape, range, lanes, /*strideTwo=*/false,
                   /*packed=*/true) &&
        hasOtherOutputAxis(shape, range))
      return range;
  }
  return {};
}

VectorChoice chooseVectorAxis(KernelShape &shape, int64_t maxLanes) {
  for (auto [allowGathers, allowScatter] :
       {std::pair(false, false), std::pair(true, false),
        std::pair(false, true)}) {
    for (int64_t lanes = maxLanes; lanes >= 4; lanes /= 2) {
      RangeOp best;
      int64_t bestScore = -1;
      auto consider = [&](ArrayRef<RangeOp> ranges, bool padded) {
        for (RangeOp range : llvm::reverse(ranges)) {
          int64_t score = vectorScore(shape, range, lanes, allowGathers,
                                      allowScatter, padded);
          if (score > bestScore) {
            best = range;
            bestScore = score;
          }
        }
      };
      consider(shape.outputs, false);
      // longPaddedAxis shared by a tile, found before the reduce axes and
      // taken after the padded axes of a few vectors.
      RangeOp shared;
      int64_t sharedScore = 0;
      if (!best && !allowGathers && !allowScatter) {
        // Before a reduce axis, whose lanes are summed at the end of every
        // output, a long output axis along which only weights move: padded
        // to vectors of these lanes, its weights packed and zero-padded
        // (longPaddedAxis), or, where whole vectors of half the lanes have
        // a tile to fill (tilesHalfVectors), left to the next width.
        // RegNetY's channels-last 1x1 convolutions from 48 and 208 channels
        // to 104 and 440 summed their inputs in 8 and 16 lanes at 30 and 37
        // GFLOP/s, and its projection shortcuts fused with the block's last
        // convolution at 10-12 GFLOP/s (the lanes of one reduction left the
        // other a chain of scalar FMAs).
        if (lanes == maxLanes)
          if (RangeOp range = sharedPaddedAxis(shape, lanes))
            return {range, lanes, true, kMaxSharedPaddedVectors};
        shared =
            longPaddedAxis(shape, lanes, /*sharedByTile=*/true, sharedScore);
        if (shared &&
            roundUp(shared.getBound(), lanes) / lanes > kMaxPaddedVectors &&
            onlyWeightsMove(shape, shared))
          return {shared, lanes, true};
        // Not a matrix-vector product: no tile shares its vectors' loads.
        auto hasOutputTile = [&](RangeOp range) {
          RangeOp tile = chooseTileAxis(shape, range, lanes / 2);
          return tile && tile.getAxis() != AxisType::reduce;
        };
        // (AVX-512 only: AVX2's half width is 4 lanes, untimed.)
        bool halfWidthOutput =
            lanes >= 16 && llvm::any_of(shape.outputs, [&](RangeOp range) {
              int64_t bound = range.getBound();
              return bound > kMaxPaddedVectors * lanes / 2 &&
                     bound % (lanes / 2) == 0 &&
                     onlyWeightsMove(shape, range) &&
                     tilesHalfVectors(shape, range, lanes) &&
                     hasOutputTile(range) &&
                     vectorScore(shape, range, lanes / 2,
                                 /*allowGathers=*/false) >= 3;
            });
        // A reduce axis is the lanes of its own reduction only: ConvNeXt's
        // last linear layer (3072 -> 768), its residual added and summed
        // over the 7x7 pixels of the global pool after it, took 16 lanes of
        // its 3072 inputs, 4.5 ms; 2 vectors of its outputs by 7 pixels
        // (the residual, channels first, read lane by lane), 2.4 ms.
        if (shape.reduceOps == 1 && !halfWidthOutput)
          consider(shape.reductions, false);
      }
      if (best)
        return {best, lanes, false};
      if (!allowGathers && !allowScatter) {
        consider(shape.outputs, true);
        // Past kMaxPaddedVectors, an axis whose loads a register tile
        // shares (a row of a matmul's B, each vector under a mask counted
        // at run time, feeds the tile's broadcasts): 16 lanes with the
        // last vector masked beat 4 whole ones.
        if (!best) {
          best = shared;
          bestScore = sharedScore;
        }
        // So too, in 16 lanes, a long row read every other element, over a
        // reduction too short for scattered stores (kMinReduceForScatter):
        // a stride-2 stem of 3 channels. SqueezeNet's 111 output columns
        // in 7 vectors of 16 (two loads and one permute each) by 16 output
        // channels ran 1.6x faster than its 64 channels as lanes by 8
        // pixels, each pixel's 64 stores scattered. In 8 lanes (AVX2: a
        // shuffle and a cross-lane permute per vector) the model ran 2%
        // slower, as AVX2 code on an AVX-512 machine.
        if (!best && lanes >= 16 && shape.reduceSize < kMinReduceForScatter)
          if (RangeOp row = longPaddedAxis(shape, lanes, /*sharedByTile=*/true,
                                           bestScore, /*strideTwo=*/true))
            return {row, lanes, true};
        // A padded axis that only its stores favour (every load reads
        // every other element or does not move) loses to an axis of
        // vector loads that only scatters its stores: each of the padded
        // axis's vectors costs two loads and a permute, and its last one is
        // partly masked (a convolution fused with the 2x2 max pool after
        // it, 14 pooled columns in 16 lanes against its 8 output channels
        // with the weights packed: 1.9x slower under BEAM).
        if (best && bestScore <= 1)
          if (RangeOp scattered = vectorLoadAxis(shape, lanes))
            return {scattered, lanes, false};
        if (best)
          return {best, lanes, true};
      }
    }
  }
  // Last, any output axis padded past kMaxPaddedVectors, its vectors in a
  // loop. Not before whole vectors of fewer lanes where nothing shares the
  // masked loads: MnasNet's depthwise convolutions of 72 channels (every
  // load moves with the vector) ran 5x slower as 5 vectors of 16, the
  // last one masked, than as 9 of 8.
  for (int64_t lanes = maxLanes; lanes >= 4; lanes /= 2) {
    int64_t score;
    if (RangeOp best =
            longPaddedAxis(shape, lanes, /*sharedByTile=*/false, score))
      return {best, lanes, true};
  }
  // Then, for a reduction, an axis up to a quarter of whose lanes idle
  // rather than none: SqueezeNet's last max pool, rows of 13 in 16 lanes,
  // ran as a chain of dependent scalar max ops per output, 11x slower.
  if (shape.reductions.empty())
    return {};
  for (int64_t lanes = maxLanes; lanes >= 4; lanes /= 2) {
    int64_t maxVectors =
        std::min(kMaxLastResortElements / lanes, kMaxLastResortVectors);
    for (RangeOp range : llvm::reverse(shape.outputs))
      if (vectorScore(shape, range, lanes, /*allowGathers=*/false,
                      /*allowScatter=*/false, /*padded=*/true, maxVectors,
                      /*lastResort=*/true) >= 0)
        return {range, lanes, true, maxVectors};
  }
  return {};
}

/// A reduce axis to vectorize besides an output `vector` that only the
/// stores (and the loads after the reduction) move along: a normalization
/// (the variance of a row, then the row scaled) keeps the row's reduction a
/// chain of scalar adds, 4 cycles each, unless its lanes are summed in
/// vector lanes too. The reduce axis must read every reduction-loop load
/// contiguously or not at all (vectorScore without gathers).
RangeOp chooseReduceLanes(KernelShape &shape, RangeOp vector, int64_t lanes) {
  if (!vector || vector.getAxis() == AxisType::reduce || lanes < 2)
    return {};
  for (const Access &access : shape.accesses)
    if (!access.isStore && access.inReduce &&
        shape.strideClass(access, vector, lanes) != StrideClass::Constant)
      return {};
  for (RangeOp range : llvm::reverse(shape.reductions))
    if (vectorScore(shape, range, lanes, /*allowGathers=*/false) >= 2)
      return range;
  return {};
}

/// The axis whose copies reuse the most loads: one along which the vector
/// loads (contiguous along `vector`) do not move counts most, one along
/// which only scalar loads stay put counts less. An output axis, or the
/// axis of a reduction around the innermost one (a 1x1 convolution summed
/// over the image for a global pool: its pixels share every weight load).
/// None when the copies along the best axis would share no vector load
/// (nor a weight packed into one), only scalar ones: the accumulators cost
/// more than they save (a depthwise convolution's rows share nothing but
/// its nine weights; MobileNetV2's 3x3 depthwise convolutions ran 1.5-1.7x
/// faster under BEAM without their 14-row tile, 7% for the model).
RangeOp chooseTileAxis(KernelShape &shape, RangeOp vector, int64_t lanes) {
  RangeOp best;
  int64_t bestScore = 0;
  bool bestSharesVector = false;
  SmallVector<RangeOp> candidates;
  for (RangeOp range : shape.reductions)
    if (!llvm::is_contained(shape.reduce.getRanges(), range.getResult()))
      candidates.push_back(range);
  candidates.append(shape.outputs.begin(), shape.outputs.end());
  // Inner axes first: their loads are nearer each other in memory.
  for (RangeOp range : llvm::reverse(candidates)) {
    if (range == vector || range.getBound() < 2)
      continue;
    int64_t score = 0;
    bool sharesVector = false;
    for (const Access &access : shape.accesses) {
      if (access.isStore || !access.inReduce || shape.moves(access, range))
        continue;
      StrideClass stride = vector ? shape.strideClass(access, vector, lanes)
                                  : StrideClass::Other;
      bool isVectorLoad = stride == StrideClass::Contiguous ||
                          stride == StrideClass::StrideTwo;
      score += isVectorLoad ? 4 : 1;
      sharesVector |= isVectorLoad || (vector && packable(access, vector));
    }
    if (score > bestScore) {
      best = range;
      bestScore = score;
      bestSharesVector = sharesVector;
    }
  }
  return vector && !bestSharesVector ? RangeOp() : best;
}

/// An output axis of a few vectors of half of `lanes` to take instead of a
/// reduce axis of `lanes`: one whose loads are vector loads (a weight packed
/// along it) and whose stores are whole vectors, beside an axis to tile.
/// Lanes of a reduce axis are summed at the end of every output, and its
/// tile shares only one load: a channels-last 1x1 convolution to 24
/// channels (MobileNetV2's 56x56 stage) summed its 144 input channels in
/// 16 lanes at 53 GFLOP/s; its 24 outputs as three vectors of 8 by 7
/// pixels, the pixel's channels broadcast, ran 2.2x faster.
RangeOp narrowOutputAxis(KernelShape &shape, int64_t lanes) {
  for (RangeOp range : llvm::reverse(shape.outputs))
    if ((int64_t)range.getBound() <= kMaxPaddedVectors * lanes &&
        vectorScore(shape, range, lanes, /*allowGathers=*/false) >= 3 &&
        chooseTileAxis(shape, range, lanes))
      return range;
  return {};
}

/// Bytes of a kernel's largest input that is not a constant weight.
int64_t largestActivationBytes(KernelOp kernel) {
  int64_t largest = 0;
  for (Value input : kernel.getInputs())
    if (auto type = dyn_cast<RankedTensorType>(input.getType());
        type && type.hasStaticShape() && !input.getDefiningOp<ConstOp>())
      largest = std::max(largest, getTensorBytes(type));
  return largest;
}

/// A kernel whose every load moves with the vector (a channels-last
/// depthwise convolution: its tile shares only the weights) takes 2 copies
/// at most when it reads more than this: MobileNetV2's depthwise
/// convolutions over inputs of 600 KB to 4.8 MB ran 1.1-1.5x faster with 1
/// or 2 pixels than with 7 to 14 (BEAM's choices, and inside the model),
/// those over 450 KB or less no faster.
constexpr int64_t kStreamedTileBytes = 512 * 1024;

/// The largest divisor of `bound` up to `most` (1 if none is 2 or more).
int64_t largestDivisor(int64_t bound, int64_t most) {
  for (int64_t amount = std::min(most, bound); amount > 1; --amount)
    if (bound % amount == 0)
      return amount;
  return 1;
}

/// Vectors of a product that reuses none of its loads kept side by side
/// (of `vectors` along its axis): the largest divisor up to
/// kIndependentVectors, else the smallest up to twice that. A classifier's
/// 1000 outputs are 125 vectors of 8: 5, where one accumulator made
/// ResNet-18's run 1.35x slower inside the model (BEAM's choice).
int64_t independentVectors(int64_t vectors) {
  int64_t copies = largestDivisor(vectors, kIndependentVectors);
  for (int64_t d = kIndependentVectors + 1;
       copies == 1 && d <= 2 * kIndependentVectors; ++d)
    if (vectors % d == 0)
      copies = d;
  return copies;
}

/// Steps of a reduction's chain (per output, after its lanes) from which
/// chains side by side pay: a row of 8 in 4 lanes is 2 adds, a layer
/// norm's 256 in 8 lanes 32.
constexpr int64_t kMinChainSteps = 16;

/// Steps of the kernel's (first) reduction per output: a layer norm's two
/// sums over 256 are two chains of 256, not one of 256 x 256.
int64_t chainSteps(KernelShape &shape) {
  int64_t steps = 1;
  for (Value range : shape.reduce.getRanges())
    if (auto op = range.getDefiningOp<RangeOp>())
      steps *= op.getBound();
  return steps;
}

/// Outputs of a reduction without a register tile whose lanes are summed
/// at the end (its vector, or lanes beside it, on a reduce axis) run side by
/// side along this axis, when it takes as many as kIndependentVectors:
/// each output's steps are one chain of dependent adds, 4 cycles each. The
/// outermost output axis other than `vector` along which the reduction
/// reads, with a divisor of 4 or more; null if none.
RangeOp chainAxis(KernelShape &shape, RangeOp vector) {
  for (RangeOp range : shape.outputs) {
    if (range == vector ||
        largestDivisor(range.getBound(), 2 * kIndependentVectors) <
            kIndependentVectors)
      continue;
    if (llvm::any_of(shape.accesses, [&](const Access &access) {
          return !access.isStore && access.inReduce &&
                 shape.moves(access, range);
        }))
      return range;
  }
  return {};
}

/// Copies of a register tile's axis of `bound` beside `vectors` vectors
/// within `accumulators`.
int64_t tileCopies(int64_t vectors, int64_t bound, int64_t accumulators) {
  return largestDivisor(bound, std::max<int64_t>(2, accumulators / vectors));
}

/// FMAs per load of a register tile of `vectors` vectors by tileCopies
/// copies: each step loads the vectors and broadcasts one value per copy.
double tileReuse(int64_t vectors, int64_t bound, int64_t accumulators) {
  int64_t copies = tileCopies(vectors, bound, accumulators);
  return double(vectors * copies) / double(vectors + copies);
}

/// `bound` rounded up to a multiple of `multiple` if at most 1/`share` of
/// the result is padding, else `bound`.
int64_t padIfFewIdle(int64_t bound, int64_t multiple, int64_t share) {
  int64_t padded = roundUp(bound, multiple);
  return (padded - bound) * share <= padded ? padded : bound;
}

/// The length a register tile's axis is computed over: its bound, or, for
/// an output axis with no divisor that fits the accumulators and fills
/// three quarters of half of them, the next multiple of half of them if
/// that leaves at most an eighth idle (PADTO). ViT's 197 tokens, a prime,
/// made a matmul of four vectors by one row (42 GFLOP/s); padded to 200
/// they take 8 rows (100 GFLOP/s). ShuffleNetV2's 1x1 convolutions to 116
/// channels tiled by 4 of AVX-512's 16 accumulators (a vector of pixels by
/// 4 channels: each FMA waits on the one before in its chain) ran 1.5x
/// slower than padded to 120 by 15, the model 0.89x the time. AVX2's 3 of
/// 8 stay: SqueezeNet's 111 pixels kept their 3 (4 vectors by 3 pixels
/// ran 1.6x faster than 2 by 8 padded); rows of 7 or 14 pixels keep 7.
int64_t paddedTileBound(RangeOp tile, int64_t accumulators) {
  int64_t bound = tile.getBound(), want = accumulators / 2;
  if (tile.getAxis() == AxisType::reduce || want < 2 ||
      largestDivisor(bound, accumulators) * 4 >= want * 3)
    return bound;
  return padIfFewIdle(bound, want, 8);
}

/// Reduction steps an output needs before its vectors are padded to pairs.
constexpr int64_t kMinReduceForPairPadding = 128;

/// Padding for two vectors by a tile leaves at most 1/kPairIdleShare idle.
constexpr int64_t kPairIdleShare = 16;

/// The length a register tile's axis is computed over beside two vectors:
/// `tileBound` (its bound or paddedTileBound's) where that has a divisor
/// to tile by that fills three quarters of the accumulators or more, else
/// the bound's next multiple of the copies that fill them if that leaves
/// at most a sixteenth idle. A 1x1 convolution at 7x7 has no divisor of
/// its 49 pixels within AVX2's 4 copies of two vectors: 2 by 4 of 52
/// pixels ran 1.1x faster than one vector by 7 (8 loads per 7 FMAs),
/// ResNet-18's Winograd products over 7x7 tiles 1.25x (43 -> 57 GFLOP/s).
/// SqueezeNet's rows of 111 and 27 pixels, by 3 (6 accumulators, FMAs
/// waiting on each other), ran 1.6x and 1.15x slower than padded to 112
/// and 28 by 4 (the padded pixel's loads no branch: IndexOp `padding`).
/// Rows of 7 padded to 8 (an eighth idle) keep one vector by 7: with its
/// stride-2 1x1 convolutions padded so too, ResNet-18 ran 1.05x slower.
int64_t pairedTileBound(RangeOp tile, int64_t tileBound, int64_t accumulators) {
  int64_t bound = tile.getBound(), copies = accumulators / 2;
  if (tile.getAxis() == AxisType::reduce || copies < 2 ||
      largestDivisor(tileBound, copies) * 4 > copies * 3)
    return tileBound;
  int64_t padded = padIfFewIdle(bound, copies, kPairIdleShare);
  return padded != bound ? padded : tileBound;
}

/// The length a register tile's axis is computed over where `tileBound`
/// has no divisor to tile by beside `vectors` vectors that leave room for
/// exactly two copies: its bound's next even length if that leaves at most
/// an eighth idle, else `tileBound`. SqueezeNet's 3x3 convolutions at 13x13
/// on AVX2 ran four vectors of output channels by one pixel (five loads per
/// four FMAs); by two pixels of a row padded to 14, the model ran 0.94x the
/// time. Where more copies fit (AVX-512's 16 accumulators by four vectors)
/// a padded tile is untimed, and the tile stays one copy.
int64_t evenTileBound(RangeOp tile, int64_t tileBound, int64_t vectors,
                      int64_t accumulators) {
  if (tile.getAxis() == AxisType::reduce || vectors < 2 ||
      accumulators / vectors != 2)
    return tileBound;
  int64_t bound = tile.getBound(), padded = padIfFewIdle(bound, 2, 8);
  return padded != bound ? padded : tileBound;
}

/// True if some count from 2 to `tasks` divides `count`: THREAD can split an
/// axis of `count` blocks.
bool splitsIntoTasks(int64_t count, int64_t tasks) {
  return largestDivisor(count, tasks) > 1;
}

/// FMAs that keep two FMA units busy when each waits 4 cycles for the one
/// before in its chain: a register tile of fewer accumulators idles them.
constexpr int64_t kFmaChains = 8;

/// The multiple to PADTO an output row of `lanes`-wide vectors to, a row too
/// long for all of its vectors to be in registers (more than `maxVectors`:
/// they run in a loop), so that it steps two vectors at a time; 0 to step
/// one (padded to `lanes`). Two where one vector by its tile's copies
/// makes fewer than kFmaChains accumulators and two make more, if padding
/// the row to pairs of vectors leaves at most an eighth idle. A tile of 4
/// accumulators runs at half speed: ShuffleNetV2's 1x1 convolutions of 116
/// channels at 14x14 on AVX2 (196 pixels in 25 vectors of 8 by 4 channels)
/// ran 1.5x faster in 13 pairs of vectors by 4 channels (Zen 3, kernel
/// alone). Where no other output axis splits into
/// tasks, the pairs are as many as do (14 pairs: 13 is a prime, as are the
/// 29 blocks of 4 channels; 1.4x faster).
int64_t pairedRowMultiple(KernelShape &shape, RangeOp vector, int64_t lanes,
                          int64_t maxVectors, RangeOp tile, int64_t tileBound,
                          int64_t accumulators, int64_t threadTasks) {
  int64_t bound = vector.getBound();
  if (vector.getAxis() == AxisType::reduce || !tile ||
      tile.getAxis() == AxisType::reduce ||
      roundUp(bound, lanes) / lanes <= maxVectors)
    return 0;
  int64_t single = tileCopies(1, tileBound, accumulators);
  int64_t paired = tileCopies(2, tileBound, accumulators);
  if (single >= kFmaChains || 2 * paired <= single)
    return 0;
  bool othersSplit = splitsIntoTasks(tileBound / paired, threadTasks);
  for (RangeOp range : shape.outputs)
    othersSplit |= range != vector && range != tile &&
                   splitsIntoTasks(range.getBound(), threadTasks);
  int64_t pairLanes = 2 * lanes, pairs = roundUp(bound, pairLanes) / pairLanes;
  while (threadTasks > 1 && !othersSplit &&
         !splitsIntoTasks(pairs, threadTasks))
    ++pairs;
  int64_t padded = pairs * pairLanes;
  if ((padded - bound) * 8 > padded)
    return 0;
  // PADTO pads to a multiple: the least that reaches the pairs.
  int64_t multiple = pairLanes;
  while (roundUp(bound, multiple) != padded)
    multiple += pairLanes;
  return multiple;
}

bool apply(KernelOp kernel, OptKind kind, RangeOp range, int64_t amount) {
  if (!range || amount < 2)
    return false;
  return succeeded(
      applyOptAction(kernel, {kind, (int64_t)range.getId(), amount}));
}

/// Lanes of a vector of `type`'s elements on the target (a bool takes a
/// byte).
int64_t maxLanesOf(Type type, const HeuristicOptions &options) {
  return std::max<int64_t>(1, options.target.vectorBytes /
                                  getElementBytes(getElementTypeOrSelf(type)));
}

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
    apply(kernel, OptKind::Upcast, findRange(kernel, *vectorId),
          bound / lanes);
  return true;
}

/// The fewest consecutive elements of each output row a transpose's step
/// writes: where the axis takes no tile of tgc-transpose-lanes
/// (transposeTileLanes), a square tile of 4.
constexpr int64_t kTransposeStoreRun = 4;

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
  const Access *store = nullptr;
  for (const Access &access : shape.accesses)
    if (access.isStore) {
      if (store)
        return false;
      store = &access;
    }
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
      if (!apply(kernel, OptKind::Upcast, range, run))
        return false;
      // Only a copy moves in tiles: with math between the load and the
      // store (Swin's normalization of windows, stored channels-first),
      // runs of 8 ran 7% slower than 4.
      StoreOp storeOp;
      kernel.walk([&](StoreOp op) { storeOp = op; });
      bool copies = storeOp && storeOp.getValue().getDefiningOp<LoadOp>();
      int64_t tile =
          transposeTileLanes(type.getElementType(), options.target.vectorBytes,
                             options.target.vectorRegisters);
      int64_t storeRun =
          copies && tile && tile <= run && storeAxis.getBound() % tile == 0
              ? tile
              : kTransposeStoreRun;
      if (storeAxis.getBound() % storeRun == 0)
        apply(kernel, OptKind::Upcast, findRange(kernel, storeId), storeRun);
      return true;
    }
  }
  return false;
}

} // namespace

void mlir::tgc::applyHeuristic(KernelOp kernel,
                               const HeuristicOptions &options) {
  KernelShape shape(kernel);
  if (!shape.reduces() && !applyStackOpts(kernel, shape, options))
    applyTransposeOpts(kernel, shape, options);
  if (shape.reduces()) {
    int64_t maxLanes = maxLanesOf(shape.reduce.getType(), options);
    int64_t accumulators = options.target.vectorRegisters / 2;
    // What a tile may take where half the registers would leave it few
    // copies (the rules below say when).
    int64_t wideAccumulators = options.target.vectorRegisters * 2 / 3;

    auto [vector, lanes, padded, maxVectors] =
        chooseVectorAxis(shape, maxLanes);
    // An output axis of half the lanes, all of its vectors in registers,
    // rather than a reduce axis (narrowOutputAxis). Its accumulators are
    // allowed two thirds of the registers: 3 vectors by 7 pixels ran 1.4x
    // faster than by 4, and by 8 slower than by 7.
    bool narrow = false, everyLoadMoves = false;
    int64_t tileAccumulators = accumulators;
    if (vector && vector.getAxis() == AxisType::reduce && lanes == maxLanes)
      if (RangeOp output = narrowOutputAxis(shape, lanes / 2)) {
        vector = output;
        lanes /= 2;
        narrow = true;
        tileAccumulators = wideAccumulators;
      }
    // The lanes of a reduce axis are summed once per output at the end
    // (lanes - 1 adds and as many lane moves): over a short reduction
    // that costs more than the loop (attention's QK^T sums 64 products: 4
    // steps of 16 lanes, then 15 adds; with 8 lanes 8 and 7, 1.45x
    // faster). Halved while the lanes outnumber twice the steps.
    if (vector && vector.getAxis() == AxisType::reduce)
      while (lanes > 4 && 2 * ((int64_t)vector.getBound() / lanes) < lanes)
        lanes /= 2;
    RangeOp tile = chooseTileAxis(shape, vector, lanes);
    // A tile axis whose length has no divisor to fill the accumulators
    // with (ViT's 197 tokens) is padded to one: see paddedTileBound.
    int64_t tileBound = tile ? paddedTileBound(tile, accumulators) : 0;
    // Decided before any action replaces the ranges `shape` holds.
    std::optional<int64_t> reduceLanesId;
    if (RangeOp reduceLanes = chooseReduceLanes(shape, vector, lanes);
        reduceLanes && reduceLanes != tile)
      reduceLanesId = reduceLanes.getId();
    // Outputs whose reductions run as chains side by side: see chainAxis.
    std::optional<int64_t> chainId;
    if (!tile && lanes && chainSteps(shape) / lanes >= kMinChainSteps &&
        (reduceLanesId || (vector && vector.getAxis() == AxisType::reduce)))
      if (RangeOp chains = chainAxis(shape, vector))
        chainId = chains.getId();
    bool vectorFeedsReduce =
        vector && llvm::any_of(shape.accesses, [&](const Access &access) {
          return !access.isStore && access.inReduce &&
                 shape.moves(access, vector);
        });
    int64_t vectorCopies = 1;
    if (vector) {
      // Actions replace the ranges they split: keep what is needed.
      int64_t id = vector.getId(), bound = vector.getBound();
      bool isReduce = vector.getAxis() == AxisType::reduce;
      int64_t rowVectors = 1;
      if (padded) {
        int64_t multiple =
            lanes == maxLanes
                ? pairedRowMultiple(shape, vector, lanes, maxVectors, tile,
                                    tileBound, accumulators,
                                    options.threadTasks)
                : 0;
        if (multiple)
          rowVectors = 2;
        else
          multiple = lanes;
        bound = roundUp(bound, multiple);
        apply(kernel, OptKind::Padto, vector, multiple);
      }
      // A second vector of the same row: twice the FMAs per broadcast,
      // unless it leaves the tile no divisor of its axis to fill the
      // accumulators with (AVX2's 8 accumulators and a row of 7: two
      // vectors by one pixel, or one vector by 7 pixels). Four vectors
      // where two would leave half the accumulators idle and each copy of
      // the tile broadcasts a value the vectors share (AVX2 and a row of
      // 14: four vectors by 2 pixels, not two by 2; ResNet-18's stride-2
      // convolution to 14x14 ran 1.4x faster). Not where every load moves
      // with the vector: a channels-last depthwise convolution's input
      // and weights are both vectors, and four ran 1.3x slower.
      bool broadcasts = llvm::any_of(shape.accesses, [&](const Access &access) {
        return !access.isStore && access.inReduce &&
               !shape.moves(access, vector);
      });
      // No load is the same in all of a vector's lanes: one that moves
      // only from one vector to the next is broadcast too (a grouped
      // convolution's input, its group channel / 32): ResNeXt-50's
      // 32-channel groups at 7x7 lost their tile to the streamed rule
      // below and ran one chain of FMAs.
      everyLoadMoves =
          !isReduce && llvm::none_of(shape.accesses, [&](const Access &access) {
            return !access.isStore && access.inReduce &&
                   shape.strideClass(access, vector, lanes) ==
                       StrideClass::Constant;
          });
      if (!isReduce && !padded && tile && lanes == maxLanes) {
        auto reuse = [&](int64_t vectors) {
          return tileReuse(vectors, tileBound, accumulators);
        };
        // Two vectors by a padded tile, its added idle share discounted,
        // where the tile's axis has no divisor to pair them with.
        int64_t pairedBound = pairedTileBound(tile, tileBound, accumulators);
        double pairedReuse = tileReuse(2, pairedBound, accumulators) *
                             double(tileBound) / double(pairedBound);
        // An odd count of vectors is padded to an even one where that
        // leaves at most a sixteenth idle and every reduction load along
        // the vector is a weight that PACK zero-pads: RegNet's 440 output
        // channels as 28 pairs of vectors. Not beside a tile of reduce
        // steps, which one vector may take whole (a classifier summed over
        // 13x13 pixels), nor over a short reduction, where the padded
        // vector's masked stores cost more than the pairs save (MobileNetV3's
        // 40 -> 120 channels at 14x14 ran 1.5x slower).
        bool padsWeightsOnly =
            tile.getAxis() != AxisType::reduce &&
            shape.reduceSize >= kMinReduceForPairPadding &&
            llvm::all_of(shape.accesses, [&](const Access &access) {
              return access.isStore || !access.inReduce ||
                     !shape.moves(access, vector) || packable(access, vector);
            });
        int64_t pairs = padIfFewIdle(bound, 2 * lanes, kPairIdleShare);
        bool padsPair = padsWeightsOnly && pairs != bound;
        if (padsPair)
          pairedReuse *= double(bound) / double(pairs);
        // Where half the registers hold fewer accumulators than two FMA
        // units keep in flight (16 registers: 8 accumulators, and an FMA
        // waits 5 cycles on Zen 2 and Haswell, so 10 are needed), three
        // vectors by four copies take three quarters of them: 12
        // accumulators, the three vectors' loads and one broadcast fill the
        // 16. The axis is padded to three vectors as to two. On Zen 2 (AVX2)
        // the 1024^3 matmul ran 1.23x faster as 3 vectors by 4 rows (its
        // 1024 columns padded to 1032) than as 2 by 4, and MobileNetV2's
        // 1x1 convolution from 24 to 144 channels at 56x56 1.17x. Only where
        // the tile's axis is outside the vector's: tgc-expand writes the
        // copies in the order of their axes, and broadcast by broadcast the
        // three vectors stay live (16 registers in all), but vector by
        // vector the four broadcasts do, and GCC spilled three
        // accumulators (ResNet-18's Winograd products at 4x4 tiles, their
        // output channels outside their pixels, ran 1.7x slower).
        constexpr int64_t kTripleVectors = 3, kTripleCopies = 4;
        int64_t tripleAccumulators = kTripleVectors * kTripleCopies;
        int64_t triples =
            padIfFewIdle(bound, kTripleVectors * lanes, kPairIdleShare);
        if (broadcasts && tile.getAxis() != AxisType::reduce &&
            tile->isBeforeInBlock(vector) &&
            tripleAccumulators > accumulators &&
            tripleAccumulators + kTripleVectors + 1 <=
                (int64_t)options.target.vectorRegisters &&
            tileBound % kTripleCopies == 0 &&
            triples % (kTripleVectors * lanes) == 0 &&
            (triples == bound || padsWeightsOnly)) {
          if (triples != bound) {
            apply(kernel, OptKind::Padto, vector, kTripleVectors * lanes);
            bound = triples;
          }
          rowVectors = kTripleVectors;
          tileAccumulators = tripleAccumulators;
        } else if ((bound % (2 * lanes) == 0 || padsPair) &&
                   pairedReuse >= reuse(1)) {
          if (padsPair) {
            apply(kernel, OptKind::Padto, vector, 2 * lanes);
            bound = pairs;
          }
          rowVectors = 2;
          tileBound = pairedBound;
        }
        // Three vectors where the axis is an odd multiple of three (144
        // channels: 9 vectors of 16) and each copy of the tile broadcasts a
        // value they share, within two thirds of the registers:
        // MobileNetV2's 1x1 convolutions from 24 to 144 channels at 56x56
        // ran 1.25x faster as 3 vectors by 7 pixels (10 loads per 21 FMAs)
        // than as 1 by 16 (17 per 16). AVX-512 only: with AVX2's 16
        // registers three vectors leave room for 3 copies, untimed.
        if (rowVectors == 1 && broadcasts && bound % (3 * lanes) == 0 &&
            options.target.vectorRegisters >= 32 &&
            tileReuse(3, tileBound, wideAccumulators) > reuse(1)) {
          rowVectors = 3;
          tileAccumulators = wideAccumulators;
        }
        // Where two vectors' tile would leave half the accumulators idle,
        // first a tile of two vectors by more copies than fit the
        // accumulators, within two thirds of the registers: SqueezeNet's
        // 3x3 convolutions at 27x27 on AVX-512, 2 vectors by 9 pixels (18
        // accumulators), ran 1.25x faster than 4 by 3 (12) and 1.1x than
        // 4 by 4 with the row padded to 28.
        if (rowVectors == 2 && broadcasts &&
            2 * tileCopies(2, tileBound, accumulators) <= accumulators / 2) {
          if (2 * tileCopies(2, tileBound, wideAccumulators) > accumulators)
            tileAccumulators = wideAccumulators;
          else if (bound % (4 * lanes) == 0 && reuse(4) > reuse(2))
            rowVectors = 4;
        }
      }
      // Weights the vector would gather are transposed first, while their
      // dims are still whole ranges, in blocks of what one tile reads. So
      // are weights it reads whole rows of: a Gemm's B read 32 columns at
      // a time with a row stride of 4 KiB maps every row to the same few
      // cache sets, and its panel (32 columns, all rows) falls out of L1
      // and L2; packed, the panel is one contiguous run.
      int64_t block = lanes * rowVectors;
      for (const Access &access : shape.accesses)
        if (!access.isStore && packable(access, vector) &&
            (shape.strideClass(access, vector, lanes) !=
                 StrideClass::Contiguous ||
             (access.inReduce && bound > block)))
          (void)applyOptAction(kernel,
                               {OptKind::Pack, id, block, *access.weight});
      apply(kernel, isReduce ? OptKind::Unroll : OptKind::Upcast,
            findRange(kernel, id), lanes);
      if (rowVectors > 1 &&
          apply(kernel, OptKind::Upcast, findRange(kernel, id), rowVectors))
        vectorCopies = rowVectors;
      // Every vector of a padded axis in registers, up to `maxVectors`:
      // the last one's gate is then a constant count of lanes. So with a
      // narrow axis: each broadcast feeds all of its vectors.
      if ((padded || narrow) && bound > lanes && bound / lanes <= maxVectors &&
          apply(kernel, OptKind::Upcast, findRange(kernel, id), bound / lanes))
        vectorCopies = bound / lanes;
      // More vectors in registers than kMaxPaddedVectors (sharedPaddedAxis's
      // five, a last resort's up to eight): within half the registers the
      // tile could take only 2 or 3 copies of them (MnasNet's 24 -> 72
      // channels, 5 vectors by 2 pixels, gained nothing on 1 vector of 8
      // by 16), so it gets two thirds of the registers.
      if (vectorCopies > kMaxPaddedVectors)
        tileAccumulators = wideAccumulators;
      // Nothing reuses the vector's loads (a matrix-vector product: one
      // weight vector per FMA): with one accumulator every FMA waits 4
      // cycles for the one before; a few vectors side by side overlap them
      // (the MLP's 784- and 512-long rows ran 1.7x faster with 4).
      if (int64_t copies = independentVectors(bound / lanes);
          !isReduce && !tile && !padded && vectorFeedsReduce &&
          apply(kernel, OptKind::Upcast, findRange(kernel, id), copies))
        vectorCopies = copies;
    } else {
      // No vector lanes: a small scalar tile still saves loads.
      RangeOp inner = shape.outputs.empty() ? RangeOp() : shape.outputs.back();
      if (inner && inner != tile &&
          apply(kernel, OptKind::Upcast, inner,
                largestDivisor(inner.getBound(), 4)))
        vectorCopies = 4;
    }
    if (tile) {
      bool streamed =
          everyLoadMoves && largestActivationBytes(kernel) > kStreamedTileBytes;
      if (streamed)
        tileBound = tile.getBound();
      int64_t copies =
          streamed ? largestDivisor(tileBound, 2)
                   : tileCopies(vectorCopies, tileBound, tileAccumulators);
      if (copies == 1 && !streamed) {
        tileBound =
            evenTileBound(tile, tileBound, vectorCopies, tileAccumulators);
        copies = tileCopies(vectorCopies, tileBound, tileAccumulators);
      }
      // A reduce axis cannot be padded: one with no divisor to tile by (a
      // prime 13) is taken whole where its accumulators, the vectors'
      // loads and a broadcast fit the registers. SqueezeNet's classifier,
      // a 1x1 convolution summed over 13x13 pixels, ran as one chain of
      // dependent FMAs on AVX2's 8 accumulators, 8x slower.
      if (copies == 1 && tile.getAxis() == AxisType::reduce &&
          vectorCopies * (tileBound + 1) + 1 <=
              (int64_t)options.target.vectorRegisters)
        copies = tileBound;
      if (tileBound != (int64_t)tile.getBound())
        apply(kernel, OptKind::Padto, tile, copies);
      apply(kernel,
            tile.getAxis() == AxisType::reduce ? OptKind::Unroll
                                               : OptKind::Upcast,
            tile, copies);
    }
    if (reduceLanesId)
      apply(kernel, OptKind::Unroll, findRange(kernel, *reduceLanesId), lanes);
    // The transformer block's layer norms (two sums over 256 per row) and
    // softmax (a max and a sum over 128 per row and head): BEAM upcast
    // their rows by 8 (or heads by 4), 1.0-1.7x faster inside the model.
    if (chainId) {
      RangeOp chains = findRange(kernel, *chainId);
      apply(kernel, OptKind::Upcast, chains,
            largestDivisor(chains.getBound(), 2 * kIndependentVectors));
    }
  }
  chooseThreads(kernel, options.threadTasks);
}
