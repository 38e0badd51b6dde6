//===- Decompose.cpp - ONNX nodes to tgc primitives ------------*- C++ -*-===//
//
// The `tgc-decompose` pass: looks up every tgc.onnx_node in the table of
// decompositions by op type and replaces it. A node that cannot be
// decomposed is left in place with an error, and the walk goes on, so one
// run reports every unsupported node and attribute of a model.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"
#include "Frontend/Passes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCDECOMPOSE
#include "Frontend/Passes.h.inc"
} // namespace mlir::tgc

using namespace mlir;
using namespace mlir::tgc;

static const DecompositionTable &getDecompositions() {
  static const DecompositionTable table = [] {
    DecompositionTable t;
    addElementwiseDecompositions(t);
    addReduceDecompositions(t);
    addTopKDecompositions(t);
    addNNDecompositions(t);
    addShapeDecompositions(t);
    addIndexingDecompositions(t);
    addLossDecompositions(t);
    addResizeDecompositions(t);
    addSignalDecompositions(t);
    addQuantizeDecompositions(t);
    addTrainingDecompositions(t);
    addRecurrentDecompositions(t);
    addEinsumDecompositions(t);
    addScatterDecompositions(t);
    addGridSampleDecompositions(t);
    addRoiAlignDecompositions(t);
    addLinalgDecompositions(t);
    addTextDecompositions(t);
    return t;
  }();
  return table;
}

static bool isStaticTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

/// Checks what must hold before any decomposition runs: a known domain,
/// no subgraphs, a known op type and static tensor types. Ops of other
/// domains than the default are in the table as "domain:OpType".
static FailureOr<DecomposeFn> lookUp(NodeContext &ctx) {
  OnnxNodeOp node = ctx.getNode();
  std::string key = node.getOpType().str();
  if (!node.getDomain().empty()) {
    key = node.getDomain().str() + ":" + key;
    bool known = llvm::any_of(getDecompositions().keys(), [&](StringRef k) {
      return k.starts_with(node.getDomain().str() + ":");
    });
    if (!known) {
      ctx.error() << "ops of domain '" << node.getDomain()
                  << "' are not supported";
      return failure();
    }
  }
  // Import lowers the control flow that is static (OnnxControlFlow.cpp);
  // what reaches here is not.
  for (NamedAttribute attr : node.getAttrs())
    if (isa<UnitAttr>(attr.getValue())) {
      StringRef op = node.getOpType();
      auto diag = ctx.error();
      if (op == "If")
        diag << "its condition is not a compile-time constant (tgc inlines "
                "the branch of a constant condition)";
      else if (op == "Loop")
        diag << "its trip count is not a compile-time constant, or it may "
                "stop early (tgc unrolls loops that run a constant number "
                "of times)";
      else if (op == "Scan")
        diag << "its scan inputs need static lengths and no sequence_lens "
                "(tgc unrolls a Scan over a static length)";
      else
        diag << "subgraphs are not supported yet (attribute '"
             << attr.getName().getValue() << "')";
      return failure();
    }
  DecomposeFn fn = getDecompositions().lookup(key);
  if (!fn) {
    ctx.error() << "op type '" << node.getOpType()
                << "' is not supported (opset " << node.getOpset() << ")";
    return failure();
  }
  for (auto [i, type] : llvm::enumerate(node.getInputs().getTypes()))
    if (!isStaticTensor(type)) {
      ctx.error() << "operand " << i << " has type " << type
                  << "; only tensors of static shape are supported";
      return failure();
    }
  for (auto [i, type] : llvm::enumerate(node->getResultTypes()))
    if (!isStaticTensor(type)) {
      ctx.error() << "result " << i << " has type " << type
                  << "; only tensors of static shape are supported";
      return failure();
    }
  return fn;
}

/// Checks the values a decomposition produced against the node's results.
static LogicalResult checkResults(NodeContext &ctx) {
  bool ok = true;
  for (auto [i, value] : llvm::enumerate(ctx.getResults())) {
    Type declared = ctx.getNode()->getResult(i).getType();
    if (!value) {
      if (ctx.resultUsed(i)) {
        ctx.error() << "output " << i << " is not supported";
        ok = false;
      }
      continue;
    }
    if (value.getType() != declared) {
      ctx.error() << "output " << i << " decomposes to " << value.getType()
                  << " but the node declares " << declared;
      ok = false;
    }
  }
  return success(ok);
}

