//===- Winograd.h - 3x3 convolutions as Winograd F(m x m, 3x3) --*- C++ -*-===//
//
// A 3x3 stride-1 convolution computes each m x m block of outputs from an
// (m+2) x (m+2) tile of its input with (m+2)^2 multiplies per input channel
// instead of 9 m^2: 16 instead of 36 for F(2x2, 3x3), 36 instead of 144
// for F(4x4, 3x3) (Lavin & Gray, "Fast Algorithms for Convolutional Neural
// Networks"):
//
//   Y = At [ (G g Gt) . (Bt d B) ] A
//
// G g Gt, the weight's transform, is computed at compile time for a
// constant weight (by graph ops for any other); the input's transform
// Bt d B and the output's At M A are elementwise and movement ops, and the
// products summed over the input channels are one reduce: 16 (or 36) 1x1
// convolutions side by side. The larger tile saves more multiplies but
// needs a larger image, and its transforms' coefficients (up to 8) round
// a little more. Like tinygrad's WINO=1, it is a choice of
// decomposition, made per Conv node.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_FRONTEND_WINOGRAD_H
#define TGC_FRONTEND_WINOGRAD_H

#include "Frontend/TensorBuilder.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace mlir::tgc {

/// When the decompose stage computes a convolution with Winograd's
/// algorithm (`--winograd`): `Auto` where the cost rule expects it to be
/// faster (winogradPays) with the tile it prefers (winogradTile), `Always`
/// wherever it applies with that tile, `Tile2` and `Tile4` wherever it
/// applies with 2x2 or 4x4 output tiles, `Never`.
enum class WinogradMode { Auto, Always, Never, Tile2, Tile4 };

/// The mode named `name` (auto, always, never, 2x2 or 4x4), if any.
std::optional<WinogradMode> parseWinogradMode(llvm::StringRef name);

/// Whether Winograd F(m x m, 3x3) computes this convolution exactly as
/// `conv` would up to rounding: 2-d, one group, a 3x3 kernel, stride and
/// dilation 1, f32.
bool winogradApplies(Value x, Value w,
                     const TensorBuilder::ConvOptions &options);

/// The cost rule of `Auto`, for a convolution winogradApplies to: a
/// constant weight (transformed once, at compile time), enough channels
/// that the products are matrix products worth the transforms, and
/// enough 2x2 tiles per weight that reading the larger transformed weight
/// (16/9 of the original) does not outweigh the saved multiplies: fewer
/// on a target of fewer than 32 vector registers, whose direct
/// convolutions keep fewer accumulators.
bool winogradPays(Value x, Value w, const TensorBuilder::ConvOptions &options,
                  unsigned vectorRegisters);

/// The output tile m (2 or 4) `Auto` and `Always` use: 4 where the image
/// has as many 4x4 tiles as winogradPays asks of 2x2 ones on a target of
/// 32 vector registers, whatever the target's (AVX2 ran ResNet-18 no
/// faster with its 14x14 stage's 16 tiles of 4x4).
int winogradTile(Value x, Value w, const TensorBuilder::ConvOptions &options);

/// The convolution of x [N, C, H, W] with w [K, C, 3, 3] through Winograd
/// F(m x m, 3x3), m 2 or 4: a constant weight is transformed here, any
/// other one by graph ops at run time. Null (with an error) where a
/// constant's data cannot be read.
Value winogradConv(TensorBuilder &tb, Value x, Value w,
                   const TensorBuilder::ConvOptions &options, int m);

} // namespace mlir::tgc

#endif // TGC_FRONTEND_WINOGRAD_H
