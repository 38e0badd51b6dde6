/* tgc_gpu_emu.cpp: the block scheduler and the device memory registry.
 *
 * A block starts its thread 0 on a stack of its own (a ucontext). If that
 * thread finishes without reaching a barrier, the kernel has none (tgc's
 * barriers are reached by every thread of a block, unconditionally), and
 * the other threads run as plain calls, one after the other; a barrier
 * reached then is an error. Otherwise every thread gets a stack and the
 * block runs in rounds: each thread runs until its next barrier or its
 * end; a round in which some threads ended while others wait at a barrier
 * is an error (a GPU would hang or misbehave).
 */
#include "tgc_gpu_emu.h"

#include <ucontext.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tgc_emu {

thread_local Position current;

namespace {

/* Kernels keep little on the stack (their register arrays), but the
   emulated build may be unoptimized or sanitized. */
constexpr size_t kStackBytes = 512 * 1024;

enum class State { Ready, Waiting, Done };

struct Fiber {
  ucontext_t context;
  std::unique_ptr<char[]> stack;
  uint3 thread;
  State state = State::Done;
};

/* Thrown by barrier() in a block whose thread 0 ended without one. */
struct UnexpectedBarrier {};

/* The threads of the block an OS thread is running. */
struct BlockRunner {
  ucontext_t scheduler;
  std::vector<Fiber> fibers;
  Fiber *running = nullptr;
  bool direct = false;
  const std::function<void()> *body = nullptr;
  std::string error;
};

thread_local BlockRunner *runner = nullptr;

uint3 threadAt(unsigned long long linear, uint3 blockDim) {
  uint3 t;
  t.x = unsigned(linear % blockDim.x);
  t.y = unsigned(linear / blockDim.x % blockDim.y);
  t.z = unsigned(linear / blockDim.x / blockDim.y);
  return t;
}

std::string where(uint3 t) {
  char text[96];
  std::snprintf(text, sizeof text, "block (%u, %u, %u) thread (%u, %u, %u)",
                current.block.x, current.block.y, current.block.z, t.x, t.y,
                t.z);
  return text;
}

void noteError(BlockRunner &r, const std::string &message) {
  if (r.error.empty())
    r.error = message;
}

/* What a fiber runs: the kernel for one thread, then back to the
   scheduler (through uc_link). */
void fiberMain() {
  BlockRunner &r = *runner;
  Fiber *self = r.running;
  try {
    (*r.body)();
  } catch (const std::exception &e) {
    noteError(r, where(self->thread) + ": " + e.what());
  } catch (...) {
    noteError(r, where(self->thread) + ": the kernel threw");
  }
  self->state = State::Done;
}

void start(BlockRunner &r, Fiber &f, uint3 thread) {
  if (!f.stack)
    f.stack.reset(new char[kStackBytes]);
  getcontext(&f.context);
  f.context.uc_stack.ss_sp = f.stack.get();
  f.context.uc_stack.ss_size = kStackBytes;
  f.context.uc_link = &r.scheduler;
  makecontext(&f.context, fiberMain, 0);
  f.thread = thread;
  f.state = State::Ready;
}

void resume(BlockRunner &r, Fiber &f) {
  r.running = &f;
  current.thread = f.thread;
  swapcontext(&r.scheduler, &f.context);
  r.running = nullptr;
}

/* Runs every thread of the block `current.block`. */
void runBlock(BlockRunner &r) {
  uint3 dim = current.blockDim;
  unsigned long long threads = 1ull * dim.x * dim.y * dim.z;
  if (r.fibers.size() < threads)
    r.fibers.resize(threads);

  start(r, r.fibers[0], threadAt(0, dim));
  resume(r, r.fibers[0]);
  if (r.fibers[0].state == State::Done) {
    r.direct = true;
    for (unsigned long long i = 1; i < threads && r.error.empty(); ++i) {
      uint3 t = threadAt(i, dim);
      current.thread = t;
      try {
        (*r.body)();
      } catch (UnexpectedBarrier) {
        noteError(r, where(t) + ": reached a barrier that thread (0, 0, 0) "
                                "of its block never reached");
      } catch (const std::exception &e) {
        noteError(r, where(t) + ": " + e.what());
      } catch (...) {
        noteError(r, where(t) + ": the kernel threw");
      }
    }
    r.direct = false;
    return;
  }

  for (unsigned long long i = 1; i < threads; ++i)
    start(r, r.fibers[i], threadAt(i, dim));
  for (unsigned round = 1;; ++round) {
    for (unsigned long long i = 0; i < threads; ++i)
      if (r.fibers[i].state == State::Ready)
        resume(r, r.fibers[i]);
    unsigned long long waiting = 0, done = 0;
    for (unsigned long long i = 0; i < threads; ++i)
      (r.fibers[i].state == State::Waiting ? waiting : done) += 1;
    if (waiting == 0 || !r.error.empty())
      return;
    if (done != 0) {
      noteError(r, where(current.thread) + ": barrier " +
                       std::to_string(round) + " of the block is reached by " +
                       std::to_string(waiting) + " of its " +
                       std::to_string(threads) + " threads; the others ended");
      return;
    }
    for (unsigned long long i = 0; i < threads; ++i)
      r.fibers[i].state = State::Ready;
  }
}

std::atomic<unsigned> workerSetting{0};

unsigned workerCount(unsigned long long blocks) {
  unsigned workers = workerSetting.load();
  if (workers == 0)
    workers = std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
  return unsigned(std::min<unsigned long long>(workers, blocks));
}

std::string checkSizes(uint3 grid, uint3 block, const Limits &limits) {
  unsigned long long g[3] = {grid.x, grid.y, grid.z};
  unsigned b[3] = {block.x, block.y, block.z};
  static const char axis[] = "xyz";
  for (int i = 0; i < 3; ++i) {
    if (g[i] == 0 || b[i] == 0)
      return "a launch of zero blocks or threads";
    if (g[i] > limits.maxGridDim[i])
      return std::string("the grid is ") + std::to_string(g[i]) +
             " blocks along " + axis[i] + ", more than the limit of " +
             std::to_string(limits.maxGridDim[i]);
    if (b[i] > limits.maxBlockDim[i])
      return std::string("a block is ") + std::to_string(b[i]) +
             " threads along " + axis[i] + ", more than the limit of " +
             std::to_string(limits.maxBlockDim[i]);
  }
  unsigned long long threads = 1ull * b[0] * b[1] * b[2];
  if (threads > limits.maxThreadsPerBlock)
    return "a block of " + std::to_string(threads) +
           " threads, more than the limit of " +
           std::to_string(limits.maxThreadsPerBlock);
  return "";
}

struct Allocation {
  size_t bytes;
  void *base;
};
std::mutex memoryMutex;
std::map<uintptr_t, Allocation> allocations;

} // namespace

