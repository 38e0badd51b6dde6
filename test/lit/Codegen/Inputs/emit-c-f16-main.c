/* Driver for emit-c-f16.mlir: compiled with -include of the emitted source. */
#include <math.h>
#include <stdio.h>

static void print_bits(const char *name, const uint16_t *values, int count) {
  int i;
  printf("%s:", name);
  for (i = 0; i < count; ++i)
    printf(" %04x", (unsigned)values[i]);
  printf("\n");
}

int main(void) {
  static const uint16_t h[8] = {0x7bff, 0x0001, 0x3c00, 0x8000,
                                0x7e00, 0x3555, 0x03ff, 0xc400};
  float f[8];
  uint16_t to_half[8], half_ops[8], bf16[8];
  int16_t bits16[8];
  float to_float[8];
  net_inputs in;
  net_outputs out;
  int i, status;

  f[0] = 1.0f;
  f[1] = 65504.0f;
  f[2] = 65520.0f;
  f[3] = 3.0e-8f;
  f[4] = 2.9802322387695312e-08f; /* 2^-25: halfway to the smallest */
  f[5] = 0.1f;
  f[6] = -HUGE_VALF;
  f[7] = 1.00048828125f; /* 1 + 2^-11: halfway, rounds to even */
  in.h = h;
  in.f = f;
  out.to_half = to_half;
  out.half_ops = half_ops;
  out.to_float = to_float;
  out.bf16 = bf16;
  out.bits16 = bits16;
  status = net_run(&in, &out, NULL);
  if (status != NET_OK) {
    printf("status %d\n", status);
    return 1;
  }
  print_bits("to_half", to_half, 8);
  print_bits("half_ops", half_ops, 8);
  printf("to_float:");
  for (i = 0; i < 8; ++i) {
    if (isnan(to_float[i]))
      printf(" nan");
    else if (to_float[i] == 0 && signbit(to_float[i]))
      printf(" -0");
    else
      printf(" %.9g", to_float[i]);
  }
  printf("\n");
  print_bits("bf16", bf16, 8);
  print_bits("bits16", (const uint16_t *)bits16, 8);
  return 0;
}
