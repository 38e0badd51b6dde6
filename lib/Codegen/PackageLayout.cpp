//===- PackageLayout.cpp - what the emitted package is made of -*- C++ -*-===//
//
// Walks `func.func @main` once: names the inputs and outputs, resolves each
// kernel argument to an input, an output buffer, an arena offset or a weight,
// and checks the planner's contract on the way, so that the writers of the
// header, the source and the manifest never meet an inconsistent module.
//
//===----------------------------------------------------------------------===//

#include "Codegen/PackageLayout.h"
#include "Codegen/CEmitterSupport.h"
#include "IR/Images.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tgc;

int64_t IoTensor::getBytes() const {
  return getElements() * getElementBytes(type.getElementType());
}

/// A tensor type the C API can pass: ranked, static, of a storable dtype.
static LogicalResult checkIoType(Location loc, Type type, StringRef what,
                                 RankedTensorType &result) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return emitError(loc) << what << " must be a tensor of a static shape, "
                          << "not " << type;
  if (failed(getCStorageType(tensor.getElementType())) ||
      tensor.getElementType().isIndex())
    return emitError(loc) << what << " has element type "
                          << tensor.getElementType()
                          << ", which the C API cannot pass";
  result = tensor;
  return success();
}

static int64_t getAttrOr(ModuleOp module, StringRef name, int64_t fallback,
                         bool &present) {
  auto attr = module->getAttrOfType<IntegerAttr>(name);
  present = attr != nullptr;
  return attr ? attr.getInt() : fallback;
}

