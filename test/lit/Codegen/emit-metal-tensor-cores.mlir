// The Metal renderer on a kernel the TC action put on tensor cores with
// Metal's 8x8 tiles (gpu-tensor-cores.mlir; a 16x16x8 matmul with a ReLU
// after tgc-linearize and tgc-gpu-dims): the accumulator is a
// simdgroup_float8x8, each step loads the staged tiles into simdgroup
// matrices and multiplies them, the result goes back to threadgroup memory
// with simdgroup_store. The output compiles as C++ against the emulation.
// RUN: tgc-translate --emit-metal %s | FileCheck %s
// RUN: tgc-translate --emit-metal %s > %t.metal
// RUN: c++ -std=c++17 -Wall -Wextra -Werror -Wno-attributes -Wno-unused-parameter -fsyntax-only -I %runtime/gpu_emu -include tgc_metal_kernels.h -x c++ %t.metal

// CHECK-LABEL: /* net_r_16_16_8: grid (2, 2, 1), block (32, 1, 1) */
// CHECK-NEXT: /* opts: TC(0,1,2,8) */
// CHECK-NEXT: {{\[\[}}max_total_threads_per_threadgroup(32)]] kernel void net_r_16_16_8(
// CHECK:        threadgroup float smem0[64];
// CHECK-NEXT:   threadgroup float smem1[64];
// CHECK-NEXT:   threadgroup float smem2[64];
// CHECK-NEXT:   simdgroup_float8x8 wmma0 = make_filled_simdgroup_matrix<float, 8, 8>(0.0f);
// CHECK:          smem1[alu14] = val1;
// CHECK:        threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:   {
// CHECK-NEXT:     simdgroup_float8x8 tc_a, tc_b;
// CHECK-NEXT:     simdgroup_load(tc_a, smem0, 8);
// CHECK-NEXT:     simdgroup_load(tc_b, smem1, 8);
// CHECK-NEXT:     simdgroup_multiply_accumulate(wmma0, tc_a, tc_b, wmma0);
// CHECK-NEXT:   }
// CHECK-NEXT:   threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT: }
// CHECK-NEXT: simdgroup_store(wmma0, smem2, 8);
// CHECK-NEXT: threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK:        float val2 = smem2[alu24];
// CHECK:        data2[alu33] = alu31;

module attributes {tgc.arena_align = 64 : i64, tgc.arena_bytes = 0 : i64} {
  func.func @main(%arg0: tensor<16x8xf32> {tgc.name = "a"}, %arg1: tensor<8x16xf32> {tgc.name = "b"}) -> (tensor<16x16xf32> {tgc.name = "c"}) {
    %0 = tgc.kernel "r_16_16_8"(%arg0, %arg1) {arena_offset = array<i64: -1>, opts = ["TC(0,1,2,8)"]} : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32> {
    ^bb0(%arg2: !tgc.ptr<f32>, %arg3: !tgc.ptr<f32>, %arg4: !tgc.ptr<f32>):
      %1 = tgc.special "gidx0" 2
      %2 = tgc.special "gidx1" 2
      %3 = tgc.special "lidx0" 32
      %4 = tgc.const 4 : index
      %5 = tgc.const 0.000000e+00 : f32
      %6 = tgc.const 16 : index
      %7 = tgc.const 32 : index
      %8 = tgc.const 8 : index
      %9 = tgc.define_local 64 : <f32, local>
      %10 = tgc.define_local 64 : <f32, local>
      %11 = tgc.define_local 64 : <f32, local>
      %12 = tgc.define_acc 8, 8 : <f32, reg>
      %13 = tgc.mul %2, %8 : index
      %14 = tgc.mul %1, %8 : index
      %15 = tgc.range 1  reduce id 2
      %16 = tgc.mul %15, %8 : index
      %17 = tgc.range 2  reduce id 4
      %18 = tgc.mul %17, %7 : index
      %19 = tgc.add %18, %3 : index
      %20 = tgc.idiv %3, %8 : index
      %21 = tgc.mul %17, %4 : index
      %22 = tgc.add %21, %20 : index
      %23 = tgc.mod %3, %8 : index
      %24 = tgc.add %13, %22 : index
      %25 = tgc.add %16, %23 : index
      %26 = tgc.mul %24, %8 : index
      %27 = tgc.add %26, %25 : index
      %28 = tgc.index %arg2[%27] : <f32>
      %29 = tgc.load %28 : <f32> -> f32
      %30 = tgc.index %9[%19] : <f32, local>
      tgc.store %30, %29 : <f32, local>, f32
      tgc.end %17
      %31 = tgc.range 2  reduce id 5
      %32 = tgc.mul %31, %7 : index
      %33 = tgc.add %32, %3 : index
      %34 = tgc.idiv %3, %8 : index
      %35 = tgc.mul %31, %4 : index
      %36 = tgc.add %35, %34 : index
      %37 = tgc.mod %3, %8 : index
      %38 = tgc.add %16, %36 : index
      %39 = tgc.add %14, %37 : index
      %40 = tgc.mul %38, %6 : index
      %41 = tgc.add %40, %39 : index
      %42 = tgc.index %arg3[%41] : <f32>
      %43 = tgc.load %42 : <f32> -> f32
      %44 = tgc.index %10[%33] : <f32, local>
      tgc.store %44, %43 : <f32, local>, f32
      tgc.end %31
      tgc.barrier
      tgc.wmma %12, %9, %10 k 8 : <f32, reg>, <f32, local>
      tgc.barrier
      tgc.end %15
      tgc.store_acc %11, %12 : <f32, local>, <f32, reg>
      tgc.barrier
      %45 = tgc.range 2  reduce id 6
      %46 = tgc.mul %45, %7 : index
      %47 = tgc.add %46, %3 : index
      %48 = tgc.idiv %3, %8 : index
      %49 = tgc.mul %45, %4 : index
      %50 = tgc.add %49, %48 : index
      %51 = tgc.add %13, %50 : index
      %52 = tgc.mod %3, %8 : index
      %53 = tgc.add %14, %52 : index
      %54 = tgc.index %11[%47] : <f32, local>
      %55 = tgc.load %54 : <f32, local> -> f32
      %56 = tgc.max %55, %5 : f32
      %57 = tgc.mul %51, %6 : index
      %58 = tgc.add %57, %53 : index
      %59 = tgc.index %arg4[%58] : <f32>
      tgc.store %59, %56 : <f32>, f32
      tgc.end %45
      tgc.sink
    }
    return %0 : tensor<16x16xf32>
  }
}

