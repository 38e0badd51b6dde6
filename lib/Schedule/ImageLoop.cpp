//===- ImageLoop.cpp - compute a batch one image at a time ----*- C++ -*-===//
//
// A graph that never mixes the images of its batch (no reduce, pad, shrink
// or flip across the batch axis, no reshape that merges it with another
// axis) computes the same thing as the graph for one image run once per
// image. Run that way, an image's activations stay in cache from one kernel
// to the next, where the whole batch's would stream through memory at every
// layer, and the arena shrinks by the batch size. The price is the weights:
// each image reads them again, which only pays where every weight does
// enough work per image.
//
// The rewrite is in place: each value that depends on the inputs keeps its
// ops and gets size 1 on its batch axis; a value that does not (weights and
// what is computed from them alone) is sliced where it meets an image, which
// is correct because it is checked to be the same for every image.
//
//===----------------------------------------------------------------------===//

#include "IR/Images.h"
#include "IR/TgcOps.h"
#include "Schedule/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"
#include <algorithm>

#define DEBUG_TYPE "tgc-image-loop"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCIMAGELOOP
#include "Schedule/Passes.h.inc"

namespace {

/// Largest constant whose slices are compared element by element.
constexpr int64_t kMaxComparedElements = int64_t(1) << 20;

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// Elementwise ops and tgc.contiguous: the result has the operands' shape,
/// each element computed from the same element of each.
bool keepsShape(Operation *op) {
  return isGraphElementwise(op) || isa<ContiguousOp>(op);
}

/// True if every slice of a constant along `axis` holds the same elements.
bool slicesAreEqual(ConstOp constant, int64_t axis) {
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense)
    return false; // a weight blob: not worth reading at compile time
  if (dense.isSplat())
    return true;
  auto type = cast<RankedTensorType>(dense.getType());
  if (type.getNumElements() > kMaxComparedElements)
    return false;
  int64_t size = type.getDimSize(axis);
  int64_t stride = rowMajorStrides(type.getShape())[axis];
  SmallVector<Attribute> values(dense.getValues<Attribute>());
  for (int64_t i = 0; i < (int64_t)values.size(); ++i) {
    int64_t position = i / stride % size;
    if (position != 0 && values[i] != values[i - position * stride])
      return false;
  }
  return true;
}

/// The axis of a reshape's result that holds source axis `axis` of size
/// `size`: the same count of elements before it, and the same size.
std::optional<int64_t> reshapedAxis(ArrayRef<int64_t> from,
                                    ArrayRef<int64_t> to, int64_t axis,
                                    int64_t size) {
  int64_t before = 1;
  for (int64_t d = 0; d < axis; ++d)
    before *= from[d];
  int64_t running = 1;
  for (int64_t d = 0; d < (int64_t)to.size(); ++d) {
    if (running == before && to[d] == size)
      return d;
    running *= to[d];
  }
  return std::nullopt;
}

/// Finds, for every value that depends on the model's inputs, the axis
/// along which it holds the images, or the op that mixes them.
class ImageAxes {
public:
  explicit ImageAxes(int64_t images) : images(images) {}

  LogicalResult analyze(func::FuncOp func) {
    for (BlockArgument arg : func.getArguments())
      axisOf[arg] = 0;
    for (Operation &op : func.getBody().front()) {
      if (isa<ConstOp>(op))
        continue;
      if (isa<func::ReturnOp>(op)) {
        for (Value result : op.getOperands())
          if (auto it = axisOf.find(result);
              it == axisOf.end() || it->second != 0)
            return fail(&op, "returns a value that is not batched along "
                             "dim 0");
        continue;
      }
      bool dependsOnImages = llvm::any_of(
          op.getOperands(), [&](Value v) { return axisOf.contains(v); });
      if (!dependsOnImages)
        continue;
      if (op.getNumResults() != 1 || op.getNumRegions() != 0 ||
          !isa<RankedTensorType>(op.getResult(0).getType()))
        return fail(&op, "is not a tensor op of one result");
      std::optional<int64_t> axis = resultAxis(&op);
      if (!axis)
        return failure();
      axisOf[op.getResult(0)] = *axis;
    }
    return success();
  }

  /// Why the graph cannot be split, for the debug log.
  std::string reason;
  DenseMap<Value, int64_t> axisOf;
  /// Image-free operands of elementwise ops and the axis to slice them on.
  SmallVector<std::pair<OpOperand *, int64_t>> slices;

private:
  LogicalResult fail(Operation *op, StringRef why) {
    reason = (op->getName().getStringRef() + " " + why).str();
    return failure();
  }