FailureOr<ModelLayout> mlir::tgc::analyzeModel(ModuleOp module,
                                               StringRef prefix) {
  if (!isCIdentifier(prefix))
    return emitError(module.getLoc())
           << "the name '" << prefix << "' is not a C identifier";
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main || main.isExternal())
    return emitError(module.getLoc()) << "expected a 'func.func @main' "
                                         "with a body";

  ModelLayout layout;
  layout.prefix = prefix.str();
  if (auto source = module->getAttrOfType<StringAttr>("tgc.source"))
    layout.source = source.getValue().str();

  // Names: `NET_<NAME>_BYTES` must not collide with the model-wide macros.
  llvm::StringSet<> taken{"ARENA", "WEIGHTS", "WEIGHTS_FILE"};
  auto nameOf = [](DictionaryAttr attrs, StringRef fallback) {
    if (attrs)
      if (auto name = attrs.getAs<StringAttr>("tgc.name"))
        return name.getValue().str();
    return fallback.str();
  };
  layout.images = getModelImages(module);
  if (layout.images < 1)
    return emitError(module.getLoc()) << kImagesAttr << " must be positive";
  layout.parallelImages = getModelParallelImages(module);
  if (layout.parallelImages < 1 || layout.parallelImages > layout.images)
    return emitError(module.getLoc())
           << kParallelImagesAttr << " must be between 1 and " << kImagesAttr;
  FunctionType type = main.getFunctionType();
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    IoTensor io;
    io.name = nameOf(main.getArgAttrDict(i), "input" + std::to_string(i));
    if (failed(checkIoType(main.getArgument(i).getLoc(), type.getInput(i),
                           "input '" + io.name + "'", io.imageType)))
      return failure();
    io.type = getBatchedType(io.imageType, layout.images);
    io.cName = makeUnique(sanitizeIdentifier(io.name), taken);
    layout.inputs.push_back(io);
  }
  for (unsigned i = 0; i < type.getNumResults(); ++i) {
    IoTensor io;
    io.name = nameOf(main.getResultAttrDict(i), "output" + std::to_string(i));
    if (failed(checkIoType(main.getLoc(), type.getResult(i),
                           "output '" + io.name + "'", io.imageType)))
      return failure();
    io.type = getBatchedType(io.imageType, layout.images);
    io.cName = makeUnique(sanitizeIdentifier(io.name), taken);
    layout.outputs.push_back(io);
  }
  if (layout.images > 1 &&
      llvm::any_of(llvm::concat<IoTensor>(layout.inputs, layout.outputs),
                   [](const IoTensor &io) { return io.type.getRank() == 0; }))
    return emitError(module.getLoc())
           << "a model that loops over " << kImagesAttr
           << " needs every input and output batched along dim 0";

  bool hasArenaBytes, hasAlign, hasPeak;
  layout.arenaBytes = getAttrOr(module, "tgc.arena_bytes", 0, hasArenaBytes);
  layout.arenaAlign = getAttrOr(module, "tgc.arena_align", 64, hasAlign);
  int64_t peak = getAttrOr(module, "tgc.peak_bytes", 0, hasPeak);
  if (hasPeak)
    layout.peakBytes = peak;
  if (layout.arenaBytes < 0 || layout.arenaAlign < 1 ||
      (layout.arenaAlign & (layout.arenaAlign - 1)))
    return emitError(module.getLoc())
           << "tgc.arena_bytes must be non-negative and tgc.arena_align a "
              "power of two";

  auto returnOp =
      dyn_cast<func::ReturnOp>(main.getBody().front().getTerminator());
  if (!returnOp)
    return main.emitOpError("must end with func.return");
  DenseMap<Value, BufferRef> bufferOf;
  for (BlockArgument arg : main.getArguments())
    bufferOf[arg] = {BufferRef::Kind::Input, arg.getArgNumber()};
  SmallVector<ConstOp> weightOps;
  llvm::StringSet<> functions;

  for (Operation &op : main.getBody().front()) {
    if (isa<ConstOp, func::ReturnOp>(op))
      continue;
    auto kernel = dyn_cast<KernelOp>(op);
    if (!kernel)
      return op.emitOpError("cannot stand in @main at the render stage; only "
                            "tgc.const, tgc.kernel and func.return can");
    if (!kernel.isLowered())
      return kernel.emitOpError("is not lowered; run the pipeline up to "
                                "tgc-linearize first");
    std::optional<ArrayRef<int64_t>> offsets = kernel.getArenaOffset();
    if (!offsets)
      return kernel.emitOpError("has no arena_offset; run tgc-plan first");

    KernelCall call;
    call.op = kernel;
    call.function = makeUnique(
        prefix.str() + "_" + sanitizeIdentifier(kernel.getName()), functions);
    for (Value input : kernel.getInputs()) {
      if (auto weight = input.getDefiningOp<ConstOp>()) {
        weightOps.push_back(weight);
        call.args.push_back({BufferRef::Kind::Weight, -1}); // set below
        continue;
      }
      auto it = bufferOf.find(input);
      if (it == bufferOf.end())
        return kernel.emitOpError("reads a value that is not an input, a "
                                  "weight or an earlier kernel's result");
      call.args.push_back(it->second);
    }
    for (auto [result, offset] : llvm::zip(kernel.getResults(), *offsets)) {
      BufferRef buffer;
      if (offset == -1) {
        // Written straight into the first output that returns it.
        auto use = llvm::find(returnOp.getOperands(), result);
        if (use == returnOp.getOperands().end())
          return kernel.emitOpError("has a result with arena_offset -1 that "
                                    "is not a model output");
        buffer = {BufferRef::Kind::Output,
                  std::distance(returnOp.getOperands().begin(), use)};
      } else {
        auto tensor = cast<RankedTensorType>(result.getType());
        int64_t bytes =
            tensor.getNumElements() * getElementBytes(tensor.getElementType());
        if (!hasArenaBytes)
          return kernel.emitOpError("writes into the arena, but the module "
                                    "has no tgc.arena_bytes; run tgc-plan");
        if (offset < 0 || offset + bytes > layout.arenaBytes)
          return kernel.emitOpError("result at arena offset ")
                 << offset << " (" << bytes
                 << " bytes) lies outside the arena of " << layout.arenaBytes
                 << " bytes";
        if (offset % getElementBytes(tensor.getElementType()))
          return kernel.emitOpError("result at arena offset ")
                 << offset << " is misaligned for " << tensor.getElementType();
        buffer = {BufferRef::Kind::Arena, offset};
      }
      bufferOf[result] = buffer;
      call.args.push_back(buffer);
    }
    layout.kernels.push_back(std::move(call));
  }

  // Outputs not written in place are copied at the end of the run.
  for (auto [index, value] : llvm::enumerate(returnOp.getOperands())) {
    if (auto weight = value.getDefiningOp<ConstOp>()) {
      weightOps.push_back(weight);
      layout.copies.push_back(
          {static_cast<unsigned>(index), {BufferRef::Kind::Weight, -1}});
      continue;
    }
    auto it = bufferOf.find(value);
    if (it == bufferOf.end())
      return returnOp.emitOpError("returns a value that no kernel computes");
    const BufferRef &from = it->second;
    if (from.kind == BufferRef::Kind::Output &&
        from.index == static_cast<int64_t>(index))
      continue;
    layout.copies.push_back({static_cast<unsigned>(index), from});
  }

  DenseMap<Operation *, unsigned> tensorOf;
  FailureOr<WeightsBlob> weights = buildWeightsBlob(weightOps, tensorOf);
  if (failed(weights))
    return failure();
  layout.weights = std::move(*weights);
  // Fill in the weight tensor numbers, in the order the ops were collected.
  unsigned next = 0;
  auto resolve = [&](BufferRef &ref) {
    if (ref.kind == BufferRef::Kind::Weight && ref.index == -1)
      ref.index = tensorOf[weightOps[next++]];
  };
  for (KernelCall &call : layout.kernels)
    for (BufferRef &ref : call.args)
      resolve(ref);
  for (OutputCopy &copy : layout.copies)
    resolve(copy.from);
  return layout;
}

bool mlir::tgc::usesBufferKind(const ModelLayout &layout,
                               BufferRef::Kind kind) {
  for (const KernelCall &call : layout.kernels)
    for (const BufferRef &ref : call.args)
      if (ref.kind == kind)
        return true;
  return llvm::any_of(layout.copies, [&](const OutputCopy &copy) {
    return copy.from.kind == kind;
  });
}
