//===- Plan.cpp - buffer offsets in one arena -----------------*- C++ -*-===//
//
// Intermediate buffers live from the kernel that writes them to the last
// kernel that reads them. Placing them largest first, each at the lowest
// aligned offset free for its whole lifetime, keeps the arena close to the
// peak of live bytes; both numbers go on the module so the waste is seen.
//
//===----------------------------------------------------------------------===//

#include "IR/TgcOps.h"
#include "Schedule/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tgc {
#define GEN_PASS_DEF_TGCPLAN
#include "Schedule/Passes.h.inc"

namespace {

struct Buffer {
  KernelOp kernel;
  unsigned result;
  int64_t bytes, first, last, offset = -1;
};

struct Plan : impl::TgcPlanBase<Plan> {
  using TgcPlanBase::TgcPlanBase;

  void runOnOperation() final {
    ModuleOp module = getOperation();
    int64_t arenaBytes = 0, peakBytes = 0;
    for (auto func : module.getOps<func::FuncOp>()) {
      auto [arena, peak] = planFunction(func);
      arenaBytes = std::max(arenaBytes, arena);
      peakBytes = std::max(peakBytes, peak);
    }
    Builder b(module.getContext());
    module->setAttr("tgc.arena_bytes", b.getI64IntegerAttr(arenaBytes));
    module->setAttr("tgc.arena_align", b.getI64IntegerAttr(alignment));
    module->setAttr("tgc.peak_bytes", b.getI64IntegerAttr(peakBytes));
  }

  std::pair<int64_t, int64_t> planFunction(func::FuncOp func) {
    SmallVector<KernelOp> kernels(func.getOps<KernelOp>());
    llvm::DenseMap<Operation *, int64_t> position;
    for (auto [i, kernel] : llvm::enumerate(kernels))
      position[kernel] = i;

    SmallVector<Buffer> buffers;
    for (auto [i, kernel] : llvm::enumerate(kernels)) {
      for (OpResult result : kernel->getResults()) {
        bool isOutput = llvm::any_of(result.getUsers(), [](Operation *user) {
          return isa<func::ReturnOp>(user);
        });
        if (isOutput)
          continue;
        int64_t last = i;
        for (Operation *user : result.getUsers())
          last = std::max(last, position.lookup(user));
        buffers.push_back({kernel, result.getResultNumber(),
                           getTensorBytes(result.getType()), (int64_t)i, last});
      }
    }

    SmallVector<Buffer *> bySize;
    for (Buffer &buffer : buffers)
      bySize.push_back(&buffer);
    llvm::stable_sort(bySize, [](Buffer *a, Buffer *b) {
      return a->bytes > b->bytes;
    });
    int64_t arenaBytes = 0;
    SmallVector<Buffer *> placed;
    for (Buffer *buffer : bySize) {
      SmallVector<Buffer *> overlapping;
      for (Buffer *other : placed)
        if (other->first <= buffer->last && buffer->first <= other->last)
          overlapping.push_back(other);
      llvm::sort(overlapping,
                 [](Buffer *a, Buffer *b) { return a->offset < b->offset; });
      int64_t offset = 0;
      for (Buffer *other : overlapping) {
        if (offset + buffer->bytes <= other->offset)
          break;
        offset = std::max<int64_t>(
            offset, llvm::alignTo(other->offset + other->bytes, alignment));
      }
      buffer->offset = offset;
      placed.push_back(buffer);
      arenaBytes = std::max<int64_t>(
          arenaBytes, llvm::alignTo(offset + buffer->bytes, alignment));
    }

    int64_t peakBytes = 0;
    for (int64_t k = 0; k < (int64_t)kernels.size(); ++k) {
      int64_t live = 0;
      for (Buffer &buffer : buffers)
        if (buffer.first <= k && k <= buffer.last)
          live += buffer.bytes;
      peakBytes = std::max(peakBytes, live);
    }

    for (KernelOp kernel : kernels) {
      SmallVector<int64_t> offsets(kernel->getNumResults(), -1);
      for (Buffer &buffer : buffers)
        if (buffer.kernel == kernel)
          offsets[buffer.result] = buffer.offset;
      kernel.setArenaOffset(offsets);
    }
    return {arenaBytes, peakBytes};
  }
};

} // namespace
} // namespace mlir::tgc
