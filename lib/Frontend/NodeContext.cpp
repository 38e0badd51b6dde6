//===- NodeContext.cpp - what a decomposition sees of a node ---*- C++ -*-===//
//
// Typed, bookkept access to one tgc.onnx_node. Reading an attribute or an
// input marks it understood; whatever is left unread when a decomposition
// succeeds is reported as unsupported, so an attribute tgc ignores can
// never silently change a model's meaning.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tgc;

NodeContext::NodeContext(OnnxNodeOp node, OpBuilder &opBuilder,
                         ConvChoices conv)
    : node(node), builder(opBuilder, node.getLoc(), [this] { return error(); }),
      conv(conv), readInputs(node.getInputs().size()),
      results(node->getNumResults()) {}

std::string NodeContext::describe() {
  std::string name;
  if (auto nameLoc = node.getLoc()->findInstanceOf<NameLoc>())
    name = nameLoc.getName().str();
  std::string text = "node ";
  if (!name.empty())
    text += "'" + name + "' ";
  return text + "(" + node.getOpType().str() + ")";
}

InFlightDiagnostic NodeContext::error() {
  failedFlag = true;
  return emitError(node.getLoc()) << describe() << ": ";
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

/// The ONNX input index of each operand.
static SmallVector<int64_t> slotsOf(OnnxNodeOp node) {
  if (auto slots = node.getInputSlots())
    return SmallVector<int64_t>(*slots);
  SmallVector<int64_t> slots;
  for (unsigned i = 0, e = node.getInputs().size(); i < e; ++i)
    slots.push_back(i);
  return slots;
}

unsigned NodeContext::numInputSlots() {
  SmallVector<int64_t> slots = slotsOf(node);
  return slots.empty() ? 0 : *llvm::max_element(slots) + 1;
}

Value NodeContext::input(unsigned slot) {
  for (auto [i, s] : llvm::enumerate(slotsOf(node)))
    if (s == slot) {
      readInputs.set(i);
      return node.getInputs()[i];
    }
  return {};
}

Value NodeContext::requiredInput(unsigned slot, StringRef what) {
  Value value = input(slot);
  if (!value)
    error() << "needs its input " << slot << " (" << what << ")";
  return value;
}

SmallVector<Value> NodeContext::allInputs() {
  readInputs.set();
  return SmallVector<Value>(node.getInputs());
}

FailureOr<std::optional<SmallVector<int64_t>>>
NodeContext::constInts(unsigned slot, StringRef what) {
  Value value = input(slot);
  if (!value)
    return std::optional<SmallVector<int64_t>>();
  auto constant = value.getDefiningOp<ConstOp>();
  auto dense = constant ? dyn_cast<DenseIntElementsAttr>(constant.getValue())
                        : DenseIntElementsAttr();
  if (!dense || dense.getElementType().isInteger(1)) {
    InFlightDiagnostic diag = error() << "input " << slot << " (" << what
                                      << ") must be a constant integer tensor";
    // A graph input can be compiled in: say how.
    auto arg = dyn_cast<BlockArgument>(value);
    auto func = arg ? dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp())
                    : FunctionOpInterface();
    if (func)
      if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                        "tgc.name"))
        diag << "; it is the graph input '" << name.getValue()
             << "': give its value with --bind-input " << name.getValue()
             << "=FILE";
    return failure();
  }
  bool isUnsigned = dense.getElementType().isUnsignedInteger();
  SmallVector<int64_t> values;
  for (const APInt &v : dense.getValues<APInt>())
    values.push_back(isUnsigned ? (int64_t)v.getZExtValue() : v.getSExtValue());
  return std::optional<SmallVector<int64_t>>(std::move(values));
}

FailureOr<std::optional<SmallVector<double>>>
NodeContext::constValues(unsigned slot, StringRef what) {
  Value value = input(slot);
  if (!value)
    return std::optional<SmallVector<double>>();
  auto constant = value.getDefiningOp<ConstOp>();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                        : DenseElementsAttr();
  if (!dense) {
    error() << "input " << slot << " (" << what << ") must be a constant";
    return failure();
  }
  SmallVector<double> values;
  Type element = dense.getElementType();
  if (isa<FloatType>(element)) {
    for (const APFloat &v : dense.getValues<APFloat>())
      values.push_back(v.convertToDouble());
  } else {
    bool isUnsigned = element.isUnsignedInteger() || element.isInteger(1);
    for (const APInt &v : dense.getValues<APInt>())
      values.push_back(isUnsigned ? (double)v.getZExtValue()
                                  : (double)v.getSExtValue());
  }
  return std::optional<SmallVector<double>>(std::move(values));
}

