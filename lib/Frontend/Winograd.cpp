//===- Winograd.cpp - 3x3 convolutions as Winograd F(m x m, 3x3) -===//
//
// See Winograd.h. The layouts are chosen for the kernels they schedule
// into. The transformed input tiles are stacked along a new first axis,
// [e, N, tH, tW, C] for the tile's elements e, each tile's channels
// contiguous, so that each element's product is a 1x1 convolution of C
// into K channels read as a channels-last one reads its pixels; U is
// [e, K, C], one weight dim per kernel range, which PACK lays out for
// vector loads along K. NCHW, the products are [e, N, K, tH, tW] and the
// output transform is realized as [N, K, tH, m, tW, m], the image in
// memory. Channels last (--conv-layout), the input is read as
// [N, H, W, C], the products are [e, N, tH, tW, K], stored a vector of
// output channels at a time, and the output transform is realized as
// [N, tH, m, tW, m, K], the image [N, H, W, K]: every kernel of the
// convolution then moves whole vectors of channels (ResNet-18 on AVX-512,
// one core: the input transforms 2x faster, the products 1.25x, the
// output transforms 2.5x, with no transposes around them). Either way,
// what follows the Conv (bias, activation, residual add) reads the
// realized image.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Winograd.h"
#include "IR/ConstantData.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>
#include <cassert>
#include <array>
#include <cstring>

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// One algorithm F(m x m, 3x3): input tiles of m + 2 elements a side give
/// m x m outputs. Its matrices, row-major: Bt [tile, tile], G [tile, 3],
/// At [m, tile] (Lavin & Gray's, interpolation points 0, 1, -1 for m = 2,
/// and 0, 1, -1, 2, -2 for m = 4, each with the point at infinity).
struct Algorithm {
  int out, tile;
  ArrayRef<double> bt, g, at;
  int elements() const { return tile * tile; }
};

constexpr int kTaps = 3;

constexpr double kBt2[] = {1, 0, -1, 0,  //
                           0, 1, 1,  0,  //
                           0, -1, 1, 0,  //
                           0, 1, 0,  -1};
constexpr double kG2[] = {1,   0,    0,    //
                          0.5, 0.5,  0.5,  //
                          0.5, -0.5, 0.5,  //
                          0,   0,    1};
constexpr double kAt2[] = {1, 1, 1, 0,  //
                           0, 1, -1, -1};

constexpr double kBt4[] = {4, 0,  -5, 0,  1, 0,  //
                           0, -4, -4, 1,  1, 0,  //
                           0, 4,  -4, -1, 1, 0,  //
                           0, -2, -1, 2,  1, 0,  //
                           0, 2,  -1, -2, 1, 0,  //
                           0, 4,  0,  -5, 0, 1};
constexpr double kG4[] = {1.0 / 4,   0,         0,        //
                          -1.0 / 6,  -1.0 / 6,  -1.0 / 6, //
                          -1.0 / 6,  1.0 / 6,   -1.0 / 6, //
                          1.0 / 24,  1.0 / 12,  1.0 / 6,  //
                          1.0 / 24,  -1.0 / 12, 1.0 / 6,  //
                          0,         0,         1};
constexpr double kAt4[] = {1, 1, 1,  1, 1,  0,  //
                           0, 1, -1, 2, -2, 0,  //
                           0, 1, 1,  4, 4,  0,  //
                           0, 1, -1, 8, -8, 1};

Algorithm algorithm(int out) {
  if (out == 4)
    return {4, 6, kBt4, kG4, kAt4};
  return {2, 4, kBt2, kG2, kAt2};
}

