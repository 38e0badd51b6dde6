/* Driver for emit-c-run.mlir: compiled with -include of the emitted source,
   so that net_inputs, net_outputs and net_run are in scope. */
#include <math.h>
#include <stdio.h>

static void print_floats(const char *name, const float *values, int count) {
  int i;
  printf("%s:", name);
  for (i = 0; i < count; ++i) {
    if (isnan(values[i]))
      printf(" nan");
    else
      printf(" %.9g", values[i]);
  }
  printf("\n");
}

static void print_ints(const char *name, const int32_t *values, int count) {
  int i;
  printf("%s:", name);
  for (i = 0; i < count; ++i)
    printf(" %d", (int)values[i]);
  printf("\n");
}

static void print_bools(const char *name, const uint8_t *values, int count) {
  int i;
  printf("%s:", name);
  for (i = 0; i < count; ++i)
    printf(" %d", (int)values[i]);
  printf("\n");
}

int main(void) {
#if defined(__GNUC__)
  static unsigned char arena[NET_ARENA_BYTES] __attribute__((aligned(64)));
#endif
  static const float x[NET_X_ELEMS] = {1.5f, -2.5f, 3.0f, 0.0f, 5.75f, -7.25f};
  static const int32_t n[NET_N_ELEMS] = {7, -7, 8, -8};
  float sum[NET_SUM_ELEMS], padded[NET_PADDED_ELEMS], max[NET_MAX_ELEMS];
  float max2[NET_MAX2_ELEMS], swapped[NET_SWAPPED_ELEMS];
  int32_t div[NET_DIV_ELEMS], mod[NET_MOD_ELEMS], trunc_[NET_TRUNC_ELEMS];
  uint8_t positive[NET_POSITIVE_ELEMS], nonzero[NET_NONZERO_ELEMS];
  double exp2_[NET_EXP2_ELEMS];
  net_inputs in;
  net_outputs out;
  int status;

  in.x = x;
  in.n = n;
  out.sum = sum;
  out.padded = padded;
  out.max = max;
  out.max2 = max2;
  out.div = div;
  out.mod = mod;
  out.positive = positive;
  out.nonzero = nonzero;
  out.trunc = trunc_;
  out.exp2 = exp2_;
  out.swapped = swapped;
  status = net_run(&in, &out, arena);

  print_floats("sum", sum, NET_SUM_ELEMS);
  print_floats("padded", padded, NET_PADDED_ELEMS);
  print_floats("max", max, NET_MAX_ELEMS);
  print_floats("max2", max2, NET_MAX2_ELEMS);
  print_ints("div", div, NET_DIV_ELEMS);
  print_ints("mod", mod, NET_MOD_ELEMS);
  print_bools("positive", positive, NET_POSITIVE_ELEMS);
  print_bools("nonzero", nonzero, NET_NONZERO_ELEMS);
  print_ints("trunc", trunc_, NET_TRUNC_ELEMS);
  printf("exp2: %.17g %.17g\n", exp2_[0], exp2_[1]);
  print_floats("swapped", swapped, NET_SWAPPED_ELEMS);
  printf("status: %d\n", status);
  return 0;
}
