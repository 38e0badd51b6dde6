/* tgc_pool.c: the pthread pool behind tgc_pool.h.
 *
 * One job at a time: parallel_for publishes (fn, args, count) under the
 * lock, bumps a generation counter and wakes the workers; the caller waits
 * until the last running task has finished. Tasks are whole slices of a
 * kernel (microseconds to milliseconds), so one lock round trip per task
 * is noise.
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
 * A thread that runs out of work polls for a while before it sleeps: a
 * worker for the next job, the caller for the last running task to end.
 * Between two kernels of a model the gap is microseconds, but waking a
 * thread asleep on a condition variable takes tens to hundreds (a futex
 * call, and on a virtual machine an idle vCPU to be scheduled again), once
 * per kernel and thread: ResNet-18 runs about 20 split kernels. Polling
 * reads the shared counters through GCC's __atomic builtins (which
 * -std=c99 keeps); other compilers get plain condition variables. Define
 * TGC_POOL_SPIN_US to change how long a thread polls (0: never).
 */
#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200112L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L
#endif

#include "tgc_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#ifndef TGC_POOL_SPIN_US
#define TGC_POOL_SPIN_US 500
#endif

#if (defined(__GNUC__) || defined(__clang__)) && TGC_POOL_SPIN_US > 0
#define TGC_POOL_SPINS 1
/* Lock-free reads of a counter that its writers change under the lock. */
#define TGC_LOAD(field) __atomic_load_n(&(field), __ATOMIC_ACQUIRE)
#define TGC_STORE(field, value) \
  __atomic_store_n(&(field), (value), __ATOMIC_RELEASE)
#if defined(__x86_64__) || defined(__i386__)
#define TGC_PAUSE() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define TGC_PAUSE() __asm__ __volatile__("yield")
#else
#define TGC_PAUSE() ((void)0)
#endif
#else
#define TGC_POOL_SPINS 0
#define TGC_STORE(field, value) ((field) = (value))
#endif

/* A thread's share of the current job: tasks [next, end) not handed out
   yet. Slot 0 is the caller's, slot k the k-th worker's. */
typedef struct tgc_pool_block {
  ptrdiff_t next;
  ptrdiff_t end;
} tgc_pool_block;

typedef struct tgc_pool_worker {
  pthread_t thread;
  struct tgc_pool *pool;
  int slot;
} tgc_pool_worker;

struct tgc_pool {
  pthread_mutex_t lock;
  pthread_cond_t wake;     /* a new job, or stop */
  pthread_cond_t finished; /* the last task of the job ended */
  pthread_mutex_t turn;    /* one parallel_for at a time */
  tgc_pool_worker *workers;
  int worker_count;
  int stop;
  unsigned long generation;
  /* The job. */
  tgc_task_fn fn;
  void *args;
  tgc_pool_block *blocks; /* worker_count + 1 of them */
  ptrdiff_t left;         /* tasks not handed out yet */
  ptrdiff_t running;      /* tasks handed out and not yet finished */
};

/* The next task for the thread of `slot`: the front of its own block, else
   the back of the block with the most tasks left; -1 when none is left.
   Called with the lock held. */
static ptrdiff_t take_task(tgc_pool *pool, int slot) {
  tgc_pool_block *own = &pool->blocks[slot], *most = NULL;
  int k;
  if (own->next < own->end)
    return own->next++;
  for (k = 0; k <= pool->worker_count; ++k) {
    tgc_pool_block *block = &pool->blocks[k];
    if (block->next < block->end &&
        (!most || block->end - block->next > most->end - most->next))
      most = block;
  }
  return most ? --most->end : -1;
}

/* Runs tasks of the current job until none is left; called and returns
   with the lock held. */
static void run_tasks(tgc_pool *pool, int slot) {
  ptrdiff_t task;
  while ((task = take_task(pool, slot)) >= 0) {
    tgc_task_fn fn = pool->fn;
    void *args = pool->args;
    --pool->left;
    TGC_STORE(pool->running, pool->running + 1);
    pthread_mutex_unlock(&pool->lock);
    fn(args, task);
    pthread_mutex_lock(&pool->lock);
    TGC_STORE(pool->running, pool->running - 1);
    if (pool->running == 0 && pool->left == 0)
      pthread_cond_signal(&pool->finished);
  }
}

#if TGC_POOL_SPINS
static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int waiting_for_job(tgc_pool *pool, unsigned long seen) {
  return TGC_LOAD(pool->generation) == seen && !TGC_LOAD(pool->stop);
}

