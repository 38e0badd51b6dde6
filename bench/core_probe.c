/* core_probe.c: what the machine gives a second thread.
 *
 * A model split over two threads reads, in each kernel, part of what the
 * other thread wrote in the one before. What each such read costs is set
 * by the machine (how much an engine reads across is set by the engine):
 * on the virtual machine the benchmarks ran on, the same pair of vCPUs
 * read a 256 KiB buffer written by the other one 1.1 to 5.7 times as
 * slowly as one they wrote themselves within an hour.
 *
 * A second thread also needs a core of its own. The host may instead run
 * the two vCPUs on one core (on that machine each CPU's multiply-adds ran
 * at half speed while both ran them, for 200 ms at a time, and at full
 * speed a second later); a kernel that keeps the multiply-add units busy,
 * as a register-tiled one does, then gets nothing from a second thread.
 *
 * And it needs memory bandwidth. A model whose weights overflow the last
 * level cache streams them from memory every run, two threads twice as
 * fast: ResNet-18 compiled by tgc reads 81 MB of weights a run (Winograd
 * weights are 16/9 a 3x3 convolution's), each of its last stage's 16.8 MB
 * kernels at 21 GB/s on two threads. In one run of 600 of them on two
 * threads on that machine, the stretches of 10 runs at 13-14 ms came after
 * the two CPUs read 28-30 GB/s from memory together, those at 19-21 ms
 * after they read 20-22 GB/s, while their multiply-adds ran at full speed.
 *
 * Two threads pinned to CPUs 0 and 1 take turns: the writer fills the
 * buffer, the reader sums it and times the sum. The reader's own writes
 * give the baseline. Then each CPU runs multiply-adds alone (the faster
 * gives one core's speed), and both run them at once for kWindows windows
 * of kWindowSeconds. Last, each CPU reads a buffer of kStreamBytes of its
 * own, both at once. Prints one JSON object: local_us and cross_us, the
 * median read times, and ratio, cross_us / local_us; compute_scaling and
 * compute_scaling_min, the median and the lowest over the windows of how
 * many times one CPU's multiply-adds per second the two did together (2.0:
 * a core each; 1.0: one core between them); memory_gbps, what the two read
 * from memory per second together (the median of kStreamPasses passes).
 * bench/run.py prints them next to its thread-scaling figures.
 *
 *   cc -O3 -march=native -pthread bench/core_probe.c -o core_probe
 *   ./core_probe
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { kWords = 256 * 1024 / 4, kRounds = 200 };

/* Integers: their sum vectorizes. A float sum would be one chain of
   dependent adds, slower than either read and so blind to the difference. */
static unsigned buffer[kWords] __attribute__((aligned(64)));
/* Whose turn: 0 the reader writes or reads, 1 the other thread writes. */
static volatile int turn;

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static int pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void fill(unsigned value) {
  for (int i = 0; i < kWords; ++i)
    buffer[i] = value + (unsigned)i;
}

static unsigned sum(void) {
  unsigned total = 0;
  for (int i = 0; i < kWords; ++i)
    total += buffer[i];
  return total;
}

/* Multiply-adds in twelve independent chains of 8-lane vectors: more than
   two units of 4 cycles' latency keep in flight, so the units are the
   limit, as in a register-tiled kernel. A single chain waits on its own
   latency and leaves the units idle three cycles in four, so the other
   hyperthread of the core loses it nothing: it read 2.0 while two threads
   of these chains each ran at half speed. Every chain is summed at the
   end, or the compiler drops the ones nothing reads. Returns multiply-adds
   per second over about `seconds`. */
typedef float vec8 __attribute__((vector_size(32)));
enum { kChains = 12 };
static double multiply_adds_per_second(double seconds) {
  vec8 chains[kChains];
  const vec8 scale = {0.999999f, 0.999999f, 0.999999f, 0.999999f,
                      0.999999f, 0.999999f, 0.999999f, 0.999999f};
  const vec8 step = {1e-7f, 1e-7f, 1e-7f, 1e-7f, 1e-7f, 1e-7f, 1e-7f, 1e-7f};
  for (int i = 0; i < kChains; ++i)
    chains[i] = step * (float)i;
  long rounds = 0;
  double start = now_us(), elapsed;
  do {
    for (int repeat = 0; repeat < 1000; ++repeat)
#pragma GCC unroll 12
      for (int i = 0; i < kChains; ++i)
        chains[i] = chains[i] * scale + step;
    rounds += 1000;
    elapsed = now_us() - start;
  } while (elapsed < seconds * 1e6);
  vec8 total = chains[0];
  for (int i = 1; i < kChains; ++i)
    total += chains[i];
  volatile float sink = total[0];
  (void)sink;
  return rounds * (double)(kChains * 8) / (elapsed * 1e-6);
}

/* Windows short enough to see the placement change within a benchmark's
   run and long enough for the clock not to matter. */
enum { kWindows = 8 };
static const double kWindowSeconds = 0.025;

/* Returns once both threads have called it on `arrived` (from 0): the
   two CPUs then start their timed loops together. */
static void meet(int *arrived) {
  __atomic_add_fetch(arrived, 1, __ATOMIC_ACQ_REL);
  while (__atomic_load_n(arrived, __ATOMIC_ACQUIRE) < 2)
    ;
}

