//===- Heuristic.h - opt actions for a kernel without search ---*- C++ -*-===//
//
// tinygrad's hand_coded_optimizations, for a CPU: register tiles shaped to
// the SIMD width, vector lanes where memory is contiguous, and the
// outermost axis split across threads for kernels worth it.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_HEURISTIC_H
#define TGC_CODEGEN_HEURISTIC_H

#include "Codegen/OptActions.h"
#include "Codegen/RangeDependence.h"
#include "Codegen/Target.h"

namespace mlir::tgc {

struct HeuristicOptions {
  CpuTarget target;
  /// Tasks the outermost axis of a big kernel is split into (THREAD); 1 or
  /// less: none.
  int64_t threadTasks = 0;
};

/// The L1 data cache of the least x86 core tgc targets: what a loop can
/// count on finding again between its iterations.
constexpr int64_t kL1Bytes = int64_t(32) << 10;

/// Lanes of the square tiles tgc-transpose-lanes moves a transpose's
/// `element`s in: the widest vector that half of the vector registers can
/// hold (the other half take the permutes' results), 8 floats with AVX2,
/// 16 with AVX-512; 0 below 4 lanes, and for elements the C has no vectors
/// of (f32 and f64 only).
int64_t transposeTileLanes(Type element, unsigned vectorBytes,
                           unsigned vectorRegisters);

/// Chooses and applies actions to `kernel` (lowered, not expanded), each
/// recorded in its `opts`. An elementwise kernel gets actions only where it
/// stacks parts along a short axis or transposes (ElementwiseOpts.h): C
/// compilers vectorize the other loops well.
void applyHeuristic(KernelOp kernel, const HeuristicOptions &options);

/// Applies THREAD, into at most `tasks` tasks, to a kernel with enough
/// work, on the output axis that splits into the most tasks, an even count
/// preferred (an odd one leaves a thread a task longer than the other). Never
/// an axis the reduction does not depend on while another one is left: each
/// task would compute the whole reduction again (a row's variance, split by
/// columns into 8 tasks, is summed 8 times). Among equals, the axis
/// that splits the constant weights: a task then keeps its slice of them in
/// its core's L2 while it walks the rest (a 1024x1024 Gemm split by
/// columns rereads 512 KiB of B per row tile, split by rows all 4 MiB),
/// unless what a task reads again per iteration of the outer loop then
/// overflows the L2 and another split's does not (MobileNetV2's 16 to 96
/// channel 1x1 convolution at 112x112 split by its 6 KiB of weights read
/// its whole 800 KiB input again per block of output channels, from L3);
/// then the outer axis (its tasks touch apart memory).
void chooseThreads(KernelOp kernel, int64_t tasks);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_HEURISTIC_H
