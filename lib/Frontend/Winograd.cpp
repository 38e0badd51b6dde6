//===- Winograd.cpp - 3x3 convolutions as Winograd F(2x2, 3x3) --*- C++ -*-===//
//
// See Winograd.h. The layouts are chosen for the kernels they schedule
// into: the 16 transformed tile elements are stacked along a new first
// axis, [16, N, C, tH, tW], so that each is a 1x1 convolution of C into K
// channels over contiguous tiles (vectorized along the tiles, or along K
// with U packed when the tiles are few); U is [16, K, C], one weight dim
// per kernel range; the output transform is realized as
// [N, K, tH, 2, tW, 2], which is the image in memory, and what follows the
// Conv (bias, activation, residual add) reads it as one.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Winograd.h"
#include "IR/ConstantData.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <array>
#include <cstring>

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// A small constant matrix, row-major.
template <size_t Rows, size_t Cols>
using Matrix = std::array<std::array<double, Cols>, Rows>;

/// F(2, 3): 4-element input tiles, 2 outputs, 3 taps.
constexpr int kTile = 4, kOut = 2, kTaps = 3;
constexpr Matrix<kTile, kTile> kBt = {{{1, 0, -1, 0},
                                       {0, 1, 1, 0},
                                       {0, -1, 1, 0},
                                       {0, 1, 0, -1}}};
constexpr Matrix<kTile, kTaps> kG = {
    {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}}};
constexpr Matrix<kOut, kTile> kAt = {{{1, 1, 1, 0}, {0, 1, -1, -1}}};

/// The cost rule (winogradPays), measured on ResNet-18's 3x3 convolutions
/// (AVX-512, one core): with 784, 196 and 49 tiles per image the 16
/// products run at the speed of a 1x1 convolution and each conv takes
/// about half the direct one's time; with 16 (a 7x7 image) each weight is
/// used 16 times and the 16/9 larger weight streams from memory: the model
/// was no faster with those three (27.2 vs 26.9 ms) and its weights 21 MB
/// larger. Fewer channels than a vector make the products short rows.
constexpr int64_t kMinTiles = 32, kMinChannels = 16;

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

/// m applied on both sides of a 2-d tile given as its elements
/// (tile[k][l], each a tensor of one shape): result[a][b] =
/// sum_kl m[a][k] m[b][l] tile[k][l], rows first so that the partial sums
/// are shared.
template <size_t Rows, size_t Cols>
std::array<std::array<Value, Rows>, Rows>
transformTile(TensorBuilder &tb, const Matrix<Rows, Cols> &m,
              const std::array<std::array<Value, Cols>, Cols> &tile) {
  std::array<std::array<Value, Cols>, Rows> rows;
  for (size_t a = 0; a < Rows; ++a)
    for (size_t l = 0; l < Cols; ++l) {
      SmallVector<Value> column;
      for (size_t k = 0; k < Cols; ++k)
        column.push_back(tile[k][l]);
      rows[a][l] = combine(tb, m[a], column);
    }
  std::array<std::array<Value, Rows>, Rows> result;
  for (size_t a = 0; a < Rows; ++a)
    for (size_t b = 0; b < Rows; ++b)
      result[a][b] = combine(tb, m[b], rows[a]);
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
/// rounded once, laid out [4 a + b, K, C].
std::vector<float> transformWeights(ArrayRef<float> w, int64_t k, int64_t c) {
  std::vector<float> u(kTile * kTile * k * c);
  for (int64_t o = 0; o < k * c; ++o) {
    const float *g = &w[o * kTaps * kTaps];
    double gt[kTile][kTaps] = {}; // G g
    for (int a = 0; a < kTile; ++a)
      for (int j = 0; j < kTaps; ++j)
        for (int i = 0; i < kTaps; ++i)
          gt[a][j] += kG[a][i] * g[i * kTaps + j];
    for (int a = 0; a < kTile; ++a)
      for (int b = 0; b < kTile; ++b) {
        double sum = 0;
        for (int j = 0; j < kTaps; ++j)
          sum += gt[a][j] * kG[b][j];
        u[(a * kTile + b) * k * c + o] = static_cast<float>(sum);
      }
  }
  return u;
}

/// The transformed weight as a constant of its own, in the original's
/// form (a resource blob named after it, or a dense attribute).
Value makeWeightConstant(TensorBuilder &tb, ConstOp original,
                         ArrayRef<float> u, int64_t k, int64_t c) {
  auto type = RankedTensorType::get(
      {kTile * kTile, k, c}, Float32Type::get(tb.getBuilder().getContext()));
  ArrayRef<char> bytes(reinterpret_cast<const char *>(u.data()),
                       u.size() * sizeof(float));
  return tb.constant(makeConstantLike(original, type, bytes, "_winograd"));
}

/// U = G g Gt as [16, K, C]: computed here for a constant weight, else as
/// graph ops (each element a sum of the 3x3 taps' [K, C] slices).
Value transformWeight(TensorBuilder &tb, Value w, int64_t k, int64_t c) {
  if (auto weight = w.getDefiningOp<ConstOp>()) {
    FailureOr<std::vector<float>> g = readFloats(weight);
    if (failed(g)) {
      tb.error() << "cannot read the weight's data for the Winograd "
                    "transform";
      return {};
    }
    return makeWeightConstant(tb, weight, transformWeights(*g, k, c), k, c);
  }
  std::array<std::array<Value, kTaps>, kTaps> taps;
  for (int i = 0; i < kTaps; ++i)
    for (int j = 0; j < kTaps; ++j)
      taps[i][j] = tb.reshape(tb.shrink(w, {0, 0, i, j}, {k, c, i + 1, j + 1}),
                              {1, k, c});
  SmallVector<Value> elements;
  for (auto &row : transformTile(tb, kG, taps))
    llvm::append_range(elements, row);
  return tb.concat(elements, 0);
}

} // namespace

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

