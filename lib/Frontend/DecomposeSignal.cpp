//===- DecomposeSignal.cpp - signal processing ------------------*- C++ -*-===//
//
// HannWindow, HammingWindow, BlackmanWindow and MelWeightMatrix depend only
// on constants, so they are constants (computed in double, stored in the
// output type). DFT is two matmuls with constant cosine and sine matrices.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"
#include "mlir/IR/BuiltinAttributes.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// w[n] = a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N), N = size (periodic)
/// or size - 1 (symmetric).
template <int kind> LogicalResult decomposeWindow(NodeContext &ctx) {
  static constexpr double coefficients[3][3] = {
      {0.5, 0.5, 0.0},                   // Hann
      {25.0 / 46.0, 21.0 / 46.0, 0.0},   // Hamming
      {0.42, 0.5, 0.08}};                // Blackman
  ctx.requiredInput(0, "size");
  std::optional<double> size = ctx.constScalar(0);
  bool periodic = ctx.intAttr("periodic", 1) != 0;
  ctx.intAttr("output_datatype", 1); // the result type says
  if (ctx.hasFailed())
    return failure();
  RankedTensorType type = ctx.resultType(0);
  if (!size || type.getRank() != 1 || type.getDimSize(0) != (int64_t)*size) {
    ctx.error() << "needs a constant size that matches the result " << type;
    return failure();
  }
  int64_t n = type.getDimSize(0);
  double period = periodic ? n : n - 1;
  const double *a = coefficients[kind];
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < n; ++i) {
    double phase = period == 0 ? 0 : 2 * M_PI * i / period;
    double w = a[0] - a[1] * std::cos(phase) + a[2] * std::cos(2 * phase);
    values.push_back(TensorBuilder::scalarAttr(type.getElementType(), w));
  }
  ctx.setResult(0, ctx.tb().constant(DenseElementsAttr::get(type, values)));
  return success();
}

/// DFT along `axis` of a real ([..., 1]) or complex ([..., 2]) signal:
/// re' = re C + s im S, im' = im C - s re S with C = cos(2 pi k n / N),
/// S = sin(...), s = 1 forward and -1 inverse (which also divides by N).
/// dft_length pads or cuts the signal; onesided keeps N/2 + 1 bins.
LogicalResult decomposeDFT(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  auto length = ctx.constInts(1, "dft_length");
  int64_t axisAttr = ctx.intAttr("axis", 1);
  bool inverse = ctx.intAttr("inverse", 0) != 0;
  bool onesided = ctx.intAttr("onesided", 0) != 0;
  if (!x || failed(length))
    return failure();
  TensorBuilder &tb = ctx.tb();
  ArrayRef<int64_t> shape = TensorBuilder::shapeOf(x);
  int64_t rank = shape.size();
  if (rank < 2 || (shape.back() != 1 && shape.back() != 2) ||
      !TensorBuilder::isFloat(x)) {
    ctx.error() << "needs a float signal [..., 1] (real) or [..., 2] "
                   "(complex), not "
                << TensorBuilder::typeOf(x);
    return failure();
  }
  // The axis counts the dims before the last (the real/imaginary one).
  auto axis = ctx.normalizeAxis(axisAttr, rank);
  if (failed(axis))
    return failure();
  if (*axis == rank - 1) {
    ctx.error() << "axis " << axisAttr << " is the real/imaginary dim";
    return failure();
  }
  int64_t n = shape[*axis];
  int64_t size = *length ? (**length)[0] : n;
  if (size < 1 || (*length && (*length)->size() != 1)) {
    ctx.error() << "dft_length must be one positive value";
    return failure();
  }
  int64_t bins = onesided ? size / 2 + 1 : size;
  Type element = TensorBuilder::elementTypeOf(x);
  // The signal's parts as [..., N, ...] (padded or cut to size), moved so
  // that the axis is last: [rest..., N].
  auto part = [&](int64_t which) -> Value {
    SmallVector<int64_t> begin(rank, 0), end(shape);
    begin.back() = which;
    end.back() = which + 1;
    Value p = tb.reshape(tb.shrink(x, begin, end), shape.drop_back());
    SmallVector<int64_t> low(rank - 1, 0), high(rank - 1, 0);
    high[*axis] = size - n;
    return tb.pad(p, low, high);
  };
  Value re = part(0);
  Value im = shape.back() == 2 ? part(1) : Value();
  SmallVector<int64_t> order;
  for (int64_t i = 0; i < rank - 1; ++i)
    if (i != *axis)
      order.push_back(i);
  order.push_back(*axis);
  re = tb.permute(re, order);
  if (im)
    im = tb.permute(im, order);
  // C and S as [N, K] (k-th column: frequency k).
  SmallVector<Attribute> cosines, sines;
  for (int64_t i = 0; i < size; ++i)
    for (int64_t k = 0; k < bins; ++k) {
      int64_t turn = (i * k) % size; // in 1/size of a full turn
      double phase = 2 * M_PI * (double)turn / size;
      double cosine = std::cos(phase), sine = std::sin(phase);
      if ((4 * turn) % size == 0) { // quarter turns are exact
        int64_t quarter = 4 * turn / size;
        cosine = quarter == 0 ? 1 : quarter == 2 ? -1 : 0;
        sine = quarter == 1 ? 1 : quarter == 3 ? -1 : 0;
      }
      cosines.push_back(TensorBuilder::scalarAttr(element, cosine));
      sines.push_back(TensorBuilder::scalarAttr(element, sine));
    }
  auto matrixType = RankedTensorType::get({size, bins}, element);
  Value c = tb.constant(DenseElementsAttr::get(matrixType, cosines));
  Value s = tb.constant(DenseElementsAttr::get(matrixType, sines));
  Value outRe = tb.matmul(re, c);
  Value outIm = tb.neg(tb.matmul(re, s));
  if (inverse)
    outIm = tb.neg(outIm);
  if (im) {
    Value imS = tb.matmul(im, s);
    outRe = inverse ? tb.sub(outRe, imS) : tb.add(outRe, imS);
    outIm = tb.add(outIm, tb.matmul(im, c));
  }
  if (inverse) {
    outRe = tb.div(outRe, (double)size);
    outIm = tb.div(outIm, (double)size);
  }
  // Back to [..., K, ...], real and imaginary stacked last.
  SmallVector<int64_t> inverseOrder(rank - 1);
  for (int64_t i = 0; i < rank - 1; ++i)
    inverseOrder[order[i]] = i;
  outRe = tb.permute(outRe, inverseOrder);
  outIm = tb.permute(outIm, inverseOrder);
  SmallVector<int64_t> stacked(TensorBuilder::shapeOf(outRe));
  stacked.push_back(1);
  Value y = tb.concat({tb.reshape(outRe, stacked), tb.reshape(outIm, stacked)},
                      rank - 1);
  ctx.setResult(0, y);
  return success();
}

