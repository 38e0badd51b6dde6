/* Driver for drop-zero-products-run.mlir: compiled with -include of the
   emitted source; runs the two convolutions and checks them against its
   own, in double precision, with the weights the test's constants hold. */
#include <math.h>
#include <stdio.h>

#define SIZE 7

static float x[NET_X_ELEMS], y[NET_Y_ELEMS];
static double h[8][SIZE][SIZE];

static double w1(int o, int i, int ky, int kx) {
  return (double)((((o * 2 + i) * 9 + ky * 3 + kx) * 13) % 23 - 11) / 16;
}

static double w2(int o, int i, int ky, int kx) {
  return (double)((((o * 8 + i) * 9 + ky * 3 + kx) * 17) % 29 - 14) / 32;
}

/* The input pixel (i, j) of channel c, zero outside the image. */
static double at(const double *plane, int i, int j) {
  return i < 0 || j < 0 || i >= SIZE || j >= SIZE ? 0 : plane[i * SIZE + j];
}

int main(void) {
  static unsigned char block[NET_ARENA_BYTES + 64];
  unsigned char *arena = block + (64 - (size_t)block % 64) % 64;
  static double xd[2][SIZE][SIZE];
  net_inputs in;
  net_outputs out;
  double worst = 0;
  int c, o, i, j, ky, kx;
  for (c = 0; c < 2; ++c)
    for (i = 0; i < SIZE; ++i)
      for (j = 0; j < SIZE; ++j) {
        int n = (c * SIZE + i) * SIZE + j;
        x[n] = (float)((n * 37) % 101 - 50) / 25;
        xd[c][i][j] = x[n];
      }
  in.x = x;
  out.y = y;
  if (net_run(&in, &out, arena) != NET_OK)
    return 1;
  for (o = 0; o < 8; ++o)
    for (i = 0; i < SIZE; ++i)
      for (j = 0; j < SIZE; ++j) {
        double sum = 0;
        for (c = 0; c < 2; ++c)
          for (ky = 0; ky < 3; ++ky)
            for (kx = 0; kx < 3; ++kx)
              sum +=
                  w1(o, c, ky, kx) * at(&xd[c][0][0], i + ky - 1, j + kx - 1);
        h[o][i][j] = sum;
      }
  for (o = 0; o < 16; ++o)
    for (i = 0; i < SIZE; ++i)
      for (j = 0; j < SIZE; ++j) {
        double sum = 0, scale = 0, got = y[(o * SIZE + i) * SIZE + j];
        for (c = 0; c < 8; ++c)
          for (ky = 0; ky < 3; ++ky)
            for (kx = 0; kx < 3; ++kx) {
              double term =
                  w2(o, c, ky, kx) * at(&h[c][0][0], i + ky - 1, j + kx - 1);
              sum += term;
              scale += fabs(term);
            }
        if (!(fabs(got - sum) <= 1e-5 * (scale + 1))) {
          printf("y[%d][%d][%d] = %g, expected %g\n", o, i, j, got, sum);
          return 1;
        }
        if (fabs(got - sum) / (scale + 1) > worst)
          worst = fabs(got - sum) / (scale + 1);
      }
  printf("max relative error %g: ok\n", worst);
  return 0;
}
