//===- CEmitterKernel.cpp - one linearized kernel as a C function -*- C++ -*-=//
//
// The C++ counterpart of tinygrad's `CStyleLanguage.base_rewrite` table: one
// TypeSwitch case per op, each giving the C for that op from the C of its
// operands. A kernel body is one block in order (tgc.range opens a `for`,
// tgc.end closes it), so one forward walk writes the function.
//
// Values: constants are written in place; every other value is a local
// named after what made it (`alu3`, `val2`, `acc0`, `cast1`; loop variables
// `ridx<id>`), declared where it is computed. The IR verifier guarantees a
// value defined in a loop is only used inside it, so every use is in scope.
// Vectors of f32 and f64 are native: one local of a vector type
// (`tgc_f32x16 alu3`) whose operations are the macros CEmitterHelpers
// defines; ops without a vector form build their result lane by lane
// (`tgc_f32x16_make(exp2f(tgc_f32x16_lane(a, 0)), ...)`). Other vectors
// (index, i1) are rendered lane by lane (`alu3_0`, `alu3_1`, ...). Values
// nobody reads are not rendered: an unused local is a -Wall warning and the
// C builds with -Werror.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CEmitterKernel.h"
#include "Codegen/CEmitterMatrix.h"
#include "Codegen/CEmitterSupport.h"
#include "Codegen/PartialVectors.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// What a tgc.index computes: one element of a buffer, maybe gated.
struct Address {
  std::string buffer;
  std::string index;
  std::string gate; // empty when the access is unconditional
  /// The gate masks padding only (IndexOp's `padding`): where it is false
  /// a load may read any element, and reads the first.
  bool padding = false;
};

/// What a `for` or an `if` opened, so that its closing op can be checked.
struct OpenScope {
  Value range; // null for a tgc.if
  int64_t id;
};

using LaneFn = llvm::function_ref<std::string(ArrayRef<std::string>)>;

class KernelRenderer {
public:
  KernelRenderer(const CStyleLanguage &language, CHelperSet &helpers)
      : language(language), helpers(helpers), out(body) {}

  LogicalResult render(KernelOp kernel, StringRef functionName,
                       raw_ostream &os);

private:
  // Liveness, per lane.
  void computeLiveness(Block &block);
  void markLive(Value value, unsigned lane);
  bool isLive(Value value, unsigned lane) const;
  bool isAnyLaneLive(Value value) const;

  // Output.
  void line(const Twine &text);
  std::string newName(StringRef prefix);

  // The table.
  LogicalResult renderOp(Operation &op);
  LogicalResult renderConst(ConstOp op);
  LogicalResult renderRange(RangeOp op);
  LogicalResult renderClose(Operation *op, Value range);
  LogicalResult renderIndex(IndexOp op);
  LogicalResult renderLoad(LoadOp op);
  LogicalResult renderStore(StoreOp op);
  LogicalResult renderDefine(Operation *op, int64_t size, StringRef prefix,
                             StringRef qualifier);
  LogicalResult renderCast(CastOp op);
  LogicalResult renderBitcast(BitcastOp op);

  /// Declares, for each live lane of `op`'s result, a local initialized
  /// with `laneExpr(operand lanes)`. f16/bf16 results are rounded back to
  /// their precision unless `exact` (the op cannot leave it). A native
  /// vector result is one local: `<type>_<vectorOp>(operands)` if
  /// `vectorOp` is given, else made from the lanes. `operands`, where
  /// given, are read instead of `op`'s own.
  LogicalResult renderAlu(Operation *op, StringRef prefix, LaneFn laneExpr,
                          bool exact = false, StringRef vectorOp = "",
                          ArrayRef<Value> operands = {});
  LogicalResult renderMax(MaxOp op);
  LogicalResult renderNeg(NegOp op);
  LogicalResult renderVectorize(VectorizeOp op);
  /// `op` as a permute of the (at most two) native vectors of its type
  /// whose lanes it gathers, its constant lanes (all one value) from a
  /// splat; std::nullopt where it is not one. A vector made lane by lane
  /// compiles to an insert per lane (GCC: 90 instructions for the even
  /// lanes of two AVX-512 vectors), a permute to one instruction.
  std::optional<std::string> permuteOf(VectorizeOp op, StringRef vector);

  // Native vectors.
  /// The C type of `type` as a native vector, or "".
  std::string nativeType(Type type);
  bool isNative(Value value) { return !nativeType(value.getType()).empty(); }
  /// A C expression for lane `lane` of `value` (scalars have one lane).
  std::string laneOf(Value value, unsigned lane);
  /// Finds the registers that are only accessed as whole native vectors,
  /// which become vector locals.
  void findVectorRegisters(Block &block);
  /// `acc0[k]` for an access to a vector register array, else "".
  std::string vectorSlot(Value pointer, const Address &address);

  // Pieces of C shared by several cases.
  std::string mathCall(StringRef base, Type element,
                       ArrayRef<std::string> args);
  std::string wrapInt(Type element, StringRef lhs, StringRef op, StringRef rhs);
  FailureOr<std::string> valueType(Operation *op, Type element);
  LogicalResult requireFloat(Operation *op);
  LogicalResult requireInteger(Operation *op, bool allowBool);
  std::string toStorage(const std::string &value, Type element);
  std::string fromStorage(const std::string &access, Type element);
  std::string toBits(const std::string &value, Type element);
  std::string fromBits(const std::string &bits, Type element, StringRef cType);
  Address addressOf(Value pointer);
  CmpltOp laneLimit(Operation *access);
  std::optional<std::string> activeLanes(Operation *access, unsigned count);
  std::string laneGate(Operation *access, const Address &address,
                       unsigned lane);
  static std::string offsetIndex(StringRef index, unsigned lane);

