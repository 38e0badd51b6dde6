// Metal kernels for EmuTest.cpp, compiled as C++ by EmuMetalKernels.cpp:
// each threadgroup reverses its slice of `in` through threadgroup memory;
// one simdgroup multiplies matrices through simdgroup matrices.
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

// One simdgroup: c (8x8) = a (8x16) * b (16x8), row-major floats, through
// simdgroup matrices; b is read transposed from bt (8x16).
kernel void simdgroup_matmul(device const float *a [[buffer(0)]],
                             device const float *bt [[buffer(1)]],
                             device float *c [[buffer(2)]]) {
  simdgroup_float8x8 ma, mb;
  simdgroup_float8x8 mc = make_filled_simdgroup_matrix<float, 8, 8>(0.0f);
  for (uint k = 0; k < 16; k += 8) {
    simdgroup_load(ma, a, 16, ulong2(k, 0));
    simdgroup_load(mb, bt, 16, ulong2(k, 0), true);
    simdgroup_multiply_accumulate(mc, ma, mb, mc);
  }
  simdgroup_store(mc, c, 8);
}
