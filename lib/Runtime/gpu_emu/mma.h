/* mma.h: CUDA's warp matrix functions (nvcuda::wmma), emulated: the
 * tensor-core tiles of sm_70 and up, m16n16k16 with half inputs and tf32's
 * m16n16k8 with float inputs, accumulating in float.
 *
 * On a GPU a fragment is spread over the 32 threads of a warp and every
 * function is called by all of them with the same arguments. Here each
 * thread holds the whole tile (num_elements is the tile's size, in row-major
 * order, not a thread's share), loads it, multiplies and stores it itself:
 * with uniform arguments, as the CUDA API requires, that computes the same.
 * Products are summed in float in k order; a tensor core may sum in another
 * order, so results can differ from a GPU's in the last bits. tf32 inputs
 * keep the 10 mantissa bits a tensor core reads (the rest is dropped).
 */
#ifndef TGC_GPU_EMU_MMA_H
#define TGC_GPU_EMU_MMA_H

#include "cuda_fp16.h"
#include "tgc_gpu_emu.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace nvcuda {
namespace wmma {

struct matrix_a;
struct matrix_b;
struct accumulator;
struct row_major;
struct col_major;
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32;
}

namespace detail {
template <typename Use, int M, int N, int K> struct shape;
template <int M, int N, int K> struct shape<matrix_a, M, N, K> {
  static constexpr int rows = M, cols = K;
};
template <int M, int N, int K> struct shape<matrix_b, M, N, K> {
  static constexpr int rows = K, cols = N;
};
template <int M, int N, int K> struct shape<accumulator, M, N, K> {
  static constexpr int rows = M, cols = N;
};
/* What a fragment of element type T stores: tf32 lives in a float. */
template <typename T> struct storage { using type = T; };
template <> struct storage<precision::tf32> { using type = float; };

inline float value(float x) { return x; }
inline float value(__half x) { return __half2float(x); }
/* A tf32 input as a tensor core reads it: the top 19 bits of the float. */
inline float tf32Bits(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits &= 0xffffe000u;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}
} // namespace detail

template <typename Use, int M, int N, int K, typename T,
          typename Layout = void>
struct fragment {
  static constexpr int rows = detail::shape<Use, M, N, K>::rows;
  static constexpr int cols = detail::shape<Use, M, N, K>::cols;
  static constexpr int num_elements = rows * cols;
  using element_type = typename detail::storage<T>::type;
  element_type x[num_elements];
};

template <typename Use, int M, int N, int K, typename T, typename L>
void fill_fragment(fragment<Use, M, N, K, T, L> &f,
                   const typename fragment<Use, M, N, K, T, L>::element_type &v) {
  for (int i = 0; i < f.num_elements; ++i)
    f.x[i] = v;
}

/* matrix_a / matrix_b: the layout is the fragment's. */
template <typename Use, int M, int N, int K, typename T, typename L, typename P>
void load_matrix_sync(fragment<Use, M, N, K, T, L> &f, const P *p,
                      unsigned ldm) {
  static_assert(sizeof(P) == sizeof(typename fragment<Use, M, N, K, T,
                                                       L>::element_type),
                "the memory's elements are the fragment's");
  tgc_emu::barrier();
  constexpr bool rowMajor = std::is_same<L, row_major>::value;
  for (int r = 0; r < f.rows; ++r)
    for (int c = 0; c < f.cols; ++c)
      std::memcpy(&f.x[r * f.cols + c],
                  &p[rowMajor ? (size_t)r * ldm + c : (size_t)c * ldm + r],
                  sizeof(P));
}

/* accumulator: the layout is given. */
template <int M, int N, int K, typename T>
void load_matrix_sync(fragment<accumulator, M, N, K, T> &f, const T *p,
                      unsigned ldm, layout_t layout) {
  tgc_emu::barrier();
  for (int r = 0; r < f.rows; ++r)
    for (int c = 0; c < f.cols; ++c)
      f.x[r * f.cols + c] = p[layout == mem_row_major ? (size_t)r * ldm + c
                                                      : (size_t)c * ldm + r];
}

template <int M, int N, int K, typename T>
void store_matrix_sync(T *p, const fragment<accumulator, M, N, K, T> &f,
                       unsigned ldm, layout_t layout) {
  tgc_emu::barrier();
  for (int r = 0; r < f.rows; ++r)
    for (int c = 0; c < f.cols; ++c)
      p[layout == mem_row_major ? (size_t)r * ldm + c : (size_t)c * ldm + r] =
          f.x[r * f.cols + c];
}

/* d = a * b + c (d may be c). */
template <int M, int N, int K, typename TA, typename LA, typename TB,
          typename LB, typename TC>
void mma_sync(fragment<accumulator, M, N, K, TC> &d,
              const fragment<matrix_a, M, N, K, TA, LA> &a,
              const fragment<matrix_b, M, N, K, TB, LB> &b,
              const fragment<accumulator, M, N, K, TC> &c) {
  constexpr bool tf32 = std::is_same<TA, precision::tf32>::value;
  TC result[M * N];
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float sum = detail::value(c.x[i * N + j]);
      for (int k = 0; k < K; ++k) {
        float x = detail::value(a.x[i * K + k]);
        float y = detail::value(b.x[k * N + j]);
        if (tf32) {
          x = detail::tf32Bits(x);
          y = detail::tf32Bits(y);
        }
        sum += x * y;
      }
      result[i * N + j] = sum;
    }
  std::memcpy(d.x, result, sizeof result);
}

/* Rounds to the nearest tf32 (ties away from zero), as cvt.rna.tf32.f32. */
inline float __float_to_tf32(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  if ((bits & 0x7f800000u) != 0x7f800000u) /* not Inf or NaN */
    bits = (bits + 0x1000u) & 0xffffe000u;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

} // namespace wmma
} // namespace nvcuda

#endif /* TGC_GPU_EMU_MMA_H */
