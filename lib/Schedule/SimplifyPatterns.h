//===- SimplifyPatterns.h - rewrites of tgc-simplify -----------*- C++ -*-===//
//
// The tgc-simplify rewrites that have a file of their own.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_SCHEDULE_SIMPLIFYPATTERNS_H
#define TGC_SCHEDULE_SIMPLIFYPATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::tgc {

/// cast<F>(cast<I>(x)) -> x where x is a float of type F known to hold
/// integers in I's range (IntegerRoundTrip.cpp).
void populateIntegerRoundTripPatterns(RewritePatternSet &patterns);

} // namespace mlir::tgc

#endif // TGC_SCHEDULE_SIMPLIFYPATTERNS_H
