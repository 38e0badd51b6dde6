/* Driver for vectors-run.mlir: compiled with -include of the emitted
   source; checks every output against a reference in double precision. */
#include <float.h>
#include <math.h>
#include <stdio.h>

static float a[NET_A_ELEMS], b[NET_B_ELEMS], e[NET_E_ELEMS];
static float y[NET_Y_ELEMS], rmax[NET_RMAX_ELEMS], rsum[NET_RSUM_ELEMS];
static float ex[NET_EX_ELEMS], esum[NET_ESUM_ELEMS];

/* Row 0 of e: values where exp2 must be exact or special. */
static const float special[] = {
    0.0f, -0.0f, 1.0f, -1.0f, 10.0f, -10.0f, 127.0f, 127.99f, 128.0f,
    200.0f, -126.0f, -140.0f, -149.0f, -150.0f, -151.0f, -1000.0f, 0.5f,
    -0.5f, 1e-8f, -1e-8f, 3.25f, -7.75f, 100.5f, -100.5f};

/* Within 2 ulp of the double reference; NaN, infinities and zeros exact;
   results below the smallest normal float (2^-126) flushed to zero. */
static void check_exp2(const char *name, const float *got, const double *want,
                       int count) {
  int i, bad = 0;
  for (i = 0; i < count; ++i) {
    float w = (float)want[i];
    if (isnan(w) || isinf(w) || w == 0.0f)
      bad |= !(isnan(w) ? isnan(got[i]) : got[i] == w);
    else if (w < FLT_MIN)
      bad |= got[i] != 0.0f;
    else
      bad |= fabs(got[i] - want[i]) > 2.4e-7 * fabs(want[i]);
  }
  printf("%s: %s\n", name, bad ? "MISMATCH" : "ok");
}

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
  double want_rsum[NET_RSUM_ELEMS], want_ex[NET_EX_ELEMS];
  double want_esum[NET_ESUM_ELEMS];
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
  for (i = 0; i < NET_E_ELEMS; ++i)
    e[i] = (float)((i * 37) % 101 - 50) * 0.4f + 0.013f * (float)(i % 3);
  for (i = 0; i < (int)(sizeof special / sizeof special[0]); ++i)
    e[i] = special[i];
  e[24] = NAN;
  e[25] = INFINITY;
  e[26] = -INFINITY;
  e[27] = -125.6f; /* the smallest exponent whose result is normal */
  e[28] = -126.4f; /* rounds to the same exponent, but subnormal: 0 */
  for (i = 0; i < NET_E_ELEMS; ++i)
    want_ex[i] = exp2((double)e[i]);
  for (i = 0; i < 4; ++i) {
    want_esum[i] = 0;
    for (k = 0; k < 32; ++k)
      want_esum[i] += want_ex[i * 32 + k];
  }
  in.a = a;
  in.b = b;
  in.e = e;
  out.y = y;
  out.rmax = rmax;
  out.rsum = rsum;
  out.ex = ex;
  out.esum = esum;
  if (net_run(&in, &out, arena) != NET_OK) {
    printf("status: error\n");
    return 1;
  }
  check("y", y, want_y, NET_Y_ELEMS);
  check("rmax", rmax, want_rmax, NET_RMAX_ELEMS);
  check("rsum", rsum, want_rsum, NET_RSUM_ELEMS);
  check_exp2("ex", ex, want_ex, NET_EX_ELEMS);
  /* Row 0 sums NaN and infinities: NaN; the others are finite. */
  printf("esum: %s\n",
         isnan(esum[0]) &&
                 fabs(esum[1] - want_esum[1]) <= 1e-5 * want_esum[1] &&
                 fabs(esum[2] - want_esum[2]) <= 1e-5 * want_esum[2] &&
                 fabs(esum[3] - want_esum[3]) <= 1e-5 * want_esum[3]
             ? "ok"
             : "MISMATCH");
  return 0;
}
