//===- VectorAxis.cpp - which axes become lanes and tiles -------*- C++ -*-===//
//
// Scores every axis of a reduction as a vector's lanes, by how many of the
// reduction loop's loads become vector loads along it and whether its stores
// are whole vectors, and as a register tile's axis, by how many loads its
// copies share. Padding an axis to whole vectors (PADTO, the last one
// masked) is weighed against narrower vectors that need none.
//
//===----------------------------------------------------------------------===//

#include "Codegen/VectorAxis.h"

using namespace mlir;
using namespace mlir::tgc;
using namespace mlir::tgc::heuristic;

namespace {

/// Output axes whose stores are scattered lane by lane are worth it only
/// when each output takes this many reduction steps or more.
constexpr int64_t kMinReduceForScatter = 64;

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

} // namespace

VectorChoice mlir::tgc::heuristic::chooseVectorAxis(KernelShape &shape,
                                                    int64_t maxLanes) {
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

RangeOp mlir::tgc::heuristic::chooseReduceLanes(KernelShape &shape,
                                                RangeOp vector, int64_t lanes) {
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

RangeOp mlir::tgc::heuristic::chooseTileAxis(KernelShape &shape, RangeOp vector,
                                             int64_t lanes) {
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
      bool isVectorLoad =
          stride == StrideClass::Contiguous || stride == StrideClass::StrideTwo;
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

RangeOp mlir::tgc::heuristic::narrowOutputAxis(KernelShape &shape,
                                               int64_t lanes) {
  for (RangeOp range : llvm::reverse(shape.outputs))
    if ((int64_t)range.getBound() <= kMaxPaddedVectors * lanes &&
        vectorScore(shape, range, lanes, /*allowGathers=*/false) >= 3 &&
        chooseTileAxis(shape, range, lanes))
      return range;
  return {};
}