  const CStyleLanguage &language;
  CHelperSet &helpers;
  std::string body;
  llvm::raw_string_ostream out;
  unsigned depth = 1;
  DenseMap<Value, SmallVector<std::string, 1>> lanes;
  DenseMap<Value, Address> addresses;
  DenseMap<Value, llvm::SmallBitVector> live;
  llvm::StringMap<unsigned> counters;
  SmallVector<OpenScope> scopes;
  /// Stores into registers nothing reads (gcc: "set but not used").
  llvm::SmallPtrSet<Operation *, 4> deadStores;
  /// Lanes of the native vector type each vector register array holds.
  DenseMap<Value, int64_t> vectorRegisters;
  /// Widest native vector the kernel computes with, in bytes.
  int64_t widestVector = 0;
  /// Whether the kernel has a thread range: it is then a task function
  /// `void f(void *task_args, ptrdiff_t task)` for the pool.
  bool threaded = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Liveness
//===----------------------------------------------------------------------===//

static unsigned getLaneCount(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements();
  return 1;
}

void KernelRenderer::markLive(Value value, unsigned lane) {
  llvm::SmallBitVector &bits = live[value];
  if (bits.empty())
    bits.resize(getLaneCount(value.getType()));
  if (lane < bits.size())
    bits.set(lane);
}

bool KernelRenderer::isLive(Value value, unsigned lane) const {
  auto it = live.find(value);
  return it != live.end() && lane < it->second.size() && it->second.test(lane);
}

bool KernelRenderer::isAnyLaneLive(Value value) const {
  auto it = live.find(value);
  return it != live.end() && it->second.any();
}

/// The register array (or buffer) a pointer points into.
static Value getPointerBase(Value pointer) {
  if (auto index = pointer.getDefiningOp<IndexOp>())
    return index.getBuf();
  return pointer;
}

static bool isRegisterAccess(Value pointer) {
  return cast<PtrType>(pointer.getType()).getAddrSpace() == AddrSpace::reg;
}

/// Whether `value` is a float constant with no NaN lane, and with
/// `nonzero` no zero lane of either sign; a vector of such constants is.
static bool isNumberConstant(Value value, bool nonzero) {
  if (auto vector = value.getDefiningOp<VectorizeOp>())
    return llvm::all_of(vector.getOperands(), [&](Value lane) {
      return isNumberConstant(lane, nonzero);
    });
  auto constant = value.getDefiningOp<ConstOp>();
  if (!constant)
    return false;
  auto isNumber = [&](const APFloat &x) {
    return !x.isNaN() && !(nonzero && x.isZero());
  };
  if (auto scalar = dyn_cast<FloatAttr>(constant.getValue()))
    return isNumber(scalar.getValue());
  if (auto dense = dyn_cast<DenseFPElementsAttr>(constant.getValue()))
    return llvm::all_of(dense.getValues<APFloat>(), isNumber);
  return false;
}

/// x and c where `op` is -max(-x, c) with c a constant that is a number
/// and not a zero (a minimum: ReLU6's and Clip's upper bounds, tinygrad's
/// spelling of min): nullopt otherwise.
static std::optional<std::pair<Value, Value>> matchMinOfNumber(NegOp op) {
  if (!isa<FloatType>(getElementTypeOrSelf(op.getType())))
    return std::nullopt;
  auto max = op.getSrc().getDefiningOp<MaxOp>();
  auto inner = max ? max.getLhs().getDefiningOp<NegOp>() : NegOp();
  if (!inner || !isNumberConstant(max.getRhs(), /*nonzero=*/true))
    return std::nullopt;
  return std::make_pair(inner.getSrc(), max.getRhs());
}

/// True if `op`'s gate is the constant false: nothing is ever read or
/// written through it (the padded copy of a register tile in a loop that
/// tgc-unswitch split off), so its address is never computed.
static bool isNeverTouched(IndexOp op) {
  return op.getGate() && matchPattern(op.getGate(), m_Zero());
}

/// One backward walk suffices: the body is a single block in which every
/// value is defined before its uses (loop-carried values go through
/// registers, i.e. stores).
void KernelRenderer::computeLiveness(Block &block) {
  // A store only matters if something can read what it wrote: buffers are
  // read by the caller, registers only by loads in this kernel.
  llvm::SmallPtrSet<Value, 4> readRegisters;
  for (Operation &op : block)
    if (auto load = dyn_cast<LoadOp>(op);
        load && isRegisterAccess(load.getPtr()))
      readRegisters.insert(getPointerBase(load.getPtr()));

  for (Operation &op : llvm::reverse(block)) {
    if (auto store = dyn_cast<StoreOp>(op);
        store && isRegisterAccess(store.getPtr()) &&
        !readRegisters.contains(getPointerBase(store.getPtr()))) {
      deadStores.insert(store);
      continue;
    }
    if (op.getNumResults() == 0) {
      // Stores, ends, ifs, barriers: always rendered, so all they read is.
      for (Value operand : op.getOperands())
        for (unsigned lane = 0, e = getLaneCount(operand.getType()); lane < e;
             ++lane)
          markLive(operand, lane);
      continue;
    }
    Value result = op.getResult(0);
    if (auto index = dyn_cast<IndexOp>(op); index && isNeverTouched(index))
      continue;
    if (auto gep = dyn_cast<GepOp>(op)) {
      if (isLive(result, 0))
        markLive(gep.getSrc(), gep.getLane());
      continue;
    }
    // A native vector is computed whole or not at all.
    if (isNative(result) && isAnyLaneLive(result))
      for (unsigned lane = 0, e = getLaneCount(result.getType()); lane < e;
           ++lane)
        markLive(result, lane);
    if (auto vectorize = dyn_cast<VectorizeOp>(op)) {
      for (auto [lane, src] : llvm::enumerate(vectorize.getSrcs()))
        if (isLive(result, lane))
          markLive(src, 0);
      continue;
    }
    // Elementwise ops, loads (pointer operand of one lane) and the rest:
    // lane i of the result reads lane i of each vector operand and the one
    // lane of each scalar operand. A minimum reads x and c, not the neg and
    // max it is spelled with (renderNeg).
    SmallVector<Value, 3> reads(op.getOperands());
    if (auto neg = dyn_cast<NegOp>(op))
      if (auto min = matchMinOfNumber(neg))
        reads = {min->first, min->second};
    for (unsigned lane = 0, e = getLaneCount(result.getType()); lane < e;
         ++lane) {
      if (!isLive(result, lane))
        continue;
      for (Value operand : reads)
        markLive(operand, getLaneCount(operand.getType()) == 1 ? 0 : lane);
    }
  }
}

//===----------------------------------------------------------------------===//
// Native vectors
//===----------------------------------------------------------------------===//

std::string KernelRenderer::nativeType(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || !language.nativeVectors)
    return "";
  return getVectorTypeName(vector.getElementType(), vector.getNumElements());
}

std::string KernelRenderer::laneOf(Value value, unsigned lane) {
  ArrayRef<std::string> names = lanes[value];
  if (names.empty())
    return "";
  if (isNative(value))
    return nativeType(value.getType()) + "_lane(" + names.front() + ", " +
           std::to_string(lane) + ")";
  return names.size() == 1 ? names.front() : names[lane];
}

void KernelRenderer::findVectorRegisters(Block &block) {
  // lanes of the accesses to each register array; 0 once one access is not
  // a whole native vector at a multiple of its width.
  DenseMap<Value, int64_t> width;
  for (Operation &op : block) {
    Value ptr, value;
    if (auto load = dyn_cast<LoadOp>(op)) {
      ptr = load.getPtr();
      value = load.getResult();
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      ptr = store.getPtr();
      value = store.getValue();
    } else {
      continue;
    }
    if (!isRegisterAccess(ptr))
      continue;
    Value base = getPointerBase(ptr);
    auto index = ptr.getDefiningOp<IndexOp>();
    int64_t lanesHere = isNative(value) ? getLaneCount(value.getType()) : 0;
    std::optional<int64_t> at;
    if (index && !index.getGate())
      if (auto c = index.getIdx().getDefiningOp<ConstOp>())
        if (auto attr = dyn_cast<IntegerAttr>(c.getValue()))
          at = attr.getInt();
    if (!at || !lanesHere || *at % lanesHere != 0)
      lanesHere = 0;
    auto [it, inserted] = width.try_emplace(base, lanesHere);
    if (!inserted && it->second != lanesHere)
      it->second = 0;
  }
  for (auto [base, lanesHere] : width)
    if (lanesHere)
      vectorRegisters[base] = lanesHere;
}

std::string KernelRenderer::vectorSlot(Value pointer, const Address &address) {
  int64_t width = vectorRegisters.lookup(getPointerBase(pointer));
  if (!width)
    return "";
  long long at = 0;
  StringRef(address.index).getAsInteger(10, at);
  return address.buffer + "[" + std::to_string(at / width) + "]";
}