/// Replaces `node` by its decomposition, or reports why it cannot and
/// removes whatever was built for it.
static LogicalResult decomposeNode(OnnxNodeOp node, ConvChoices conv) {
  OpBuilder builder(node);
  Operation *before = node->getPrevNode();
  NodeContext ctx(node, builder, conv);

  FailureOr<DecomposeFn> fn = lookUp(ctx);
  if (failed(fn))
    return failure();
  bool ok = succeeded((*fn)(ctx)) && !ctx.hasFailed() &&
            succeeded(ctx.checkAllUnderstood()) && succeeded(checkResults(ctx));
  // Every failure must say why; a silent one would be a bug here.
  if (!ok && !ctx.hasFailed())
    ctx.error() << "could not be decomposed (internal error: no reason given)";

  // The ops built for the node sit between `before` and the node; later
  // ones use earlier ones, so they are visited in reverse.
  SmallVector<Operation *> built;
  for (Operation *op = before ? before->getNextNode()
                              : &node->getBlock()->front();
       op != node.getOperation(); op = op->getNextNode())
    built.push_back(op);
  if (ok) {
    for (auto [result, value] : llvm::zip(node->getResults(), ctx.getResults()))
      if (value)
        result.replaceAllUsesWith(value);
    node->erase();
  }
  // On failure everything built goes; on success what ended up unused
  // (a builder peephole bypassed it).
  for (Operation *op : llvm::reverse(built))
    if (!ok || op->use_empty())
      op->erase();
  return success(ok);
}

/// Grouped convolutions of up to this many channels per group count as
/// light (ResNeXt-101 32x8d's widest have 64); wider groups are dense
/// convolutions cut in a few parts (AlexNet's two), which run NCHW.
constexpr int64_t kMaxLightGroupChannels = 64;
/// The channels-last 1x1 convolution vectorizes its output channels; where
/// more than this fraction of the 1x1 work has a count that is not a
/// multiple of 8 (an AVX2 vector), it runs as vectors of 4 or padded.
constexpr double kMaxUnevenPointwiseShare = 0.1;

/// Dense spatial convolutions run channels last where they all read at
/// least this many channels (besides a stem of a few): vectors of output
/// channels then fill, and Winograd's transforms and products move whole
/// vectors of channels (Winograd.cpp).
constexpr int64_t kMinDenseChannelsLast = 64;

/// True if `node` is a Concat along axis 1 of a 4-d or wider result: the
/// channels of an NCHW image, which channels last are the innermost axis,
/// so what reads the joined image (a pool) picks a part per lane.
static bool concatsChannels(OnnxNodeOp node) {
  if (node.getOpType() != "Concat" || node->getNumResults() != 1)
    return false;
  auto result = dyn_cast<RankedTensorType>(node->getResult(0).getType());
  auto axis = dyn_cast_or_null<IntegerAttr>(node.getAttrs().get("axis"));
  if (!result || result.getRank() < 4 || !axis)
    return false;
  int64_t a = axis.getValue().getSExtValue();
  return (a < 0 ? a + result.getRank() : a) == 1;
}

