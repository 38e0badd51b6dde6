// EmuKernels.metal compiled as C++ and registered with the emulated Metal,
// as tgc's driver does for a package's .metal file.
#include "tgc_metal_kernels.h"
#include "EmuKernels.metal"
TGC_METAL_KERNEL(reverse_slices)
TGC_METAL_KERNEL(simdgroup_matmul)