//===----------------------------------------------------------------------===//
// Output helpers
//===----------------------------------------------------------------------===//

void KernelRenderer::line(const Twine &text) {
  out.indent(2 * depth) << text << "\n";
}

std::string KernelRenderer::newName(StringRef prefix) {
  return (prefix + Twine(counters[prefix]++)).str();
}

std::string KernelRenderer::offsetIndex(StringRef index, unsigned lane) {
  if (lane == 0)
    return index.str();
  long long constant;
  if (!index.getAsInteger(10, constant))
    return std::to_string(constant + lane);
  return (index + "+" + Twine(lane)).str();
}

std::string KernelRenderer::mathCall(StringRef base, Type element,
                                     ArrayRef<std::string> args) {
  std::string call = base.str();
  if (!element.isF64())
    call += language.floatFunctionSuffix;
  return call + "(" + llvm::join(args, ", ") + ")";
}

/// Integer `lhs op rhs` with two's-complement wrap-around, as ONNX integer
/// arithmetic behaves: signed overflow is undefined in C, and types narrower
/// than int are promoted to a signed int, so the operation runs in the
/// unsigned type of the width (at least 32 bits) and is converted back.
std::string KernelRenderer::wrapInt(Type element, StringRef lhs, StringRef op,
                                    StringRef rhs) {
  unsigned width = element.isIndex() ? 0 : element.getIntOrFloatBitWidth();
  if (element.isIndex() || (element.isUnsignedInteger() && width >= 32))
    return (lhs + " " + op + " " + rhs).str();
  std::string unsignedType = width <= 32 ? "uint32_t" : "uint64_t";
  std::string cType = *getCValueType(element);
  return "(" + cType + ")((" + unsignedType + ")" + lhs.str() + " " + op.str() +
         " (" + unsignedType + ")" + rhs.str() + ")";
}

FailureOr<std::string> KernelRenderer::valueType(Operation *op, Type element) {
  if (element.isIndex())
    return language.indexType;
  FailureOr<std::string> type = getCValueType(element);
  if (failed(type))
    return op->emitOpError("has element type ")
           << element << ", which the C emitter cannot represent";
  return type;
}

LogicalResult KernelRenderer::requireFloat(Operation *op) {
  if (isa<FloatType>(getElementTypeOrSelf(op->getOperand(0).getType())))
    return success();
  return op->emitOpError("is defined on floating-point values only");
}

LogicalResult KernelRenderer::requireInteger(Operation *op, bool allowBool) {
  Type element = getElementTypeOrSelf(op->getOperand(0).getType());
  if (isIntegerLike(element) || (allowBool && element.isInteger(1)))
    return success();
  return op->emitOpError("is defined on integer values only");
}

/// Buffers hold f16/bf16 as their 16 bits; values are computed in float.
std::string KernelRenderer::toStorage(const std::string &value, Type element) {
  if (element.isF16()) {
    helpers.require(CHelper::FloatToHalf);
    return "tgc_float_to_half(" + value + ")";
  }
  if (element.isBF16()) {
    helpers.require(CHelper::FloatToBf16);
    return "tgc_float_to_bf16(" + value + ")";
  }
  return value;
}

std::string KernelRenderer::fromStorage(const std::string &access,
                                        Type element) {
  if (element.isF16()) {
    helpers.require(CHelper::HalfToFloat);
    return "tgc_half_to_float(" + access + ")";
  }
  if (element.isBF16()) {
    helpers.require(CHelper::Bf16ToFloat);
    return "tgc_bf16_to_float(" + access + ")";
  }
  return access;
}

/// The bits of `value` as an unsigned integer of its width.
std::string KernelRenderer::toBits(const std::string &value, Type element) {
  if (element.isF32()) {
    helpers.require(CHelper::FloatBits);
    return "tgc_float_bits(" + value + ")";
  }
  if (element.isF64()) {
    helpers.require(CHelper::DoubleBits);
    return "tgc_double_bits(" + value + ")";
  }
  if (isHalfLike(element))
    return toStorage(value, element);
  return "(uint" + std::to_string(element.getIntOrFloatBitWidth()) + "_t)" +
         value;
}

/// The value of `element` whose bits are the unsigned integer `bits`.
std::string KernelRenderer::fromBits(const std::string &bits, Type element,
                                     StringRef cType) {
  if (element.isF32()) {
    helpers.require(CHelper::BitsFloat);
    return "tgc_bits_float(" + bits + ")";
  }
  if (element.isF64()) {
    helpers.require(CHelper::BitsDouble);
    return "tgc_bits_double(" + bits + ")";
  }
  if (isHalfLike(element))
    return fromStorage(bits, element);
  // `bits` already has the unsigned type of its width.
  if (element.isUnsignedInteger())
    return bits;
  return "(" + cType.str() + ")" + bits;
}

/// The buffer element a load or store reaches: a tgc.index, or the first
/// element of a bare pointer.
Address KernelRenderer::addressOf(Value pointer) {
  auto it = addresses.find(pointer);
  if (it != addresses.end())
    return it->second;
  return Address{lanes[pointer].front(), "0", ""};
}

/// The comparison `first < limit` that bounds an access's active lanes at
/// run time (PartialVectors.h: kLaneLimitAttr), if it has one.
CmpltOp KernelRenderer::laneLimit(Operation *access) {
  auto index = access->getOperand(0).getDefiningOp<IndexOp>();
  return index ? laneLimitOf(access, index.getGate()) : CmpltOp();
}

/// The lanes a partial vector access (PartialVectors.h) touches, as a C
/// expression: a count, or the lanes below a limit known at run time.
std::optional<std::string> KernelRenderer::activeLanes(Operation *access,
                                                       unsigned count) {
  if (std::optional<int64_t> active = getActiveLanes(access))
    return std::to_string(*active);
  CmpltOp less = laneLimit(access);
  if (!less)
    return std::nullopt;
  // The gate holds for lane 0: at least one lane is active.
  std::string left = "(" + lanes[less.getOperand(1)].front() + " - " +
                     lanes[less.getOperand(0)].front() + ")";
  std::string lanesText = std::to_string(count);
  return "(" + left + " < " + lanesText + " ? (int)" + left + " : " +
         lanesText + ")";
}