/// True for a model whose convolutions run faster channels last. Every
/// Conv is one of: pointwise (1x1); grouped with few channels per group
/// (depthwise included); a stem of at most 4 channels per group that reads
/// the image; or dense and spatial over at least kMinDenseChannelsLast
/// input channels. Nearly all the 1x1 work has output channels in
/// multiples of 8, and there is a grouped spatial convolution, or a dense
/// one and no Concat of channels.
///
/// Computed channels last, a 1x1 convolution reads each pixel's channels
/// contiguously, as a matmul reads a row: MobileNetV2's 7x7 ones ran at 85
/// instead of 50 GFLOP/s on Zen 3, and its depthwise convolutions of
/// stride 2 load whole vectors of channels instead of every other pixel,
/// 12.2 -> 9.7 ms in all; ResNeXt-50 32x4d, whose 1x1 convolutions do 92%
/// of its work around grouped 3x3 ones, 0.82x the time, RegNetY-400MF
/// 0.86x. ShuffleNetV2's 1x1 convolutions of 58 and 116 channels (38% of
/// their work) made it 1.15x slower channels last.
///
/// Dense 3x3 convolutions of 64 channels or more, with Winograd's kernels
/// channels last too, ran faster so on AVX-512 (one core): ResNet-18 19.4
/// instead of 21.9 ms (batch 8: 157 instead of 176), its basic block 1.40
/// instead of 1.87, ResNet-50 63 instead of 68.5, VGG-11 64 instead of 75.
/// Fewer channels do not fill the vectors: the bundled 8- and 16-channel
/// convnets ran 1.07x (cnn) and 1.45x (dyncnn) slower. Models that join
/// channels gained nothing worth a rule: GoogLeNet 1.05x faster,
/// DenseNet-121 and SqueezeNet-1.1 as fast (once a pool of the joined image
/// read whole vectors of each part: it was scalar, 2.2 ms instead of 0.1);
/// `tgc tune` times the other layout for them.
static bool prefersChannelsLast(ArrayRef<OnnxNodeOp> nodes) {
  bool anyGroupedSpatial = false, anyDenseSpatial = false,
       anyChannelConcat = false;
  int64_t pointwiseWork = 0, unevenWork = 0;
  for (OnnxNodeOp node : nodes) {
    anyChannelConcat |= concatsChannels(node);
    if (node.getOpType() != "Conv")
      continue;
    if (node.getInputs().size() < 2)
      return false;
    auto weight = dyn_cast<RankedTensorType>(node.getInputs()[1].getType());
    auto result = dyn_cast<RankedTensorType>(node->getResult(0).getType());
    if (!weight || !weight.hasStaticShape() || weight.getRank() < 3 || !result)
      return false;
    int64_t groups = 1;
    if (auto attr = dyn_cast_or_null<IntegerAttr>(node.getAttrs().get("group")))
      groups = attr.getValue().getSExtValue();
    int64_t perGroup = weight.getShape()[1];
    if (llvm::all_of(weight.getShape().drop_front(2),
                     [](int64_t k) { return k == 1; })) {
      // Per image: a batch left dynamic weighs every convolution alike.
      int64_t work = perGroup;
      for (int64_t dim : result.getShape().drop_front())
        work *= ShapedType::isDynamic(dim) ? 1 : dim;
      pointwiseWork += work;
      if (weight.getShape()[0] % 8 != 0)
        unevenWork += work;
      continue;
    }
    if (groups > 1 && perGroup <= kMaxLightGroupChannels)
      anyGroupedSpatial = true;
    else if (groups == 1 && perGroup >= kMinDenseChannelsLast)
      anyDenseSpatial = true;
    else if (perGroup > 4)
      return false;
  }
  return (anyGroupedSpatial || (anyDenseSpatial && !anyChannelConcat)) &&
         unevenWork <= kMaxUnevenPointwiseShare * pointwiseWork;
}

namespace {
struct Decompose : mlir::tgc::impl::TgcDecomposeBase<Decompose> {
  using TgcDecomposeBase::TgcDecomposeBase;

  void runOnOperation() final {
    std::optional<WinogradMode> mode = parseWinogradMode(winograd);
    if (!mode) {
      getOperation().emitError("tgc-decompose: winograd must be auto, always, "
                               "never, 2x2 or 4x4, not '")
          << winograd << "'";
      return signalPassFailure();
    }
    if (convLayout != "auto" && convLayout != "nchw" && convLayout != "nhwc") {
      getOperation().emitError("tgc-decompose: conv-layout must be auto, "
                               "nchw or nhwc, not '")
          << convLayout << "'";
      return signalPassFailure();
    }
    SmallVector<OnnxNodeOp> nodes;
    getOperation().walk([&](OnnxNodeOp node) { nodes.push_back(node); });
    ConvChoices conv;
    conv.winograd = *mode;
    conv.channelsLast = convLayout == "nhwc" ||
                        (convLayout == "auto" && prefersChannelsLast(nodes));
    conv.vectorRegisters = vectorRegisters;
    bool ok = true;
    for (OnnxNodeOp node : nodes)
      ok &= succeeded(decomposeNode(node, conv));
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