  std::optional<int64_t> resultAxis(Operation *op) {
    auto failWith = [&](StringRef why) -> std::optional<int64_t> {
      (void)fail(op, why);
      return std::nullopt;
    };
    if (keepsShape(op)) {
      std::optional<int64_t> axis;
      for (Value operand : op->getOperands())
        if (auto it = axisOf.find(operand); it != axisOf.end()) {
          if (axis && *axis != it->second)
            return failWith("combines images along different axes");
          axis = it->second;
        }
      for (OpOperand &operand : op->getOpOperands()) {
        if (axisOf.contains(operand.get()))
          continue;
        if (!isUniformAlong(operand.get(), *axis))
          return failWith("gives each image a different constant");
        slices.push_back({&operand, *axis});
      }
      return axis;
    }
    Value src = op->getOperand(0);
    int64_t axis = axisOf.lookup(src);
    if (auto reduce = dyn_cast<ReduceAxisOp>(op)) {
      if (llvm::is_contained(reduce.getAxes(), axis))
        return failWith("reduces over the images");
      return axis;
    }
    if (auto reshape = dyn_cast<ReshapeOp>(op)) {
      std::optional<int64_t> to =
          reshapedAxis(shapeOf(src), shapeOf(reshape), axis, images);
      if (!to)
        return failWith("merges the images with another axis");
      return to;
    }
    if (auto permute = dyn_cast<PermuteOp>(op))
      return llvm::find(permute.getOrder(), axis) - permute.getOrder().begin();
    if (isa<ExpandOp>(op))
      return axis;
    if (auto pad = dyn_cast<PadOp>(op)) {
      if (pad.getLow()[axis] != 0 || pad.getHigh()[axis] != 0)
        return failWith("pads the batch axis");
      return axis;
    }
    if (auto shrink = dyn_cast<ShrinkOp>(op)) {
      if (shrink.getBegin()[axis] != 0 || shrink.getEnd()[axis] != images)
        return failWith("slices the batch axis");
      return axis;
    }
    if (auto flip = dyn_cast<FlipOp>(op)) {
      if (llvm::is_contained(flip.getAxes(), axis))
        return failWith("reverses the images");
      return axis;
    }
    return failWith("is not known to keep images apart");
  }

  /// True if an image-free value is the same at every index of `axis`.
  bool isUniformAlong(Value value, int64_t axis) {
    if (shapeOf(value)[axis] == 1)
      return true;
    Operation *op = value.getDefiningOp();
    if (!op)
      return false;
    if (auto constant = dyn_cast<ConstOp>(op))
      return slicesAreEqual(constant, axis);
    if (keepsShape(op))
      return llvm::all_of(op->getOperands(), [&](Value operand) {
        return isUniformAlong(operand, axis);
      });
    Value src = op->getOperand(0);
    if (isa<ExpandOp, ReduceAxisOp>(op))
      return isUniformAlong(src, axis); // size 1 there caught above
    if (auto permute = dyn_cast<PermuteOp>(op))
      return isUniformAlong(src, permute.getOrder()[axis]);
    if (auto flip = dyn_cast<FlipOp>(op))
      return isUniformAlong(src, axis);
    if (auto pad = dyn_cast<PadOp>(op))
      return pad.getLow()[axis] == 0 && pad.getHigh()[axis] == 0 &&
             isUniformAlong(src, axis);
    if (auto shrink = dyn_cast<ShrinkOp>(op))
      return isUniformAlong(src, axis);
    if (auto reshape = dyn_cast<ReshapeOp>(op)) {
      // The source axis that became this one, if it did unchanged.
      ArrayRef<int64_t> from = shapeOf(src), to = shapeOf(reshape);
      for (int64_t d = 0; d < (int64_t)from.size(); ++d)
        if (reshapedAxis(from, to, d, from[d]) == axis)
          return isUniformAlong(src, d);
    }
    return false;
  }

  int64_t images;
};

struct TgcImageLoop : impl::TgcImageLoopBase<TgcImageLoop> {
  using TgcImageLoopBase::TgcImageLoopBase;