/// The condition under which lane `lane` of an access rendered lane by
/// lane touches memory: empty for always, "0" for never.
std::string KernelRenderer::laneGate(Operation *access, const Address &address,
                                     unsigned lane) {
  if (std::optional<int64_t> active = getActiveLanes(access);
      active && lane >= *active)
    return "0";
  std::string gate = address.gate;
  if (CmpltOp less = laneLimit(access); less && lane > 0)
    gate = "(" + gate + " && " +
           offsetIndex(lanes[less.getOperand(0)].front(), lane) + " < " +
           lanes[less.getOperand(1)].front() + ")";
  return gate;
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

LogicalResult KernelRenderer::renderAlu(Operation *op, StringRef prefix,
                                        LaneFn laneExpr, bool exact,
                                        StringRef vectorOp,
                                        ArrayRef<Value> given) {
  Value result = op->getResult(0);
  Type element = getElementTypeOrSelf(result.getType());
  FailureOr<std::string> cType = valueType(op, element);
  if (failed(cType))
    return failure();
  SmallVector<Value, 3> operands(given);
  if (given.empty())
    operands.assign(op->operand_begin(), op->operand_end());
  for (Value operand : operands)
    if (lanes[operand].empty())
      return op->emitOpError("reads a value the renderer has not seen");
  unsigned count = getLaneCount(result.getType());
  std::string name = newName(prefix);
  SmallVector<std::string, 1> &resultLanes = lanes[result];

  if (std::string vector = nativeType(result.getType()); !vector.empty()) {
    helpers.requireVector(element, count);
    bool whole = !vectorOp.empty() &&
                 llvm::all_of(operands, [&](Value v) { return isNative(v); });
    std::string expr;
    if (whole) {
      SmallVector<std::string, 3> args;
      for (Value operand : operands)
        args.push_back(lanes[operand].front());
      expr = vector + "_" + vectorOp.str() + "(" + llvm::join(args, ", ") + ")";
    } else {
      SmallVector<std::string> laneExprs;
      for (unsigned lane = 0; lane < count; ++lane) {
        SmallVector<std::string, 3> args;
        for (Value operand : operands)
          args.push_back(laneOf(operand, lane));
        laneExprs.push_back(laneExpr(args));
      }
      expr = vector + "_make(" + llvm::join(laneExprs, ", ") + ")";
    }
    line(vector + " " + name + " = " + expr + ";");
    resultLanes.assign(1, name);
    return success();
  }

  resultLanes.assign(count, "");
  for (unsigned lane = 0; lane < count; ++lane) {
    if (!isLive(result, lane))
      continue;
    SmallVector<std::string, 3> args;
    for (Value operand : operands)
      args.push_back(laneOf(operand, lane));
    std::string expr = laneExpr(args);
    if (!exact && element.isF16()) {
      helpers.require(CHelper::RoundHalf);
      expr = "tgc_round_half(" + expr + ")";
    } else if (!exact && element.isBF16()) {
      helpers.require(CHelper::RoundBf16);
      expr = "tgc_round_bf16(" + expr + ")";
    }
    std::string laneName =
        count == 1 ? name : name + "_" + std::to_string(lane);
    line(*cType + " " + laneName + " = " + expr + ";");
    resultLanes[lane] = laneName;
  }
  return success();
}

LogicalResult KernelRenderer::renderMax(MaxOp op) {
  auto greater = [](ArrayRef<std::string> a) {
    return a[0] + " > " + a[1] + " ? " + a[0] + " : " + a[1];
  };
  if (!isa<FloatType>(getElementTypeOrSelf(op.getType())))
    return renderAlu(op, "alu", greater, /*exact=*/true, "max");
  // tgc.max(a, b) is a where a is NaN or greater, else b. fmaxf returns the
  // number when one operand is NaN, so in general both tests are written:
  // `a != a` is true only for a NaN `a`, and a NaN `b` fails `a > b`. A
  // constant that is a number needs fewer: the clamps of ReLU, Clip and
  // quantization are a test and a select, or one maxps, instead of two
  // tests, an or and a select. (max is Commutative: canonicalization puts
  // a constant on the right.)
  if (isNumberConstant(op.getRhs(), /*nonzero=*/true))
    // max(x, c) is c > x ? c : x for a c that is not a zero: the two differ
    // only where x equals c, which then has c's bits.
    return renderAlu(op, "alu", greater, /*exact=*/true, "max_num",
                     {op.getRhs(), op.getLhs()});
  if (isNumberConstant(op.getRhs(), /*nonzero=*/false))
    // A zero c: where x is the other zero, the result is c's.
    return renderAlu(
        op, "alu",
        [](ArrayRef<std::string> a) {
          return a[1] + " >= " + a[0] + " ? " + a[1] + " : " + a[0];
        },
        /*exact=*/true, "max_by_num");
  return renderAlu(
      op, "alu",
      [](ArrayRef<std::string> a) {
        return "(" + a[0] + " != " + a[0] + " || " + a[0] + " > " + a[1] +
               ") ? " + a[0] + " : " + a[1];
      },
      /*exact=*/true, "max");
}

LogicalResult KernelRenderer::renderNeg(NegOp op) {
  Type element = getElementTypeOrSelf(op.getType());
  // -max(-x, c) = -(c > -x ? c : -x) = -c < x ? -c : x, x86's minps(-c,
  // x) (x where x is NaN): one instruction for what would be three. The
  // inner neg and max are then read by nobody (computeLiveness).
  if (auto min = matchMinOfNumber(op))
    return renderAlu(op, "alu",
                     [](ArrayRef<std::string> a) {
                       // c is a literal: "(-9.02f)" negates to "9.02f".
                       StringRef c = a[0];
                       std::string bound = c.consume_front("(-") &&
                                                   c.consume_back(")") &&
                                                   !c.contains('(')
                                               ? c.str()
                                               : "(-" + a[0] + ")";
                       return bound + " < " + a[1] + " ? " + bound + " : " +
                              a[1];
                     },
                     /*exact=*/true, "min_neg", {min->second, min->first});
  return renderAlu(
      op, "alu",
      [&](ArrayRef<std::string> a) {
        if (isa<FloatType>(element) || element.isIndex())
          return "-" + a[0];
        return wrapInt(element, "0", "-", a[0]);
      },
      /*exact=*/true, "neg");
}

LogicalResult KernelRenderer::renderConst(ConstOp op) {
  Type type = op.getType();
  Type element = getElementTypeOrSelf(type);
  SmallVector<std::string, 1> &resultLanes = lanes[op.getResult()];
  auto addLiteral = [&](Attribute value) -> LogicalResult {
    FailureOr<std::string> literal = renderScalarLiteral(value, element);
    if (failed(literal))
      return op.emitOpError("has a value the C emitter cannot write: ")
             << value;
    resultLanes.push_back(*literal);
    return success();
  };
  if (isa<VectorType>(type)) {
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense)
      return op.emitOpError("vector constant must be a dense attribute");
    for (Attribute value : dense.getValues<Attribute>())
      if (failed(addLiteral(value)))
        return failure();
    if (std::string vector = nativeType(type); !vector.empty()) {
      // Written in place like any constant, as one vector expression.
      helpers.requireVector(element, resultLanes.size());
      std::string expr =
          dense.isSplat()
              ? vector + "_splat(" + resultLanes.front() + ")"
              : vector + "_make(" + llvm::join(resultLanes, ", ") + ")";
      resultLanes.assign(1, expr);
    }
    return success();
  }
  if (isa<ShapedType>(type))
    return op.emitOpError("a tensor constant cannot appear inside a "
                          "lowered kernel");
  return addLiteral(op.getValue());
}

