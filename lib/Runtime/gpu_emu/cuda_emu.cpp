/* cuda_emu.cpp: the CUDA runtime functions of cuda_runtime.h, on the CPU.
 *
 * Streams run their work at once, in order, so every call is synchronous;
 * events record the host clock. Copies check their direction against the
 * device memory registry: a host pointer passed as device memory (or the
 * reverse) is an error, as it would be on a GPU.
 */
#include "cuda_runtime.h"

#include <chrono>
#include <cstdio>
#include <string>

/* What a cudaEvent_t points to. */
struct CUevent_st {
  std::chrono::steady_clock::time_point at;
  bool recorded = false;
};

namespace {

thread_local cudaError_t lastError = cudaSuccess;
/* The last failure and what went wrong, kept after cudaGetLastError. */
thread_local cudaError_t lastFailure = cudaSuccess;
thread_local std::string lastMessage;

cudaError_t checkCopy(void *dst, const void *src, size_t bytes,
                      cudaMemcpyKind kind, const char *what) {
  bool dstDevice = tgc_emu::isDevice(dst, bytes);
  bool srcDevice = tgc_emu::isDevice(src, bytes);
  if (kind == cudaMemcpyDefault) {
    return cudaSuccess;
  }
  bool wantDst = kind == cudaMemcpyHostToDevice ||
                 kind == cudaMemcpyDeviceToDevice;
  bool wantSrc = kind == cudaMemcpyDeviceToHost ||
                 kind == cudaMemcpyDeviceToDevice;
  if (kind > cudaMemcpyDefault)
    return tgc_emu::fail(cudaErrorInvalidMemcpyDirection,
                         std::string(what) + ": not a copy direction");
  if (dstDevice != wantDst || srcDevice != wantSrc)
    return tgc_emu::fail(
        cudaErrorInvalidValue,
        std::string(what) + ": the " + (dstDevice != wantDst ? "destination"
                                                              : "source") +
            " is not " + ((dstDevice != wantDst ? wantDst : wantSrc)
                              ? "device memory (or the copy overruns it)"
                              : "host memory") +
            ", as the copy direction says");
  return cudaSuccess;
}

} // namespace

cudaError_t tgc_emu::fail(cudaError_t error, const std::string &message) {
  lastError = lastFailure = error;
  lastMessage = message;
  return error;
}

cudaError_t cudaMalloc(void **pointer, size_t bytes) {
  if (!pointer)
    return tgc_emu::fail(cudaErrorInvalidValue, "cudaMalloc: null pointer");
  /* The CUDA runtime aligns allocations to at least 256 bytes. */
  *pointer = tgc_emu::deviceAlloc(bytes, 256);
  if (!*pointer)
    return tgc_emu::fail(cudaErrorMemoryAllocation, "cudaMalloc: out of memory");
  return cudaSuccess;
}

cudaError_t cudaFree(void *pointer) {
  if (!pointer || tgc_emu::deviceFree(pointer))
    return cudaSuccess;
  return tgc_emu::fail(cudaErrorInvalidDevicePointer,
                       "cudaFree: not a device allocation");
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes,
                       cudaMemcpyKind kind) {
  if (bytes == 0)
    return cudaSuccess;
  if (cudaError_t error = checkCopy(dst, src, bytes, kind, "cudaMemcpy"))
    return error;
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes,
                            cudaMemcpyKind kind, cudaStream_t) {
  if (bytes == 0)
    return cudaSuccess;
  if (cudaError_t error = checkCopy(dst, src, bytes, kind, "cudaMemcpyAsync"))
    return error;
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemset(void *dst, int value, size_t bytes) {
  if (bytes && !tgc_emu::isDevice(dst, bytes))
    return tgc_emu::fail(cudaErrorInvalidValue,
                         "cudaMemset: not device memory");
  std::memset(dst, value, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *dst, int value, size_t bytes, cudaStream_t) {
  return cudaMemset(dst, value, bytes);
}

cudaError_t cudaStreamCreate(cudaStream_t *stream) {
  if (!stream)
    return tgc_emu::fail(cudaErrorInvalidValue, "cudaStreamCreate: null");
  static char token;
  *stream = reinterpret_cast<cudaStream_t>(&token);
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }

cudaError_t cudaGetDeviceCount(int *count) {
  if (!count)
    return tgc_emu::fail(cudaErrorInvalidValue, "cudaGetDeviceCount: null");
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess
                     : tgc_emu::fail(cudaErrorInvalidValue,
                                     "cudaSetDevice: one emulated device");
}

cudaError_t cudaGetDevice(int *device) {
  if (!device)
    return tgc_emu::fail(cudaErrorInvalidValue, "cudaGetDevice: null");
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
  if (!prop || device != 0)
    return tgc_emu::fail(cudaErrorInvalidValue, "cudaGetDeviceProperties");
  std::memset(prop, 0, sizeof *prop);
  std::snprintf(prop->name, sizeof prop->name, "tgc CPU emulation");
  prop->totalGlobalMem = size_t(1) << 34;
  prop->multiProcessorCount = 1;
  prop->major = 7;
  prop->minor = 5;
  prop->maxThreadsPerBlock = 1024;
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event) {
  if (!event)
    return tgc_emu::fail(cudaErrorInvalidValue, "cudaEventCreate: null");
  *event = new CUevent_st();
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (!event)
    return tgc_emu::fail(cudaErrorInvalidResourceHandle, "cudaEventRecord");
  event->at = std::chrono::steady_clock::now();
  event->recorded = true;
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return event ? cudaSuccess
               : tgc_emu::fail(cudaErrorInvalidResourceHandle,
                               "cudaEventSynchronize");
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms || !start || !end || !start->recorded || !end->recorded)
    return tgc_emu::fail(cudaErrorInvalidResourceHandle,
                         "cudaEventElapsedTime");
  *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return cudaSuccess;
}

cudaError_t cudaGetLastError(void) {
  cudaError_t error = lastError;
  lastError = cudaSuccess;
  return error;
}

cudaError_t cudaPeekAtLastError(void) { return lastError; }

const char *cudaGetErrorName(cudaError_t error) {
  switch (error) {
  case cudaSuccess: return "cudaSuccess";
  case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
  case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
  case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
  case cudaErrorInvalidMemcpyDirection:
    return "cudaErrorInvalidMemcpyDirection";
  case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
  case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
  }
  return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t error) {
  /* The emulator knows more than the code: say what went wrong. */
  if (error == lastFailure && !lastMessage.empty())
    return lastMessage.c_str();
  return cudaGetErrorName(error);
}
