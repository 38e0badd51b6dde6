/* Driver for partial-vectors-run.mlir: compiled with -include of the
   emitted source; checks both outputs against a double-precision
   reference and that the floats after each output are untouched. */
#include <math.h>
#include <stdio.h>

#define GUARD 16
static float a[NET_A_ELEMS], b[NET_B_ELEMS], c[NET_C_ELEMS], d[NET_D_ELEMS];
static float e[NET_E_ELEMS], y100[NET_Y100_ELEMS + GUARD];
static float y14[NET_Y14_ELEMS + GUARD], y7[NET_Y7_ELEMS + GUARD];
static float y28[NET_Y28_ELEMS + GUARD];

/* Relative error within float rounding of a 32-term sum. */
static void check(const char *name, const float *got, const double *want,
                  int count) {
  int i, bad = 0;
  for (i = 0; i < count; ++i)
    if (!(fabs(got[i] - want[i]) <= 1e-5 * (1.0 + fabs(want[i]))))
      bad = 1;
  printf("%s: %s\n", name, bad ? "MISMATCH" : "ok");
}

static void check_guard(const char *name, const float *after) {
  int i, bad = 0;
  for (i = 0; i < GUARD; ++i)
    bad |= after[i] != -7.0f;
  printf("%s guard: %s\n", name, bad ? "OVERWRITTEN" : "ok");
}

int main(void) {
  static unsigned char block[NET_ARENA_BYTES + 64];
  unsigned char *arena = block + (64 - (size_t)block % 64) % 64;
  double want14[NET_Y14_ELEMS], want7[NET_Y7_ELEMS], want28[NET_Y28_ELEMS];
  double want100[NET_Y100_ELEMS];
  net_inputs in;
  net_outputs out;
  int i, j, k;
  for (i = 0; i < NET_A_ELEMS; ++i)
    a[i] = (float)((i * 7) % 13 - 6) * 0.25f;
  for (i = 0; i < NET_B_ELEMS; ++i)
    b[i] = (float)((i * 5) % 11 - 5) * 0.125f;
  for (i = 0; i < NET_C_ELEMS; ++i)
    c[i] = (float)((i * 3) % 7 - 3) * 0.5f;
  for (i = 0; i < NET_D_ELEMS; ++i)
    d[i] = (float)((i * 11) % 17 - 8) * 0.25f;
  for (i = 0; i < NET_E_ELEMS; ++i)
    e[i] = (float)((i * 13) % 19 - 9) * 0.125f;
  for (i = 0; i < NET_Y28_ELEMS + GUARD; ++i)
    y28[i] = -7.0f;
  for (i = 0; i < NET_Y100_ELEMS + GUARD; ++i)
    y100[i] = -7.0f;
  for (i = 0; i < NET_Y14_ELEMS + GUARD; ++i)
    y14[i] = -7.0f;
  for (i = 0; i < NET_Y7_ELEMS + GUARD; ++i)
    y7[i] = -7.0f;
  for (i = 0; i < 3; ++i) {
    for (j = 0; j < 14; ++j) {
      double s = 0;
      for (k = 0; k < 32; ++k)
        s += (double)a[i * 32 + k] * b[k * 14 + j];
      want14[i * 14 + j] = s > 0 ? s : 0;
    }
    for (j = 0; j < 7; ++j) {
      double s = 0;
      for (k = 0; k < 32; ++k)
        s += (double)a[i * 32 + k] * c[k * 7 + j];
      want7[i * 7 + j] = s;
    }
    for (j = 0; j < 28; ++j) {
      double s = 0;
      for (k = 0; k < 32; ++k)
        s += (double)a[i * 32 + k] * d[k * 28 + j];
      want28[i * 28 + j] = s;
    }
    for (j = 0; j < 100; ++j) {
      double s = 0;
      for (k = 0; k < 32; ++k)
        s += (double)a[i * 32 + k] * e[k * 100 + j];
      want100[i * 100 + j] = s;
    }
  }
  in.a = a;
  in.b = b;
  in.c = c;
  in.d = d;
  in.e = e;
  out.y14 = y14;
  out.y7 = y7;
  out.y28 = y28;
  out.y100 = y100;
  if (net_run(&in, &out, arena) != NET_OK) {
    printf("net_run failed\n");
    return 1;
  }
  check("y14", y14, want14, NET_Y14_ELEMS);
  check_guard("y14", y14 + NET_Y14_ELEMS);
  check("y7", y7, want7, NET_Y7_ELEMS);
  check_guard("y7", y7 + NET_Y7_ELEMS);
  check("y28", y28, want28, NET_Y28_ELEMS);
  check_guard("y28", y28 + NET_Y28_ELEMS);
  check("y100", y100, want100, NET_Y100_ELEMS);
  check_guard("y100", y100 + NET_Y100_ELEMS);
  return 0;
}
