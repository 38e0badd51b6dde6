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
#include "Codegen/ElementwiseOpts.h"
#include "Codegen/KernelShape.h"
#include "Codegen/VectorAxis.h"

using namespace mlir;
using namespace mlir::tgc;
using namespace mlir::tgc::heuristic;

namespace {

/// Accumulators a kernel without a register tile keeps side by side, so
/// that dependent FMAs (4 cycles each) overlap.
constexpr int64_t kIndependentVectors = 4;

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
/// those over 450 KB or less no faster. Where its window is written out
/// (kMaxUnrolledTaps) it also keeps one vector.
constexpr int64_t kStreamedTileBytes = 512 * 1024;

/// Taps of a streamed kernel's window (its reduce loops) written out in
/// full where it reads weights: each tap's weight vector is then a value
/// the C compiler keeps in a register across the pixels (where
/// tgc-order-loops nests the channel vectors outside them), and the taps
/// of neighbouring pixels share their loads. MobileNetV2's depthwise 3x3
/// convolutions at 56x56 to 14x14, in one vector by 2 pixels with their 9
/// taps written out, ran 1.1-1.6x faster inside the model than in two
/// vectors by 2 pixels with the taps in loops on one thread, 1.1-1.5x on
/// two; MnasNet's of 72 channels at 56x56 1.04-1.16x.
/// Only where a vector's stripe of the whole input fits in a quarter of L2
/// (kStripeBytes): the 112x112 image of MobileNetV2's and MnasNet's first
/// depthwise convolution (32 channels, 800 KB a stripe) and the stride-2
/// one to 56x56 (96 channels of 112x112) ran 0.8-1.2x as fast. Not a
/// pool, which has no weights to keep: ResNet-18's 3x3 max pool ran
/// 1.4x slower with its taps written out (VGG's 2x2 pools 1.0-1.5x faster).
/// Nor a larger window, whose weights outnumber the registers: in one
/// vector, its taps in loops and the channel vectors outside the pixels,
/// EfficientNet-B0's 5x5 depthwise convolutions ran 0.8-1.0x as fast,
/// ConvNeXt-T's 7x7 ones at 28x28 0.9-1.0x (at 56x56 1.2-1.4x).
constexpr int64_t kMaxUnrolledTaps = 9;
constexpr int64_t kStripeBytes = 256 * 1024;

/// A matrix-vector product's weight of more than this, each element read
/// once per run, comes from L3 or memory; see streamsWeightOnce.
constexpr int64_t kStreamedWeightBytes = int64_t(1) << 20;

/// True if the kernel reads a constant weight of more than
/// kStreamedWeightBytes that moves along every range (a classifier at batch
/// 1: nothing reuses it). Its rows, summed in lanes of the reduce axis, then
/// go one at a time: a tile of rows (sharing only the input vector's loads)
/// or rows side by side as chains make as many streams of reads 2-5 KB
/// apart, and the hardware prefetchers keep fewer bytes in flight for them
/// than for one. Inside the models, one row at a time ran ResNet-18's
/// classifier (1000 x 512) 1.9x faster than in 10 rows side by side on one
/// thread and on two, MobileNetV2's (1000 x 1280) 1.3x, VGG11's (1000 x
/// 4096) 1.04x and 1.18x; two rows side by side were the slowest of all.
bool streamsWeightOnce(KernelOp kernel, KernelShape &shape) {
  auto everyRangeMoves = [&](const Access &access) {
    auto moves = [&](RangeOp range) { return shape.moves(access, range); };
    return llvm::all_of(shape.outputs, moves) &&
           llvm::all_of(shape.reductions, moves);
  };
  return llvm::any_of(shape.accesses, [&](const Access &access) {
    Value weight = access.isStore || !access.inReduce
                       ? Value()
                       : findAddressedInput(kernel, access.index);
    if (!weight || !weight.getDefiningOp<ConstOp>())
      return false;
    auto type = dyn_cast<RankedTensorType>(weight.getType());
    return type && type.hasStaticShape() &&
           getTensorBytes(type) > kStreamedWeightBytes &&
           everyRangeMoves(access);
  });
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

} // namespace

void mlir::tgc::applyHeuristic(KernelOp kernel,
                               const HeuristicOptions &options) {
  KernelShape shape(kernel);
  if (!shape.reduces())
    applyElementwiseOpts(kernel, shape, options);
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
    bool narrow = false, everyLoadMoves = false, streamed = false,
         writesOutWindow = false;
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
    // A weight streamed once, its rows summed in lanes, is read one row at
    // a time: see streamsWeightOnce.
    bool rowAtATime = vector && vector.getAxis() == AxisType::reduce &&
                      streamsWeightOnce(kernel, shape);
    if (rowAtATime)
      tile = {};
    // A tile axis whose length has no divisor to fill the accumulators
    // with (ViT's 197 tokens) is padded to one: see paddedTileBound.
    int64_t tileBound = tile ? paddedTileBound(tile, accumulators) : 0;
    // Decided before any action replaces the ranges `shape` holds.
    std::optional<int64_t> reduceLanesId;
    if (RangeOp reduceLanes = chooseReduceLanes(shape, vector, lanes);
        reduceLanes && reduceLanes != tile)
      reduceLanesId = reduceLanes.getId();
    // The window's taps, written out where writesOutWindow (kMaxUnrolledTaps).
    SmallVector<int64_t> reduceIds;
    for (RangeOp range : shape.reductions)
      reduceIds.push_back(range.getId());
    // Outputs whose reductions run as chains side by side: see chainAxis.
    std::optional<int64_t> chainId;
    if (!tile && !rowAtATime && lanes &&
        chainSteps(shape) / lanes >= kMinChainSteps &&
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
      int64_t activationBytes = largestActivationBytes(kernel);
      bool readsWeights =
          llvm::any_of(shape.accesses, [](const Access &access) {
            return access.inReduce && access.weight;
          });
      streamed = everyLoadMoves && activationBytes > kStreamedTileBytes;
      writesOutWindow =
          streamed && readsWeights && shape.reduceSize <= kMaxUnrolledTaps &&
          activationBytes / std::max<int64_t>(1, bound / lanes) <= kStripeBytes;
      if (!isReduce && !padded && tile && lanes == maxLanes &&
          !writesOutWindow) {
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
    if (writesOutWindow)
      for (int64_t id : reduceIds)
        if (RangeOp range = findRange(kernel, id);
            range && range.getAxis() == AxisType::reduce)
          apply(kernel, OptKind::Unroll, range, range.getBound());
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
