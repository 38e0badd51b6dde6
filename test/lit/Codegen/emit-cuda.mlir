// The CUDA renderer: the C renderer with CUDA's spellings. Kernels are
// extern "C" __global__ with their block size as launch bounds, thread and
// block indices are the built-in variables, workgroup memory is __shared__,
// helpers are __device__ functions, index arithmetic is 32-bit where every
// index value fits. The output compiles with nvcc (where it is installed,
// for Turing, Ampere and Hopper, warnings as errors) and as C++ against the
// emulation.
// RUN: tgc-translate --emit-cuda %s | FileCheck %s
// RUN: tgc-translate --emit-cuda %s > %t.cuh
// RUN: c++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -I %runtime/gpu_emu -include cuda_runtime.h -x c++ %t.cuh
// RUN: %if nvcc %{ %nvcc -c -x cu %t.cuh -o %t.o -Werror all-warnings -Xcompiler -Wall,-Wextra -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 %}

// Helpers are device functions with the C bodies.
// CHECK-LABEL: net_kernels.cuh: the kernels of the model in CUDA C++
// CHECK: static __device__ float tgc_half_to_float(uint16_t half) {
// CHECK: static __device__ uint16_t tgc_float_to_half(float value) {
// CHECK: static __device__ TGC_FORCE_INLINE float tgc_exp2f(float x) {

// A grouped reduction: signature, launch bounds, shared memory, indices,
// the barrier and the gated store.
// CHECK-LABEL: /* net_r_4_64: grid (2, 1, 1), block (16, 2, 1) */
// CHECK: extern "C" __global__ void __launch_bounds__(32) net_r_4_64(const float *__restrict__ data0, float *__restrict__ data1) {
// CHECK-NEXT:   __shared__ float smem0[32];
// CHECK-NEXT:   int gidx0 = blockIdx.x;
// CHECK-NEXT:   int lidx0 = threadIdx.x;
// CHECK-NEXT:   int lidx1 = threadIdx.y;
// CHECK:        for (int ridx1 = 0; ridx1 < 4; ridx1++) {
// CHECK:        smem0[alu8] = val2;
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   acc0[0] = 0.0f;
// CHECK-NEXT:   for (int ridx4 = 0; ridx4 < 16; ridx4++) {
// CHECK:          float val3 = smem0[alu9];
// CHECK:        bool alu11 = lidx0 == 0;
// CHECK-NEXT:   if (alu11) data1[alu1] = val5;
// CHECK-NEXT: }

// Float math: f16 in buffers, the C math functions, NaN-propagating max,
// bit casts.
// CHECK-LABEL: /* net_E_math: grid (4, 1, 1), block (64, 1, 1) */
// CHECK: extern "C" __global__ void __launch_bounds__(64) net_E_math(const uint16_t *__restrict__ data0, uint16_t *__restrict__ data1) {
// CHECK:   float val0 = tgc_half_to_float(data0[alu1]);
// CHECK:   float alu2 = tgc_exp2f(cast0);
// CHECK-NEXT:   float alu3 = log2f(alu2);
// CHECK-NEXT:   float alu4 = sinf(alu3);
// CHECK-NEXT:   float alu5 = sqrtf(alu4);
// CHECK-NEXT:   float alu6 = powf(alu5, 0.5f);
// CHECK-NEXT:   float alu7 = truncf(alu6);
// CHECK-NEXT:   float alu8 = (alu7 != alu7 || alu7 > cast0) ? alu7 : cast0;
// CHECK-NEXT:   uint32_t cast1 = tgc_float_bits(alu8);
// CHECK:   data1[alu1] = tgc_float_to_half(cast3);

// Integers: C's truncating division and remainder, wrapping addition.
// CHECK-LABEL: /* net_E_ints: grid (1, 1, 1), block (256, 1, 1) */
// CHECK: int32_t alu0 = val0 / 7;
// CHECK-NEXT: int32_t alu1 = val0 % 7;
// CHECK-NEXT: int32_t alu2 = (int32_t)((uint32_t)alu0 + (uint32_t)alu1);

// An index value past 2^31: 64-bit index arithmetic for the whole kernel.
// CHECK-LABEL: /* net_E_far: grid (8, 1, 1), block (1, 1, 1) */
// CHECK: extern "C" __global__ void __launch_bounds__(1) net_E_far(
// CHECK-NEXT:   long long gidx0 = blockIdx.x;
// CHECK-NEXT:   long long alu0 = gidx0 * 1073741824;

