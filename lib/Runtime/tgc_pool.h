/* tgc_pool.h: a small pthread pool for the models tgc generates, shipped
 * in every C package (tgc_pool.c). A model's NAME_run_parallel takes any
 * parallel-for hook; this is the default one.
 *
 *   tgc_pool *pool = tgc_pool_create(0);           (one thread per CPU)
 *   NAME_run_parallel(&in, &out, arena, tgc_pool_parallel_for, pool);
 *   tgc_pool_destroy(pool);
 *
 * The calling thread works too: a pool of n threads starts n - 1. One
 * pool runs one parallel_for at a time; callers on several threads take
 * turns. Plain C99 and POSIX threads; a single-threaded build leaves this
 * file out and passes no hook.
 */
#ifndef TGC_POOL_H
#define TGC_POOL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef TGC_PARALLEL_FOR_DEFINED
#define TGC_PARALLEL_FOR_DEFINED
typedef void (*tgc_task_fn)(void *args, ptrdiff_t task);
typedef void (*tgc_parallel_for_fn)(void *context, ptrdiff_t count,
                                    tgc_task_fn fn, void *args);
#endif

typedef struct tgc_pool tgc_pool;

/* A pool of `threads` threads, the caller's included; 0 or less: one per
   online CPU. NULL if memory or threads run out. */
tgc_pool *tgc_pool_create(int threads);

/* Stops and joins the threads and frees the pool (NULL is fine). */
void tgc_pool_destroy(tgc_pool *pool);

/* The threads that run tasks, the caller's included. */
int tgc_pool_threads(const tgc_pool *pool);

/* The parallel-for hook: runs fn(args, task) for task in [0, count) on the
   pool `context` (a tgc_pool *) and returns when all have finished. */
void tgc_pool_parallel_for(void *context, ptrdiff_t count, tgc_task_fn fn,
                           void *args);

#ifdef __cplusplus
}
#endif

#endif /* TGC_POOL_H */
