//===- KernelEvaluator.cpp - a graph-level kernel run at compile time -----===//
//
// See KernelEvaluator.h. Every value of the body is materialized, row-major
// (EvaluatedTensor.h), and freed after its last reader; a movement op is a
// strided walk over its source, a reduce one walk over its source that
// accumulates into the result in row-major order; elementwise ops are
// EvaluateElementwise.cpp's.
//
//===----------------------------------------------------------------------===//

#include "Schedule/KernelEvaluator.h"
#include "Schedule/EvaluatedTensor.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tgc;
using namespace mlir::tgc::evaluator;

namespace {

/// Walks the indices of `shape` row-major and calls visit(n, offset) with
/// offset = base + sum of index[d] * strides[d], kept up to date as the
/// index moves (no division per element).
template <typename Visit>
void walk(ArrayRef<int64_t> shape, ArrayRef<int64_t> strides, int64_t base,
          Visit visit) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  if (count == 0)
    return;
  if (shape.empty()) {
    visit(0, base);
    return;
  }
  int64_t rank = shape.size(), inner = shape.back(), step = strides.back();
  SmallVector<int64_t> index(rank, 0);
  int64_t offset = base;
  for (int64_t n = 0; n < count; n += inner) {
    for (int64_t j = 0; j < inner; ++j)
      visit(n + j, offset + j * step);
    for (int64_t d = rank - 2; d >= 0; --d) {
      offset += strides[d];
      if (++index[d] < shape[d])
        break;
      offset -= shape[d] * strides[d];
      index[d] = 0;
    }
  }
}

/// A movement op: each result element is the source element at `base` +
/// sum of index[d] * strides[d]; a pad instead writes its source into a
/// zero result at an offset.
FailureOr<Tensor> move(Operation *op, const Tensor &src, std::string &whyNot) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (isa<ReshapeOp>(op)) {
    Tensor result = src;
    result.type = type;
    return result;
  }
  ArrayRef<int64_t> srcShape = src.type.getShape();
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> srcStrides = rowMajorStrides(srcShape);
  Tensor result = zeros(type);
  if (srcShape.size() != shape.size()) {
    whyNot = "a movement op that changes the rank";
    return failure();
  }
  if (auto pad = dyn_cast<PadOp>(op)) {
    SmallVector<int64_t> strides = rowMajorStrides(shape);
    int64_t base = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (pad.getLow()[d] < 0 || pad.getHigh()[d] < 0) {
        whyNot = "a pad by a negative amount";
        return failure();
      }
      base += pad.getLow()[d] * strides[d];
    }
    walk(srcShape, strides, base,
         [&](int64_t n, int64_t to) { copyElement(src, n, result, to); });
    return result;
  }
  SmallVector<int64_t> strides = srcStrides;
  int64_t base = 0;
  if (auto permute = dyn_cast<PermuteOp>(op)) {
    for (auto [d, from] : llvm::enumerate(permute.getOrder()))
      strides[d] = srcStrides[from];
  } else if (isa<ExpandOp>(op)) {
    for (size_t d = 0; d < shape.size(); ++d)
      if (srcShape[d] != shape[d])
        strides[d] = 0;
  } else if (auto shrink = dyn_cast<ShrinkOp>(op)) {
    for (size_t d = 0; d < shape.size(); ++d)
      base += shrink.getBegin()[d] * srcStrides[d];
  } else {
    for (int64_t d : cast<FlipOp>(op).getAxes()) {
      base += (srcShape[d] - 1) * srcStrides[d];
      strides[d] = -srcStrides[d];
    }
  }
  walk(shape, strides, base,
       [&](int64_t n, int64_t from) { copyElement(src, from, result, n); });
  return result;
}

