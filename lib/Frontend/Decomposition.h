//===- Decomposition.h - what a decomposition sees of a node ---*- C++ -*-===//
//
// The interface between `tgc-decompose` and the per-op decompositions: a
// NodeContext gives typed access to one tgc.onnx_node (inputs by ONNX slot,
// attributes with defaults, constant inputs) and remembers which inputs and
// attributes the decomposition read, so that the pass can report the ones
// it did not understand. Decompositions are registered by op type in a
// table, one group per file.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_FRONTEND_DECOMPOSITION_H
#define TGC_FRONTEND_DECOMPOSITION_H

#include "Frontend/TensorBuilder.h"
#include "Frontend/Winograd.h"
#include "IR/TgcOps.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <optional>

namespace mlir::tgc {

/// How convolutions are computed: tgc-decompose's options, and the
/// target's vector registers that `--winograd auto`'s cost rule weighs.
struct ConvChoices {
  WinogradMode winograd = WinogradMode::Auto;
  bool channelsLast = false;
  unsigned vectorRegisters = 32;
};

class NodeContext {
public:
  NodeContext(OnnxNodeOp node, OpBuilder &builder, ConvChoices conv = {});

  OnnxNodeOp getNode() { return node; }
  StringRef opType() { return node.getOpType(); }
  int64_t opset() { return node.getOpset(); }
  /// "node 'NAME' (OpType)", for messages.
  std::string describe();
  /// Starts an error about this node ("node 'NAME' (OpType): ...") and
  /// marks the decomposition as failed.
  InFlightDiagnostic error();
  bool hasFailed() const { return failedFlag; }
  TensorBuilder &tb() { return builder; }

  //===--- Inputs, by ONNX input index ------------------------------------===//

  /// One past the highest ONNX input index present.
  unsigned numInputSlots();
  /// The operand at ONNX input `slot`, or null if absent. Marks it read.
  Value input(unsigned slot);
  /// As input(), but an absent input is an error naming `what`.
  Value requiredInput(unsigned slot, StringRef what);
  /// Every input, in slot order (variadic ops). Marks them read.
  SmallVector<Value> allInputs();
  /// The integer values of constant input `slot` (a tgc.const), or nullopt
  /// if absent; an error if present but not constant.
  FailureOr<std::optional<SmallVector<int64_t>>> constInts(unsigned slot,
                                                           StringRef what);
  /// The values of constant input `slot` (integer or float) as doubles, or
  /// nullopt if absent; an error if present but not constant.
  FailureOr<std::optional<SmallVector<double>>> constValues(unsigned slot,
                                                            StringRef what);
  /// The single value of constant input `slot` as a double, or nullopt if
  /// the input is absent or not a constant scalar.
  std::optional<double> constScalar(unsigned slot);

  //===--- Attributes (each read marks it understood) ---------------------===//

  bool hasAttr(StringRef name);
  int64_t intAttr(StringRef name, int64_t dflt);
  float floatAttr(StringRef name, float dflt);
  std::string strAttr(StringRef name, StringRef dflt);
  std::optional<SmallVector<int64_t>> intsAttr(StringRef name);
  std::optional<SmallVector<float>> floatsAttr(StringRef name);
  /// The raw attribute, or null.
  Attribute attr(StringRef name);
  /// Marks an attribute understood without reading it (it has no effect on
  /// inference, e.g. BatchNormalization's momentum).
  void ignoreAttr(StringRef name) { readAttrs.insert(name); }

  /// `axis` in [-rank, rank) made non-negative, or an error.
  FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank);
  /// Each of `axes` normalized; an error if any is out of range or repeated.
  FailureOr<SmallVector<int64_t>> normalizeAxes(ArrayRef<int64_t> axes,
                                                int64_t rank);

  //===--- Results --------------------------------------------------------===//

  unsigned numResults() { return node->getNumResults(); }
  RankedTensorType resultType(unsigned i);
  bool resultUsed(unsigned i) { return !node->getResult(i).use_empty(); }
  /// Sets the value that replaces result `i`.
  void setResult(unsigned i, Value value);
  /// Sets result 0 to `x` reshaped to the node's result type, after checking
  /// that the shape the op computes, `computed`, agrees with it.
  LogicalResult setReshapedResult(Value x, ArrayRef<int64_t> computed);
  ArrayRef<Value> getResults() { return results; }

  /// Reports attributes and inputs the decomposition did not read.
  LogicalResult checkAllUnderstood();

  /// How convolutions are computed (tgc-decompose's `winograd`,
  /// `conv-layout` and `vector-registers`).
  const ConvChoices &convChoices() const { return conv; }

private:
  OnnxNodeOp node;
  TensorBuilder builder;
  ConvChoices conv;
  bool failedFlag = false;
  llvm::StringSet<> readAttrs;
  llvm::SmallBitVector readInputs;
  SmallVector<Value> results;
};

/// A decomposition replaces one node: it reads through the context, builds
/// with ctx.tb() and sets every used result. It returns failure after
/// reporting why.
using DecomposeFn = LogicalResult (*)(NodeContext &ctx);
using DecompositionTable = llvm::StringMap<DecomposeFn>;

void addElementwiseDecompositions(DecompositionTable &table);
void addReduceDecompositions(DecompositionTable &table);
void addTopKDecompositions(DecompositionTable &table);
void addNNDecompositions(DecompositionTable &table);
void addShapeDecompositions(DecompositionTable &table);
/// The convolution of `x` by `w` with the node's Conv attributes (strides,
/// dilations, pads or auto_pad, group, kernel_shape); null after an error.
/// `exactProducts`: every product and sum is exact (whole numbers), so no
/// Winograd transform, whose fractions would round.
Value convolveWithAttrs(NodeContext &ctx, Value x, Value w,
                        bool exactProducts = false);

void addIndexingDecompositions(DecompositionTable &table);
void addLossDecompositions(DecompositionTable &table);
void addResizeDecompositions(DecompositionTable &table);
void addSignalDecompositions(DecompositionTable &table);
void addQuantizeDecompositions(DecompositionTable &table);
void addTrainingDecompositions(DecompositionTable &table);
void addRecurrentDecompositions(DecompositionTable &table);
void addEinsumDecompositions(DecompositionTable &table);
void addScatterDecompositions(DecompositionTable &table);
void addGridSampleDecompositions(DecompositionTable &table);
void addRoiAlignDecompositions(DecompositionTable &table);
void addLinalgDecompositions(DecompositionTable &table);
void addTextDecompositions(DecompositionTable &table);

} // namespace mlir::tgc

#endif // TGC_FRONTEND_DECOMPOSITION_H
