/* core_probe.c: what the machine gives a second thread.
 *
 * A model split over two threads reads, in each kernel, part of what the
 * other thread wrote in the one before. What each such read costs is set
 * by the machine (how much an engine reads across is set by the engine):
 * on the virtual machine the benchmarks ran on, the same pair of vCPUs
 * read a 256 KiB buffer written by the other one 1.2 times as slowly as
 * one they wrote themselves at one time and 3.3 to 3.8 times within half
 * an hour before and after, and tgc's 2-thread time for ResNet-18 moved
 * with it. bench/run.py
 * prints this next to its thread-scaling figures.
 *
 * The other thing a second thread needs is a CPU of its own: where the
 * host gives the second vCPU's core to another guest for part of the
 * time, two threads get less than twice one's arithmetic, whatever the
 * engine does.
 *
 * Two threads pinned to CPUs 0 and 1 take turns: the writer fills the
 * buffer, the reader sums it and times the sum. The reader's own writes
 * give the baseline. Then CPU 0 runs a loop of multiply-adds alone, and
 * both CPUs run it at once. Prints one JSON object: local_us and cross_us,
 * the median read times, and ratio, cross_us / local_us; compute_scaling,
 * how many times one CPU's multiply-adds per second the two did together
 * (2.0: the second CPU was all ours).
 *
 *   cc -O3 -march=native -pthread bench/core_probe.c -o core_probe
 *   ./core_probe
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Multiply-adds in independent chains (the compiler makes them vectors)
   for about `seconds`; returns how many ran per second. */
static double multiply_adds_per_second(double seconds) {
  enum { kChains = 128 };
  float chains[kChains];
  for (int i = 0; i < kChains; ++i)
    chains[i] = (float)i;
  long rounds = 0;
  double start = now_us(), elapsed;
  do {
    for (int repeat = 0; repeat < 1000; ++repeat)
      for (int i = 0; i < kChains; ++i)
        chains[i] = chains[i] * 0.999999f + 1e-7f;
    rounds += 1000;
    elapsed = now_us() - start;
  } while (elapsed < seconds * 1e6);
  volatile float sink = chains[0];
  (void)sink;
  return rounds * (double)kChains / (elapsed * 1e-6);
}

static double other_rate;

static void *compute_on_cpu1(void *unused) {
  (void)unused;
  (void)pin(1);
  other_rate = multiply_adds_per_second(0.1);
  return NULL;
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

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
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

  double alone = multiply_adds_per_second(0.1);
  if (pthread_create(&thread, NULL, compute_on_cpu1, NULL) != 0)
    return 1;
  double together = multiply_adds_per_second(0.1);
  pthread_join(thread, NULL);
  printf("{\"local_us\": %.2f, \"cross_us\": %.2f, \"ratio\": %.2f, "
         "\"compute_scaling\": %.2f}\n",
         local_us, cross_us, cross_us / local_us,
         (together + other_rate) / alone);
  (void)sink;
  return 0;
}