/// The cost rule (winogradTile), measured on ResNet-18's 3x3 convolutions
/// (AVX-512, one core). With 784, 196 and 49 2x2 tiles per image the 16
/// products run at the speed of a 1x1 convolution and each conv takes
/// about half the direct one's time; with 16 (a 7x7 image) each weight is
/// used 16 times and the 16/9 larger weight streams from memory: the model
/// was no faster with those three (27.2 vs 26.9 ms) and its weights 21 MB
/// larger. 4x4 tiles need 36 products for 16 outputs, not 64: the 56x56
/// and 28x28 stages (196 and 49 tiles) took 0.96 and 0.75 ms per conv
/// instead of 1.42 and 1.1; the 14x14 one (16 tiles, 23% of their outputs
/// past the image) is left to 2x2. Fewer output channels than a vector
/// make the products short rows. Each product sums over the input
/// channels, and its transforms cost the same per channel whatever the
/// output channels: one 3x3 convolution alone, 14x14 to 56x56 images, 16
/// to 128 output channels, ran 0.59-1.10x the direct one's speed with 32
/// input channels (10 of 12 cases slower, textdet's 32 to 16 at 16x16 0.54x)
/// and 1.12-2.85x with 64 or 128.
constexpr int64_t kMinTiles = 32, kMinInputChannels = 64,
                  kMinOutputChannels = 16;

/// With 16 vector registers (AVX2) a 7x7 image's 16 tiles are enough: the
/// direct convolution keeps 8 accumulators there, one vector by a row of
/// 7 pixels (8 loads per 7 FMAs), while the products tile 2 vectors by 4
/// of the 16 tiles. ResNet-18's 512-channel 3x3 convolutions at 7x7 took
/// 3.6 and 4.3 ms direct, 2.2 ms through Winograd (Zen 3, one core).
constexpr int64_t kMinTilesFewRegisters = 16;
constexpr unsigned kManyVectorRegisters = 32;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// sum_j coeffs[j] * terms[j] over the non-zero coefficients, with no
/// multiply by 1 or -1: what one element of a transformed tile costs.
Value combine(TensorBuilder &tb, ArrayRef<double> coeffs,
              ArrayRef<Value> terms) {
  Value sum;
  for (auto [c, term] : llvm::zip(coeffs, terms)) {
    if (c == 0)
      continue;
    if (!sum)
      sum = c == 1 ? term : c == -1 ? tb.neg(term) : tb.mul(term, c);
    else if (c == 1)
      sum = tb.add(sum, term);
    else if (c == -1)
      sum = tb.sub(sum, term);
    else
      sum = tb.add(sum, tb.mul(term, c));
  }
  return sum;
}

/// A square tile of tensors of one shape, tile[k][l].
using Tile = SmallVector<SmallVector<Value>>;

/// m [rows, cols] applied on both sides of a cols x cols tile: result[a][b]
/// = sum_kl m[a][k] m[b][l] tile[k][l], rows first so that the partial
/// sums are shared.
Tile transformTile(TensorBuilder &tb, ArrayRef<double> m, int rows,
                   const Tile &tile) {
  int cols = tile.size();
  auto row = [&](int a) { return m.slice(a * cols, cols); };
  Tile partial(rows, SmallVector<Value>(cols));
  for (int a = 0; a < rows; ++a)
    for (int l = 0; l < cols; ++l) {
      SmallVector<Value> column;
      for (int k = 0; k < cols; ++k)
        column.push_back(tile[k][l]);
      partial[a][l] = combine(tb, row(a), column);
    }
  Tile result(rows, SmallVector<Value>(rows));
  for (int a = 0; a < rows; ++a)
    for (int b = 0; b < rows; ++b)
      result[a][b] = combine(tb, row(b), partial[a]);
  return result;
}

/// The float data of a constant f32 tensor, or failure.
FailureOr<std::vector<float>> readFloats(ConstOp constant) {
  int64_t count = cast<RankedTensorType>(constant.getType()).getNumElements();
  std::vector<float> values(count);
  ArrayRef<char> bytes = getConstantBytes(constant);
  if ((int64_t)bytes.size() == count * (int64_t)sizeof(float)) {
    std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
  }
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense || !dense.isSplat())
    return failure();
  std::fill(values.begin(), values.end(), dense.getSplatValue<float>());
  return values;
}

