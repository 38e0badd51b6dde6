// A Metal kernel for EmuTest.cpp, compiled as C++ by EmuMetalKernels.cpp:
// each threadgroup reverses its slice of `in` through threadgroup memory.
#include <metal_stdlib>
using namespace metal;

kernel void reverse_slices(device const float *in [[buffer(0)]],
                           device float *out [[buffer(1)]],
                           uint3 gid [[threadgroup_position_in_grid]],
                           uint3 lid [[thread_position_in_threadgroup]]) {
  threadgroup float slice[64];
  slice[lid.x] = in[gid.x * 64 + lid.x];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[gid.x * 64 + lid.x] = slice[63 - lid.x];
}