  void runOnOperation() final {
    ModuleOp module = getOperation();
    if (module->hasAttr(kImagesAttr))
      return; // already one image
    if (mode != "auto" && mode != "always" && mode != "never") {
      module.emitError("tgc-image-loop: mode must be auto, always or never, "
                       "not '")
          << mode << "'";
      return signalPassFailure();
    }
    if (parallel < 1) {
      module.emitError("tgc-image-loop: parallel must be at least 1, not ")
          << static_cast<int64_t>(parallel);
      return signalPassFailure();
    }
    if (mode == "never")
      return;
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal() || !llvm::hasSingleElement(main.getBody()))
      return;
    std::optional<int64_t> images = batchOf(main);
    if (!images)
      return;
    ImageAxes axes(*images);
    if (failed(axes.analyze(main))) {
      LLVM_DEBUG(llvm::dbgs() << "tgc-image-loop: the batch stays: "
                              << axes.reason << "\n");
      return;
    }
    if (mode == "auto" && !worthLooping(main, axes, *images))
      return;
    rewrite(main, axes);
    Builder builder(module.getContext());
    module->setAttr(kImagesAttr, builder.getI64IntegerAttr(*images));
    setModelParallelImages(module, parallel);
  }

  /// The batch: dim 0 of every input, if it is the same and above 1.
  static std::optional<int64_t> batchOf(func::FuncOp main) {
    std::optional<int64_t> batch;
    for (Type type : main.getFunctionType().getInputs()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || tensor.getRank() == 0 || !tensor.hasStaticShape())
        return std::nullopt;
      if (batch && *batch != tensor.getDimSize(0))
        return std::nullopt;
      batch = tensor.getDimSize(0);
    }
    if (!batch || *batch < 2 || main.getNumResults() == 0)
      return std::nullopt;
    return batch;
  }

  /// The rule of mode=auto: the batch's activations overflow the cache a
  /// core has (a reduce result of more than `min-bytes`), and every byte of
  /// weights does at least `min-flops-per-weight-byte` of work per image,
  /// so reading them once per image costs little (a matrix-vector product,
  /// 0.5 FLOP per byte, would become memory-bound where the batch made it a
  /// matrix product).
  bool worthLooping(func::FuncOp main, const ImageAxes &axes, int64_t images) {
    int64_t largest = 0, flopsPerImage = 0, weightBytes = 0;
    main.walk([&](Operation *op) {
      if (auto constant = dyn_cast<ConstOp>(op)) {
        auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
        if (isa<RankedTensorType>(constant.getType()) &&
            !(dense && dense.isSplat()))
          weightBytes += getTensorBytes(constant.getType());
        return;
      }
      auto reduce = dyn_cast<ReduceAxisOp>(op);
      if (!reduce || !axes.axisOf.contains(reduce.getResult()))
        return;
      largest = std::max(largest, getTensorBytes(reduce.getType()));
      flopsPerImage +=
          2 * cast<RankedTensorType>(reduce.getSrc().getType())
                  .getNumElements() / images;
    });
    if (largest <= minBytes)
      return false;
    return weightBytes == 0 ||
           flopsPerImage >= minFlopsPerWeightByte * weightBytes;
  }

  static RankedTensorType oneImage(Type type, int64_t axis) {
    auto tensor = cast<RankedTensorType>(type);
    SmallVector<int64_t> shape(tensor.getShape());
    shape[axis] = 1;
    return tensor.clone(shape);
  }

  /// One image's worth of an image-free value that is the same for every
  /// image along `axis`: a splat or a broadcast re-made at size 1, anything
  /// else sliced.
  static Value sliceImageFree(OpBuilder &builder, Value value, int64_t axis) {
    auto type = cast<RankedTensorType>(value.getType());
    RankedTensorType sliced = oneImage(type, axis);
    Location loc = value.getLoc();
    auto constant = value.getDefiningOp<ConstOp>();
    auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                          : DenseElementsAttr();
    if (dense && dense.isSplat())
      return builder.create<ConstOp>(loc, dense.resizeSplat(sliced));
    auto expand = value.getDefiningOp<ExpandOp>();
    if (expand && shapeOf(expand.getSrc())[axis] == 1)
      return builder.create<ExpandOp>(loc, sliced, expand.getSrc());
    SmallVector<int64_t> begin(type.getRank(), 0);
    return builder.create<ShrinkOp>(loc, sliced, value, begin,
                                    sliced.getShape());
  }

  /// Gives every batched value size 1 on its batch axis and slices the
  /// image-free operands that meet them.
  static void rewrite(func::FuncOp main, const ImageAxes &axes) {
    OpBuilder builder(main.getContext());
    for (auto [operand, axis] : axes.slices) {
      builder.setInsertionPoint(operand->getOwner());
      operand->set(sliceImageFree(builder, operand->get(), axis));
    }
    for (auto [value, axis] : axes.axisOf) {
      value.setType(oneImage(value.getType(), axis));
      if (auto shrink = value.getDefiningOp<ShrinkOp>()) {
        SmallVector<int64_t> end(shrink.getEnd());
        end[axis] = 1;
        shrink.setEnd(end);
      }
    }
    // The whole-batch broadcasts and constants the slices replaced.
    Block &body = main.getBody().front();
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
      if (isOpTriviallyDead(&op))
        op.erase();
    auto returnOp = cast<func::ReturnOp>(body.getTerminator());
    main.setFunctionType(FunctionType::get(main.getContext(),
                                           main.getBody().getArgumentTypes(),
                                           returnOp.getOperandTypes()));
  }
};

} // namespace
} // namespace mlir::tgc
