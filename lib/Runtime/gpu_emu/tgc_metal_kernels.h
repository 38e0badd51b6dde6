/* tgc_metal_kernels.h: compiles a .metal source as C++ and registers its
 * kernels with the emulated Metal (Metal/Metal.hpp). Use:
 *
 *   #include "tgc_metal_kernels.h"
 *   #include "net.metal"
 *   TGC_METAL_KERNEL(net_k0)
 *   ...
 *
 * The address-space qualifiers become nothing (device) or static
 * thread_local storage (threadgroup: one block runs at a time on an OS
 * thread), `kernel` nothing (the registration names the function in this
 * translation unit); attributes are ignored. Only a translation unit of kernels includes this: the macros
 * would break any other code.
 */
#ifndef TGC_GPU_EMU_METAL_KERNELS_H
#define TGC_GPU_EMU_METAL_KERNELS_H

#include "metal_stdlib"
#include "tgc_metal_registry.h"

#define TGC_METAL_KERNEL(name)                                                 \
  static const bool tgc_metal_registered_##name =                              \
      tgc_emu::metal::registerKernel(#name, &name);

/* The Metal Shading Language's qualifiers, for the source included next. */
#define kernel
#define device
#define threadgroup static thread_local

#endif /* TGC_GPU_EMU_METAL_KERNELS_H */
