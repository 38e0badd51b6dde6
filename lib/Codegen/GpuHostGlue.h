//===- GpuHostGlue.h - the host side of a CUDA or Metal package -*- C++ -*-===//
//
// A GPU package has the C package's API shape (DESIGN §4): one header with
// the size macros and named I/O, one entry point that takes the inputs,
// the outputs and a caller-provided arena, no allocation inside, no mutable
// globals, status codes instead of aborts. What differs is where memory
// lives (the device) and what a run is queued on:
//
//   CUDA (<name>.h, <name>.cu, <name>_kernels.cuh, <name>_weights.c):
//     int <name>_upload_weights(void *weights, cudaStream_t stream);
//     int <name>_run(const <name>_inputs *in, <name>_outputs *out,
//                    void *arena, const void *weights, cudaStream_t stream);
//   with device pointers everywhere; kernels are launched with
//   cudaLaunchKernel on the caller's stream, the only CUDA calls being those
//   of the runtime's C API.
//
//   Metal (<name>.h, <name>_metal.cpp, <name>.metal, <name>_weights.c), with
//   metal-cpp:
//     int <name>_metal_init(<name>_metal *state, MTL::Device *device);
//     void <name>_metal_release(<name>_metal *state);
//     int <name>_upload_weights(MTL::Buffer *weights);
//     int <name>_run(const <name>_metal *state, const <name>_inputs *in,
//                    <name>_outputs *out, MTL::Buffer *arena,
//                    MTL::Buffer *weights, MTL::CommandBuffer *commands);
//   with MTL::Buffer objects for the I/O; the kernels are encoded into the
//   caller's command buffer, which the caller commits.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_GPUHOSTGLUE_H
#define TGC_CODEGEN_GPUHOSTGLUE_H

#include "Codegen/GpuEmitter.h"

namespace mlir::tgc {

/// Writes `<name>.h`.
void emitGpuHeader(const ModelLayout &layout, GpuTarget target,
                   llvm::raw_ostream &os);

/// Writes `<name>.cu`: the weights upload and the run function, which
/// includes `<name>_kernels.cuh` and launches its kernels.
void emitCudaHost(const ModelLayout &layout, llvm::raw_ostream &os);

/// Writes `<name>_metal.cpp`: pipeline creation from `metalSource` (the
/// text of `<name>.metal`, compiled at run time), the weights upload and the
/// run function.
void emitMetalHost(const ModelLayout &layout, llvm::StringRef metalSource,
                   llvm::raw_ostream &os);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_GPUHOSTGLUE_H