/// G g Gt for every (k, c) of w [K, C, 3, 3], in double precision and
/// rounded once, laid out [tile a + b, K, C].
std::vector<float> transformWeights(const Algorithm &alg, ArrayRef<float> w,
                                    int64_t k, int64_t c) {
  int n = alg.tile;
  std::vector<float> u(alg.elements() * k * c);
  std::vector<double> gg(n * kTaps); // G g
  for (int64_t o = 0; o < k * c; ++o) {
    const float *g = &w[o * kTaps * kTaps];
    std::fill(gg.begin(), gg.end(), 0.0);
    for (int a = 0; a < n; ++a)
      for (int j = 0; j < kTaps; ++j)
        for (int i = 0; i < kTaps; ++i)
          gg[a * kTaps + j] += alg.g[a * kTaps + i] * g[i * kTaps + j];
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        double sum = 0;
        for (int j = 0; j < kTaps; ++j)
          sum += gg[a * kTaps + j] * alg.g[b * kTaps + j];
        u[(a * n + b) * k * c + o] = static_cast<float>(sum);
      }
  }
  return u;
}

/// The transformed weight as a constant of its own, in the original's
/// form (a resource blob named after it, or a dense attribute).
Value makeWeightConstant(TensorBuilder &tb, ConstOp original,
                         ArrayRef<float> u, int64_t elements, int64_t k,
                         int64_t c) {
  auto type = RankedTensorType::get(
      {elements, k, c}, Float32Type::get(tb.getBuilder().getContext()));
  ArrayRef<char> bytes(reinterpret_cast<const char *>(u.data()),
                       u.size() * sizeof(float));
  return tb.constant(makeConstantLike(original, type, bytes, "_winograd"));
}

/// U = G g Gt as [tile^2, K, C]: computed here for a constant weight, else
/// as graph ops (each element a sum of the 3x3 taps' [K, C] slices).
Value transformWeight(TensorBuilder &tb, const Algorithm &alg, Value w,
                      int64_t k, int64_t c) {
  if (auto weight = w.getDefiningOp<ConstOp>()) {
    FailureOr<std::vector<float>> g = readFloats(weight);
    if (failed(g)) {
      tb.error() << "cannot read the weight's data for the Winograd "
                    "transform";
      return {};
    }
    return makeWeightConstant(tb, weight, transformWeights(alg, *g, k, c),
                              alg.elements(), k, c);
  }
  Tile taps(kTaps, SmallVector<Value>(kTaps));
  for (int i = 0; i < kTaps; ++i)
    for (int j = 0; j < kTaps; ++j)
      taps[i][j] = tb.reshape(tb.shrink(w, {0, 0, i, j}, {k, c, i + 1, j + 1}),
                              {1, k, c});
  SmallVector<Value> elements;
  for (auto &row : transformTile(tb, alg.g, alg.tile, taps))
    llvm::append_range(elements, row);
  return tb.concat(elements, 0);
}

/// Output tiles a side of the image, for outputs m x m.
std::array<int64_t, 2> tilesPerSide(Value x,
                                    const TensorBuilder::ConvOptions &options,
                                    int m) {
  ArrayRef<int64_t> xs = TensorBuilder::shapeOf(x);
  std::array<int64_t, 2> tiles;
  for (int i = 0; i < 2; ++i)
    tiles[i] = ceilDiv(xs[2 + i] + options.padLow[i] + options.padHigh[i] -
                           (kTaps - 1),
                       m);
  return tiles;
}

} // namespace

std::optional<WinogradMode>
mlir::tgc::parseWinogradMode(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<WinogradMode>>(name)
      .Case("auto", WinogradMode::Auto)
      .Case("always", WinogradMode::Always)
      .Case("never", WinogradMode::Never)
      .Case("2x2", WinogradMode::Tile2)
      .Case("4x4", WinogradMode::Tile4)
      .Default(std::nullopt);
}

