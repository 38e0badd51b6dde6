/* tgc_pool.c: the pthread pool behind tgc_pool.h.
 *
 * One job at a time: parallel_for writes the job (fn, args and one block
 * of tasks per thread), publishes it by bumping a generation counter,
 * runs tasks itself, and returns when the job's count of unfinished tasks
 * reaches zero.
 *
 * Each thread owns a contiguous block of the tasks, the same block of
 * every job (thread k of n: tasks [k*count/n, (k+1)*count/n)), runs it
 * front to back, and then takes tasks from the back of the block with the
 * most left. Consecutive kernels split along the same axis thus read on
 * each core what that core wrote: handing out tasks in order to whoever
 * asks first interleaved them between the cores, and on a virtual machine
 * every cache line then crossed between them (MobileNetV2's pad copies
 * cost 2 to 5.6 times the CPU time on 2 threads that they cost on 1).
 * Taking from the back still balances a late or slow thread's share.
 *
 * No lock is taken on the way. A cache line that moves between two vCPUs
 * can cost a microsecond, and a mutex taken twice per task moved several
 * per task: with it, a job of 8 tasks on 2 threads spent 0.3 us between
 * two tasks of a thread and 3 us between its last task ending and
 * parallel_for returning, once per kernel. Now a block is one word
 * (next, end and the job's generation as a tag) on a line of its own that
 * its owner claims from with a compare-and-swap, and a thread subtracts
 * the tasks it ran from the job's count once, when it finds none left.
 * The tag keeps a thread that comes late from claiming a task of the next
 * job with the previous job's function.
 *
 * A thread that runs out of work polls for a while before it sleeps: a
 * worker for the next job, the caller for the last running task to end.
 * Between two kernels of a model the gap is microseconds, but waking a
 * thread asleep on a condition variable takes tens to hundreds (a futex
 * call, and on a virtual machine an idle vCPU to be scheduled again), once
 * per kernel and thread: ResNet-18 runs about 20 split kernels. Define
 * TGC_POOL_SPIN_US to change how long a thread polls (0: never).
 *
 * The shared words go through GCC's __atomic builtins (which -std=c99
 * keeps); other compilers (or -DTGC_POOL_NO_ATOMICS) get each access
 * under one mutex, and no polling.
 */
#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200112L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L
#endif

#include "tgc_pool.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef TGC_POOL_SPIN_US
#define TGC_POOL_SPIN_US 500
#endif

/* What a thread writes often gets lines of its own; x86 fetches lines in
   pairs, so a "line" here is two. */
#define TGC_POOL_LINE 128

/* A block's word: the job's tag (its generation, 32 bits), then end and
   next (16 bits each). A job of more tasks runs as several. */
#define TGC_POOL_MAX_TASKS 0xffff
#define TGC_BLOCK(tag, end, next)                                             \
  (((uint64_t)(tag) << 32) | ((uint64_t)(end) << 16) | (uint64_t)(next))
#define TGC_BLOCK_TAG(word) ((uint32_t)((word) >> 32))
#define TGC_BLOCK_END(word) ((ptrdiff_t)(((word) >> 16) & 0xffff))
#define TGC_BLOCK_NEXT(word) ((ptrdiff_t)((word)&0xffff))
#define TGC_BLOCK_LEFT(word) (TGC_BLOCK_END(word) - TGC_BLOCK_NEXT(word))

#if (defined(__GNUC__) || defined(__clang__)) && !defined(TGC_POOL_NO_ATOMICS)
#define TGC_POOL_SPINS (TGC_POOL_SPIN_US > 0)
/* Sequentially consistent throughout: the sleep and wake handshakes below
   rely on a store and a later load of another word not passing each
   other. */