/// MelWeightMatrix as the ONNX reference computes it: triangular filters
/// between mel-spaced bin edges, [dft_length / 2 + 1, num_mel_bins].
LogicalResult decomposeMelWeightMatrix(NodeContext &ctx) {
  std::optional<double> mels = ctx.constScalar(0);
  std::optional<double> dftLength = ctx.constScalar(1);
  std::optional<double> rate = ctx.constScalar(2);
  std::optional<double> lower = ctx.constScalar(3);
  std::optional<double> upper = ctx.constScalar(4);
  ctx.intAttr("output_datatype", 1); // the result type says
  for (unsigned i = 0; i < 5; ++i)
    ctx.requiredInput(i, "a parameter");
  if (ctx.hasFailed())
    return failure();
  if (!mels || !dftLength || !rate || !lower || !upper || *mels < 1 ||
      *dftLength < 1 || *rate <= 0) {
    ctx.error() << "needs constant, positive parameters";
    return failure();
  }
  int64_t numMels = *mels, length = *dftLength;
  int64_t spectrumBins = length / 2 + 1;
  RankedTensorType type = ctx.resultType(0);
  if (type.getShape() != ArrayRef<int64_t>{spectrumBins, numMels}) {
    ctx.error() << "computes [" << spectrumBins << ", " << numMels
                << "] but the node declares " << type;
    return failure();
  }
  auto toMel = [](double hz) { return 2595 * std::log10(1 + hz / 700); };
  double lowMel = toMel(*lower), highMel = toMel(*upper);
  double step = (highMel - lowMel) / (numMels + 2);
  SmallVector<int64_t> edges;
  for (int64_t i = 0; i < numMels + 2; ++i) {
    double hz = 700 * (std::pow(10.0, (i * step + lowMel) / 2595) - 1);
    edges.push_back((int64_t)std::floor((length + 1) * hz / *rate));
  }
  SmallVector<double> w(spectrumBins * numMels, 0.0);
  auto at = [&](int64_t j, int64_t i) -> double * {
    return j >= 0 && j < spectrumBins ? &w[j * numMels + i] : nullptr;
  };
  for (int64_t i = 0; i < numMels; ++i) {
    int64_t left = edges[i], center = edges[i + 1], right = edges[i + 2];
    if (center == left) {
      if (double *p = at(center, i))
        *p = 1;
    } else {
      for (int64_t j = left; j <= center; ++j)
        if (double *p = at(j, i))
          *p = double(j - left) / double(center - left);
    }
    for (int64_t j = center; j < right; ++j)
      if (double *p = at(j, i))
        *p = double(right - j) / double(right - center);
  }
  SmallVector<Attribute> values;
  for (double v : w)
    values.push_back(TensorBuilder::scalarAttr(type.getElementType(), v));
  ctx.setResult(0, ctx.tb().constant(DenseElementsAttr::get(type, values)));
  return success();
}

} // namespace

void mlir::tgc::addSignalDecompositions(DecompositionTable &table) {
  table["DFT"] = decomposeDFT;
  table["MelWeightMatrix"] = decomposeMelWeightMatrix;
  table["HannWindow"] = decomposeWindow<0>;
  table["HammingWindow"] = decomposeWindow<1>;
  table["BlackmanWindow"] = decomposeWindow<2>;
}