LogicalResult KernelRenderer::renderRange(RangeOp op) {
  int64_t id = op.getId();
  for (const OpenScope &scope : scopes)
    if (scope.range && scope.id == id)
      return op.emitOpError("reuses the id ")
             << id << " of a range it is nested in";
  std::string var = "ridx" + std::to_string(id);
  lanes[op.getResult()] = {var};
  if (op.getAxis() == AxisType::thread) {
    // The task index of the kernel's function (see render): the pool runs
    // the tasks, so there is no loop here.
    if (!threaded || !scopes.empty())
      return op.emitOpError("splits a kernel across threads, which needs "
                            "the range outside every other loop and a "
                            "target with a thread pool");
    line("{");
    scopes.push_back({op.getResult(), id});
    ++depth;
    line(language.indexType + " " + var + " = task;");
    return success();
  }
  // Every other axis kind is a plain loop on a CPU (upcast and unroll
  // axes were written out as lanes by tgc-expand).
  if (op.getRolled())
    line("TGC_ROLLED");
  line("for (" + language.indexType + " " + var + " = 0; " + var + " < " +
       std::to_string(op.getBound()) + "; " + var + "++) {");
  scopes.push_back({op.getResult(), id});
  ++depth;
  return success();
}

/// Closes the innermost scope: a range for tgc.end (`range` set), an if
/// for tgc.endif.
LogicalResult KernelRenderer::renderClose(Operation *op, Value range) {
  if (scopes.empty() || scopes.back().range != range)
    return op->emitOpError("does not close the innermost open ")
           << (scopes.empty() || scopes.back().range ? "range" : "tgc.if");
  scopes.pop_back();
  --depth;
  line("}");
  return success();
}

LogicalResult KernelRenderer::renderIndex(IndexOp op) {
  if (op.getBuf().getDefiningOp<IndexOp>())
    return op.emitOpError("indexes a pointer that is already indexed");
  if (isNeverTouched(op)) {
    addresses[op.getResult()] = Address{lanes[op.getBuf()].front(), "0", "0"};
    return success();
  }
  Address address{lanes[op.getBuf()].front(), lanes[op.getIdx()].front(), ""};
  if (op.getGate())
    address.gate = lanes[op.getGate()].front();
  address.padding = op.getPadding();
  addresses[op.getResult()] = address;
  return success();
}

LogicalResult KernelRenderer::renderLoad(LoadOp op) {
  auto ptrType = cast<PtrType>(op.getPtr().getType());
  Type element = ptrType.getElementType();
  FailureOr<std::string> cType = valueType(op, element);
  if (failed(cType))
    return failure();
  Address address = addressOf(op.getPtr());
  bool inRegisters = ptrType.getAddrSpace() == AddrSpace::reg;
  unsigned count = getLaneCount(op.getType());
  std::string name = newName("val");
  SmallVector<std::string, 1> &resultLanes = lanes[op.getResult()];
  // A partial load (PartialVectors.h) reads its first lanes only.
  std::optional<std::string> active = activeLanes(op, count);
  if (std::string vector = nativeType(op.getType()); !vector.empty()) {
    helpers.requireVector(element, count);
    std::string alt =
        op.getAlt() ? lanes[op.getAlt()].front() : vector + "_splat(0)";
    if (address.gate == "0") {
      line(vector + " " + name + " = " + alt + ";");
      resultLanes.assign(1, name);
      return success();
    }
    std::string value = vectorSlot(op.getPtr(), address);
    if (value.empty() && active)
      value = vector + "_load_part(" + address.buffer + " + " + address.index +
              ", " + *active + ", " + alt + ")";
    else if (value.empty())
      value = vector + "_load(" + address.buffer + " + " + address.index + ")";
    if (!address.gate.empty())
      value = address.gate + " ? " + value + " : " + alt;
    line(vector + " " + name + " = " + value + ";");
    // Shared by the FMAs of a register tile (CEmitterHelpers.cpp); a
    // 512-bit vector may be two registers where AVX-512 is missing.
    auto fmas = llvm::count_if(op.getResult().getUsers(), [](Operation *user) {
      return isa<MulaccOp>(user);
    });
    if (!inRegisters && fmas >= 2 &&
        count * element.getIntOrFloatBitWidth() <= 256)
      line("TGC_IN_REGISTER(" + name + ");");
    resultLanes.assign(1, name);
    return success();
  }
  resultLanes.assign(count, "");
  for (unsigned lane = 0; lane < count; ++lane) {
    if (!isLive(op.getResult(), lane))
      continue;
    std::string alt = "0";
    if (op.getAlt()) {
      ArrayRef<std::string> altLanes = lanes[op.getAlt()];
      alt = altLanes.size() == 1 ? altLanes[0] : altLanes[lane];
    }
    std::string gate = laneGate(op, address, lane);
    std::string offset = offsetIndex(address.index, lane);
    // A load of padding reads an element that is surely there instead of
    // branching around the read: a branch inside a register tile's loop
    // made GCC spill an accumulator (SqueezeNet's 3x3 convolutions, rows
    // of 55 in tiles of 4 pixels, 1.5x slower).
    bool readAnyway = address.padding && !gate.empty() && gate != "0";
    if (readAnyway)
      offset = "(" + gate + " ? " + offset + " : 0)";
    std::string access = address.buffer + "[" + offset + "]";
    // Registers hold computed values; buffers hold the stored form.
    std::string value = inRegisters ? access : fromStorage(access, element);
    if (gate == "0")
      value = alt;
    else if (!gate.empty() && !readAnyway)
      value = gate + " ? " + value + " : " + alt;
    std::string laneName =
        count == 1 ? name : name + "_" + std::to_string(lane);
    line(*cType + " " + laneName + " = " + value + ";");
    resultLanes[lane] = laneName;
  }
  return success();
}

LogicalResult KernelRenderer::renderStore(StoreOp op) {
  if (deadStores.contains(op))
    return success();
  auto ptrType = cast<PtrType>(op.getPtr().getType());
  Type element = ptrType.getElementType();
  Address address = addressOf(op.getPtr());
  bool inRegisters = ptrType.getAddrSpace() == AddrSpace::reg;
  ArrayRef<std::string> valueLanes = lanes[op.getValue()];
  std::string guard = address.gate.empty() ? "" : "if (" + address.gate + ") ";
  // A partial store (PartialVectors.h) writes its first lanes only.
  std::optional<std::string> active =
      activeLanes(op, getLaneCount(op.getValue().getType()));
  if (std::string vector = nativeType(op.getValue().getType());
      !vector.empty()) {
    if (address.gate == "0")
      return success();
    std::string slot = vectorSlot(op.getPtr(), address);
    if (!slot.empty() && !active)
      line(guard + slot + " = " + valueLanes.front() + ";");
    else if (active)
      line(guard + vector + "_store_part(" + address.buffer + " + " +
           address.index + ", " + *active + ", " + valueLanes.front() + ");");
    else
      line(guard + vector + "_store(" + address.buffer + " + " +
           address.index + ", " + valueLanes.front() + ");");
    return success();
  }
  for (auto [lane, value] : llvm::enumerate(valueLanes)) {
    std::string gate = laneGate(op, address, lane);
    if (gate == "0")
      break;
    std::string stored = inRegisters ? value : toStorage(value, element);
    line((gate.empty() ? "" : "if (" + gate + ") ") + address.buffer + "[" +
         offsetIndex(address.index, lane) + "] = " + stored + ";");
  }
  return success();
}

