/* cuda_runtime.h: the CUDA runtime API and kernel language, emulated.
 *
 * Put this folder first on the include path and compile a .cu file as C++:
 * kernels become plain functions (`__global__`, `__device__` vanish,
 * `__shared__` memory is a static thread_local array, `__syncthreads` a
 * barrier of tgc_gpu_emu), device memory is host memory the emulator
 * tracks, and cudaLaunchKernel runs the kernel with its real grid and block
 * sizes. Only what tgc's packages, harnesses and benchmark use is here:
 * memory, copies, streams (executed in order at once), events, launches.
 */
#ifndef TGC_GPU_EMU_CUDA_RUNTIME_H
#define TGC_GPU_EMU_CUDA_RUNTIME_H

#include "tgc_gpu_emu.h"

#include <cmath>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

/* The kernel language. */
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __shared__ static thread_local
#define __syncthreads() tgc_emu::barrier()
#define threadIdx (tgc_emu::current.thread)
#define blockIdx (tgc_emu::current.block)
#define blockDim (tgc_emu::current.blockDim)
#define gridDim (tgc_emu::current.gridDim)

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int x = 1, unsigned int y = 1, unsigned int z = 1)
      : x(x), y(y), z(z) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

/* The runtime API. */
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorLaunchFailure = 719,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  int multiProcessorCount;
  int major, minor;
  int maxThreadsPerBlock;
};

cudaError_t cudaMalloc(void **pointer, size_t bytes);
cudaError_t cudaFree(void *pointer);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes,
                       cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes,
                            cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemset(void *dst, int value, size_t bytes);
cudaError_t cudaMemsetAsync(void *dst, int value, size_t bytes,
                            cudaStream_t stream = 0);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);

namespace tgc_emu {
/* Records `error` (with `message` for cudaGetErrorString) as the last
   error and returns it. */
cudaError_t fail(cudaError_t error, const std::string &message);

/* Why the kernel argument `value` of `param` (counted from 0) cannot be
   passed: a pointer must be null or point into device memory. */
template <typename T>
std::string checkArgument(const T &value, unsigned param) {
  if constexpr (std::is_pointer_v<T>) {
    if (value && !isDevice(static_cast<const void *>(value), 1))
      return "argument " + std::to_string(param) +
             " of the kernel is not a device pointer";
  }
  (void)value;
  (void)param;
  return "";
}

template <typename... Args, size_t... I>
cudaError_t launchCuda(void (*func)(Args...), dim3 grid, dim3 block,
                       void **args, std::index_sequence<I...>) {
  if (sizeof...(Args) != 0 && !args)
    return fail(cudaErrorInvalidValue, "cudaLaunchKernel: no arguments");
  /* Copies, as the CUDA runtime takes them at launch. */
  std::tuple<std::decay_t<Args>...> values{
      *static_cast<std::decay_t<Args> *>(args[I])...};
  std::string problem;
  ((problem.empty() ? (void)(problem = checkArgument(std::get<I>(values), I))
                    : (void)0),
   ...);
  if (!problem.empty())
    return fail(cudaErrorInvalidDevicePointer, "cudaLaunchKernel: " + problem);
  problem = launch(grid, block, cudaLimits(),
                   [&] { std::apply(func, values); });
  if (!problem.empty())
    return fail(problem.find("limit") != std::string::npos ||
                        problem.find("zero") != std::string::npos
                    ? cudaErrorInvalidConfiguration
                    : cudaErrorLaunchFailure,
                "cudaLaunchKernel: " + problem);
  return cudaSuccess;
}
} // namespace tgc_emu

/* The overload of cuda_runtime.h that takes the kernel itself; the runs in
   a stream are executed at once, in order. */
template <typename... Args>
cudaError_t cudaLaunchKernel(void (*func)(Args...), dim3 grid, dim3 block,
                             void **args, size_t sharedMem = 0,
                             cudaStream_t stream = 0) {
  (void)stream;
  if (sharedMem != 0)
    return tgc_emu::fail(cudaErrorInvalidValue,
                         "cudaLaunchKernel: dynamic shared memory is not "
                         "emulated");
  return tgc_emu::launchCuda(func, grid, block, args,
                             std::index_sequence_for<Args...>{});
}

#endif /* TGC_GPU_EMU_CUDA_RUNTIME_H */
