//===- TgcOps.cpp - tgc op verifiers ---------------------------*- C++ -*-===//
//
// The rules ODS traits cannot state: shapes of movement and reduce ops, and
// the nesting of ranges in a lowered kernel (tinygrad uop/spec.py).
//
//===----------------------------------------------------------------------===//

#include "IR/TgcOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallSet.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tgc;

Type mlir::tgc::withElementType(Type type, Type element) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(element);
  return element;
}

bool mlir::tgc::isIntegerLike(Type elementType) {
  if (elementType.isIndex())
    return true;
  auto integer = dyn_cast<IntegerType>(elementType);
  return integer && integer.getWidth() > 1;
}

int64_t mlir::tgc::getElementBytes(Type element) {
  if (element.isIndex())
    return 8;
  unsigned width = element.getIntOrFloatBitWidth();
  return width == 1 ? 1 : width / 8;
}

int64_t mlir::tgc::getTensorBytes(Type tensor) {
  auto ranked = cast<RankedTensorType>(tensor);
  return ranked.getNumElements() * getElementBytes(ranked.getElementType());
}

SmallVector<int64_t> mlir::tgc::rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = (int64_t)shape.size() - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

bool mlir::tgc::isGraphElementwise(Operation *op) {
  return isa<CastOp, BitcastOp, Exp2Op, Log2Op, SinOp, SqrtOp, RecipOp, NegOp,
             TruncOp, AddOp, MulOp, ShlOp, ShrOp, IdivOp, MaxOp, ModOp,
             CmpltOp, CmpneOp, CmpeqOp, XorOp, OrOp, AndOp, SubOp, FdivOp,
             PowOp, WhereOp, MulaccOp>(op);
}

std::pair<double, double> mlir::tgc::integerRange(IntegerType type) {
  unsigned width = type.getWidth();
  if (type.isUnsigned() || width == 1)
    return {0, std::ldexp(1.0, width) - 1};
  return {-std::ldexp(1.0, width - 1), std::ldexp(1.0, width - 1) - 1};
}

double mlir::tgc::roundingMagic(FloatType type) {
  return 1.5 * std::ldexp(1.0, type.getFPMantissaWidth() - 1);
}

bool mlir::tgc::isGraphMovement(Operation *op) {
  return isa<ReshapeOp, PermuteOp, ExpandOp, PadOp, ShrinkOp, FlipOp>(op);
}

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// Checks that `axes` are distinct and within `rank`.
static LogicalResult verifyAxes(Operation *op, ArrayRef<int64_t> axes,
                                int64_t rank) {
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t axis : axes) {
    if (axis < 0 || axis >= rank)
      return op->emitOpError("axis ") << axis << " out of range for rank "
                                      << rank;
    if (!seen.insert(axis).second)
      return op->emitOpError("axis ") << axis << " given twice";
  }
  return success();
}

static LogicalResult verifySameElementType(Operation *op, Type a, Type b) {
  if (getElementTypeOrSelf(a) != getElementTypeOrSelf(b))
    return op->emitOpError("changes the element type from ")
           << getElementTypeOrSelf(a) << " to " << getElementTypeOrSelf(b);
  return success();
}

//===----------------------------------------------------------------------===//
// Import and kernels
//===----------------------------------------------------------------------===//

LogicalResult OnnxNodeOp::verify() {
  if (getOpType().empty())
    return emitOpError("needs an op type");
  if (auto slots = getInputSlots())
    if (slots->size() != getInputs().size())
      return emitOpError("has ") << slots->size() << " input slots for "
                                 << getInputs().size() << " inputs";
  return success();
}

bool KernelOp::isLowered() {
  return getBlock().getNumArguments() ==
         getInputs().size() + getResults().size();
}

namespace {
/// The loops open at a point of a lowered kernel body, as a tree: each open
/// range is a node whose parent is the range around it.
struct Scope {
  RangeOp range;
  Scope *parent;
};
} // namespace

