/* tgc_gpu_emu.h: runs GPU kernels on the CPU, for tests.
 *
 * tgc's CUDA and Metal packages are checked on machines without a GPU by
 * compiling their kernels as C++ (cuda_runtime.h and metal_stdlib in this
 * folder map the kernel languages onto it) and executing each launch here,
 * with its real grid and block sizes: every block runs its threads, each
 * thread on its own stack as soon as one of them reaches a barrier, so a
 * barrier waits until every thread of the block has reached it, as on a
 * GPU. Shared (threadgroup) memory is a static thread_local array of the
 * kernel: one block runs at a time on an OS thread.
 *
 * What a GPU would reject is an error here too: launch sizes beyond the
 * hardware limits, a barrier that some threads of a block never reach,
 * pointers passed to a kernel that are not device memory, copies in the
 * wrong direction. Test code only; nothing here ships in a package.
 */
#ifndef TGC_GPU_EMU_H
#define TGC_GPU_EMU_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

/* CUDA's uint3 and Metal's uint3: three unsigned coordinates. */
struct uint3 {
  unsigned int x, y, z;
};

namespace tgc_emu {

/* Where the running GPU thread is; set before a thread starts or resumes. */
struct Position {
  uint3 block;    /* blockIdx, threadgroup_position_in_grid */
  uint3 thread;   /* threadIdx, thread_position_in_threadgroup */
  uint3 gridDim;  /* blocks in the grid */
  uint3 blockDim; /* threads in a block */
};
extern thread_local Position current;

/* The limits a launch must respect (those of every GPU tgc targets: CUDA
   compute capability 7.5 and up, Apple GPUs of the Metal 3 family). */
struct Limits {
  unsigned maxThreadsPerBlock;
  unsigned maxBlockDim[3];
  unsigned long long maxGridDim[3];
};
const Limits &cudaLimits();
const Limits &metalLimits();

/* Runs `thread` once for every thread of every block of the grid. Returns
   an empty string, or why the launch is invalid or failed (the kernel's
   threads disagreeing on barriers, an exception from the kernel). */
std::string launch(uint3 grid, uint3 block, const Limits &limits,
                   const std::function<void()> &thread);

/* Waits until every thread of the current block has called it. */
void barrier();

/* Device memory: host memory that the emulator knows, so that kernels and
   copies can be checked against it. */
void *deviceAlloc(size_t bytes, size_t align);
bool deviceFree(void *pointer);
/* True if [pointer, pointer + bytes) lies in one device allocation. */
bool isDevice(const void *pointer, size_t bytes);

/* Blocks run on this many OS threads (default: the CPUs, at most 8). */
void setWorkerThreads(unsigned threads);

} // namespace tgc_emu

#endif /* TGC_GPU_EMU_H */
