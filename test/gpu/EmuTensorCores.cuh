// Tensor-core kernels for EmuTest.cpp, written by hand against CUDA's warp
// matrix functions (<mma.h>): compiled as C++ against the emulation there,
// and by nvcc for sm_80 and sm_90 in the ctest gpu.nvcc.tensor_cores, so the
// emulation keeps to the real API. One warp computes one 16x16 tile.
#include <cuda_fp16.h>
#include <mma.h>

// c (16x16 floats, row-major) += a (16 x k halves, row-major) *
// b (k x 16 halves, column-major); k a multiple of 16.
extern "C" __global__ void wmma_f16(const __half *a, const __half *b, float *c,
                                    int k) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  for (int kk = 0; kk < k; kk += 16) {
    wmma::load_matrix_sync(fa, a + kk, k);
    wmma::load_matrix_sync(fb, b + kk, k);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

// c (16x16, row-major) = a (16 x k, row-major) * b (k x 16, column-major)
// in tf32: the inputs rounded to tf32 first, products summed in float.
extern "C" __global__ void wmma_tf32(const float *a, const float *b, float *c,
                                     int k) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
                 wmma::row_major>
      fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32,
                 wmma::col_major>
      fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int kk = 0; kk < k; kk += 8) {
    wmma::load_matrix_sync(fa, a + kk, k);
    wmma::load_matrix_sync(fb, b + kk, k);
    for (int i = 0; i < fa.num_elements; ++i)
      fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; ++i)
      fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