#define TGC_LOAD(word) __atomic_load_n((word), __ATOMIC_SEQ_CST)
#define TGC_STORE(word, value) __atomic_store_n((word), (value), __ATOMIC_SEQ_CST)
#define TGC_ADD(word, value) __atomic_add_fetch((word), (value), __ATOMIC_SEQ_CST)
#define TGC_SUB(word, value) __atomic_sub_fetch((word), (value), __ATOMIC_SEQ_CST)
#define TGC_CAS(word, expected, desired)                                      \
  __atomic_compare_exchange_n((word), (expected), (desired), 0,              \
                              __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#if defined(__x86_64__) || defined(__i386__)
#define TGC_PAUSE() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define TGC_PAUSE() __asm__ __volatile__("yield")
#else
#define TGC_PAUSE() ((void)0)
#endif
#else
#define TGC_POOL_SPINS 0
static pthread_mutex_t tgc_pool_word_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t tgc_pool_update(uint64_t *word, uint64_t add, int store) {
  uint64_t value;
  pthread_mutex_lock(&tgc_pool_word_lock);
  value = *word = store ? add : *word + add;
  pthread_mutex_unlock(&tgc_pool_word_lock);
  return value;
}
static int tgc_pool_cas(uint64_t *word, uint64_t *expected,
                        uint64_t desired) {
  int swapped;
  pthread_mutex_lock(&tgc_pool_word_lock);
  swapped = *word == *expected;
  if (swapped)
    *word = desired;
  else
    *expected = *word;
  pthread_mutex_unlock(&tgc_pool_word_lock);
  return swapped;
}
#define TGC_LOAD(word) tgc_pool_update((word), 0, 0)
#define TGC_STORE(word, value) ((void)tgc_pool_update((word), (value), 1))
#define TGC_ADD(word, value) tgc_pool_update((word), (value), 0)
#define TGC_SUB(word, value) tgc_pool_update((word), 0 - (uint64_t)(value), 0)
#define TGC_CAS(word, expected, desired) tgc_pool_cas((word), (expected), (desired))
#endif

/* A thread's share of the current job: tasks [next, end) not handed out
   yet, tagged with the job. Slot 0 is the caller's, slot k the k-th
   worker's. */
typedef struct tgc_pool_block {
  uint64_t word;
  char pad[TGC_POOL_LINE - sizeof(uint64_t)];
} tgc_pool_block;

typedef struct tgc_pool_worker {
  pthread_t thread;
  struct tgc_pool *pool;
  int slot;
} tgc_pool_worker;

/* What parallel_for publishes; workers read it after they see the
   generation change. */
typedef struct tgc_pool_job {
  uint64_t generation;
  tgc_task_fn fn;
  void *args;
  ptrdiff_t base; /* the first task of this part of a long job */
} tgc_pool_job;

struct tgc_pool {
  tgc_pool_job job;
  char job_pad[TGC_POOL_LINE - sizeof(tgc_pool_job)];
  uint64_t unfinished; /* tasks of the job not yet run to the end */
  char unfinished_pad[TGC_POOL_LINE - sizeof(uint64_t)];
  /* Rarely written, so read from every cache at no cost. */
  uint64_t sleeping_workers;
  uint64_t caller_sleeping;
  uint64_t stop;
  tgc_pool_block *blocks; /* worker_count + 1 of them */
  tgc_pool_worker *workers;
  int worker_count;
  pthread_mutex_t lock;    /* only to sleep and to wake */
  pthread_cond_t wake;     /* a new job, or stop */
  pthread_cond_t finished; /* the last task of the job ended */
  pthread_mutex_t turn;    /* one parallel_for at a time */
};

/* The next task of the job tagged `tag` from the front of `block`, or -1. */
static ptrdiff_t take_front(tgc_pool_block *block, uint32_t tag) {
  uint64_t word = TGC_LOAD(&block->word);
  while (TGC_BLOCK_TAG(word) == tag && TGC_BLOCK_LEFT(word) > 0)
    if (TGC_CAS(&block->word, &word, word + 1))
      return TGC_BLOCK_NEXT(word);
  return -1;
}

/* A task of the job tagged `tag` from the back of the block with the most
   left, or -1 when none is left. */
static ptrdiff_t take_back(tgc_pool *pool, uint32_t tag) {
  for (;;) {
    tgc_pool_block *most = NULL;
    uint64_t most_word = 0;
    int k;
    for (k = 0; k <= pool->worker_count; ++k) {
      uint64_t word = TGC_LOAD(&pool->blocks[k].word);
      if (TGC_BLOCK_TAG(word) == tag && TGC_BLOCK_LEFT(word) > 0 &&
          (!most || TGC_BLOCK_LEFT(word) > TGC_BLOCK_LEFT(most_word))) {
        most = &pool->blocks[k];
        most_word = word;
      }
    }
    if (!most)
      return -1;
    if (TGC_CAS(&most->word, &most_word, most_word - ((uint64_t)1 << 16)))
      return TGC_BLOCK_END(most_word) - 1;
  }
}

/* Counts `ran` tasks of the job finished, and wakes the caller if they
   were the last and it sleeps. */
static void finish_tasks(tgc_pool *pool, uint64_t ran) {
  if (ran && TGC_SUB(&pool->unfinished, ran) == 0 &&
      TGC_LOAD(&pool->caller_sleeping)) {
    pthread_mutex_lock(&pool->lock);
    pthread_cond_signal(&pool->finished);
    pthread_mutex_unlock(&pool->lock);
  }
}

/* Runs the tasks of its own block of the job of generation `generation`,
   then takes from the others' until none is left. The tasks of its own
   block are counted finished before it looks at the others: the caller
   waiting for the last of them hears of it one cache line move sooner. */
static void run_tasks(tgc_pool *pool, int slot, uint64_t generation) {
  uint32_t tag = (uint32_t)generation;
  tgc_pool_block *own = &pool->blocks[slot];
  ptrdiff_t task = take_front(own, tag), base;
  int own_left = task >= 0;
  uint64_t ran = 0;
  tgc_task_fn fn;
  void *args;
  if (!own_left && (task = take_back(pool, tag)) < 0)
    return;
  /* A claimed task keeps the job from finishing, so the caller cannot be
     writing the next one: the fields are this job's. */
  fn = pool->job.fn;
  args = pool->job.args;
  base = pool->job.base;
  for (;;) {
    fn(args, base + task);
    ++ran;
    if (own_left && (task = take_front(own, tag)) >= 0)
      continue;
    own_left = 0;
    finish_tasks(pool, ran);
    ran = 0;
    if ((task = take_back(pool, tag)) < 0)
      return;
  }
}

#if TGC_POOL_SPINS
static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int waiting_for_job(tgc_pool *pool, uint64_t seen) {
  return TGC_LOAD(&pool->job.generation) == seen && !TGC_LOAD(&pool->stop);
}

static int tasks_unfinished(tgc_pool *pool, uint64_t unused) {
  (void)unused;
  return TGC_LOAD(&pool->unfinished) != 0;
}

/* Polls while busy(pool, arg) holds, for about TGC_POOL_SPIN_US at most. */
static void poll_while(tgc_pool *pool, int (*busy)(tgc_pool *, uint64_t),
                       uint64_t arg) {
  double start;
  int i;
  if (!busy(pool, arg))
    return;
  start = now_us();
  for (;;) {
    /* The clock is read once per 64 pauses: a pause is 10 to 140 cycles. */
    for (i = 0; i < 64 && busy(pool, arg); ++i)
      TGC_PAUSE();
    if (i < 64 || now_us() - start > TGC_POOL_SPIN_US)
      return;
  }
}
#endif

/* The generation of a job after `seen`; sleeps if none comes while it
   polls. Returns `seen` once the pool stops. A worker counts itself
   asleep before it looks at the generation and parallel_for looks at the
   count after it bumps the generation, so one of them sees the other. */
static uint64_t wait_for_job(tgc_pool *pool, uint64_t seen) {
  uint64_t generation;
#if TGC_POOL_SPINS
  poll_while(pool, waiting_for_job, seen);
#endif
  generation = TGC_LOAD(&pool->job.generation);
  if (generation != seen || TGC_LOAD(&pool->stop))
    return generation;
  pthread_mutex_lock(&pool->lock);
  TGC_ADD(&pool->sleeping_workers, 1);
  while ((generation = TGC_LOAD(&pool->job.generation)) == seen &&
         !TGC_LOAD(&pool->stop))
    pthread_cond_wait(&pool->wake, &pool->lock);
  TGC_SUB(&pool->sleeping_workers, 1);
  pthread_mutex_unlock(&pool->lock);
  return generation;
}

static void *worker_main(void *arg) {
  tgc_pool_worker *self = (tgc_pool_worker *)arg;
  tgc_pool *pool = self->pool;
  uint64_t seen = 0;
  for (;;) {
    seen = wait_for_job(pool, seen);
    if (TGC_LOAD(&pool->stop))
      return NULL;
    run_tasks(pool, self->slot, seen);
  }
}

/* Frees what tgc_pool_create allocated; the threads must not run. */
static void free_pool(tgc_pool *pool) {
  pthread_cond_destroy(&pool->finished);
  pthread_cond_destroy(&pool->wake);
  pthread_mutex_destroy(&pool->turn);
  pthread_mutex_destroy(&pool->lock);
  free(pool->workers);
  free(pool->blocks);
  free(pool);
}

tgc_pool *tgc_pool_create(int threads) {
  tgc_pool *pool;
  void *memory;
  int i;
  if (threads <= 0) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    threads = cpus > 0 ? (int)cpus : 1;
  }
  if (posix_memalign(&memory, TGC_POOL_LINE, sizeof *pool) != 0)
    return NULL;
  pool = (tgc_pool *)memory;
  memset(pool, 0, sizeof *pool);
  pthread_mutex_init(&pool->lock, NULL);
  pthread_mutex_init(&pool->turn, NULL);
  pthread_cond_init(&pool->wake, NULL);
  pthread_cond_init(&pool->finished, NULL);
  if (posix_memalign(&memory, TGC_POOL_LINE,
                     (size_t)threads * sizeof *pool->blocks) != 0) {
    free_pool(pool);
    return NULL;
  }
  pool->blocks = (tgc_pool_block *)memory;
  memset(pool->blocks, 0, (size_t)threads * sizeof *pool->blocks);
  if (threads > 1) {
    pool->workers = (tgc_pool_worker *)calloc((size_t)(threads - 1),
                                              sizeof *pool->workers);
    if (!pool->workers) {
      free_pool(pool);
      return NULL;
    }
  }
  for (i = 0; i < threads - 1; ++i) {
    pool->workers[i].pool = pool;
    pool->workers[i].slot = i + 1;
    if (pthread_create(&pool->workers[i].thread, NULL, worker_main,
                       &pool->workers[i]) != 0)
      break;
    pool->worker_count = i + 1;
  }
  if (pool->worker_count != threads - 1) {
    tgc_pool_destroy(pool);
    return NULL;
  }
  return pool;
}

