//===- Winograd.h - 3x3 convolutions as Winograd F(2x2, 3x3) ----*- C++ -*-===//
//
// A 3x3 stride-1 convolution computes each 2x2 block of outputs from a 4x4
// tile of its input with 16 multiplies per input channel instead of 36
// (Lavin & Gray, "Fast Algorithms for Convolutional Neural Networks"):
//
//   Y = At [ (G g Gt) . (Bt d B) ] A
//
// G g Gt, the weight's transform, is computed at compile time for a
// constant weight (by graph ops for any other); the input's transform
// Bt d B and the output's At M A are elementwise and movement ops, and the
// 16 products summed over the input channels are one reduce: sixteen 1x1
// convolutions side by side. Like tinygrad's WINO=1, it is a choice of
// decomposition, made per Conv node.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_FRONTEND_WINOGRAD_H
#define TGC_FRONTEND_WINOGRAD_H

#include "Frontend/TensorBuilder.h"

namespace mlir::tgc {

/// When the decompose stage computes a convolution with Winograd's
/// algorithm (`--winograd`): `Auto` where the cost rule expects it to be
/// faster (winogradPays), `Always` wherever it applies, `Never`.
enum class WinogradMode { Auto, Always, Never };

/// Whether Winograd F(2x2, 3x3) computes this convolution exactly as
/// `conv` would up to rounding: 2-d, one group, a 3x3 kernel, stride and
/// dilation 1, f32.
bool winogradApplies(Value x, Value w,
                     const TensorBuilder::ConvOptions &options);

/// The cost rule of `Auto`, for a convolution winogradApplies to: a
/// constant weight (transformed once, at compile time), enough channels
/// that the 16 products are matrix products worth the transforms, and
/// enough 2x2 tiles per weight that reading the larger transformed weight
/// (16/9 of the original) does not outweigh the saved multiplies.
bool winogradPays(Value x, Value w, const TensorBuilder::ConvOptions &options);

/// The convolution of x [N, C, H, W] with w [K, C, 3, 3] through Winograd
/// F(2x2, 3x3): a constant weight is transformed here, any other one by
/// graph ops at run time. Null (with an error) where a constant's data
/// cannot be read.
Value winogradConv(TensorBuilder &tb, Value x, Value w,
                   const TensorBuilder::ConvOptions &options);

} // namespace mlir::tgc

#endif // TGC_FRONTEND_WINOGRAD_H