LogicalResult KernelRenderer::renderDefine(Operation *op, int64_t size,
                                           StringRef prefix,
                                           StringRef qualifier) {
  Type element = cast<PtrType>(op->getResult(0).getType()).getElementType();
  // Registers and shared memory hold values as computed (float for f16).
  FailureOr<std::string> cType = valueType(op, element);
  if (failed(cType))
    return failure();
  std::string name = newName(prefix);
  lanes[op->getResult(0)] = {name};
  std::string declaration = qualifier.empty() ? "" : qualifier.str() + " ";
  if (int64_t width = vectorRegisters.lookup(op->getResult(0))) {
    // Registers only ever used as whole vectors: an array of vectors, which
    // the C compiler keeps in vector registers.
    std::string vector = getVectorTypeName(element, width);
    helpers.requireVector(element, width);
    line(declaration + vector + " " + name + "[" +
         std::to_string(std::max<int64_t>(1, size / width)) + "];");
    return success();
  }
  line(declaration + *cType + " " + name + "[" + std::to_string(size) + "];");
  return success();
}

std::optional<std::string> KernelRenderer::permuteOf(VectorizeOp op,
                                                     StringRef vector) {
  int64_t width = op.getSrcs().size();
  SmallVector<Value, 2> sources;
  SmallVector<int64_t> indices;
  std::optional<std::string> fill;
  for (Value src : op.getSrcs()) {
    if (src.getDefiningOp<ConstOp>()) {
      const std::string &constant = lanes[src].front();
      if (fill && *fill != constant)
        return std::nullopt;
      fill = constant;
      indices.push_back(-1);
      continue;
    }
    auto gep = src.getDefiningOp<GepOp>();
    if (!gep || nativeType(gep.getSrc().getType()) != vector)
      return std::nullopt;
    auto *known = llvm::find(sources, gep.getSrc());
    if (known == sources.end()) {
      if (sources.size() == 2)
        return std::nullopt;
      sources.push_back(gep.getSrc());
      known = sources.end() - 1;
    }
    indices.push_back((known - sources.begin()) * width + gep.getLane());
  }
  if (sources.empty())
    return std::nullopt;
  std::string first = lanes[sources.front()].front();
  std::string second = sources.size() == 2 ? lanes[sources[1]].front() : first;
  auto permute = [&](StringRef a, StringRef b, ArrayRef<int64_t> from) {
    std::string text = vector.str() + "_permute(" + a.str() + ", " + b.str();
    for (int64_t index : from)
      text += ", " + std::to_string(index);
    return text + ")";
  };
  if (!fill)
    return permute(first, second, indices);
  // The constant lanes come from a splat, the second source of a permute
  // of the gathered lanes.
  SmallVector<int64_t> gathered, placed;
  for (auto [lane, index] : llvm::enumerate(indices)) {
    gathered.push_back(index < 0 ? 0 : index);
    placed.push_back(index < 0 ? width : (int64_t)lane);
  }
  return permute(permute(first, second, gathered),
                 vector.str() + "_splat(" + *fill + ")", placed);
}

LogicalResult KernelRenderer::renderVectorize(VectorizeOp op) {
  SmallVector<std::string, 1> &result = lanes[op.getResult()];
  std::string vector = nativeType(op.getType());
  if (vector.empty()) {
    for (Value src : op.getSrcs())
      result.push_back(lanes[src].front());
    return success();
  }
  Type element = getElementTypeOrSelf(op.getType());
  helpers.requireVector(element, op.getSrcs().size());
  SmallVector<std::string> srcs;
  for (Value src : op.getSrcs())
    srcs.push_back(lanes[src].front());
  // A splat of a constant is written in place; a splat of a variable or a
  // vector made of lanes gets a local.
  bool splat = llvm::all_equal(op.getSrcs());
  std::string expr = splat ? vector + "_splat(" + srcs.front() + ")"
                           : vector + "_make(" + llvm::join(srcs, ", ") + ")";
  if (!splat)
    if (std::optional<std::string> permuted = permuteOf(op, vector))
      expr = *permuted;
  if (splat && op.getSrcs().front().getDefiningOp<ConstOp>()) {
    result.assign(1, expr);
    return success();
  }
  std::string name = newName("vec");
  line(vector + " " + name + " = " + expr + ";");
  result.assign(1, name);
  return success();
}

LogicalResult KernelRenderer::renderCast(CastOp op) {
  Type from = getElementTypeOrSelf(op.getSrc().getType());
  Type to = getElementTypeOrSelf(op.getType());
  FailureOr<std::string> cType = valueType(op, to);
  if (failed(cType))
    return failure();
  bool exact = from == to || !isHalfLike(to);
  return renderAlu(
      op, "cast",
      [&](ArrayRef<std::string> a) -> std::string {
        if (from == to)
          return a[0];
        // C's conversion to an integer truncates toward zero, as tgc.cast
        // does; to bool it is `!= 0`, spelled out for readers.
        if (to.isInteger(1))
          return a[0] + " != 0";
        return "(" + *cType + ")" + a[0];
      },
      exact);
}

LogicalResult KernelRenderer::renderBitcast(BitcastOp op) {
  Type from = getElementTypeOrSelf(op.getSrc().getType());
  Type to = getElementTypeOrSelf(op.getType());
  if (from.isIndex() || to.isIndex())
    return op.emitOpError("cannot reinterpret index values");
  FailureOr<std::string> cType = valueType(op, to);
  if (failed(cType))
    return failure();
  return renderAlu(
      op, "cast",
      [&](ArrayRef<std::string> a) -> std::string {
        if (from == to)
          return a[0];
        return fromBits(toBits(a[0], from), to, *cType);
      },
      /*exact=*/true);
}