const Limits &cudaLimits() {
  static const Limits limits = {1024, {1024, 1024, 64}, {2147483647ull, 65535, 65535}};
  return limits;
}

const Limits &metalLimits() {
  static const Limits limits = {
      1024, {1024, 1024, 1024}, {4294967295ull, 4294967295ull, 4294967295ull}};
  return limits;
}

void setWorkerThreads(unsigned threads) { workerSetting = threads; }

void barrier() {
  BlockRunner *r = runner;
  if (!r) {
    std::fprintf(stderr, "tgc_gpu_emu: a barrier outside a kernel launch\n");
    std::abort();
  }
  if (r->direct)
    throw UnexpectedBarrier();
  Fiber *self = r->running;
  self->state = State::Waiting;
  swapcontext(&self->context, &r->scheduler);
}

std::string launch(uint3 grid, uint3 block, const Limits &limits,
                   const std::function<void()> &body) {
  std::string problem = checkSizes(grid, block, limits);
  if (!problem.empty())
    return problem;
  unsigned long long blocks = 1ull * grid.x * grid.y * grid.z;
  std::atomic<unsigned long long> next{0};
  std::mutex errorMutex;
  std::string firstError;

  auto work = [&]() {
    BlockRunner r;
    r.body = &body;
    BlockRunner *saved = runner;
    runner = &r;
    current.gridDim = grid;
    current.blockDim = block;
    for (;;) {
      unsigned long long i = next.fetch_add(1);
      if (i >= blocks)
        break;
      current.block.x = unsigned(i % grid.x);
      current.block.y = unsigned(i / grid.x % grid.y);
      current.block.z = unsigned(i / grid.x / grid.y);
      runBlock(r);
      if (!r.error.empty()) {
        next = blocks; // stop the other workers early
        break;
      }
    }
    runner = saved;
    if (!r.error.empty()) {
      std::lock_guard<std::mutex> lock(errorMutex);
      if (firstError.empty())
        firstError = r.error;
    }
  };

  unsigned workers = workerCount(blocks);
  if (workers <= 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    for (unsigned i = 0; i < workers; ++i)
      pool.emplace_back(work);
    for (std::thread &t : pool)
      t.join();
  }
  return firstError;
}

void *deviceAlloc(size_t bytes, size_t align) {
  size_t size = (std::max<size_t>(bytes, 1) + align - 1) / align * align;
  void *pointer = std::aligned_alloc(align, size);
  if (!pointer)
    return nullptr;
  /* What a kernel reads before anything wrote it is garbage on a GPU;
     here it is NaN in every float lane, so such a read shows up. */
  std::memset(pointer, 0xff, size);
  std::lock_guard<std::mutex> lock(memoryMutex);
  allocations[reinterpret_cast<uintptr_t>(pointer)] = {bytes, pointer};
  return pointer;
}

bool deviceFree(void *pointer) {
  std::lock_guard<std::mutex> lock(memoryMutex);
  auto it = allocations.find(reinterpret_cast<uintptr_t>(pointer));
  if (it == allocations.end())
    return false;
  std::free(it->second.base);
  allocations.erase(it);
  return true;
}

bool isDevice(const void *pointer, size_t bytes) {
  uintptr_t at = reinterpret_cast<uintptr_t>(pointer);
  std::lock_guard<std::mutex> lock(memoryMutex);
  auto it = allocations.upper_bound(at);
  if (it == allocations.begin())
    return false;
  --it;
  return at >= it->first && at - it->first + bytes <= it->second.bytes;
}

} // namespace tgc_emu
