/* tgc_pool.c: the pthread pool behind tgc_pool.h.
 *
 * One job at a time: parallel_for publishes (fn, args, count) under the
 * lock, bumps a generation counter and wakes the workers; every thread,
 * the caller included, takes the next task index under the lock until none
 * is left; the caller waits until the last running task has finished.
 * Tasks are whole slices of a kernel (microseconds to milliseconds), so
 * one lock round trip per task is noise, and a plain mutex and condition
 * variables keep the file C99 with no atomics.
 */
#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200112L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L
#endif

#include "tgc_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct tgc_pool {
  pthread_mutex_t lock;
  pthread_cond_t wake;     /* a new job, or stop */
  pthread_cond_t finished; /* the last task of the job ended */
  pthread_mutex_t turn;    /* one parallel_for at a time */
  pthread_t *workers;
  int worker_count;
  int stop;
  unsigned long generation;
  /* The job. */
  tgc_task_fn fn;
  void *args;
  ptrdiff_t count;
  ptrdiff_t next;    /* the next task index to hand out */
  ptrdiff_t running; /* tasks handed out and not yet finished */
};

/* Runs tasks of the current job until none is left; called and returns
   with the lock held. */
static void run_tasks(tgc_pool *pool) {
  while (pool->next < pool->count) {
    ptrdiff_t task = pool->next++;
    tgc_task_fn fn = pool->fn;
    void *args = pool->args;
    ++pool->running;
    pthread_mutex_unlock(&pool->lock);
    fn(args, task);
    pthread_mutex_lock(&pool->lock);
    if (--pool->running == 0 && pool->next >= pool->count)
      pthread_cond_signal(&pool->finished);
  }
}

static void *worker_main(void *arg) {
  tgc_pool *pool = (tgc_pool *)arg;
  unsigned long seen = 0;
  pthread_mutex_lock(&pool->lock);
  for (;;) {
    while (!pool->stop && pool->generation == seen)
      pthread_cond_wait(&pool->wake, &pool->lock);
    if (pool->stop)
      break;
    seen = pool->generation;
    run_tasks(pool);
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
  if (threads > 1) {
    pool->workers = (pthread_t *)calloc((size_t)(threads - 1),
                                        sizeof *pool->workers);
    if (!pool->workers) {
      free(pool);
      return NULL;
    }
  }
  pthread_mutex_init(&pool->lock, NULL);
  pthread_mutex_init(&pool->turn, NULL);
  pthread_cond_init(&pool->wake, NULL);
  pthread_cond_init(&pool->finished, NULL);
  for (i = 0; i < threads - 1; ++i) {
    if (pthread_create(&pool->workers[i], NULL, worker_main, pool) != 0)
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
  pool->stop = 1;
  pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->lock);
  for (i = 0; i < pool->worker_count; ++i)
    pthread_join(pool->workers[i], NULL);
  pthread_cond_destroy(&pool->finished);
  pthread_cond_destroy(&pool->wake);
  pthread_mutex_destroy(&pool->turn);
  pthread_mutex_destroy(&pool->lock);
  free(pool->workers);
  free(pool);
}

int tgc_pool_threads(const tgc_pool *pool) {
  return pool ? pool->worker_count + 1 : 1;
}

void tgc_pool_parallel_for(void *context, ptrdiff_t count, tgc_task_fn fn,
                           void *args) {
  tgc_pool *pool = (tgc_pool *)context;
  ptrdiff_t task;
  if (!pool || pool->worker_count == 0 || count <= 1) {
    for (task = 0; task < count; ++task)
      fn(args, task);
    return;
  }
  pthread_mutex_lock(&pool->turn);
  pthread_mutex_lock(&pool->lock);
  pool->fn = fn;
  pool->args = args;
  pool->count = count;
  pool->next = 0;
  ++pool->generation;
  pthread_cond_broadcast(&pool->wake);
  run_tasks(pool);
  while (pool->running > 0)
    pthread_cond_wait(&pool->finished, &pool->lock);
  pthread_mutex_unlock(&pool->lock);
  pthread_mutex_unlock(&pool->turn);
}