static double other_rates[kWindows];
static int compute_arrived;

static void *compute_on_cpu1(void *unused) {
  (void)unused;
  (void)pin(1);
  meet(&compute_arrived);
  for (int window = 0; window < kWindows; ++window)
    other_rates[window] = multiply_adds_per_second(kWindowSeconds);
  return NULL;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Twice the last level cache of the machines measured (32 MiB on Zen 3,
   35.75 on Cascade Lake), so that a pass reads from memory. */
enum { kStreamBytes = 64 << 20, kStreamPasses = 5 };
static unsigned *streams[2];
static double stream_seconds[2][kStreamPasses];
static int streams_arrived;

/* Reads CPU `cpu`'s buffer kStreamPasses times, timing each pass; the two
   CPUs start together. */
static void *stream_on(void *cpu_arg) {
  int cpu = (int)(size_t)cpu_arg;
  const unsigned *words = streams[cpu];
  volatile unsigned sink = 0;
  (void)pin(cpu);
  meet(&streams_arrived);
  for (int pass = 0; pass < kStreamPasses; ++pass) {
    unsigned total = 0;
    double start = now_us();
    for (size_t i = 0; i < kStreamBytes / sizeof(unsigned); ++i)
      total += words[i];
    stream_seconds[cpu][pass] = (now_us() - start) * 1e-6;
    sink += total;
  }
  (void)sink;
  return NULL;
}

/* What the two CPUs read from memory per second together, in GB/s (the
   median pass); 0 if the buffers cannot be had. */
static double memory_gbps(void) {
  pthread_t other;
  double rates[kStreamPasses];
  for (int cpu = 0; cpu < 2; ++cpu) {
    void *memory;
    if (posix_memalign(&memory, 64, kStreamBytes) != 0)
      return 0;
    /* Written first, so that every page is there to read. */
    memset(memory, cpu + 1, kStreamBytes);
    streams[cpu] = (unsigned *)memory;
  }
  if (pthread_create(&other, NULL, stream_on, (void *)(size_t)1) != 0)
    return 0;
  stream_on((void *)(size_t)0);
  pthread_join(other, NULL);
  for (int pass = 0; pass < kStreamPasses; ++pass)
    rates[pass] = kStreamBytes / stream_seconds[0][pass] * 1e-9 +
                  kStreamBytes / stream_seconds[1][pass] * 1e-9;
  free(streams[0]);
  free(streams[1]);
  qsort(rates, kStreamPasses, sizeof(double), compare);
  return rates[kStreamPasses / 2];
}

static void *writer(void *unused) {
  (void)unused;
  (void)pin(1);
  for (int round = 0; round < kRounds; ++round) {
    while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != 1)
      ;
    fill((unsigned)round);
    __atomic_store_n(&turn, 0, __ATOMIC_RELEASE);
  }
  return NULL;
}

int main(void) {
  static double local[kRounds], cross[kRounds];
  pthread_t thread;
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || pin(0) != 0 ||
      pthread_create(&thread, NULL, writer, NULL) != 0) {
    fprintf(stderr, "core_probe: needs two CPUs to pin threads to\n");
    return 1;
  }
  volatile unsigned sink = 0;
  for (int round = 0; round < kRounds; ++round) {
    fill((unsigned)round);
    double start = now_us();
    sink += sum();
    local[round] = now_us() - start;

    __atomic_store_n(&turn, 1, __ATOMIC_RELEASE);
    while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != 0)
      ;
    start = now_us();
    sink += sum();
    cross[round] = now_us() - start;
  }
  pthread_join(thread, NULL);
  qsort(local, kRounds, sizeof(double), compare);
  qsort(cross, kRounds, sizeof(double), compare);
  double local_us = local[kRounds / 2], cross_us = cross[kRounds / 2];

  /* One core's speed: the best of windows on each CPU alone (a window
     the host slowed would make the two look more than twice as fast). */
  double alone = 0;
  for (int cpu = 1; cpu >= 0; --cpu) {
    (void)pin(cpu);
    for (int window = 0; window < 4; ++window) {
      double rate = multiply_adds_per_second(kWindowSeconds);
      alone = rate > alone ? rate : alone;
    }
  }
  double scaling[kWindows];
  if (pthread_create(&thread, NULL, compute_on_cpu1, NULL) != 0)
    return 1;
  meet(&compute_arrived);
  for (int window = 0; window < kWindows; ++window)
    scaling[window] = multiply_adds_per_second(kWindowSeconds);
  pthread_join(thread, NULL);
  for (int window = 0; window < kWindows; ++window)
    scaling[window] = (scaling[window] + other_rates[window]) / alone;
  qsort(scaling, kWindows, sizeof(double), compare);
  double gbps = memory_gbps();
  printf("{\"local_us\": %.2f, \"cross_us\": %.2f, \"ratio\": %.2f, "
         "\"compute_scaling\": %.2f, \"compute_scaling_min\": %.2f, "
         "\"memory_gbps\": %.1f}\n",
         local_us, cross_us, cross_us / local_us, scaling[kWindows / 2],
         scaling[0], gbps);
  (void)sink;
  return 0;
}
