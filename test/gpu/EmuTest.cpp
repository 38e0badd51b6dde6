// Tests of the GPU emulation (lib/Runtime/gpu_emu) itself: that blocks run
// with their real sizes, that barriers hold every thread of a block, and
// that what a GPU would reject is an error here too, and that tensor-core
// tiles (CUDA's wmma, Metal's simdgroup matrices) compute matrix products.
// The kernels are written by hand in CUDA C++ (here and in
// EmuTensorCores.cuh) and Metal (EmuKernels.metal), compiled against the
// emulation as tgc's packages are.
#include <cuda_runtime.h>

#include "EmuTensorCores.cuh"
#include "Metal/Metal.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

static int failures = 0;

#define EXPECT(condition)                                                      \
  do {                                                                         \
    if (!(condition)) {                                                        \
      std::fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__,          \
                   #condition);                                                \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

// Each block reverses its slice of `in` through shared memory.
extern "C" __global__ void reverse_blocks(const float *in, float *out) {
  __shared__ float slice[256];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  slice[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = slice[blockDim.x - 1 - threadIdx.x];
}

// Every thread writes where it is: x + 10 y + 100 z of the block and of
// the thread in it.
extern "C" __global__ void positions(int *out) {
  unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned thread =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned i = block * blockDim.x * blockDim.y * blockDim.z + thread;
  out[2 * i] = blockIdx.x + 10 * blockIdx.y + 100 * blockIdx.z;
  out[2 * i + 1] = threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z;
}

// Only half of the threads reach the barrier: a GPU hangs or misbehaves.
extern "C" __global__ void half_barrier(float *out) {
  if (threadIdx.x < 16)
    __syncthreads();
  out[threadIdx.x] = 1.0f;
}

// Thread 0 skips the barrier the others reach.
extern "C" __global__ void late_barrier(float *out) {
  if (threadIdx.x != 0)
    __syncthreads();
  out[threadIdx.x] = 1.0f;
}

static float *deviceCopy(const std::vector<float> &host) {
  float *device = nullptr;
  EXPECT(cudaMalloc((void **)&device, host.size() * sizeof(float)) ==
         cudaSuccess);
  EXPECT(cudaMemcpy(device, host.data(), host.size() * sizeof(float),
                    cudaMemcpyHostToDevice) == cudaSuccess);
  return device;
}

static void testBarriers(unsigned workers) {
  tgc_emu::setWorkerThreads(workers);
  std::vector<float> host(1024);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = float(i);
  float *in = deviceCopy(host), *out = nullptr;
  EXPECT(cudaMalloc((void **)&out, 1024 * sizeof(float)) == cudaSuccess);
  void *args[] = {&in, &out};
  EXPECT(cudaLaunchKernel(reverse_blocks, dim3(4), dim3(256), args, 0, 0) ==
         cudaSuccess);
  std::vector<float> result(1024);
  EXPECT(cudaMemcpy(result.data(), out, 1024 * sizeof(float),
                    cudaMemcpyDeviceToHost) == cudaSuccess);
  for (unsigned b = 0; b < 4; ++b)
    for (unsigned t = 0; t < 256; ++t)
      EXPECT(result[b * 256 + t] == float(b * 256 + 255 - t));
  cudaFree(in);
  cudaFree(out);
  tgc_emu::setWorkerThreads(0);
}

static void testPositions() {
  dim3 grid(3, 2, 2), block(4, 3, 2);
  unsigned n = 3 * 2 * 2 * 4 * 3 * 2;
  int *out = nullptr;
  EXPECT(cudaMalloc((void **)&out, 2 * n * sizeof(int)) == cudaSuccess);
  void *args[] = {&out};
  EXPECT(cudaLaunchKernel(positions, grid, block, args, 0, 0) == cudaSuccess);
  std::vector<int> result(2 * n);
  EXPECT(cudaMemcpy(result.data(), out, result.size() * sizeof(int),
                    cudaMemcpyDeviceToHost) == cudaSuccess);
  unsigned i = 0;
  for (unsigned bz = 0; bz < 2; ++bz)
    for (unsigned by = 0; by < 2; ++by)
      for (unsigned bx = 0; bx < 3; ++bx)
        for (unsigned tz = 0; tz < 2; ++tz)
          for (unsigned ty = 0; ty < 3; ++ty)
            for (unsigned tx = 0; tx < 4; ++tx, ++i) {
              EXPECT(result[2 * i] == int(bx + 10 * by + 100 * bz));
              EXPECT(result[2 * i + 1] == int(tx + 10 * ty + 100 * tz));
            }
  cudaFree(out);
}

static void testErrors() {
  float *out = nullptr;
  EXPECT(cudaMalloc((void **)&out, 64 * sizeof(float)) == cudaSuccess);
  void *args[] = {&out};

  EXPECT(cudaLaunchKernel(half_barrier, dim3(1), dim3(32), args, 0, 0) ==
         cudaErrorLaunchFailure);
  EXPECT(std::strstr(cudaGetErrorString(cudaGetLastError()),
                     "reached by 16 of its 32 threads"));
  EXPECT(cudaLaunchKernel(late_barrier, dim3(1), dim3(32), args, 0, 0) ==
         cudaErrorLaunchFailure);
  EXPECT(std::strstr(cudaGetErrorString(cudaGetLastError()),
                     "never reached"));

  // Sizes past the hardware limits.
  EXPECT(cudaLaunchKernel(half_barrier, dim3(1), dim3(2048), args, 0, 0) ==
         cudaErrorInvalidConfiguration);
  EXPECT(cudaLaunchKernel(half_barrier, dim3(1, 70000), dim3(1), args, 0, 0) ==
         cudaErrorInvalidConfiguration);
  EXPECT(cudaLaunchKernel(half_barrier, dim3(1), dim3(1, 1, 65), args, 0, 0) ==
         cudaErrorInvalidConfiguration);

  // Host memory is not device memory, for kernels and for copies.
  float host[64];
  float *hostPointer = host;
  void *hostArgs[] = {&hostPointer};
  EXPECT(cudaLaunchKernel(half_barrier, dim3(1), dim3(1), hostArgs, 0, 0) ==
         cudaErrorInvalidDevicePointer);
  EXPECT(cudaMemcpy(host, out, sizeof host, cudaMemcpyHostToDevice) ==
         cudaErrorInvalidValue);
  EXPECT(cudaMemcpy(out, host, 2 * sizeof host, cudaMemcpyHostToDevice) ==
         cudaErrorInvalidValue); // past the allocation
  EXPECT(cudaFree(host) == cudaErrorInvalidDevicePointer);
  cudaGetLastError();
  cudaFree(out);
}

static void testMetal() {
  static const char source[] = "kernel void reverse_slices(...) {}";
  MTL::Device *device = MTL::CreateSystemDefaultDevice();
  MTL::CompileOptions *options = MTL::CompileOptions::alloc()->init();
  NS::Error *error = nullptr;
  // tgc's kernels need IEEE arithmetic: fast math must be off.
  EXPECT(!device->newLibrary(
      NS::String::string(source, NS::UTF8StringEncoding), options, &error));
  options->setFastMathEnabled(false);
  MTL::Library *library = device->newLibrary(
      NS::String::string(source, NS::UTF8StringEncoding), options, &error);
  EXPECT(library);
  EXPECT(!library->newFunction(
      NS::String::string("missing", NS::UTF8StringEncoding)));
  MTL::Function *function = library->newFunction(
      NS::String::string("reverse_slices", NS::UTF8StringEncoding));
  MTL::ComputePipelineState *pipeline =
      device->newComputePipelineState(function, &error);
  EXPECT(pipeline);

  MTL::Buffer *in = device->newBuffer(256 * sizeof(float),
                                      MTL::ResourceStorageModeShared);
  MTL::Buffer *out = device->newBuffer(256 * sizeof(float),
                                       MTL::ResourceStorageModeShared);
  for (int i = 0; i < 256; ++i)
    static_cast<float *>(in->contents())[i] = float(i);
  MTL::CommandQueue *queue = device->newCommandQueue();
  MTL::CommandBuffer *commands = queue->commandBuffer();
  MTL::ComputeCommandEncoder *encoder = commands->computeCommandEncoder();
  encoder->setComputePipelineState(pipeline);
  encoder->setBuffer(in, 0, 0);
  encoder->setBuffer(out, 0, 1);
  encoder->dispatchThreadgroups(MTL::Size(4, 1, 1), MTL::Size(64, 1, 1));
  encoder->endEncoding();
  // Nothing runs before the commit.
  EXPECT(static_cast<float *>(out->contents())[0] != 63.0f);
  commands->commit();
  commands->waitUntilCompleted();
  EXPECT(commands->status() == MTL::CommandBufferStatusCompleted);
  for (int b = 0; b < 4; ++b)
    for (int t = 0; t < 64; ++t)
      EXPECT(static_cast<float *>(out->contents())[b * 64 + t] ==
             float(b * 64 + 63 - t));

  // A buffer the kernel reads is not bound.
  commands = queue->commandBuffer();
  encoder = commands->computeCommandEncoder();
  encoder->setComputePipelineState(pipeline);
  encoder->setBuffer(out, 0, 1);
  encoder->dispatchThreadgroups(MTL::Size(4, 1, 1), MTL::Size(64, 1, 1));
  encoder->endEncoding();
  commands->commit();
  EXPECT(commands->status() == MTL::CommandBufferStatusError);
  EXPECT(commands->error() &&
         std::strstr(commands->error()->localizedDescription()->utf8String(),
                     "no buffer bound at index 0"));

  // Private storage has no CPU address.
  MTL::Buffer *hidden = device->newBuffer(16, MTL::ResourceStorageModePrivate);
  EXPECT(hidden->contents() == nullptr);

  hidden->release();
  in->release();
  out->release();
  queue->release();
  pipeline->release();
  function->release();
  library->release();
  options->release();
  device->release();
}

template <typename T> static T *deviceArray(const std::vector<T> &host) {
  T *device = nullptr;
  EXPECT(cudaMalloc((void **)&device, host.size() * sizeof(T)) == cudaSuccess);
  EXPECT(cudaMemcpy(device, host.data(), host.size() * sizeof(T),
                    cudaMemcpyHostToDevice) == cudaSuccess);
  return device;
}

// One warp of 32 threads multiplies through the emulated tensor cores.
static void testWmma() {
  const int k = 32;
  std::vector<__half> a(16 * k), b(k * 16); // b column-major
  std::vector<float> c(16 * 16), want(16 * 16);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      c[i * 16 + j] = float(i - j);
      want[i * 16 + j] = c[i * 16 + j];
      for (int kk = 0; kk < k; ++kk) {
        // Eighths, exact in half and in their float products and sums.
        float x = float((i * 3 + kk) % 7 - 3) / 8, y = float((kk + 2 * j) % 5 - 2) / 8;
        a[i * k + kk] = __float2half(x);
        b[j * k + kk] = __float2half(y);
        want[i * 16 + j] += x * y;
      }
    }
  __half *da = deviceArray(a), *db = deviceArray(b);
  float *dc = deviceArray(c);
  int kArg = k;
  void *args[] = {&da, &db, &dc, &kArg};
  EXPECT(cudaLaunchKernel(wmma_f16, dim3(1), dim3(32), args) == cudaSuccess);
  std::vector<float> got(16 * 16);
  EXPECT(cudaMemcpy(got.data(), dc, sizeof(float) * got.size(),
                    cudaMemcpyDeviceToHost) == cudaSuccess);
  EXPECT(got == want);

  // tf32: 1 + 3 * 2^-12 rounds to 1 + 2^-10 (10 mantissa bits); times
  // 1 + 2^-11 (rounds to 1 + 2^-10, ties away from zero) summed over k = 8.
  std::vector<float> fa(16 * 8, 1.0f + 3.0f / 4096), fb(8 * 16, 1.0f + 1.0f / 2048);
  float *dfa = deviceArray(fa), *dfb = deviceArray(fb);
  int k8 = 8;
  void *tfArgs[] = {&dfa, &dfb, &dc, &k8};
  EXPECT(cudaLaunchKernel(wmma_tf32, dim3(1), dim3(32), tfArgs) == cudaSuccess);
  EXPECT(cudaMemcpy(got.data(), dc, sizeof(float) * got.size(),
                    cudaMemcpyDeviceToHost) == cudaSuccess);
  float rounded = 1.0f + 1.0f / 1024;
  for (float value : got)
    EXPECT(value == 8 * rounded * rounded);
  EXPECT(__half2float(__float2half(0.1f)) == 0.0999755859375f);
  EXPECT(__half2float(__float2half(-65504.0f)) == -65504.0f);
  EXPECT(__half2float(__float2half(1e-7f)) == 1.1920928955078125e-07f);
  for (void *p : {(void *)da, (void *)db, (void *)dc, (void *)dfa, (void *)dfb})
    cudaFree(p);
}

// One simdgroup multiplies through simdgroup matrices.
static void testSimdgroupMatrices() {
  static const char source[] = "kernel void simdgroup_matmul(...) {}";
  MTL::Device *device = MTL::CreateSystemDefaultDevice();
  MTL::CompileOptions *options = MTL::CompileOptions::alloc()->init();
  options->setFastMathEnabled(false);
  NS::Error *error = nullptr;
  MTL::Library *library = device->newLibrary(
      NS::String::string(source, NS::UTF8StringEncoding), options, &error);
  MTL::Function *function = library->newFunction(
      NS::String::string("simdgroup_matmul", NS::UTF8StringEncoding));
  MTL::ComputePipelineState *pipeline =
      device->newComputePipelineState(function, &error);
  EXPECT(pipeline);
  MTL::Buffer *a = device->newBuffer(8 * 16 * sizeof(float),
                                     MTL::ResourceStorageModeShared);
  MTL::Buffer *bt = device->newBuffer(8 * 16 * sizeof(float),
                                      MTL::ResourceStorageModeShared);
  MTL::Buffer *c = device->newBuffer(8 * 8 * sizeof(float),
                                     MTL::ResourceStorageModeShared);
  float *pa = static_cast<float *>(a->contents());
  float *pbt = static_cast<float *>(bt->contents());
  for (int i = 0; i < 8 * 16; ++i) {
    pa[i] = float(i % 9) - 4;
    pbt[i] = float(i % 5) / 4;
  }
  MTL::CommandQueue *queue = device->newCommandQueue();
  MTL::CommandBuffer *commands = queue->commandBuffer();
  MTL::ComputeCommandEncoder *encoder = commands->computeCommandEncoder();
  encoder->setComputePipelineState(pipeline);
  encoder->setBuffer(a, 0, 0);
  encoder->setBuffer(bt, 0, 1);
  encoder->setBuffer(c, 0, 2);
  encoder->dispatchThreadgroups(MTL::Size(1, 1, 1), MTL::Size(32, 1, 1));
  encoder->endEncoding();
  commands->commit();
  commands->waitUntilCompleted();
  EXPECT(commands->status() == MTL::CommandBufferStatusCompleted);
  const float *pc = static_cast<const float *>(c->contents());
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      float want = 0;
      for (int k = 0; k < 16; ++k)
        want += pa[i * 16 + k] * pbt[j * 16 + k];
      EXPECT(pc[i * 8 + j] == want);
    }
  a->release();
  bt->release();
  c->release();
  queue->release();
  pipeline->release();
  function->release();
  library->release();
  options->release();
  device->release();
}

int main() {
  testBarriers(1);
  testBarriers(4);
  testPositions();
  testErrors();
  testMetal();
  testWmma();
  testSimdgroupMatrices();
  if (failures)
    std::fprintf(stderr, "%d expectations failed\n", failures);
  else
    std::printf("gpu emulation: all expectations hold\n");
  return failures ? 1 : 0;
}