/// Checks that a lowered kernel body nests its ranges and ifs properly and
/// that no value is used outside the loops it was computed in, except by
/// the tgc.reduce that closes them.
static LogicalResult verifyLoweredBody(KernelOp kernel) {
  std::vector<std::unique_ptr<Scope>> scopes;
  Scope *current = nullptr;
  llvm::DenseMap<Value, Scope *> definedIn;
  int openIfs = 0;

  auto isEnclosing = [](Scope *outer, Scope *inner) {
    for (; inner; inner = inner->parent)
      if (inner == outer)
        return true;
    return outer == nullptr;
  };

  for (Operation &op : kernel.getBlock()) {
    for (Value operand : op.getOperands()) {
      auto it = definedIn.find(operand);
      if (it == definedIn.end())
        continue; // block arguments and ranges' own values
      Scope *def = it->second;
      // A reduce sees through the ranges it reduces over.
      if (auto reduce = dyn_cast<ReduceOp>(op)) {
        llvm::SmallPtrSet<Operation *, 4> reduced;
        for (Value r : reduce.getRanges())
          reduced.insert(r.getDefiningOp());
        while (def && reduced.contains(def->range))
          def = def->parent;
      }
      if (!isEnclosing(def, current))
        return op.emitOpError("uses a value outside the loop it was "
                              "computed in");
    }
    if (auto range = dyn_cast<RangeOp>(op)) {
      scopes.push_back(std::make_unique<Scope>(Scope{range, current}));
      current = scopes.back().get();
      definedIn[range.getResult()] = current;
      continue;
    }
    if (auto end = dyn_cast<EndOp>(op)) {
      if (!current || current->range.getResult() != end.getRange())
        return end.emitOpError("does not close the innermost open range");
      current = current->parent;
      continue;
    }
    if (isa<IfOp>(op))
      ++openIfs;
    if (isa<EndifOp>(op) && --openIfs < 0)
      return op.emitOpError("closes no tgc.if");
    for (Value result : op.getResults())
      definedIn[result] = current;
  }
  if (current)
    return current->range.emitOpError("is never closed by a tgc.end");
  if (openIfs)
    return kernel.emitOpError("has a tgc.if without tgc.endif");
  return success();
}

LogicalResult KernelOp::verify() {
  Block &block = getBlock();
  auto sink = dyn_cast<SinkOp>(block.back());
  if (!sink)
    return emitOpError("body must end with tgc.sink");
  if (getResults().empty())
    return emitOpError("writes no buffer");
  if (auto offsets = getArenaOffset())
    if (offsets->size() != getResults().size())
      return emitOpError("has ") << offsets->size() << " arena offsets for "
                                 << getResults().size() << " results";

  if (!isLowered()) {
    if (block.getNumArguments() != getInputs().size())
      return emitOpError("body takes ") << block.getNumArguments()
                                        << " arguments for "
                                        << getInputs().size() << " inputs";
    for (auto [arg, input] : llvm::zip(block.getArguments(), getInputs()))
      if (arg.getType() != input.getType())
        return emitOpError("body argument type ")
               << arg.getType() << " differs from input " << input.getType();
    if (sink.getSrcs().getTypes() != getResults().getTypes())
      return emitOpError("sinks values whose types differ from its results");
    return success();
  }

  if (!sink.getSrcs().empty())
    return emitOpError("is lowered but its sink still yields values");
  SmallVector<Type> buffers(getInputs().getTypes());
  llvm::append_range(buffers, getResults().getTypes());
  for (auto [arg, buffer] : llvm::zip(block.getArguments(), buffers)) {
    auto ptr = dyn_cast<PtrType>(arg.getType());
    if (!ptr || ptr.getElementType() != getElementTypeOrSelf(buffer))
      return emitOpError("lowered body argument ")
             << arg.getType() << " is not a pointer to the elements of "
             << buffer;
  }
  return verifyLoweredBody(*this);
}

