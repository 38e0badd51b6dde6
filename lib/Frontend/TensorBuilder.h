//===- TensorBuilder.h - tinygrad's Tensor methods as tgc ops --*- C++ -*-===//
//
// The decompositions of ONNX ops are written against this builder, which
// plays the role of tinygrad's Tensor methods: every method emits only
// graph-level tgc primitives (elementwise, reduce_axis, movement, const).
// Broadcasting is made explicit (reshape to equal rank, then expand), so the
// operands of every elementwise op have identical types.
//
// Errors: a method whose operands do not fit emits an error through the
// error callback and returns a null Value; every method returns null when
// given a null operand. A decomposition therefore checks its final values
// only.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_FRONTEND_TENSORBUILDER_H
#define TGC_FRONTEND_TENSORBUILDER_H

#include "IR/TgcOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>
#include <optional>

namespace mlir::tgc {

class TensorBuilder {
public:
  using ErrorFn = std::function<InFlightDiagnostic()>;

  TensorBuilder(OpBuilder &builder, Location loc, ErrorFn error = nullptr);

  OpBuilder &getBuilder() { return builder; }
  Location getLoc() const { return loc; }
  /// Starts an error about the node being built.
  InFlightDiagnostic error() { return errorFn(); }

  static RankedTensorType typeOf(Value value);
  static ArrayRef<int64_t> shapeOf(Value value);
  static Type elementTypeOf(Value value);
  static int64_t rankOf(Value value);
  static bool isFloat(Value value);
  static int64_t numElements(ArrayRef<int64_t> shape);

  //===--------------------------------------------------------------------===//
  // Constants
  //===--------------------------------------------------------------------===//

  /// `value` converted to a scalar attribute of `element` (i1: value != 0).
  static TypedAttr scalarAttr(Type element, double value);
  /// A splat tensor `dense<value> : tensor<shape x element>`.
  Value splat(Type element, ArrayRef<int64_t> shape, double value);
  /// A splat of the type of `like`.
  Value splatLike(Value like, double value);
  /// The lowest value of `element` (-inf, or the integer minimum) as a
  /// splat.
  Value lowest(Type element, ArrayRef<int64_t> shape);
  /// The highest value of `element` (+inf, or the integer maximum).
  Value highest(Type element, ArrayRef<int64_t> shape);
  Value constant(ElementsAttr value);
  /// The 1-D integer tensor [0, 1, ..., n-1] of type `element`.
  Value arange(int64_t n, Type element);
  /// The same values built from 16-element constants instead of an
  /// n-element one: position i is the sum of its base-16 digits, each
  /// digit's weighted constant broadcast along its own axis. For long
  /// axes, where arange would put n numbers into the weights.
  Value arangeByDigits(int64_t n, Type element);

  //===--------------------------------------------------------------------===//
  // Movement (tinygrad: reshape, permute, expand, pad, shrink, flip)
  //===--------------------------------------------------------------------===//

  Value reshape(Value x, ArrayRef<int64_t> shape);
  Value permute(Value x, ArrayRef<int64_t> order);
  /// Same rank; dims of size 1 grow to `shape`.
  Value expand(Value x, ArrayRef<int64_t> shape);
  /// numpy broadcasting of `x` to `shape` (rank may grow).
  Value broadcastTo(Value x, ArrayRef<int64_t> shape);
  /// Pads with zeros (false for i1); negative pads shrink.
  Value pad(Value x, ArrayRef<int64_t> low, ArrayRef<int64_t> high);
  /// Pads with `fill`: where(pad(ones), pad(x), fill), as tinygrad does.
  Value pad(Value x, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
            double fill);
  /// Pads with the value of the scalar (or broadcastable) tensor `fill`.
  Value pad(Value x, ArrayRef<int64_t> low, ArrayRef<int64_t> high, Value fill);
  Value shrink(Value x, ArrayRef<int64_t> begin, ArrayRef<int64_t> end);
  Value flip(Value x, ArrayRef<int64_t> axes);
  /// Realizes `x` in memory (tinygrad: contiguous): the scheduler ends a
  /// kernel here, so a value read many times is computed once.
  Value contiguous(Value x);

