//===- DecomposeSignal.cpp - window functions ------------------*- C++ -*-===//
//
// HannWindow, HammingWindow and BlackmanWindow: cosine sums whose size is a
// compile-time constant, so the window itself is one (computed in double,
// stored in the output type).
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

} // namespace

void mlir::tgc::addSignalDecompositions(DecompositionTable &table) {
  table["HannWindow"] = decomposeWindow<0>;
  table["HammingWindow"] = decomposeWindow<1>;
  table["BlackmanWindow"] = decomposeWindow<2>;
}