//===----------------------------------------------------------------------===//
// Movement
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto result = cast<RankedTensorType>(getType());
  if (src.getNumElements() != result.getNumElements())
    return emitOpError("changes the element count from ")
           << src.getNumElements() << " to " << result.getNumElements();
  return verifySameElementType(*this, src, result);
}

LogicalResult PermuteOp::verify() {
  ArrayRef<int64_t> shape = shapeOf(getSrc());
  ArrayRef<int64_t> order = getOrder();
  if (order.size() != shape.size())
    return emitOpError("order has ") << order.size() << " axes for rank "
                                     << shape.size();
  if (failed(verifyAxes(*this, order, shape.size())))
    return failure();
  ArrayRef<int64_t> result = shapeOf(getResult());
  for (auto [i, axis] : llvm::enumerate(order))
    if (result[i] != shape[axis])
      return emitOpError("result dim ") << i << " is " << result[i]
                                        << ", expected " << shape[axis];
  return verifySameElementType(*this, getSrc().getType(), getType());
}

LogicalResult ExpandOp::verify() {
  ArrayRef<int64_t> shape = shapeOf(getSrc());
  ArrayRef<int64_t> result = shapeOf(getResult());
  if (shape.size() != result.size())
    return emitOpError("changes the rank; reshape first");
  for (auto [i, dims] : llvm::enumerate(llvm::zip(shape, result)))
    if (std::get<0>(dims) != std::get<1>(dims) && std::get<0>(dims) != 1)
      return emitOpError("cannot expand dim ")
             << i << " of size " << std::get<0>(dims) << " to "
             << std::get<1>(dims);
  return verifySameElementType(*this, getSrc().getType(), getType());
}

LogicalResult PadOp::verify() {
  ArrayRef<int64_t> shape = shapeOf(getSrc());
  ArrayRef<int64_t> result = shapeOf(getResult());
  if (getLow().size() != shape.size() || getHigh().size() != shape.size() ||
      result.size() != shape.size())
    return emitOpError("needs low and high pads for each of the ")
           << shape.size() << " dims";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (getLow()[i] < 0 || getHigh()[i] < 0)
      return emitOpError("pads must be non-negative; shrink instead");
    if (result[i] != shape[i] + getLow()[i] + getHigh()[i])
      return emitOpError("result dim ") << i << " is " << result[i]
                                        << ", expected "
                                        << shape[i] + getLow()[i] +
                                               getHigh()[i];
  }
  return verifySameElementType(*this, getSrc().getType(), getType());
}

LogicalResult ShrinkOp::verify() {
  ArrayRef<int64_t> shape = shapeOf(getSrc());
  ArrayRef<int64_t> result = shapeOf(getResult());
  if (getBegin().size() != shape.size() || getEnd().size() != shape.size() ||
      result.size() != shape.size())
    return emitOpError("needs a begin and an end for each of the ")
           << shape.size() << " dims";
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t begin = getBegin()[i], end = getEnd()[i];
    if (begin < 0 || begin > end || end > shape[i])
      return emitOpError("bounds [") << begin << ", " << end << ") of dim "
                                     << i << " are not within [0, "
                                     << shape[i] << "]";
    if (result[i] != end - begin)
      return emitOpError("result dim ") << i << " is " << result[i]
                                        << ", expected " << end - begin;
  }
  return verifySameElementType(*this, getSrc().getType(), getType());
}

LogicalResult FlipOp::verify() {
  if (getSrc().getType() != getType())
    return emitOpError("must not change the type");
  return verifyAxes(*this, getAxes(), shapeOf(getSrc()).size());
}

//===----------------------------------------------------------------------===//
// Reduce
//===----------------------------------------------------------------------===//