  /// Elements start, start+step, ... (`count` of them) along `axis`; any
  /// non-zero step, in range.
  Value stride(Value x, int64_t axis, int64_t start, int64_t count,
               int64_t step);
  /// Tiles `x` `repeats[i]` times along each dim (reshape, expand, reshape).
  Value repeat(Value x, ArrayRef<int64_t> repeats);
  /// Constant indices that a view can read: indices[j] = start + step *
  /// ((j + phase) / run), a progression (run 1) or runs of `run` equal
  /// values along one, the first run `phase` shorter and the last maybe cut
  /// short (nearest and linear upsampling's taps).
  struct IndexRuns {
    int64_t start, step, run, phase;
    int64_t at(int64_t j) const { return start + step * ((j + phase) / run); }
    /// Elements of the progression that `count` indices read.
    int64_t rowCount(int64_t count) const {
      return (count - 1 + phase) / run + 1;
    }
  };
  static std::optional<IndexRuns> matchIndexRuns(ArrayRef<int64_t> indices);
  /// x[..., indices[j], ...] along `axis`, for constant indices in
  /// [0, dim): a view where matchIndexRuns matches them (a strided slice,
  /// each element maybe expanded), else a one-hot select summed over the
  /// axis.
  Value take(Value x, int64_t axis, ArrayRef<int64_t> indices);
  /// Concatenation along `axis`: each part padded to the full size, then
  /// selected by its position (floats), summed (integers) or or-ed (i1).
  Value concat(ArrayRef<Value> parts, int64_t axis);
  /// tinygrad's `_pool`: the last kernel.size() dims of `x` become
  /// [out..., kernel...] windows, built from movement ops only.
  Value pool(Value x, ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
             ArrayRef<int64_t> dilations);

  //===--------------------------------------------------------------------===//
  // Elementwise, with broadcasting
  //===--------------------------------------------------------------------===//

  Value add(Value a, Value b);
  Value sub(Value a, Value b);
  Value mul(Value a, Value b);
  /// fdiv for floats, idiv (toward zero) for integers.
  Value div(Value a, Value b);
  /// NaN if either is NaN.
  Value max(Value a, Value b);
  /// NaN if either is NaN.
  Value min(Value a, Value b);
  /// min(max(x, low), high): NaN stays NaN.
  Value clamp(Value x, double low, double high);
  Value pow(Value a, Value b);
  Value add(Value a, double b) { return add(a, splatLike(a, b)); }
  Value sub(Value a, double b) { return sub(a, splatLike(a, b)); }
  Value mul(Value a, double b) { return mul(a, splatLike(a, b)); }
  Value div(Value a, double b) { return div(a, splatLike(a, b)); }

  Value neg(Value x);
  Value recip(Value x);
  Value sqrt(Value x);
  Value exp2(Value x);
  Value log2(Value x);
  /// exp2(x * log2(e))
  Value exp(Value x);
  /// log2(x) * ln(2)
  Value log(Value x);
  Value sin(Value x);
  Value cos(Value x);
  Value trunc(Value x);
  Value floor(Value x);
  Value ceil(Value x);
  /// Round half to even.
  Value round(Value x);
  /// round(x) for |x| <= 2^22 (float32; 2^51 for float64, 2^9 for float16):
  /// two additions, nothing compared or selected, so it fuses into the
  /// kernel that computes x as any arithmetic does. Outside that range it
  /// is off by less than x's own spacing.
  Value roundSmall(Value x);
  Value abs(Value x);
  Value sign(Value x);
  Value relu(Value x);
  Value sigmoid(Value x);
  /// Within 7 float ulps, and 4e-7 of the exact value (see erf).
  Value tanh(Value x);
  /// Within 7 float ulps, and 4e-7 of the exact value; NaN stays NaN,
  /// +-inf give +-1.
  Value erf(Value x);
  /// Arc tangent, within a few float ulps (odd polynomial after reducing
  /// |x| to [0, tan(pi/8)]); NaN stays NaN, +-inf give +-pi/2.
  Value atan(Value x);