LogicalResult KernelRenderer::renderOp(Operation &op) {
  // A value nobody reads is not rendered (see the file comment); structural
  // ops and ops that must fail loudly are always looked at.
  if (op.getNumResults() == 1 && !isAnyLaneLive(op.getResult(0)) &&
      !isa<RangeOp, ReduceOp>(op) && op.getDialect() &&
      isa<TgcDialect>(op.getDialect()) &&
      !isa<TensorType>(op.getResult(0).getType()))
    return success();

  Type element = op.getNumOperands()
                     ? getElementTypeOrSelf(op.getOperand(0).getType())
                     : Type();
  auto binary = [&](StringRef symbol) {
    return [symbol](ArrayRef<std::string> a) {
      return a[0] + " " + symbol.str() + " " + a[1];
    };
  };
  auto wrapping = [&](StringRef symbol) {
    return [this, element, symbol](ArrayRef<std::string> a) {
      if (isa<FloatType>(element))
        return a[0] + " " + symbol.str() + " " + a[1];
      return wrapInt(element, a[0], symbol, a[1]);
    };
  };
  auto math = [&](StringRef base) {
    return [this, element, base](ArrayRef<std::string> a) {
      return mathCall(base, element, a);
    };
  };

  return TypeSwitch<Operation *, LogicalResult>(&op)
      // Defines and constants.
      .Case<ConstOp>([&](ConstOp c) { return renderConst(c); })
      .Case<DefineRegOp>([&](DefineRegOp d) {
        return renderDefine(d, d.getSize(), "acc", "");
      })
      .Case<DefineLocalOp>([&](DefineLocalOp d) -> LogicalResult {
        if (language.localPrefix.empty())
          return d.emitOpError("needs workgroup memory, which this target "
                               "does not have");
        std::string qualifier = language.localPrefix;
        if (!language.matrixTileAlign.empty() &&
            llvm::any_of(d->getUsers(), [](Operation *user) {
              return isa<WmmaOp, StoreAccOp>(user);
            }))
          qualifier += " " + language.matrixTileAlign;
        return renderDefine(d, d.getSize(), "smem", qualifier);
      })
      // Tensor cores (CEmitterMatrix.h).
      .Case<DefineAccOp>([&](DefineAccOp d) -> LogicalResult {
        std::string name = newName("wmma");
        FailureOr<SmallVector<std::string>> lines =
            renderDefineAcc(d, language, name);
        if (failed(lines))
          return failure();
        lanes[d.getResult()] = {name};
        for (const std::string &text : *lines)
          line(text);
        return success();
      })
      .Case<WmmaOp>([&](WmmaOp w) {
        for (const std::string &text :
             renderWmma(w, language, lanes[w.getAcc()].front(),
                        lanes[w.getA()].front(), lanes[w.getB()].front()))
          line(text);
        return success();
      })
      .Case<StoreAccOp>([&](StoreAccOp s) {
        for (const std::string &text :
             renderStoreAcc(s, language, lanes[s.getDst()].front(),
                            lanes[s.getAcc()].front()))
          line(text);
        return success();
      })
      .Case<SpecialOp>([&](SpecialOp s) -> LogicalResult {
        auto it = language.specialIndices.find(s.getName());
        if (it == language.specialIndices.end())
          return s.emitOpError("'")
                 << s.getName() << "' is not an index of this target";
        std::string name = sanitizeIdentifier(s.getName());
        lanes[s.getResult()] = {name};
        line(language.indexType + " " + name + " = " + it->second + ";");
        return success();
      })
      // Vectors.
      .Case<VectorizeOp>([&](VectorizeOp v) { return renderVectorize(v); })
      .Case<GepOp>([&](GepOp g) {
        lanes[g.getResult()] = {laneOf(g.getSrc(), g.getLane())};
        return success();
      })
      // Conversions.
      .Case<CastOp>([&](CastOp c) { return renderCast(c); })
      .Case<BitcastOp>([&](BitcastOp b) { return renderBitcast(b); })
      // Unary math.
      .Case<Exp2Op>([&](Exp2Op o) -> LogicalResult {
        if (failed(requireFloat(o)))
          return failure();
        if (element.isF64())
          return renderAlu(o, "alu", math("exp2"));
        // Below double, tgc's own exp2, which C compilers can vectorize.
        helpers.require(CHelper::Exp2f);
        return renderAlu(
            o, "alu",
            [](ArrayRef<std::string> a) { return "tgc_exp2f(" + a[0] + ")"; },
            false, "exp2");
      })
      .Case<Log2Op>([&](Log2Op o) -> LogicalResult {
        if (failed(requireFloat(o)))
          return failure();
        return renderAlu(o, "alu", math("log2"));
      })
      .Case<SinOp>([&](SinOp o) -> LogicalResult {
        if (failed(requireFloat(o)))
          return failure();
        return renderAlu(o, "alu", math("sin"));
      })
      .Case<SqrtOp>([&](SqrtOp o) -> LogicalResult {
        if (failed(requireFloat(o)))
          return failure();
        return renderAlu(o, "alu", math("sqrt"));
      })
      .Case<RecipOp>([&](RecipOp o) -> LogicalResult {
        if (failed(requireFloat(o)))
          return failure();
        std::string one = element.isF64() ? "1.0" : "1.0f";
        return renderAlu(
            o, "alu",
            [&](ArrayRef<std::string> a) { return one + " / " + a[0]; }, false,
            "recip");
      })
      .Case<NegOp>([&](NegOp o) { return renderNeg(o); })
      .Case<TruncOp>([&](TruncOp o) {
        return renderAlu(
            o, "alu",
            [&](ArrayRef<std::string> a) {
              // Integers are already whole.
              if (!isa<FloatType>(element))
                return a[0];
              return mathCall("trunc", element, a);
            },
            /*exact=*/true);
      })
      // Binary arithmetic.
      .Case<AddOp>([&](AddOp o) {
        return renderAlu(o, "alu", wrapping("+"), false, "add");
      })
      .Case<SubOp>([&](SubOp o) {
        return renderAlu(o, "alu", wrapping("-"), false, "sub");
      })
      .Case<MulOp>([&](MulOp o) {
        return renderAlu(o, "alu", wrapping("*"), false, "mul");
      })
      .Case<FdivOp>([&](FdivOp o) -> LogicalResult {
        if (failed(requireFloat(o)))
          return failure();
        return renderAlu(o, "alu", binary("/"), false, "div");
      })
      .Case<IdivOp>([&](IdivOp o) -> LogicalResult {
        // C's `/` truncates toward zero, as tgc.idiv does.
        if (failed(requireInteger(o, /*allowBool=*/false)))
          return failure();
        return renderAlu(o, "alu", binary("/"));
      })
      .Case<ModOp>([&](ModOp o) -> LogicalResult {
        // C's `%` takes the sign of the dividend, as tgc.mod does.
        if (failed(requireInteger(o, /*allowBool=*/false)))
          return failure();
        return renderAlu(o, "alu", binary("%"));
      })
      .Case<MaxOp>([&](MaxOp o) { return renderMax(o); })
      .Case<PowOp>([&](PowOp o) -> LogicalResult {
        if (failed(requireFloat(o)))
          return failure();
        return renderAlu(o, "alu", math("pow"));
      })
      .Case<ShlOp>([&](ShlOp o) -> LogicalResult {
        if (failed(requireInteger(o, /*allowBool=*/false)))
          return failure();
        // Shifting a negative signed value left is undefined in C.
        return renderAlu(o, "alu", [&](ArrayRef<std::string> a) {
          if (element.isIndex())
            return "(" + language.indexType + ")((size_t)" + a[0] + " << " +
                   a[1] + ")";
          return wrapInt(element, a[0], "<<", a[1]);
        });
      })
      .Case<ShrOp>([&](ShrOp o) -> LogicalResult {
        // gcc and clang shift signed values arithmetically, as tgc.shr
        // specifies.
        if (failed(requireInteger(o, /*allowBool=*/false)))
          return failure();
        return renderAlu(o, "alu", binary(">>"));
      })
      // Bitwise logic.
      .Case<XorOp>([&](XorOp o) -> LogicalResult {
        if (failed(requireInteger(o, /*allowBool=*/true)))
          return failure();
        return renderAlu(o, "alu", binary("^"));
      })
      .Case<OrOp>([&](OrOp o) -> LogicalResult {
        if (failed(requireInteger(o, /*allowBool=*/true)))
          return failure();
        return renderAlu(o, "alu", binary("|"));
      })
      .Case<AndOp>([&](AndOp o) -> LogicalResult {
        if (failed(requireInteger(o, /*allowBool=*/true)))
          return failure();
        return renderAlu(o, "alu", binary("&"));
      })
      // Comparisons: C's `!=` is already true when either side is NaN.
      .Case<CmpltOp>(
          [&](CmpltOp o) { return renderAlu(o, "alu", binary("<")); })
      .Case<CmpneOp>(
          [&](CmpneOp o) { return renderAlu(o, "alu", binary("!=")); })
      .Case<CmpeqOp>(
          [&](CmpeqOp o) { return renderAlu(o, "alu", binary("==")); })
      // Ternary.
      .Case<WhereOp>([&](WhereOp o) {
        return renderAlu(
            o, "alu",
            [](ArrayRef<std::string> a) {
              return a[0] + " ? " + a[1] + " : " + a[2];
            },
            /*exact=*/true);
      })
      .Case<MulaccOp>([&](MulaccOp o) {
        // One expression, which the compiler fuses into an FMA where the
        // target has one (CEmitter.cpp turns contraction on for GCC).
        return renderAlu(
            o, "alu",
            [&](ArrayRef<std::string> a) {
              if (isa<FloatType>(element))
                return a[0] + " * " + a[1] + " + " + a[2];
              return wrapInt(element, wrapInt(element, a[0], "*", a[1]), "+",
                             a[2]);
            },
            false, "fma");
      })
      // Memory.
      .Case<IndexOp>([&](IndexOp i) { return renderIndex(i); })
      .Case<LoadOp>([&](LoadOp l) { return renderLoad(l); })
      .Case<StoreOp>([&](StoreOp s) { return renderStore(s); })
      .Case<PrefetchOp>([&](PrefetchOp p) -> LogicalResult {
        // Gated where the address would pass the buffer's end.
        Address address = addressOf(p.getPtr());
        line((address.gate.empty() ? "" : "if (" + address.gate + ") ") +
             "TGC_PREFETCH(" + address.buffer + " + " + address.index + ");");
        return success();
      })
      // Control flow.
      .Case<RangeOp>([&](RangeOp r) { return renderRange(r); })
      .Case<EndOp>([&](EndOp e) { return renderClose(e, e.getRange()); })
      .Case<IfOp>([&](IfOp i) {
        line("if (" + lanes[i.getCond()].front() + ") {");
        scopes.push_back({Value(), -1});
        ++depth;
        return success();
      })
      .Case<EndifOp>([&](EndifOp e) { return renderClose(e, Value()); })
      .Case<BarrierOp>([&](BarrierOp b) -> LogicalResult {
        if (language.barrier.empty())
          return b.emitOpError("has no meaning on this target");
        line(language.barrier);
        return success();
      })
      .Case<SinkOp>([](SinkOp) { return success(); })
      .Case<ReduceOp>([](ReduceOp r) {
        return r.emitOpError("is still here; tgc-expand turns reductions "
                             "into accumulators before rendering");
      })
      .Default([](Operation *other) {
        return other->emitOpError("cannot be rendered: it is not a "
                                  "kernel-level op");
      });
}