bool mlir::tgc::winogradApplies(Value x, Value w,
                                const TensorBuilder::ConvOptions &options) {
  auto isOne = [](int64_t v) { return v == 1; };
  return TensorBuilder::rankOf(x) == 4 &&
         TensorBuilder::elementTypeOf(x).isF32() &&
         TensorBuilder::elementTypeOf(w).isF32() && options.groups == 1 &&
         TensorBuilder::shapeOf(w).drop_front(2) ==
             ArrayRef<int64_t>{kTaps, kTaps} &&
         llvm::all_of(options.strides, isOne) &&
         llvm::all_of(options.dilations, isOne);
}

int mlir::tgc::winogradTile(Value x, Value w,
                            const TensorBuilder::ConvOptions &options) {
  // Per image: a batch may be computed one image at a time, each reading
  // all the weights.
  auto enoughTiles = [&](int m) {
    auto [high, wide] = tilesPerSide(x, options, m);
    return high * wide >= kMinTiles;
  };
  return enoughTiles(4) ? 4 : 2;
}

bool mlir::tgc::winogradPays(Value x, Value w,
                             const TensorBuilder::ConvOptions &options,
                             unsigned vectorRegisters) {
  int64_t channels = TensorBuilder::shapeOf(x)[1],
          outChannels = TensorBuilder::shapeOf(w)[0];
  auto [high, wide] = tilesPerSide(x, options, 2);
  int64_t minTiles = vectorRegisters < kManyVectorRegisters
                         ? kMinTilesFewRegisters
                         : kMinTiles;
  // A weight given at run time would be transformed on every run.
  return w.getDefiningOp<ConstOp>() && channels >= kMinInputChannels &&
         outChannels >= kMinOutputChannels && high * wide >= minTiles;
}

