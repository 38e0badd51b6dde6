// The CUDA renderer on a kernel the TC action put on tensor cores
// (gpu-tensor-cores.mlir; this is its 16x16x8 matmul with a ReLU after
// tgc-linearize and tgc-gpu-dims): <mma.h> included, the workgroup tiles
// 32-byte aligned as wmma loads want, the accumulator a wmma fragment, each
// step loads tf32 fragments from the staged tiles and multiplies them. For
// sm_75, which has no tf32 wmma, every op has a CUDA-core spelling behind
// `__CUDA_ARCH__ < 800`. The output compiles as C++ against the emulation,
// and with nvcc (where installed) for Turing, Ampere and Hopper with
// warnings as errors.
// RUN: tgc-translate --emit-cuda %s | FileCheck %s
// RUN: tgc-translate --emit-cuda %s > %t.cuh
// RUN: c++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -I %runtime/gpu_emu -include cuda_runtime.h -x c++ %t.cuh
// RUN: %if nvcc %{ %nvcc -c -x cu %t.cuh -o %t.o -Werror all-warnings -Xcompiler -Wall,-Wextra -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 %}

// CHECK: #include <mma.h>
// CHECK-LABEL: /* net_r_16_16_8: grid (1, 1, 1), block (32, 1, 1) */
// CHECK-NEXT: /* opts: TC(0,1,2,16) */
// CHECK-NEXT: extern "C" __global__ void __launch_bounds__(32) net_r_16_16_8(
// CHECK:        __shared__ __align__(32) float smem0[128];
// CHECK-NEXT:   __shared__ __align__(32) float smem1[128];
// CHECK-NEXT:   __shared__ __align__(32) float smem2[256];
// CHECK-NEXT:   #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
// CHECK-NEXT:   float wmma0[8] = {};
// CHECK-NEXT:   #else
// CHECK-NEXT:   nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 8, float> wmma0;
// CHECK-NEXT:   nvcuda::wmma::fill_fragment(wmma0, 0.0f);
// CHECK-NEXT:   #endif
// The staged tiles, then the step.
// CHECK:          smem0[alu4] = val0;
// CHECK:          smem1[alu14] = val1;
// CHECK:        __syncthreads();
// CHECK-NEXT:   #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
// CHECK-NEXT:   for (int tc_e = (int)threadIdx.x; tc_e < 256; tc_e += 32) {
// CHECK:            tc_sum += smem0[tc_e / 16 * 8 + tc_k] * smem1[tc_k * 16 + tc_e % 16];
// CHECK:        #else
// CHECK:          nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 8, nvcuda::wmma::precision::tf32, nvcuda::wmma::row_major> tc_a;
// CHECK-NEXT:     nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 8, nvcuda::wmma::precision::tf32, nvcuda::wmma::row_major> tc_b;
// CHECK-NEXT:     nvcuda::wmma::load_matrix_sync(tc_a, smem0, 8);
// CHECK-NEXT:     nvcuda::wmma::load_matrix_sync(tc_b, smem1, 16);
// CHECK:            tc_a.x[tc_t] = nvcuda::wmma::__float_to_tf32(tc_a.x[tc_t]);
// CHECK:            tc_b.x[tc_t] = nvcuda::wmma::__float_to_tf32(tc_b.x[tc_t]);
// CHECK-NEXT:     nvcuda::wmma::mma_sync(wmma0, tc_a, tc_b, wmma0);
// CHECK:        #endif
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT: }
// The accumulator to workgroup memory, then each thread's elements.
// CHECK:      nvcuda::wmma::store_matrix_sync(smem2, wmma0, 16, nvcuda::wmma::mem_row_major);
// CHECK-NEXT: #endif
// CHECK-NEXT: __syncthreads();
// CHECK:        float val2 = smem2[alu24];
// CHECK:        data2[alu33] = alu31;

