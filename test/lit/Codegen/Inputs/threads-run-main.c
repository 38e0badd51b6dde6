/* Driver for threads-run.mlir: compiled with -include of the emitted
   source and linked with the runtime's tgc_pool.c. */
#include "tgc_pool.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static float a[NET_A_ELEMS], b[NET_B_ELEMS], y[NET_Y_ELEMS];
static double want[NET_Y_ELEMS];

static void check(const char *what, int status) {
  int i, bad = status != NET_OK;
  for (i = 0; i < NET_Y_ELEMS; ++i)
    if (!(fabs(y[i] - want[i]) <= 1e-4 * (1.0 + fabs(want[i]))))
      bad = 1;
  printf("%s: %s\n", what, bad ? "MISMATCH" : "ok");
  memset(y, 0, sizeof y);
}

/* Another hook: the tasks in reverse order, as any order must work. */
static void backwards(void *context, ptrdiff_t count, tgc_task_fn fn,
                      void *args) {
  ptrdiff_t task;
  (void)context;
  for (task = count - 1; task >= 0; --task)
    fn(args, task);
}

int main(void) {
  static unsigned char block[NET_ARENA_BYTES + 64];
  unsigned char *arena = block + (64 - (size_t)block % 64) % 64;
  net_inputs in;
  net_outputs out;
  int i, j, k, threads;
  for (i = 0; i < NET_A_ELEMS; ++i)
    a[i] = (float)((i * 7) % 13 - 6) * 0.25f;
  for (i = 0; i < NET_B_ELEMS; ++i)
    b[i] = (float)((i * 5) % 11 - 5) * 0.125f;
  for (i = 0; i < 64; ++i)
    for (j = 0; j < 128; ++j) {
      want[i * 128 + j] = 0;
      for (k = 0; k < 96; ++k)
        want[i * 128 + j] += (double)a[i * 96 + k] * b[k * 128 + j];
    }
  in.a = a;
  in.b = b;
  out.y = y;
  check("net_run", net_run(&in, &out, arena));
  for (threads = 1; threads <= 3; ++threads) {
    char what[32];
    tgc_pool *pool = tgc_pool_create(threads);
    sprintf(what, "pool of %d", threads);
    check(what, net_run_parallel(&in, &out, arena, tgc_pool_parallel_for,
                                 pool));
    tgc_pool_destroy(pool);
  }
  check("backwards", net_run_parallel(&in, &out, arena, backwards, NULL));
  return 0;
}