Value mlir::tgc::winogradConv(TensorBuilder &tb, Value x, Value w,
                              const TensorBuilder::ConvOptions &options,
                              int m) {
  assert((m == 2 || m == 4) && "F(2x2, 3x3) or F(4x4, 3x3)");
  Algorithm alg = algorithm(m);
  int n = alg.tile;
  ArrayRef<int64_t> xs = TensorBuilder::shapeOf(x);
  int64_t batch = xs[0], channels = xs[1];
  int64_t outChannels = TensorBuilder::shapeOf(w)[0];
  Value u = transformWeight(tb, alg, w, outChannels, channels);
  if (!u)
    return {};

  // Channels last, every tensor below keeps its channels innermost (see
  // the file comment): the image is viewed as [N, H, W, C], which cancels
  // a channels-last producer's permute, and the spatial axes are 1 and 2.
  bool last = options.channelsLast;
  int64_t rowAxis = last ? 1 : 2;
  Value image = last ? tb.permute(x, {0, 2, 3, 1}) : x;

  // Pad so that the outputs are whole m x m tiles; the extra rows and
  // columns of outputs are cut off at the end.
  std::array<int64_t, 2> tiles = tilesPerSide(x, options, m);
  SmallVector<int64_t> low(4, 0), high(4, 0), out;
  for (int i = 0; i < 2; ++i) {
    int64_t padded = xs[2 + i] + options.padLow[i] + options.padHigh[i];
    out.push_back(padded - (kTaps - 1));
    low[rowAxis + i] = options.padLow[i];
    high[rowAxis + i] =
        options.padHigh[i] + tiles[i] * m + (kTaps - 1) - padded;
  }
  // The padded input is realized, as for a direct conv, so that the views
  // below read it without border masks. d[k][l] = xp[.., m tH + k,
  // m tW + l]: strided views, so no index of the transform needs a
  // division.
  Value xp = tb.contiguous(tb.pad(image, low, high));
  Tile d(n, SmallVector<Value>(n));
  for (int k = 0; k < n; ++k)
    for (int l = 0; l < n; ++l)
      d[k][l] = tb.stride(tb.stride(xp, rowAxis, k, tiles[0], m), rowAxis + 1,
                          l, tiles[1], m);
  // V = Bt d B, stacked along a new leading axis: [a * tile + b, N, tH,
  // tW, C]. That is the layout the products read (a tile's channels
  // contiguous, as a channels-last 1x1 convolution reads its pixels), and
  // the stack is the value the scheduler realizes.
  SmallVector<int64_t> one{1, batch, tiles[0], tiles[1], channels};
  SmallVector<Value> stacked;
  for (auto &row : transformTile(tb, alg.bt, n, d))
    for (Value element : row)
      stacked.push_back(
          tb.reshape(last ? element : tb.permute(element, {0, 2, 3, 1}), one));
  Value vs = tb.concat(stacked, 0);

  // M[e, N, K, tH, tW] = sum over C of U[e, K, C] * V[e, N, tH, tW, C] for
  // the tile's elements e = tile a + b (channels last: M[e, N, tH, tW, K],
  // so that the products store whole vectors of output channels). One
  // axis, not a and b: U's dims are then the kernel's ranges one to one,
  // which lets PACK lay out its output channels for vector loads.
  int64_t elements = alg.elements();
  SmallVector<int64_t> vShape{elements, batch, 1, tiles[0], tiles[1], channels};
  SmallVector<int64_t> uShape{elements, 1, outChannels, 1, 1, channels};
  if (last) {
    vShape = {elements, batch, tiles[0], tiles[1], 1, channels};
    uShape = {elements, 1, 1, 1, outChannels, channels};
  }
  Value product =
      tb.sum(tb.mul(tb.reshape(vs, vShape), tb.reshape(u, uShape)), {5}, false);

  // Y = At M A on the tiles' elements, interleaved into the image:
  // [N, K, tH, m, tW, m] -> [N, K, m tH, m tW] (channels last: [N, tH, m,
  // tW, m, K] -> [N, m tH, m tW, K]).
  SmallVector<int64_t> elementShape{batch, outChannels, tiles[0],
                                    1,     tiles[1],    1};
  int64_t tileRowAxis = 3, tileColumnAxis = 5;
  if (last) {
    elementShape = {batch, tiles[0], 1, tiles[1], 1, outChannels};
    tileRowAxis = 2, tileColumnAxis = 4;
  }
  Tile mTile(n, SmallVector<Value>(n));
  SmallVector<int64_t> begin(5, 0), end(TensorBuilder::shapeOf(product));
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      begin[0] = a * n + b, end[0] = begin[0] + 1;
      mTile[a][b] = tb.reshape(tb.shrink(product, begin, end), elementShape);
    }
  SmallVector<Value> rows;
  for (auto &row : transformTile(tb, alg.at, m, mTile))
    rows.push_back(tb.concat(row, tileColumnAxis));
  // Realized as [N, K, tH, m, tW, m], which is the image [N, K, m tH, m tW]
  // in memory: the kernel keeps the position in the tile as axes of its
  // own (upcast, so its selects fold) instead of a division of the pixel's
  // index, and what follows (bias, activation) reads it instead of
  // recomputing the transform for each of its reads.
  Value tiled = tb.contiguous(tb.concat(rows, tileRowAxis));
  if (!last) {
    Value result =
        tb.reshape(tiled, {batch, outChannels, tiles[0] * m, tiles[1] * m});
    return tb.shrink(result, {0, 0, 0, 0},
                     {batch, outChannels, out[0], out[1]});
  }
  // The NCHW result is a permute of the image, which the next
  // channels-last consumer's permute cancels.
  Value result =
      tb.reshape(tiled, {batch, tiles[0] * m, tiles[1] * m, outChannels});
  result =
      tb.shrink(result, {0, 0, 0, 0}, {batch, out[0], out[1], outChannels});
  return tb.permute(result, {0, 3, 1, 2});
}