void tgc_pool_destroy(tgc_pool *pool) {
  int i;
  if (!pool)
    return;
  TGC_STORE(&pool->stop, 1);
  pthread_mutex_lock(&pool->lock);
  pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->lock);
  for (i = 0; i < pool->worker_count; ++i)
    pthread_join(pool->workers[i].thread, NULL);
  free_pool(pool);
}

int tgc_pool_threads(const tgc_pool *pool) {
  return pool ? pool->worker_count + 1 : 1;
}

/* One job of at most TGC_POOL_MAX_TASKS tasks, fn(args, base + task). */
static void run_job(tgc_pool *pool, ptrdiff_t base, ptrdiff_t count,
                    tgc_task_fn fn, void *args) {
  int threads = pool->worker_count + 1, k;
  uint64_t generation = pool->job.generation + 1;
  /* Every thread that ran a task of the previous job has counted it
     finished; a late one finds that job's blocks empty or retagged. */
  pool->job.fn = fn;
  pool->job.args = args;
  pool->job.base = base;
  for (k = 0; k < threads; ++k)
    TGC_STORE(&pool->blocks[k].word,
              TGC_BLOCK((uint32_t)generation, count * (k + 1) / threads,
                        count * k / threads));
  TGC_STORE(&pool->unfinished, (uint64_t)count);
  TGC_STORE(&pool->job.generation, generation);
  if (TGC_LOAD(&pool->sleeping_workers)) {
    pthread_mutex_lock(&pool->lock);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
  }
  run_tasks(pool, 0, generation);
#if TGC_POOL_SPINS
  poll_while(pool, tasks_unfinished, 0);
#endif
  if (TGC_LOAD(&pool->unfinished) == 0)
    return;
  /* The caller counts itself asleep before it looks at the count, the
     thread that ends the last task looks at the flag after it counts. */
  pthread_mutex_lock(&pool->lock);
  TGC_STORE(&pool->caller_sleeping, 1);
  while (TGC_LOAD(&pool->unfinished) != 0)
    pthread_cond_wait(&pool->finished, &pool->lock);
  TGC_STORE(&pool->caller_sleeping, 0);
  pthread_mutex_unlock(&pool->lock);
}

void tgc_pool_parallel_for(void *context, ptrdiff_t count, tgc_task_fn fn,
                           void *args) {
  tgc_pool *pool = (tgc_pool *)context;
  ptrdiff_t base, task;
  if (!pool || pool->worker_count == 0 || count <= 1) {
    for (task = 0; task < count; ++task)
      fn(args, task);
    return;
  }
  pthread_mutex_lock(&pool->turn);
  for (base = 0; base < count; base += TGC_POOL_MAX_TASKS)
    run_job(pool, base,
            count - base < TGC_POOL_MAX_TASKS ? count - base
                                              : TGC_POOL_MAX_TASKS,
            fn, args);
  pthread_mutex_unlock(&pool->turn);
}