LogicalResult ReduceAxisOp::verify() {
  ArrayRef<int64_t> shape = shapeOf(getSrc());
  ArrayRef<int64_t> result = shapeOf(getResult());
  if (failed(verifyAxes(*this, getAxes(), shape.size())))
    return failure();
  if (result.size() != shape.size())
    return emitOpError("must keep the reduced dims as size 1");
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t expected = llvm::is_contained(getAxes(), (int64_t)i) ? 1 : shape[i];
    if (result[i] != expected)
      return emitOpError("result dim ") << i << " is " << result[i]
                                        << ", expected " << expected;
  }
  return verifySameElementType(*this, getSrc().getType(), getType());
}

LogicalResult ReduceOp::verify() {
  for (Value range : getRanges())
    if (!range.getDefiningOp<RangeOp>())
      return emitOpError("reduces over a value that is not a tgc.range");
  if (getSrc().getType() != getType())
    return emitOpError("result type differs from its source");
  return success();
}

//===----------------------------------------------------------------------===//
// Defines, constants, vectors
//===----------------------------------------------------------------------===//

static LogicalResult verifyDefine(Operation *op, int64_t size, Type type,
                                  AddrSpace space) {
  if (size <= 0)
    return op->emitOpError("size must be positive");
  if (cast<PtrType>(type).getAddrSpace() != space)
    return op->emitOpError("must give a pointer in the ")
           << stringifyAddrSpace(space) << " address space";
  return success();
}

LogicalResult DefineRegOp::verify() {
  return verifyDefine(*this, getSize(), getType(), AddrSpace::reg);
}

LogicalResult DefineLocalOp::verify() {
  return verifyDefine(*this, getSize(), getType(), AddrSpace::local);
}

/// The tgc.define_acc an accumulator operand comes from, or null.
static DefineAccOp accumulatorOf(Value acc) {
  return acc.getDefiningOp<DefineAccOp>();
}

/// Whether `pointer` points into workgroup memory holding f32 and, when it
/// is a buffer's start, holds at least `elements`.
static bool isLocalTile(Value pointer, int64_t elements) {
  auto ptr = cast<PtrType>(pointer.getType());
  if (ptr.getAddrSpace() != AddrSpace::local || !ptr.getElementType().isF32())
    return false;
  if (auto define = pointer.getDefiningOp<DefineLocalOp>())
    return (int64_t)define.getSize() >= elements;
  return true;
}

LogicalResult DefineAccOp::verify() {
  if (getM() <= 0 || getN() <= 0)
    return emitOpError("tile sizes must be positive");
  auto ptr = cast<PtrType>(getType());
  if (ptr.getAddrSpace() != AddrSpace::reg || !ptr.getElementType().isF32())
    return emitOpError("must give an f32 pointer in the reg address space");
  return success();
}

LogicalResult WmmaOp::verify() {
  DefineAccOp acc = accumulatorOf(getAcc());
  if (!acc)
    return emitOpError("accumulates into a value that is not a "
                       "tgc.define_acc");
  int64_t m = acc.getM(), n = acc.getN(), k = getK();
  if (k <= 0)
    return emitOpError("k must be positive");
  if (!isLocalTile(getA(), m * k) || !isLocalTile(getB(), k * n))
    return emitOpError("reads its tiles from f32 workgroup memory of ")
           << m << "x" << k << " and " << k << "x" << n << " elements";
  return success();
}

LogicalResult StoreAccOp::verify() {
  DefineAccOp acc = accumulatorOf(getAcc());
  if (!acc)
    return emitOpError("stores a value that is not a tgc.define_acc");
  if (!isLocalTile(getDst(), acc.getM() * acc.getN()))
    return emitOpError("writes to f32 workgroup memory of fewer than ")
           << acc.getM() * acc.getN() << " elements";
  return success();
}

LogicalResult ConstOp::verify() {
  if (getValue().getType() != getType())
    return emitOpError("value type ")
           << getValue().getType() << " differs from result " << getType();
  return success();
}