std::optional<double> NodeContext::constScalar(unsigned slot) {
  Value value = input(slot);
  auto constant = value ? value.getDefiningOp<ConstOp>() : ConstOp();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                        : DenseElementsAttr();
  if (!dense || dense.getNumElements() != 1)
    return std::nullopt;
  Attribute scalar = *dense.value_begin<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(scalar))
    return f.getValueAsDouble();
  auto i = cast<IntegerAttr>(scalar);
  if (i.getType().isUnsignedInteger() || i.getType().isInteger(1))
    return static_cast<double>(i.getValue().getZExtValue());
  return static_cast<double>(i.getValue().getSExtValue());
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

Attribute NodeContext::attr(StringRef name) {
  readAttrs.insert(name);
  return node.getAttrs().get(name);
}

bool NodeContext::hasAttr(StringRef name) {
  return static_cast<bool>(node.getAttrs().get(name));
}

int64_t NodeContext::intAttr(StringRef name, int64_t dflt) {
  Attribute a = attr(name);
  if (!a)
    return dflt;
  if (auto i = dyn_cast<IntegerAttr>(a))
    return i.getValue().getSExtValue();
  error() << "attribute '" << name << "' must be an integer";
  return dflt;
}

float NodeContext::floatAttr(StringRef name, float dflt) {
  Attribute a = attr(name);
  if (!a)
    return dflt;
  if (auto f = dyn_cast<FloatAttr>(a))
    return f.getValueAsDouble();
  error() << "attribute '" << name << "' must be a float";
  return dflt;
}

std::string NodeContext::strAttr(StringRef name, StringRef dflt) {
  Attribute a = attr(name);
  if (!a)
    return dflt.str();
  if (auto s = dyn_cast<StringAttr>(a))
    return s.str();
  error() << "attribute '" << name << "' must be a string";
  return dflt.str();
}

std::optional<SmallVector<int64_t>> NodeContext::intsAttr(StringRef name) {
  Attribute a = attr(name);
  if (!a)
    return std::nullopt;
  if (auto ints = dyn_cast<DenseI64ArrayAttr>(a))
    return SmallVector<int64_t>(ints.asArrayRef());
  error() << "attribute '" << name << "' must be a list of integers";
  return std::nullopt;
}

std::optional<SmallVector<float>> NodeContext::floatsAttr(StringRef name) {
  Attribute a = attr(name);
  if (!a)
    return std::nullopt;
  if (auto floats = dyn_cast<DenseF32ArrayAttr>(a))
    return SmallVector<float>(floats.asArrayRef());
  error() << "attribute '" << name << "' must be a list of floats";
  return std::nullopt;
}

FailureOr<int64_t> NodeContext::normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    error() << "axis " << axis << " is out of range for rank " << rank;
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

FailureOr<SmallVector<int64_t>>
NodeContext::normalizeAxes(ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<int64_t> result;
  for (int64_t axis : axes) {
    FailureOr<int64_t> a = normalizeAxis(axis, rank);
    if (failed(a))
      return failure();
    if (llvm::is_contained(result, *a)) {
      error() << "axis " << axis << " is given twice";
      return failure();
    }
    result.push_back(*a);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Results and bookkeeping
//===----------------------------------------------------------------------===//

RankedTensorType NodeContext::resultType(unsigned i) {
  return cast<RankedTensorType>(node->getResult(i).getType());
}

void NodeContext::setResult(unsigned i, Value value) { results[i] = value; }

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

LogicalResult NodeContext::setReshapedResult(Value x,
                                             ArrayRef<int64_t> computed) {
  ArrayRef<int64_t> declared = resultType(0).getShape();
  if (computed != declared) {
    error() << "computes shape " << shapeString(computed)
            << " but the node declares " << shapeString(declared);
    return failure();
  }
  setResult(0, builder.reshape(x, declared));
  return success();
}

LogicalResult NodeContext::checkAllUnderstood() {
  bool ok = true;
  for (NamedAttribute named : node.getAttrs()) {
    if (readAttrs.contains(named.getName().getValue()))
      continue;
    error() << "attribute '" << named.getName().getValue()
            << "' is not supported";
    ok = false;
  }
  SmallVector<int64_t> slots = slotsOf(node);
  for (unsigned i = 0, e = node.getInputs().size(); i < e; ++i) {
    if (readInputs.test(i))
      continue;
    error() << "input " << slots[i] << " is not supported";
    ok = false;
  }
  return success(ok);
}