bool mlir::tgc::winogradPays(Value x, Value w,
                             const TensorBuilder::ConvOptions &options) {
  ArrayRef<int64_t> xs = TensorBuilder::shapeOf(x);
  int64_t channels = xs[1], outChannels = TensorBuilder::shapeOf(w)[0];
  // Per image: a batch may be computed one image at a time, each reading
  // all the weights.
  int64_t tiles = 1;
  for (int i = 0; i < 2; ++i)
    tiles *= ceilDiv(xs[2 + i] + options.padLow[i] + options.padHigh[i] -
                         (kTaps - 1),
                     kOut);
  // A weight given at run time would be transformed on every run.
  return w.getDefiningOp<ConstOp>() && channels >= kMinChannels &&
         outChannels >= kMinChannels && tiles >= kMinTiles;
}

Value mlir::tgc::winogradConv(TensorBuilder &tb, Value x, Value w,
                              const TensorBuilder::ConvOptions &options) {
  ArrayRef<int64_t> xs = TensorBuilder::shapeOf(x);
  int64_t batch = xs[0], channels = xs[1];
  int64_t outChannels = TensorBuilder::shapeOf(w)[0];
  Value u = transformWeight(tb, w, outChannels, channels);
  if (!u)
    return {};

  // Pad so that the outputs are whole 2x2 tiles; the extra row and column
  // of outputs are cut off at the end.
  SmallVector<int64_t> low{0, 0}, high{0, 0}, out, tiles;
  for (int i = 0; i < 2; ++i) {
    int64_t padded = xs[2 + i] + options.padLow[i] + options.padHigh[i];
    out.push_back(padded - (kTaps - 1));
    tiles.push_back(ceilDiv(out.back(), kOut));
    low.push_back(options.padLow[i]);
    high.push_back(options.padHigh[i] + tiles.back() * kOut + (kTaps - 1) -
                   padded);
  }
  // The padded input is realized, as for a direct conv, so that the views
  // below read it without border masks. d[k][l] = xp[.., 2 tH + k,
  // 2 tW + l]: strided views, so no index of the transform needs a
  // division.
  Value xp = tb.contiguous(tb.pad(x, low, high));
  std::array<std::array<Value, kTile>, kTile> d;
  for (int k = 0; k < kTile; ++k)
    for (int l = 0; l < kTile; ++l)
      d[k][l] = tb.stride(tb.stride(xp, 2, k, tiles[0], kOut), 3, l, tiles[1],
                          kOut);
  // V = Bt d B, stacked along a new leading axis: [a * 4 + b, N, C, tH, tW].
  // That is the layout the products read (contiguous tiles per channel),
  // and the stack is the value the scheduler realizes.
  auto v = transformTile(tb, kBt, d);
  SmallVector<int64_t> one{1, batch, channels, tiles[0], tiles[1]};
  SmallVector<Value> stacked;
  for (auto &row : v)
    for (Value element : row)
      stacked.push_back(tb.reshape(element, one));
  Value vs = tb.concat(stacked, 0);

  // M[e, N, K, tH, tW] = sum over C of U[e, K, C] * V[e, N, C, tH, tW] for
  // the 16 tile elements e = 4 a + b. One axis of 16, not a and b: U's
  // dims are then the kernel's ranges one to one, which lets PACK lay out
  // its output channels for vector loads.
  constexpr int64_t kElements = kTile * kTile;
  vs = tb.reshape(tb.permute(vs, {0, 1, 3, 4, 2}),
                  {kElements, batch, 1, tiles[0], tiles[1], channels});
  Value us = tb.reshape(u, {kElements, 1, outChannels, 1, 1, channels});
  Value m = tb.sum(tb.mul(vs, us), {5}, false);

  // Y = At M A on the tiles' elements, interleaved into the image:
  // [N, K, tH, 2, tW, 2] -> [N, K, 2 tH, 2 tW].
  std::array<std::array<Value, kTile>, kTile> mTile;
  SmallVector<int64_t> begin(5, 0), end(TensorBuilder::shapeOf(m));
  for (int a = 0; a < kTile; ++a)
    for (int b = 0; b < kTile; ++b) {
      begin[0] = a * kTile + b, end[0] = begin[0] + 1;
      mTile[a][b] =
          tb.reshape(tb.shrink(m, begin, end),
                     {batch, outChannels, tiles[0], 1, tiles[1], 1});
    }
  auto y = transformTile(tb, kAt, mTile);
  SmallVector<Value> rows;
  for (auto &row : y)
    rows.push_back(tb.concat({row[0], row[1]}, 5));
  // Realized as [N, K, tH, 2, tW, 2], which is the image [N, K, 2 tH, 2 tW]
  // in memory: the kernel keeps the 2x2 position as axes of its own (upcast,
  // so its selects fold) instead of a division of the pixel's index, and
  // what follows (bias, activation) reads it instead of recomputing the
  // transform for each of its reads.
  Value image = tb.reshape(tb.contiguous(tb.concat(rows, 3)),
                           {batch, outChannels, tiles[0] * kOut,
                            tiles[1] * kOut});
  return tb.shrink(image, {0, 0, 0, 0}, {batch, outChannels, out[0], out[1]});
}