LogicalResult VectorizeOp::verify() {
  auto vector = cast<VectorType>(getType());
  if ((int64_t)getSrcs().size() != vector.getNumElements())
    return emitOpError("needs ") << vector.getNumElements() << " lanes, has "
                                 << getSrcs().size();
  for (Type type : getSrcs().getTypes())
    if (type != vector.getElementType())
      return emitOpError("lane type ") << type << " differs from "
                                       << vector.getElementType();
  return success();
}

LogicalResult GepOp::verify() {
  auto vector = cast<VectorType>(getSrc().getType());
  auto lane = static_cast<int64_t>(getLane());
  if (lane < 0 || lane >= vector.getNumElements())
    return emitOpError("lane ") << getLane() << " out of range";
  if (getType() != vector.getElementType())
    return emitOpError("result must be the lane type");
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// Tensors, vectors and scalars keep their shape through a cast.
static LogicalResult verifySameShape(Operation *op, Type a, Type b) {
  auto shapedA = dyn_cast<ShapedType>(a), shapedB = dyn_cast<ShapedType>(b);
  if (bool(shapedA) != bool(shapedB) ||
      (shapedA && (shapedA.getShape() != shapedB.getShape() ||
                   shapedA.getTypeID() != shapedB.getTypeID())))
    return op->emitOpError("changes the shape from ") << a << " to " << b;
  return success();
}

LogicalResult CastOp::verify() {
  return verifySameShape(*this, getSrc().getType(), getType());
}

LogicalResult BitcastOp::verify() {
  if (failed(verifySameShape(*this, getSrc().getType(), getType())))
    return failure();
  if (getElementTypeOrSelf(getSrc().getType()).getIntOrFloatBitWidth() !=
      getElementTypeOrSelf(getType()).getIntOrFloatBitWidth())
    return emitOpError("must keep the bit width");
  return success();
}

#define TGC_CMP_INFER(OP)                                                      \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *context, std::optional<Location>, ValueRange operands,      \
      DictionaryAttr, OpaqueProperties, RegionRange,                           \
      SmallVectorImpl<Type> &inferred) {                                       \
    if (operands.empty())                                                      \
      return failure();                                                        \
    inferred.push_back(                                                        \
        withElementType(operands[0].getType(), IntegerType::get(context, 1))); \
    return success();                                                          \
  }
TGC_CMP_INFER(CmpltOp)
TGC_CMP_INFER(CmpneOp)
TGC_CMP_INFER(CmpeqOp)
#undef TGC_CMP_INFER

LogicalResult WhereOp::verify() {
  Type expected = withElementType(getType(), IntegerType::get(getContext(), 1));
  if (getCond().getType() != expected)
    return emitOpError("condition must be ") << expected;
  return success();
}

//===----------------------------------------------------------------------===//
// Memory and control flow
//===----------------------------------------------------------------------===//

/// A load or store moves one element or a vector of the pointee type.
static LogicalResult verifyAccess(Operation *op, Type ptr, Type value) {
  Type element = cast<PtrType>(ptr).getElementType();
  if (getElementTypeOrSelf(value) != element ||
      (isa<ShapedType>(value) && !isa<VectorType>(value)))
    return op->emitOpError("accesses ") << value << " through " << ptr;
  return success();
}

LogicalResult LoadOp::verify() {
  if (getAlt() && getAlt().getType() != getType())
    return emitOpError("alternative value must have the result type");
  return verifyAccess(*this, getPtr().getType(), getType());
}

LogicalResult StoreOp::verify() {
  return verifyAccess(*this, getPtr().getType(), getValue().getType());
}

LogicalResult RangeOp::verify() {
  if (static_cast<int64_t>(getBound()) < 1)
    return emitOpError("bound must be at least 1");
  return success();
}

LogicalResult EndOp::verify() {
  if (!getRange().getDefiningOp<RangeOp>())
    return emitOpError("must close a tgc.range");
  return success();
}

#define GET_OP_CLASSES
#include "IR/TgcOps.cpp.inc"
