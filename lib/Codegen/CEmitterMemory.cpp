//===- CEmitterMemory.cpp - addresses, loads and stores in C ----*- C++ -*-===//
//
// The C for a kernel's memory: a tgc.index's address and gate, loads and
// stores of scalars or native vectors (whole, masked to a count of lanes,
// or lane by lane), register arrays, and elements whose C storage type
// differs from their value's (f16 and bf16 kept as bits).
//
//===----------------------------------------------------------------------===//

#include "Codegen/CEmitterRenderer.h"
#include "Codegen/CEmitterSupport.h"
#include "Codegen/PartialVectors.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tgc;
using namespace mlir::tgc::cemitter;

//===----------------------------------------------------------------------===//
// Storage types
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Addresses, loads and stores
//===----------------------------------------------------------------------===//

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
      line(guard + vector + "_store(" + address.buffer + " + " + address.index +
           ", " + valueLanes.front() + ");");
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
