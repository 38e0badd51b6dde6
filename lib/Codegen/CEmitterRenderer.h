//===- CEmitterRenderer.h - the C kernel renderer, inside -------*- C++ -*-===//
//
// The renderer behind renderKernel (CEmitterKernel.h), shared by the files
// that implement it: CEmitterKernel.cpp (the op table and the function),
// CEmitterLiveness.cpp (which lanes are read, which registers are vectors)
// and CEmitterMemory.cpp (addresses, loads and stores). Not for other users.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_CEMITTERRENDERER_H
#define TGC_CODEGEN_CEMITTERRENDERER_H

#include "Codegen/CEmitterKernel.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tgc::cemitter {

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

/// Lanes of `type`: a vector's elements, else 1.
inline unsigned getLaneCount(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements();
  return 1;
}

/// Whether `value` is a float constant with no NaN lane, and with
/// `nonzero` no zero lane of either sign; a vector of such constants is.
bool isNumberConstant(Value value, bool nonzero);

/// x and c where `op` is -max(-x, c) with c a constant that is a number
/// and not a zero (a minimum: ReLU6's and Clip's upper bounds, tinygrad's
/// spelling of min): nullopt otherwise.
std::optional<std::pair<Value, Value>> matchMinOfNumber(NegOp op);

/// True if `op`'s gate is the constant false: nothing is ever read or
/// written through it (the padded copy of a register tile in a loop that
/// tgc-unswitch split off), so its address is never computed.
bool isNeverTouched(IndexOp op);

} // namespace mlir::tgc::cemitter

#endif // TGC_CODEGEN_CEMITTERRENDERER_H
