//===- Statistics.h - medians and percentiles of timings -------*- C++ -*-===//
//
// The bench's latencies, the search's samples and the check inside the
// model's ratios are all read by their median and by a percentile; one
// definition of each keeps them reading alike.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_STATISTICS_H
#define TGC_DRIVER_STATISTICS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cmath>

namespace mlir::tgc {

/// The median of `sorted` (ascending, not empty): its middle value, or the
/// mean of the two middle ones.
inline double medianOfSorted(llvm::ArrayRef<double> sorted) {
  size_t n = sorted.size();
  return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/// The median of `values` (not empty), in any order.
inline double medianOf(llvm::ArrayRef<double> values) {
  llvm::SmallVector<double> sorted(values.begin(), values.end());
  llvm::sort(sorted);
  return medianOfSorted(sorted);
}

/// The `fraction` percentile of `sorted` (ascending, not empty) by nearest
/// rank: the smallest value with at least `fraction` of the values at or
/// below it.
inline double nearestRank(llvm::ArrayRef<double> sorted, double fraction) {
  size_t n = sorted.size();
  size_t k = (size_t)std::ceil(fraction * n);
  return sorted[std::min(n, std::max<size_t>(k, 1)) - 1];
}

} // namespace mlir::tgc

#endif // TGC_DRIVER_STATISTICS_H
