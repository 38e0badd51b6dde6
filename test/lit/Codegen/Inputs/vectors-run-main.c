/* Driver for vectors-run.mlir: compiled with -include of the emitted
   source; checks every output against a reference in double precision. */
#include <math.h>
#include <stdio.h>

static float a[NET_A_ELEMS], b[NET_B_ELEMS];
static float y[NET_Y_ELEMS], rmax[NET_RMAX_ELEMS], rsum[NET_RSUM_ELEMS];

/* Relative error within float rounding of a 32-term sum. */
static void check(const char *name, const float *got, const double *want,
                  int count) {
  int i, bad = 0;
  for (i = 0; i < count; ++i)
    if (!(fabs(got[i] - want[i]) <= 1e-5 * (1.0 + fabs(want[i]))))
      bad = 1;
  printf("%s: %s\n", name, bad ? "MISMATCH" : "ok");
}

int main(void) {
  static unsigned char block[NET_ARENA_BYTES + 64];
  unsigned char *arena = block + (64 - (size_t)block % 64) % 64;
  double want_y[NET_Y_ELEMS], want_rmax[NET_RMAX_ELEMS];
  double want_rsum[NET_RSUM_ELEMS];
  net_inputs in;
  net_outputs out;
  int i, j, k;
  for (i = 0; i < NET_A_ELEMS; ++i)
    a[i] = (float)((i * 7) % 13 - 6) * 0.25f;
  for (i = 0; i < NET_B_ELEMS; ++i)
    b[i] = (float)((i * 5) % 11 - 5) * 0.125f;
  for (i = 0; i < 4; ++i)
    for (j = 0; j < 64; ++j) {
      double s = 0;
      for (k = 0; k < 32; ++k)
        s += (double)a[i * 32 + k] * b[k * 64 + j];
      want_y[i * 64 + j] = s - 1 > 0 ? s - 1 : 0;
    }
  for (i = 0; i < 4; ++i) {
    want_rmax[i] = a[i * 32];
    for (k = 1; k < 32; ++k)
      if (a[i * 32 + k] > want_rmax[i])
        want_rmax[i] = a[i * 32 + k];
  }
  for (j = 0; j < 64; ++j) {
    want_rsum[j] = 0;
    for (k = 0; k < 32; ++k)
      want_rsum[j] += b[k * 64 + j];
  }
  in.a = a;
  in.b = b;
  out.y = y;
  out.rmax = rmax;
  out.rsum = rsum;
  if (net_run(&in, &out, arena) != NET_OK) {
    printf("status: error\n");
    return 1;
  }
  check("y", y, want_y, NET_Y_ELEMS);
  check("rmax", rmax, want_rmax, NET_RMAX_ELEMS);
  check("rsum", rsum, want_rsum, NET_RSUM_ELEMS);
  return 0;
}
