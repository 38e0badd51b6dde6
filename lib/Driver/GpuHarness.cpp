//===- GpuHarness.cpp - a main() around a CUDA or Metal package -*- C++ -*-===//
//
// The GPU harnesses do what the C one does (Harness.cpp) through the
// package's API: device buffers for the inputs, outputs, arena and
// weights, a one-time weight upload, one run, the outputs copied back.
// They are C++ (the Metal API is metal-cpp; the CUDA one is compiled by
// nvcc or, emulated, by a C++ compiler), and fill the I/O structs by
// position, as the C harness does. The CUDA timing main of `tgc bench`
// shares their pieces and times runs and kernels with cudaEvents.
//
//===----------------------------------------------------------------------===//

#include "Driver/GpuRunner.h"
#include "Driver/Harness.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace mlir::tgc {
namespace {

// Shared by all GPU harnesses, with read_raw (cRawFileFunctions): {0} the
// package name, {1} its macro prefix, {2} the I/O table (cIoTable).
constexpr const char *kCommon = R"c(#include "{0}.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
{2}
static void check_status(int status, const char *what) {{
  if (status != {1}_OK) {{
    fprintf(stderr, "harness: %s returned %d\n", what, status);
    exit(3);
  }
}
)c";

// The CUDA helpers of both CUDA harnesses (after kCommon and read_raw).
constexpr const char *kCudaCommon = R"c(
#include <cuda_runtime.h>

static void check(cudaError_t error, const char *what) {{
  if (error != cudaSuccess) {{
    fprintf(stderr, "harness: %s: %s\n", what, cudaGetErrorString(error));
    exit(3);
  }
}

static void *device_alloc(size_t bytes) {{
  void *pointer = NULL;
  check(cudaMalloc(&pointer, bytes ? bytes : 1), "cudaMalloc");
  return pointer;
}

/* A device pointer of whatever type a struct member has. */
struct device_ptr {{
  void *pointer;
  template <class T> operator T *() const {{ return static_cast<T *>(pointer); }
};

/* The device buffers of a run: the arena, the weights (uploaded), each
   input (read from input_files[i] and copied over) and each output. */
static void alloc_run_buffers(cudaStream_t stream, char **input_files,
                              void **arena, void **weights, void **in,
                              void **out) {{
  void *host;
  int i;
  *arena = device_alloc({1}_ARENA_BYTES);
  *weights = device_alloc({1}_WEIGHTS_BYTES);
  check_status({0}_upload_weights(*weights, stream), "{0}_upload_weights");
  for (i = 0; i < NUM_IN; ++i) {{
    host = read_raw(input_files[i], in_bytes[i]);
    in[i] = device_alloc(in_bytes[i]);
    check(cudaMemcpy(in[i], host, in_bytes[i], cudaMemcpyHostToDevice),
          "cudaMemcpy to the device");
    free(host);
  }
  for (i = 0; i < NUM_OUT; ++i)
    out[i] = device_alloc(out_bytes[i]);
}
)c";

// {0} the package name, {1} its macro prefix, {3}/{4} the struct
// initializers.
constexpr const char *kCuda = R"c(
int main(int argc, char **argv) {{
  void *in[NUM_IN + 1], *out[NUM_OUT + 1], *host;
  void *arena, *weights;
  cudaStream_t stream;
  int i;
  if (argc != 1 + NUM_IN + NUM_OUT) {{
    fprintf(stderr, "harness: expected %d input and %d output files\n",
            NUM_IN, NUM_OUT);
    return 2;
  }
  check(cudaStreamCreate(&stream), "cudaStreamCreate");
  alloc_run_buffers(stream, argv + 1, &arena, &weights, in, out);
  {{
    {0}_inputs inputs = {3};
    {0}_outputs outputs = {4};
    check_status({0}_run(&inputs, &outputs, arena, weights, stream),
                 "{0}_run");
  }
  check(cudaStreamSynchronize(stream), "the run");
  check(cudaGetLastError(), "the run");
  for (i = 0; i < NUM_OUT; ++i) {{
    host = malloc(out_bytes[i] ? out_bytes[i] : 1);
    check(cudaMemcpy(host, out[i], out_bytes[i], cudaMemcpyDeviceToHost),
          "cudaMemcpy from the device");
    write_raw(argv[1 + NUM_IN + i], host, out_bytes[i]);
    free(host);
  }
  return 0;
}
)c";

constexpr const char *kMetal = R"c(
static MTL::Buffer *new_buffer(MTL::Device *device, size_t bytes,
                               MTL::ResourceOptions storage) {{
  MTL::Buffer *buffer = device->newBuffer(bytes ? bytes : 1, storage);
  if (!buffer) {{
    fprintf(stderr, "harness: newBuffer failed\n");
    exit(3);
  }
  return buffer;
}

int main(int argc, char **argv) {{
  MTL::Buffer *in[NUM_IN + 1], *out[NUM_OUT + 1];
  void *host;
  int i;
  if (argc != 1 + NUM_IN + NUM_OUT) {{
    fprintf(stderr, "harness: expected %d input and %d output files\n",
            NUM_IN, NUM_OUT);
    return 2;
  }
  NS::AutoreleasePool *pool = NS::AutoreleasePool::alloc()->init();
  MTL::Device *device = MTL::CreateSystemDefaultDevice();
  if (!device) {{
    fprintf(stderr, "harness: no Metal device\n");
    return 3;
  }
  {0}_metal state;
  check_status({0}_metal_init(&state, device), "{0}_metal_init");
  MTL::Buffer *arena =
      new_buffer(device, {1}_ARENA_BYTES, MTL::ResourceStorageModePrivate);
  MTL::Buffer *weights =
      new_buffer(device, {1}_WEIGHTS_BYTES, MTL::ResourceStorageModeShared);
  check_status({0}_upload_weights(weights), "{0}_upload_weights");
  for (i = 0; i < NUM_IN; ++i) {{
    host = read_raw(argv[1 + i], in_bytes[i]);
    in[i] = new_buffer(device, in_bytes[i], MTL::ResourceStorageModeShared);
    memcpy(in[i]->contents(), host, in_bytes[i]);
    free(host);
  }
  for (i = 0; i < NUM_OUT; ++i)
    out[i] = new_buffer(device, out_bytes[i], MTL::ResourceStorageModeShared);
  MTL::CommandQueue *queue = device->newCommandQueue();
  MTL::CommandBuffer *commands = queue->commandBuffer();
  {{
    {0}_inputs inputs = {3};
    {0}_outputs outputs = {4};
    check_status({0}_run(&state, &inputs, &outputs, arena, weights, commands),
                 "{0}_run");
  }
  commands->commit();
  commands->waitUntilCompleted();
  if (commands->status() != MTL::CommandBufferStatusCompleted) {{
    NS::Error *error = commands->error();
    fprintf(stderr, "harness: the command buffer failed: %s\n",
            error ? error->localizedDescription()->utf8String() : "?");
    return 3;
  }
  for (i = 0; i < NUM_OUT; ++i)
    write_raw(argv[1 + NUM_IN + i], out[i]->contents(), out_bytes[i]);
  for (i = 0; i < NUM_IN; ++i)
    in[i]->release();
  for (i = 0; i < NUM_OUT; ++i)
    out[i]->release();
  arena->release();
  weights->release();
  queue->release();
  {0}_metal_release(&state);
  device->release();
  pool->release();
  return 0;
}
)c";

// The timing main of `tgc bench --target cuda`, arguments as kCuda's. Every
// timed run is measured by events on the stream,
// so what is timed is the GPU's work, launch gaps included.
constexpr const char *kCudaBench = R"c(
static float elapsed(cudaEvent_t start, cudaEvent_t end) {{
  float ms = 0;
  check(cudaEventSynchronize(end), "cudaEventSynchronize");
  check(cudaEventElapsedTime(&ms, start, end), "cudaEventElapsedTime");
  return ms;
}

int main(int argc, char **argv) {{
  void *in[NUM_IN + 1], *out[NUM_OUT + 1];
  void *arena, *weights;
  cudaStream_t stream;
  cudaEvent_t start, end, marks[{1}_NUM_KERNELS + 1];
  cudaDeviceProp prop;
  long iterations, i, k, warm_runs;
  float warm_ms = 0;
  if (argc != 2 + NUM_IN) {{
    fprintf(stderr, "bench: expected ITERATIONS and %d input files\n", NUM_IN);
    return 2;
  }
  iterations = strtol(argv[1], NULL, 10);
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  printf("device %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor,
         prop.multiProcessorCount);
  check(cudaStreamCreate(&stream), "cudaStreamCreate");
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&end), "cudaEventCreate");
  for (k = 0; k <= {1}_NUM_KERNELS; ++k)
    check(cudaEventCreate(&marks[k]), "cudaEventCreate");
  alloc_run_buffers(stream, argv + 2, &arena, &weights, in, out);
  {{
    {0}_inputs inputs = {3};
    {0}_outputs outputs = {4};
    /* Warm up (clocks, caches, lazy module loading): at least 3 runs and
       100 ms, at most 1000 runs; they also size the measurement. */
    for (warm_runs = 0; warm_runs < 1000 && (warm_runs < 3 || warm_ms < 100);
         ++warm_runs) {{
      check(cudaEventRecord(start, stream), "cudaEventRecord");
      check_status({0}_run(&inputs, &outputs, arena, weights, stream),
                   "{0}_run");
      check(cudaEventRecord(end, stream), "cudaEventRecord");
      warm_ms += elapsed(start, end);
    }
    if (iterations <= 0) {{
      iterations = warm_ms > 0 ? (long)(1000.0 * warm_runs / warm_ms) : 10000;
      iterations = iterations < 10 ? 10 : iterations > 10000 ? 10000 : iterations;
    }
    /* The latency of whole runs, then each kernel's time: the events
       between kernels are left out of the first. */
    for (i = 0; i < iterations; ++i) {{
      check(cudaEventRecord(start, stream), "cudaEventRecord");
      check_status({0}_run(&inputs, &outputs, arena, weights, stream),
                   "{0}_run");
      check(cudaEventRecord(end, stream), "cudaEventRecord");
      printf("run %.6f\n", elapsed(start, end));
    }
    for (i = 0; i < iterations; ++i) {{
      check_status({0}_run_timed(&inputs, &outputs, arena, weights, stream,
                                 marks),
                   "{0}_run_timed");
      check(cudaEventSynchronize(marks[{1}_NUM_KERNELS]),
            "cudaEventSynchronize");
      printf("kernels");
      for (k = 0; k < {1}_NUM_KERNELS; ++k)
        printf(" %.6f", elapsed(marks[k], marks[k + 1]));
      printf("\n");
    }
  }
  check(cudaStreamSynchronize(stream), "the runs");
  check(cudaGetLastError(), "the runs");
  return 0;
}
)c";

/// The format arguments of every harness piece.
std::string formatHarness(const char *text, const ModelSignature &signature,
                          StringRef name, StringRef wrap) {
  return formatv(text, name, name.upper(), cIoTable(name, signature),
                 cStructInitializer("in", signature.inputs.size(), wrap),
                 cStructInitializer("out", signature.outputs.size(), wrap))
      .str();
}

} // namespace

std::string generateCudaBenchHarness(const ModelSignature &signature,
                                     StringRef name) {
  std::string head = "/* Generated by tgc bench: times the CUDA package " +
                     name.str() + " and each of its kernels. */\n";
  auto format = [&](const char *text) {
    return formatHarness(text, signature, name, "device_ptr");
  };
  return head + format(kCommon) +
         cRawFileFunctions("harness", /*withWrite=*/false) +
         format(kCudaCommon) + format(kCudaBench);
}

std::string generateGpuHarness(const ModelSignature &signature,
                               StringRef name, StringRef target) {
  bool cuda = target == "cuda";
  std::string head =
      cuda ? "/* Generated by tgc: runs the CUDA package " + name.str() +
                 " on raw inputs, writes raw outputs. */\n"
           : "/* Generated by tgc: runs the Metal package " + name.str() +
                 " on raw inputs, writes raw outputs. */\n"
                 "#define NS_PRIVATE_IMPLEMENTATION\n"
                 "#define MTL_PRIVATE_IMPLEMENTATION\n"
                 "#include <Metal/Metal.hpp>\n\n";
  StringRef wrap = cuda ? "device_ptr" : "";
  auto format = [&](const char *text) {
    return formatHarness(text, signature, name, wrap);
  };
  std::string body =
      head + format(kCommon) + cRawFileFunctions("harness", /*withWrite=*/true);
  if (cuda)
    return body + format(kCudaCommon) + format(kCuda);
  return body + format(kMetal);
}

} // namespace mlir::tgc
