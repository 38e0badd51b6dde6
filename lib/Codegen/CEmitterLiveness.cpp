//===- CEmitterLiveness.cpp - what a C kernel must compute ------*- C++ -*-===//
//
// Before a kernel is written out: which lanes of which values something
// reads (the rest are not rendered, as an unused local is a -Wall warning
// and the C builds with -Werror), and which register arrays are only ever
// accessed as whole native vectors (they become vector locals).
//
//===----------------------------------------------------------------------===//

#include "Codegen/CEmitterRenderer.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tgc;
using namespace mlir::tgc::cemitter;

//===----------------------------------------------------------------------===//
// Liveness
//===----------------------------------------------------------------------===//

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

bool mlir::tgc::cemitter::isNumberConstant(Value value, bool nonzero) {
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

std::optional<std::pair<Value, Value>>
mlir::tgc::cemitter::matchMinOfNumber(NegOp op) {
  if (!isa<FloatType>(getElementTypeOrSelf(op.getType())))
    return std::nullopt;
  auto max = op.getSrc().getDefiningOp<MaxOp>();
  auto inner = max ? max.getLhs().getDefiningOp<NegOp>() : NegOp();
  if (!inner || !isNumberConstant(max.getRhs(), /*nonzero=*/true))
    return std::nullopt;
  return std::make_pair(inner.getSrc(), max.getRhs());
}

bool mlir::tgc::cemitter::isNeverTouched(IndexOp op) {
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
