//===- GpuLaunch.cpp - how a GPU kernel is launched ----------------*- C++ -*-===//

#include "Codegen/GpuLaunch.h"
#include "Codegen/CEmitterSupport.h"

using namespace mlir;
using namespace mlir::tgc;

LaunchDims mlir::tgc::getLaunchDims(KernelOp kernel) {
  LaunchDims dims;
  kernel.walk([&](SpecialOp special) {
    StringRef name = special.getName();
    std::array<int64_t, 3> *target = name.starts_with("gidx")   ? &dims.grid
                                     : name.starts_with("lidx") ? &dims.block
                                                                : nullptr;
    unsigned axis = 0;
    if (!target || name.drop_front(4).getAsInteger(10, axis) || axis > 2)
      return;
    (*target)[axis] = std::max<int64_t>((*target)[axis], special.getBound());
  });
  return dims;
}

int64_t mlir::tgc::getSharedBytes(KernelOp kernel) {
  int64_t bytes = 0;
  kernel.walk([&](DefineLocalOp local) {
    // Workgroup memory holds values as computed: f16 and bf16 as float.
    Type element = cast<PtrType>(local.getType()).getElementType();
    int64_t each = isHalfLike(element) ? 4 : getElementBytes(element);
    bytes += local.getSize() * each;
  });
  return bytes;
}

bool mlir::tgc::isGpuMapped(KernelOp kernel) {
  bool mapped = false, threaded = false;
  kernel.walk([&](Operation *op) {
    if (isa<SpecialOp>(op))
      mapped = true;
    if (auto range = dyn_cast<RangeOp>(op))
      threaded |= range.getAxis() != AxisType::reduce;
  });
  return mapped || !threaded;
}