static int tasks_running(tgc_pool *pool, unsigned long unused) {
  (void)unused;
  return TGC_LOAD(pool->running) > 0;
}

/* Polls, without the lock, while busy(pool, arg) holds, for about
   TGC_POOL_SPIN_US at most; called and returns with the lock held. */
static void poll_while(tgc_pool *pool,
                       int (*busy)(tgc_pool *, unsigned long),
                       unsigned long arg) {
  double start;
  int i;
  if (!busy(pool, arg))
    return;
  start = now_us();
  pthread_mutex_unlock(&pool->lock);
  for (;;) {
    /* The clock is read once per 64 pauses: a pause is 10 to 140 cycles. */
    for (i = 0; i < 64 && busy(pool, arg); ++i)
      TGC_PAUSE();
    if (i < 64 || now_us() - start > TGC_POOL_SPIN_US)
      break;
  }
  pthread_mutex_lock(&pool->lock);
}
#endif

static void *worker_main(void *arg) {
  tgc_pool_worker *self = (tgc_pool_worker *)arg;
  tgc_pool *pool = self->pool;
  unsigned long seen = 0;
  pthread_mutex_lock(&pool->lock);
  for (;;) {
#if TGC_POOL_SPINS
    poll_while(pool, waiting_for_job, seen);
#endif
    while (!pool->stop && pool->generation == seen)
      pthread_cond_wait(&pool->wake, &pool->lock);
    if (pool->stop)
      break;
    seen = pool->generation;
    run_tasks(pool, self->slot);
  }
  pthread_mutex_unlock(&pool->lock);
  return NULL;
}

tgc_pool *tgc_pool_create(int threads) {
  tgc_pool *pool;
  int i;
  if (threads <= 0) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    threads = cpus > 0 ? (int)cpus : 1;
  }
  pool = (tgc_pool *)calloc(1, sizeof *pool);
  if (!pool)
    return NULL;
  pool->blocks = (tgc_pool_block *)calloc((size_t)threads,
                                          sizeof *pool->blocks);
  if (threads > 1)
    pool->workers = (tgc_pool_worker *)calloc((size_t)(threads - 1),
                                              sizeof *pool->workers);
  if (!pool->blocks || (threads > 1 && !pool->workers)) {
    free(pool->blocks);
    free(pool->workers);
    free(pool);
    return NULL;
  }
  pthread_mutex_init(&pool->lock, NULL);
  pthread_mutex_init(&pool->turn, NULL);
  pthread_cond_init(&pool->wake, NULL);
  pthread_cond_init(&pool->finished, NULL);
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
  pthread_mutex_lock(&pool->lock);
  TGC_STORE(pool->stop, 1);
  pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->lock);
  for (i = 0; i < pool->worker_count; ++i)
    pthread_join(pool->workers[i].thread, NULL);
  pthread_cond_destroy(&pool->finished);
  pthread_cond_destroy(&pool->wake);
  pthread_mutex_destroy(&pool->turn);
  pthread_mutex_destroy(&pool->lock);
  free(pool->workers);
  free(pool->blocks);
  free(pool);
}

int tgc_pool_threads(const tgc_pool *pool) {
  return pool ? pool->worker_count + 1 : 1;
}

void tgc_pool_parallel_for(void *context, ptrdiff_t count, tgc_task_fn fn,
                           void *args) {
  tgc_pool *pool = (tgc_pool *)context;
  ptrdiff_t task;
  int k, threads;
  if (!pool || pool->worker_count == 0 || count <= 1) {
    for (task = 0; task < count; ++task)
      fn(args, task);
    return;
  }
  pthread_mutex_lock(&pool->turn);
  pthread_mutex_lock(&pool->lock);
  pool->fn = fn;
  pool->args = args;
  threads = pool->worker_count + 1;
  for (k = 0; k < threads; ++k) {
    pool->blocks[k].next = count * k / threads;
    pool->blocks[k].end = count * (k + 1) / threads;
  }
  pool->left = count;
  TGC_STORE(pool->generation, pool->generation + 1);
  pthread_cond_broadcast(&pool->wake);
  run_tasks(pool, 0);
#if TGC_POOL_SPINS
  poll_while(pool, tasks_running, 0);
#endif
  while (pool->running > 0)
    pthread_cond_wait(&pool->finished, &pool->lock);
  pthread_mutex_unlock(&pool->lock);
  pthread_mutex_unlock(&pool->turn);
}
