/* Driver for transpose-run.mlir: compiled with -include of the emitted
   source; checks each output against its own transpose of the input, bit
   for bit, and that nothing past an output was written. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Room past each output, filled with a pattern no output holds. */
#define GUARD 64

static float a[NET_A_ELEMS], b[NET_B_ELEMS];
static int32_t c[NET_C_ELEMS];
static uint8_t d[NET_D_ELEMS];
static uint16_t e[NET_E_ELEMS];
static float ya[NET_YA_ELEMS + GUARD], yb[NET_YB_ELEMS + GUARD];
static int32_t yc[NET_YC_ELEMS + GUARD];
static uint8_t yd[NET_YD_ELEMS + GUARD];
static uint16_t ye[NET_YE_ELEMS + GUARD];

/* 1 if `y` is `x` (outer blocks of rows x cols elements of `size` bytes)
   with the last two axes swapped, and the GUARD elements after it are
   still 0xA5 bytes; else 0. */
static int transposed(const void *x, const void *y, size_t size, int outer,
                      int rows, int cols) {
  const unsigned char *from = (const unsigned char *)x;
  const unsigned char *to = (const unsigned char *)y;
  int o, r, k;
  size_t i;
  for (o = 0; o < outer; ++o)
    for (r = 0; r < rows; ++r)
      for (k = 0; k < cols; ++k) {
        size_t in = ((size_t)(o * rows + r) * cols + k) * size;
        size_t out = ((size_t)(o * cols + k) * rows + r) * size;
        if (memcmp(from + in, to + out, size) != 0)
          return 0;
      }
  for (i = 0; i < GUARD * size; ++i)
    if (to[(size_t)outer * rows * cols * size + i] != 0xA5)
      return 0;
  return 1;
}

int main(void) {
  net_inputs in;
  net_outputs out;
  int i;
  /* Every element distinct, so a lane taken from the wrong place shows. */
  for (i = 0; i < NET_A_ELEMS; ++i)
    a[i] = (float)i - 0.5f;
  for (i = 0; i < NET_B_ELEMS; ++i)
    b[i] = -(float)i * 0.25f;
  for (i = 0; i < NET_C_ELEMS; ++i)
    c[i] = i * 7 - 1000;
  for (i = 0; i < NET_D_ELEMS; ++i)
    d[i] = (uint8_t)(i * 13 + i / 256);
  for (i = 0; i < NET_E_ELEMS; ++i)
    e[i] = (uint16_t)(0x3c00 + i);
  memset(ya, 0xA5, sizeof ya);
  memset(yb, 0xA5, sizeof yb);
  memset(yc, 0xA5, sizeof yc);
  memset(yd, 0xA5, sizeof yd);
  memset(ye, 0xA5, sizeof ye);
  in.a = a;
  in.b = b;
  in.c = c;
  in.d = d;
  in.e = e;
  out.ya = ya;
  out.yb = yb;
  out.yc = yc;
  out.yd = yd;
  out.ye = ye;
  if (net_run(&in, &out, NULL) != NET_OK)
    return 1;
  printf("ya: %s\n", transposed(a, ya, 4, 1, 6 * 40, 24) ? "ok" : "MISMATCH");
  printf("yb: %s\n", transposed(b, yb, 4, 1, 48, 64) ? "ok" : "MISMATCH");
  printf("yc: %s\n", transposed(c, yc, 4, 1, 20 * 32, 8) ? "ok" : "MISMATCH");
  printf("yd: %s\n", transposed(d, yd, 1, 1, 20 * 32, 16) ? "ok" : "MISMATCH");
  printf("ye: %s\n", transposed(e, ye, 2, 1, 20 * 32, 16) ? "ok" : "MISMATCH");
  return 0;
}
