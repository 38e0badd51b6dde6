/* Driver for fold-lanes-run.mlir: compiled with -include of the emitted
   source; checks y[o] = sum over t < 12 of x[o + t] * w[t] against a
   reference in double precision. */
#include <math.h>
#include <stdio.h>

static float x[NET_X_ELEMS], w[NET_W_ELEMS], y[NET_Y_ELEMS];

int main(void) {
  static unsigned char block[NET_ARENA_BYTES + 64];
  unsigned char *arena = block + (64 - (size_t)block % 64) % 64;
  net_inputs in;
  net_outputs out;
  int o, t, bad = 0;
  for (o = 0; o < NET_X_ELEMS; ++o)
    x[o] = (float)((o * 7) % 13 - 6) * 0.25f;
  for (t = 0; t < NET_W_ELEMS; ++t)
    w[t] = (float)((t * 5) % 11 - 5) * 0.125f;
  in.x = x;
  in.w = w;
  out.y = y;
  if (net_run(&in, &out, arena) != NET_OK) {
    printf("status: error\n");
    return 1;
  }
  for (o = 0; o < NET_Y_ELEMS; ++o) {
    double want = 0;
    for (t = 0; t < NET_W_ELEMS; ++t)
      want += (double)x[o + t] * w[t];
    if (!(fabs(y[o] - want) <= 1e-5 * (1.0 + fabs(want))))
      bad = 1;
  }
  printf("y: %s\n", bad ? "MISMATCH" : "ok");
  return 0;
}