LogicalResult KernelRenderer::render(KernelOp kernel, StringRef functionName,
                                     raw_ostream &os) {
  if (!kernel.isLowered())
    return kernel.emitOpError("is not lowered; run the pipeline up to "
                              "tgc-linearize before rendering");
  Block &block = kernel.getBlock();
  computeLiveness(block);
  findVectorRegisters(block);
  for (Operation &op : block)
    for (Value result : op.getResults())
      if (isNative(result)) {
        auto vector = cast<VectorType>(result.getType());
        widestVector = std::max<int64_t>(
            widestVector, vector.getNumElements() *
                              vector.getElementTypeBitWidth() / 8);
      }

  threaded = getThreadTasks(kernel).has_value();
  if (threaded && !language.threadPool)
    return kernel.emitOpError("is split across threads, which this target "
                              "does not do");
  std::string argsType = functionName.str() + "_args";
  std::string argsStruct = "typedef struct " + argsType + " {\n";

  // Parameters: inputs (read only) then outputs, as the block arguments.
  // A task function unpacks them from its argument struct and passes them
  // to the body.
  SmallVector<std::string> params, taskArgs;
  unsigned numInputs = kernel.getInputs().size();
  for (BlockArgument arg : block.getArguments()) {
    auto ptr = cast<PtrType>(arg.getType());
    FailureOr<std::string> cType = getCStorageType(ptr.getElementType());
    if (failed(cType))
      return kernel.emitOpError("has a buffer of ")
             << ptr.getElementType()
             << ", which the C emitter cannot represent";
    std::string name = "data" + std::to_string(arg.getArgNumber());
    lanes[arg] = {name};
    std::string param = language.bufferPrefix +
                        (arg.getArgNumber() < numInputs ? "const " : "") +
                        *cType + " *" + language.restrictQualifier + " " + name;
    if (language.bufferIndexAttributes)
      param += " [[buffer(" + std::to_string(arg.getArgNumber()) + ")]]";
    params.push_back(param);
    if (threaded) {
      argsStruct += "  " + std::string(arg.getArgNumber() < numInputs
                                           ? "const "
                                           : "") +
                    *cType + " *" + name + ";\n";
      taskArgs.push_back("args->" + name);
    }
    // An optimization may leave a buffer unread; say so to the compiler
    // rather than trip -Wunused-parameter.
    if (!isAnyLaneLive(arg))
      line("(void)" + name + ";");
  }

  llvm::append_range(params, language.extraParams);

  for (Operation &op : block)
    if (failed(renderOp(op)))
      return failure();

  if (auto opts = kernel.getOpts()) {
    os << "/* opts:";
    for (Attribute opt : *opts)
      if (auto text = dyn_cast<StringAttr>(opt))
        os << " " << sanitizeComment(text.getValue());
    os << " */\n";
  }
  // A task function takes the buffers as restrict parameters of the body
  // it calls: C compilers trust restrict on parameters, not on locals
  // copied out of the argument struct (GCC left the loops of such a body
  // scalar, or versioned them for aliasing).
  std::string bodyName = functionName.str();
  if (threaded) {
    bodyName += "_task";
    params.push_back(language.indexType + " task");
  }
  os << (threaded ? "static TGC_NOINLINE void" : language.kernelPrefix)
     << " ";
  // clang splits vectors wider than its preferred width (256 bits on
  // AVX-512 CPUs) unless the function asks for them.
  if (widestVector > 32)
    os << "TGC_MIN_VECTOR_WIDTH(" << widestVector * 8 << ") ";
  os << bodyName << "(" << llvm::join(params, ", ") << ") {\n"
     << body << "}\n";
  if (threaded) {
    taskArgs.push_back("task");
    os << argsStruct << "} " << argsType << ";\n"
       << language.kernelPrefix << " " << functionName << "(void *task_args, "
       << language.indexType << " task) {\n"
       << "  const " << argsType << " *args = (const " << argsType
       << " *)task_args;\n"
       << "  " << bodyName << "(" << llvm::join(taskArgs, ", ") << ");\n"
       << "}\n";
  }
  return success();
}

std::optional<int64_t> mlir::tgc::getThreadTasks(KernelOp kernel) {
  for (Operation &op : kernel.getBlock())
    if (auto range = dyn_cast<RangeOp>(op);
        range && range.getAxis() == AxisType::thread)
      return (int64_t)range.getBound();
  return std::nullopt;
}

LogicalResult mlir::tgc::renderKernel(KernelOp kernel,
                                      llvm::StringRef functionName,
                                      const CStyleLanguage &language,
                                      CHelperSet &helpers,
                                      llvm::raw_ostream &os) {
  KernelRenderer renderer(language, helpers);
  return renderer.render(kernel, functionName, os);
}
