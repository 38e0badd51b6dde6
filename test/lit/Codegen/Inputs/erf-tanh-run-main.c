/* Driver for erf-tanh-run.mlir: compiled with -include of the emitted
   source; checks erf and tanh against libm in double precision. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static float x[NET_X_ELEMS], got_erf[NET_ERF_ELEMS], got_tanh[NET_TANH_ELEMS];

/* Values whose result is exact or special. */
static const float special[] = {0.0f,    -0.0f,  1e-45f, -1e-45f, 1e-30f,
                                -1e-30f, 3.92f,  -3.92f, 9.02f,   -9.02f,
                                4.0f,    -10.0f, 1e30f,  -1e30f};

/* Distance in ulps of `got` from `want` rounded to float; the ulp is that
   of the rounded value's magnitude, the larger of the two at a power of 2. */
static double ulps(float got, double want) {
  float w = (float)want;
  float up = nextafterf(fabsf(w), INFINITY) - fabsf(w);
  return fabs((double)got - want) / up;
}

static void check(const char *name, const float *got, double (*f)(double)) {
  int i, bad = 0;
  double worst = 0;
  for (i = 0; i < NET_X_ELEMS; ++i) {
    double want = f((double)x[i]);
    if (isnan(x[i])) {
      bad |= !isnan(got[i]);
      continue;
    }
    /* Never past +-1; the sign (of zero too) is that of x. */
    bad |= fabsf(got[i]) > 1.0f || signbit(got[i]) != signbit(x[i]);
    worst = fmax(worst, ulps(got[i], want));
  }
  bad |= worst > 8;
  printf("%s: %s\n", name, bad ? "MISMATCH" : "ok");
  fprintf(stderr, "%s: worst %.2f ulps\n", name, worst);
}

int main(void) {
  static unsigned char block[NET_ARENA_BYTES + 64];
  unsigned char *arena = block + (64 - (size_t)block % 64) % 64;
  net_inputs in;
  net_outputs out;
  int i, count = (int)(sizeof special / sizeof special[0]);
  /* Bit patterns evenly over [0, +inf), every other one negated. */
  for (i = 0; i < NET_X_ELEMS; ++i) {
    uint32_t bits = (uint32_t)((uint64_t)i * 0x7f800000u / NET_X_ELEMS);
    bits |= (uint32_t)(i & 1) << 31;
    memcpy(&x[i], &bits, sizeof bits);
  }
  memcpy(x, special, sizeof special);
  x[count] = NAN;
  x[count + 1] = INFINITY;
  x[count + 2] = -INFINITY;
  in.x = x;
  out.erf = got_erf;
  out.tanh = got_tanh;
  if (net_run(&in, &out, arena) != NET_OK) {
    printf("status: error\n");
    return 1;
  }
  check("erf", got_erf, erf);
  check("tanh", got_tanh, tanh);
  return 0;
}
