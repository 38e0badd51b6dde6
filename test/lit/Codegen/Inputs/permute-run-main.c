/* Driver for permute-run.mlir: compiled with -include of the emitted
   source; checks both max pools (3x3, stride 2) against its own, the
   second one's of the concatenation of b and c. */
#include <stdio.h>

static float a[NET_A_ELEMS], b[NET_B_ELEMS], c[NET_C_ELEMS];
static float bc[NET_B_ELEMS + NET_C_ELEMS];
static float y13[NET_Y13_ELEMS], y27[NET_Y27_ELEMS];

/* 1 if `got` is the 3x3 stride-2 max pool of `x` (channels of size x size
   pixels to out x out), else 0. */
static int pooled(const float *x, const float *got, int channels, int size,
                  int out) {
  int c, i, j, di, dj;
  for (c = 0; c < channels; ++c)
    for (i = 0; i < out; ++i)
      for (j = 0; j < out; ++j) {
        float best = x[(c * size + 2 * i) * size + 2 * j];
        for (di = 0; di < 3; ++di)
          for (dj = 0; dj < 3; ++dj) {
            float v = x[(c * size + 2 * i + di) * size + 2 * j + dj];
            best = v > best ? v : best;
          }
        if (got[(c * out + i) * out + j] != best)
          return 0;
      }
  return 1;
}

int main(void) {
  static unsigned char block[NET_ARENA_BYTES + 64];
  unsigned char *arena = block + (64 - (size_t)block % 64) % 64;
  net_inputs in;
  net_outputs out;
  int i;
  /* Negative values too: a lane taken from the wrong place (or a zero
     where an input belongs) changes a maximum. */
  for (i = 0; i < NET_A_ELEMS; ++i)
    a[i] = (float)((i * 37) % 101 - 70);
  for (i = 0; i < NET_B_ELEMS; ++i)
    bc[i] = b[i] = (float)((i * 53) % 97 - 80);
  for (i = 0; i < NET_C_ELEMS; ++i)
    bc[NET_B_ELEMS + i] = c[i] = (float)((i * 29) % 89 - 60);
  in.a = a;
  in.b = b;
  in.c = c;
  out.y13 = y13;
  out.y27 = y27;
  if (net_run(&in, &out, arena) != NET_OK)
    return 1;
  printf("y13: %s\n", pooled(a, y13, 2, 27, 13) ? "ok" : "MISMATCH");
  printf("y27: %s\n", pooled(bc, y27, 2, 55, 27) ? "ok" : "MISMATCH");
  return 0;
}