/// Accumulates the source into the result in row-major order, rounding
/// (or wrapping) after every step as the kernel's accumulator does.
Tensor reduce(const Tensor &src, ReduceAxisOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  ReduceKind kind = op.getKind();
  Tensor result = zeros(type);
  const Format &format = result.format;
  if (result.isFloat())
    result.floats.assign(result.size(), kind == ReduceKind::add   ? 0.0
                                        : kind == ReduceKind::mul ? 1.0
                                                                  : -INFINITY);
  else
    result.ints.assign(result.size(), kind == ReduceKind::add ? 0
                                      : kind == ReduceKind::mul
                                          ? 1
                                          : format.minimum());
  // The reduced axes (size 1 in the result) do not move the accumulator.
  SmallVector<int64_t> strides = rowMajorStrides(type.getShape());
  for (int64_t axis : op.getAxes())
    strides[axis] = 0;
  ArrayRef<int64_t> shape = src.type.getShape();
  if (result.isFloat()) {
    walk(shape, strides, 0, [&](int64_t n, int64_t out) {
      double &acc = result.floats[out];
      double value = src.floats[n];
      acc = format.round(kind == ReduceKind::add   ? acc + value
                         : kind == ReduceKind::mul ? acc * value
                                                   : maxFloat(acc, value));
    });
    return result;
  }
  bool isUnsigned = format.domain == Domain::Unsigned;
  walk(shape, strides, 0, [&](int64_t n, int64_t out) {
    int64_t &acc = result.ints[out];
    int64_t value = src.ints[n];
    if (kind == ReduceKind::add)
      acc = format.wrap(uint64_t(acc) + uint64_t(value));
    else if (kind == ReduceKind::mul)
      acc = format.wrap(uint64_t(acc) * uint64_t(value));
    else if (isUnsigned ? uint64_t(value) > uint64_t(acc) : value > acc)
      acc = value;
  });
  return result;
}

FailureOr<Tensor> evaluateOp(Operation *op, ArrayRef<const Tensor *> operands,
                             std::string &whyNot) {
  if (auto constant = dyn_cast<ConstOp>(op))
    return readConstant(constant, whyNot);
  if (isa<ContiguousOp>(op))
    return *operands[0];
  if (auto reduceOp = dyn_cast<ReduceAxisOp>(op))
    return reduce(*operands[0], reduceOp);
  if (isGraphMovement(op))
    return move(op, *operands[0], whyNot);
  if (isGraphElementwise(op))
    return evaluateElementwise(op, operands, whyNot);
  whyNot = "an op it cannot evaluate: " + op->getName().getStringRef().str();
  return failure();
}

/// Fails where the body's ops together would produce more than
/// `maxElementOps` elements.
LogicalResult checkWork(Block &body, int64_t maxElementOps,
                        std::string &whyNot) {
  int64_t work = 0;
  for (Operation &op : body.without_terminator()) {
    if (op.getNumResults() != 1) {
      whyNot = "an op with other than one result";
      return failure();
    }
    auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (!type || !type.hasStaticShape()) {
      whyNot = "a value that is not a tensor of static shape";
      return failure();
    }
    work += type.getNumElements();
    if (auto reduceOp = dyn_cast<ReduceAxisOp>(op))
      work +=
          cast<RankedTensorType>(reduceOp.getSrc().getType()).getNumElements();
  }
  if (work > maxElementOps) {
    whyNot = std::to_string(work) + " element operations, more than " +
             std::to_string(maxElementOps);
    return failure();
  }
  return success();
}

} // namespace

FailureOr<SmallVector<std::vector<char>>>
mlir::tgc::evaluateKernel(KernelOp kernel, ArrayRef<ConstOp> inputs,
                          int64_t maxElementOps, std::string &whyNot) {
  Block &body = kernel.getBlock();
  if (kernel.isLowered() || failed(checkWork(body, maxElementOps, whyNot)))
    return failure();

  // Each value is freed after its last reader.
  llvm::DenseMap<Value, Operation *> lastReader;
  for (Operation &op : body)
    for (Value operand : op.getOperands())
      lastReader[operand] = &op;

  llvm::DenseMap<Value, Tensor> values;
  for (auto [argument, input] : llvm::zip(body.getArguments(), inputs)) {
    if (argument.use_empty())
      continue;
    FailureOr<Tensor> tensor = readConstant(input, whyNot);
    if (failed(tensor))
      return failure();
    values.try_emplace(argument, std::move(*tensor));
  }
  for (Operation &op : body.without_terminator()) {
    SmallVector<const Tensor *> operands;
    for (Value operand : op.getOperands())
      operands.push_back(&values.find(operand)->second);
    FailureOr<Tensor> result = evaluateOp(&op, operands, whyNot);
    if (failed(result))
      return failure();
    for (Value operand : op.getOperands())
      if (lastReader.lookup(operand) == &op)
        values.erase(operand);
    values.try_emplace(op.getResult(0), std::move(*result));
  }
  SmallVector<std::vector<char>> results;
  for (Value src : body.getTerminator()->getOperands())
    results.push_back(encodeElements(values.find(src)->second));
  return results;
}