module attributes {tgc.arena_bytes = 0 : i64, tgc.arena_align = 64 : i64} {
  func.func @main(%x: tensor<4x64xf32> {tgc.name = "x"}, %h: tensor<256xf16> {tgc.name = "h"},
                  %n: tensor<256xsi32> {tgc.name = "n"})
      -> (tensor<4x1xf32> {tgc.name = "sums"}, tensor<256xf16> {tgc.name = "math"},
          tensor<256xsi32> {tgc.name = "ints"}, tensor<8xf32> {tgc.name = "far"}) {
    %0 = tgc.kernel "r_4_64"(%x) {arena_offset = array<i64: -1>, opts = ["LOCAL(0,2)", "GROUP(1,16)"]} : (tensor<4x64xf32>) -> tensor<4x1xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c0 = tgc.const 0 : index
      %c2 = tgc.const 2 : index
      %c16 = tgc.const 16 : index
      %c64 = tgc.const 64 : index
      %smem = tgc.define_local 32 : !tgc.ptr<f32, local>
      %g = tgc.special "gidx0" 2
      %gr = tgc.special "lidx0" 16
      %l = tgc.special "lidx1" 2
      %gg = tgc.mul %g, %c2 : index
      %row = tgc.add %gg, %l : index
      %base = tgc.mul %row, %c64 : index
      %acc = tgc.define_reg 1 : !tgc.ptr<f32, reg>
      %slot = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
      %zero = tgc.const 0.0 : f32
      tgc.store %slot, %zero : !tgc.ptr<f32, reg>, f32
      %r = tgc.range 4 reduce id 1
      %rr = tgc.mul %r, %c16 : index
      %k = tgc.add %rr, %gr : index
      %i = tgc.add %base, %k : index
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %old = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
      %new = tgc.add %old, %v : f32
      tgc.store %slot, %new : !tgc.ptr<f32, reg>, f32
      tgc.end %r
      %lb = tgc.mul %l, %c16 : index
      %part = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
      %mine = tgc.add %lb, %gr : index
      %ms = tgc.index %smem[%mine] : !tgc.ptr<f32, local>
      tgc.store %ms, %part : !tgc.ptr<f32, local>, f32
      tgc.barrier
      tgc.store %slot, %zero : !tgc.ptr<f32, reg>, f32
      %j = tgc.range 16 reduce id 4
      %theirs = tgc.add %lb, %j : index
      %ts = tgc.index %smem[%theirs] : !tgc.ptr<f32, local>
      %tv = tgc.load %ts : !tgc.ptr<f32, local> -> f32
      %o2 = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
      %s2 = tgc.add %o2, %tv : f32
      tgc.store %slot, %s2 : !tgc.ptr<f32, reg>, f32
      tgc.end %j
      %sum = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
      %first = tgc.cmpeq %gr, %c0 : index
      %q = tgc.index %out[%row], %first : !tgc.ptr<f32>
      tgc.store %q, %sum : !tgc.ptr<f32>, f32
      tgc.sink
    }
    %1 = tgc.kernel "E_math"(%h) {arena_offset = array<i64: -1>} : (tensor<256xf16>) -> tensor<256xf16> {
    ^bb0(%in: !tgc.ptr<f16>, %out: !tgc.ptr<f16>):
      %c64 = tgc.const 64 : index
      %g = tgc.special "gidx0" 4
      %l = tgc.special "lidx0" 64
      %gg = tgc.mul %g, %c64 : index
      %i = tgc.add %gg, %l : index
      %p = tgc.index %in[%i] : !tgc.ptr<f16>
      %v = tgc.load %p : !tgc.ptr<f16> -> f16
      %f = tgc.cast %v : f16 to f32
      %e = tgc.exp2 %f : f32
      %lg = tgc.log2 %e : f32
      %sn = tgc.sin %lg : f32
      %sq = tgc.sqrt %sn : f32
      %half = tgc.const 0.5 : f32
      %pw = tgc.pow %sq, %half : f32
      %tr = tgc.trunc %pw : f32
      %mx = tgc.max %tr, %f : f32
      %bits = tgc.bitcast %mx : f32 to ui32
      %back = tgc.bitcast %bits : ui32 to f32
      %h2 = tgc.cast %back : f32 to f16
      %q = tgc.index %out[%i] : !tgc.ptr<f16>
      tgc.store %q, %h2 : !tgc.ptr<f16>, f16
      tgc.sink
    }
    %2 = tgc.kernel "E_ints"(%n) {arena_offset = array<i64: -1>} : (tensor<256xsi32>) -> tensor<256xsi32> {
    ^bb0(%in: !tgc.ptr<si32>, %out: !tgc.ptr<si32>):
      %l = tgc.special "lidx0" 256
      %p = tgc.index %in[%l] : !tgc.ptr<si32>
      %v = tgc.load %p : !tgc.ptr<si32> -> si32
      %c7 = tgc.const 7 : si32
      %d = tgc.idiv %v, %c7 : si32
      %m = tgc.mod %v, %c7 : si32
      %s = tgc.add %d, %m : si32
      %q = tgc.index %out[%l] : !tgc.ptr<si32>
      tgc.store %q, %s : !tgc.ptr<si32>, si32
      tgc.sink
    }
    %3 = tgc.kernel "E_far"(%x) {arena_offset = array<i64: -1>} : (tensor<4x64xf32>) -> tensor<8xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %big = tgc.const 1073741824 : index
      %c8 = tgc.const 8 : index
      %g = tgc.special "gidx0" 8
      %far = tgc.mul %g, %big : index
      %i = tgc.mod %far, %c8 : index
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %q = tgc.index %out[%g] : !tgc.ptr<f32>
      tgc.store %q, %v : !tgc.ptr<f32>, f32
      tgc.sink
    }
    return %0, %1, %2, %3 : tensor<4x1xf32>, tensor<256xf16>, tensor<256xsi32>, tensor<8xf32>
  }
}