  /// Comparisons give i1 tensors.
  Value lt(Value a, Value b);
  Value gt(Value a, Value b) { return lt(b, a); }
  Value le(Value a, Value b);
  Value ge(Value a, Value b) { return le(b, a); }
  Value eq(Value a, Value b);
  Value ne(Value a, Value b);
  Value isNan(Value x) { return ne(x, x); }
  Value logicalNot(Value x);
  /// And, or and xor are bitwise on integers.
  Value logicalAnd(Value a, Value b);
  Value logicalOr(Value a, Value b);
  Value logicalXor(Value a, Value b);
  /// a << b and a >> b on integers (>> arithmetic when signed).
  Value shl(Value a, Value b);
  Value shr(Value a, Value b);
  Value where(Value cond, Value x, Value y);
  Value cast(Value x, Type element);
  /// The bits of each element read as `element`, of the same width.
  Value bitcast(Value x, Type element);

  //===--------------------------------------------------------------------===//
  // Reductions over non-negative axes
  //===--------------------------------------------------------------------===//

  /// Half-precision sums accumulate in f32, as tinygrad's do.
  Value sum(Value x, ArrayRef<int64_t> axes, bool keepdim);
  Value prod(Value x, ArrayRef<int64_t> axes, bool keepdim);
  Value reduceMax(Value x, ArrayRef<int64_t> axes, bool keepdim);
  Value reduceMin(Value x, ArrayRef<int64_t> axes, bool keepdim);
  Value mean(Value x, ArrayRef<int64_t> axes, bool keepdim);
  /// The index (of type `index`) of the max (or min) along `axis`: the
  /// first one, or the last with `last`.
  Value argExtreme(Value x, int64_t axis, bool keepdim, bool isMax, bool last,
                   Type index);
  /// Sums along `axis`, each element adding all before it (and itself unless
  /// `exclusive`): tinygrad's pool over a zero-padded axis, in blocks on a
  /// long axis (cumsumLast).
  Value cumsum(Value x, int64_t axis, bool exclusive);
  /// Inclusive running sums along the last axis: one window per element up
  /// to kCumsumBlock elements, in blocks of about sqrt(n) past that.
  Value cumsumLast(Value x);
  static constexpr int64_t kCumsumBlock = 64;

  //===--------------------------------------------------------------------===//
  // Neural-network ops made of the above
  //===--------------------------------------------------------------------===//

  /// numpy matmul (1-D promotion, batch broadcasting): reshape + expand +
  /// mul + sum over the shared axis.
  Value matmul(Value a, Value b);
  Value softmax(Value x, int64_t axis);
  Value logSoftmax(Value x, int64_t axis);

  struct ConvOptions {
    int64_t groups = 1;
    SmallVector<int64_t> strides, dilations, padLow, padHigh;
    /// Compute in [N, D..., C] order (see conv).
    bool channelsLast = false;
  };
  /// N-d convolution of x [N, C, D...] with w [M, C/groups, K...]: pad,
  /// pool into windows, mul with the weight, sum over (C, K...).
  Value conv(Value x, Value w, const ConvOptions &options);

private:
  /// Both operands broadcast to their common shape, or failure.
  LogicalResult broadcastPair(Value &a, Value &b);
  LogicalResult broadcastAll(MutableArrayRef<Value> values);
  template <typename OpT> Value unary(Value x);
  template <typename OpT> Value binary(Value a, Value b);
  template <typename OpT> Value compare(Value a, Value b);
  /// `op`'s result, or a constant of its value where `op` is float
  /// arithmetic on a weight (see IR/ConstantArithmetic.h): a weight
  /// dequantized or cast from float16 is a constant to the decompositions
  /// that look for one (Winograd's).
  Value foldIntoWeight(Operation *op);
  Value reduce(ReduceKind kind, Value x, ArrayRef<int64_t> axes, bool keepdim);
  Value dropReduced(Value x, ArrayRef<int64_t> axes, bool keepdim);
  /// x P(x^2) / Q(x^2) (coefficients from the constant term up) on x
  /// clamped to [-limit, limit], clamped to [-1, 1]: an odd function that
  /// is +-1 beyond the limit (erf, tanh). Half precision computes in float.
  Value oddRational(Value x, double limit, ArrayRef<double> numerator,
                    ArrayRef<double> denominator);

  OpBuilder &builder;
  Location loc;
  ErrorFn errorFn;
  llvm::DenseMap<Attribute, Value> constants;
};

} // namespace mlir::tgc

#endif // TGC_FRONTEND_TENSORBUILDER_H