module attributes {tgc.arena_align = 64 : i64, tgc.arena_bytes = 0 : i64} {
  func.func @main(%arg0: tensor<16x8xf32> {tgc.name = "a"}, %arg1: tensor<8x16xf32> {tgc.name = "b"}) -> (tensor<16x16xf32> {tgc.name = "c"}) {
    %0 = tgc.kernel "r_16_16_8"(%arg0, %arg1) {arena_offset = array<i64: -1>, opts = ["TC(0,1,2,16)"]} : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32> {
    ^bb0(%arg2: !tgc.ptr<f32>, %arg3: !tgc.ptr<f32>, %arg4: !tgc.ptr<f32>):
      %1 = tgc.special "gidx0" 1
      %2 = tgc.special "gidx1" 1
      %3 = tgc.special "lidx0" 32
      %4 = tgc.const 2 : index
      %5 = tgc.const 4 : index
      %6 = tgc.const 0.000000e+00 : f32
      %7 = tgc.const 32 : index
      %8 = tgc.const 8 : index
      %9 = tgc.const 16 : index
      %10 = tgc.define_local 128 : <f32, local>
      %11 = tgc.define_local 128 : <f32, local>
      %12 = tgc.define_local 256 : <f32, local>
      %13 = tgc.define_acc 16, 16 : <f32, reg>
      %14 = tgc.mul %2, %9 : index
      %15 = tgc.mul %1, %9 : index
      %16 = tgc.range 1  reduce id 2
      %17 = tgc.mul %16, %8 : index
      %18 = tgc.range 4  reduce id 4
      %19 = tgc.mul %18, %7 : index
      %20 = tgc.add %19, %3 : index
      %21 = tgc.idiv %3, %8 : index
      %22 = tgc.mul %18, %5 : index
      %23 = tgc.add %22, %21 : index
      %24 = tgc.mod %3, %8 : index
      %25 = tgc.add %14, %23 : index
      %26 = tgc.add %17, %24 : index
      %27 = tgc.mul %25, %8 : index
      %28 = tgc.add %27, %26 : index
      %29 = tgc.index %arg2[%28] : <f32>
      %30 = tgc.load %29 : <f32> -> f32
      %31 = tgc.index %10[%20] : <f32, local>
      tgc.store %31, %30 : <f32, local>, f32
      tgc.end %18
      %32 = tgc.range 4  reduce id 5
      %33 = tgc.mul %32, %7 : index
      %34 = tgc.add %33, %3 : index
      %35 = tgc.idiv %3, %9 : index
      %36 = tgc.mul %32, %4 : index
      %37 = tgc.add %36, %35 : index
      %38 = tgc.mod %3, %9 : index
      %39 = tgc.add %17, %37 : index
      %40 = tgc.add %15, %38 : index
      %41 = tgc.mul %39, %9 : index
      %42 = tgc.add %41, %40 : index
      %43 = tgc.index %arg3[%42] : <f32>
      %44 = tgc.load %43 : <f32> -> f32
      %45 = tgc.index %11[%34] : <f32, local>
      tgc.store %45, %44 : <f32, local>, f32
      tgc.end %32
      tgc.barrier
      tgc.wmma %13, %10, %11 k 8 : <f32, reg>, <f32, local>
      tgc.barrier
      tgc.end %16
      tgc.store_acc %12, %13 : <f32, local>, <f32, reg>
      tgc.barrier
      %46 = tgc.range 8  reduce id 6
      %47 = tgc.mul %46, %7 : index
      %48 = tgc.add %47, %3 : index
      %49 = tgc.idiv %3, %9 : index
      %50 = tgc.mul %46, %4 : index
      %51 = tgc.add %50, %49 : index
      %52 = tgc.add %14, %51 : index
      %53 = tgc.mod %3, %9 : index
      %54 = tgc.add %15, %53 : index
      %55 = tgc.index %12[%48] : <f32, local>
      %56 = tgc.load %55 : <f32, local> -> f32
      %57 = tgc.max %56, %6 : f32
      %58 = tgc.mul %52, %9 : index
      %59 = tgc.add %58, %54 : index
      %60 = tgc.index %arg4[%59] : <f32>
      tgc.store %60, %57 : <f32>, f32
      tgc.end %46
      tgc.sink
    }
    return %0 : tensor<16x16xf32>
  }
}

