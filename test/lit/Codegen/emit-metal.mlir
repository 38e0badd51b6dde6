// The Metal renderer: the C renderer with the Metal Shading Language's
// spellings. Kernels are `kernel void` with their threadgroup size as
// max_total_threads_per_threadgroup, buffers are device pointers bound by
// index, the thread's position comes in as gid/lid, workgroup memory is
// threadgroup, math functions are overloaded (no f suffix), helpers copy
// bits with as_type and never name a variable `half`. No Metal compiler
// runs on Linux: the output is checked to compile as C++ against the
// emulation (lib/Runtime/gpu_emu), where gid and lid may go unused (Metal
// does not warn about that).
// RUN: tgc-translate --emit-metal %s | FileCheck %s
// RUN: tgc-translate --emit-metal %s > %t.metal
// RUN: c++ -std=c++17 -Wall -Wextra -Werror -Wno-attributes -Wno-unused-parameter -fsyntax-only -I %runtime/gpu_emu -include tgc_metal_kernels.h -x c++ %t.metal

// CHECK-LABEL: net.metal: the kernels of the model in the Metal Shading Language
// CHECK: #include <metal_stdlib>
// CHECK-NEXT: using namespace metal;
// CHECK-NOT: memcpy
// CHECK: static float tgc_half_to_float(uint16_t h16) {
// CHECK:   value = as_type<float>(bits);
// CHECK: static uint16_t tgc_float_to_half(float value) {
// CHECK:   uint32_t bits, sign, magnitude, mantissa, h16, rest, halfway;
// CHECK:   bits = as_type<uint32_t>(value);
// CHECK-NOT: memcpy

// CHECK-LABEL: /* net_r_4_64: grid (2, 1, 1), block (16, 2, 1) */
// CHECK: {{\[\[}}max_total_threads_per_threadgroup(32)]] kernel void net_r_4_64(device const float * data0 {{\[\[}}buffer(0)]], device float * data1 {{\[\[}}buffer(1)]], uint3 gid {{\[\[}}threadgroup_position_in_grid]], uint3 lid {{\[\[}}thread_position_in_threadgroup]]) {
// CHECK-NEXT:   threadgroup float smem0[32];
// CHECK-NEXT:   int gidx0 = gid.x;
// CHECK-NEXT:   int lidx0 = lid.x;
// CHECK-NEXT:   int lidx1 = lid.y;
// CHECK:        smem0[alu8] = val2;
// CHECK-NEXT:   threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK:        if (alu11) data1[alu1] = val5;

// CHECK-LABEL: /* net_E_math: grid (4, 1, 1), block (64, 1, 1) */
// CHECK: kernel void net_E_math(device const uint16_t * data0 {{\[\[}}buffer(0)]], device uint16_t * data1 {{\[\[}}buffer(1)]],
// CHECK:   float alu2 = tgc_exp2f(cast0);
// CHECK-NEXT:   float alu3 = log2(alu2);
// CHECK-NEXT:   float alu4 = sin(alu3);
// CHECK-NEXT:   float alu5 = sqrt(alu4);
// CHECK-NEXT:   float alu6 = pow(alu5, 0.5f);
// CHECK-NEXT:   float alu7 = trunc(alu6);

// 64-bit index arithmetic is `long` in Metal.
// CHECK-LABEL: /* net_E_far: grid (8, 1, 1), block (1, 1, 1) */
// CHECK: long gidx0 = gid.x;

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
