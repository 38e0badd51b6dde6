/* Driver for max-constants-run.mlir: compiled with -include of the
   emitted source; compares every output's bits with tgc.max's definition
   (NaNs only by being NaN: which NaN comes through is not specified). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

static float x[NET_X_ELEMS], y[NET_Y_ELEMS];
static float a_relu[NET_A_RELU_ELEMS], a_negzero[NET_A_NEGZERO_ELEMS];
static float a_clip[NET_A_CLIP_ELEMS], a_left[NET_A_LEFT_ELEMS];
static float a_pair[NET_A_PAIR_ELEMS], a_min[NET_A_MIN_ELEMS];
static float b[NET_B_ELEMS];
static float z[NET_Z_ELEMS], w[NET_W_ELEMS];
static float relu[NET_RELU_ELEMS], negzero[NET_NEGZERO_ELEMS];
static float clip[NET_CLIP_ELEMS], left[NET_LEFT_ELEMS];
static float pair[NET_PAIR_ELEMS];
static float vrelu[NET_VRELU_ELEMS], vnegzero[NET_VNEGZERO_ELEMS];
static float vclip[NET_VCLIP_ELEMS], vleft[NET_VLEFT_ELEMS];
static float vpair[NET_VPAIR_ELEMS], min[NET_MIN_ELEMS], vmin[NET_VMIN_ELEMS];

/* Values where a max can go wrong: zeros of both signs, NaN, infinities,
   the constants themselves, values beside them, subnormals. */
static float sample(int i) {
  static const float special[] = {
      0.0f,  -0.0f,      1.0f,        -1.0f,  -6.0f,   6.0f,  2.5f,
      -2.5f, 2.4999998f, -6.0000005f, 1e-45f, -1e-45f, 1e30f, -1e30f};
  int n = COUNT(special);
  if (i < n)
    return special[i];
  if (i == n)
    return NAN;
  if (i == n + 1)
    return -NAN;
  if (i == n + 2)
    return INFINITY;
  if (i == n + 3)
    return -INFINITY;
  return (float)((i * 7) % 29 - 14) * 0.5f;
}

/* A partner for sample(i): the same value, the zero of the other sign or
   the negation, NaN, a greater and a smaller value. */
static float partner(int i) {
  float v = sample(i);
  switch (i % 5) {
  case 0:
    return v;
  case 1:
    return -v;
  case 2:
    return NAN;
  case 3:
    return v + 1.0f;
  default:
    return v - 1.0f;
  }
}

static float max_of(float a, float c) { return (a != a || a > c) ? a : c; }

static int same(float got, float want) {
  if (isnan(want))
    return isnan(got);
  return memcmp(&got, &want, sizeof got) == 0;
}

/* got[i] against -max(-x[i], c): tgc's minimum. */
static void check_min(const char *name, const float *got, const float *x,
                      float c, int count) {
  int i, bad = 0;
  for (i = 0; i < count; ++i)
    bad |= !same(got[i], -max_of(-x[i], c));
  printf("%s: %s\n", name, bad ? "MISMATCH" : "ok");
}

/* got[i] against max(lhs[i], rhs[i]), a missing side being `c`. */
static void check(const char *name, const float *got, const float *lhs,
                  const float *rhs, float c, int count) {
  int i, bad = 0;
  for (i = 0; i < count; ++i)
    bad |= !same(got[i], max_of(lhs ? lhs[i] : c, rhs ? rhs[i] : c));
  printf("%s: %s\n", name, bad ? "MISMATCH" : "ok");
}

int main(void) {
  static unsigned char block[NET_ARENA_BYTES + 64];
  unsigned char *arena = block + (64 - (size_t)block % 64) % 64;
  float *selectors[] = {a_relu, a_negzero, a_clip, a_left, a_pair, a_min};
  net_inputs in;
  net_outputs out;
  int i, k;
  for (i = 0; i < NET_X_ELEMS; ++i) {
    x[i] = sample(i);
    y[i] = partner(i);
  }
  /* a (4x32) picks row 0 of b (32x64), all ones: a b is exactly 1, and
     a b z is z. */
  for (k = 0; k < COUNT(selectors); ++k)
    for (i = 0; i < 4 * 32; ++i)
      selectors[k][i] = i % 32 == 0 ? 1.0f : 0.0f;
  for (i = 0; i < NET_B_ELEMS; ++i)
    b[i] = i < 64 ? 1.0f : 0.5f;
  for (i = 0; i < NET_Z_ELEMS; ++i) {
    z[i] = sample(i);
    w[i] = partner(i);
  }
  in.x = x;
  in.y = y;
  in.a_relu = a_relu;
  in.a_negzero = a_negzero;
  in.a_clip = a_clip;
  in.a_left = a_left;
  in.a_pair = a_pair;
  in.a_min = a_min;
  in.b = b;
  in.z = z;
  in.w = w;
  out.relu = relu;
  out.negzero = negzero;
  out.clip = clip;
  out.left = left;
  out.pair = pair;
  out.vrelu = vrelu;
  out.vnegzero = vnegzero;
  out.vclip = vclip;
  out.vleft = vleft;
  out.vpair = vpair;
  out.min = min;
  out.vmin = vmin;
  if (net_run(&in, &out, arena) != NET_OK) {
    printf("status: error\n");
    return 1;
  }
  check("relu", relu, x, 0, 0.0f, NET_RELU_ELEMS);
  check("negzero", negzero, x, 0, -0.0f, NET_NEGZERO_ELEMS);
  check("clip", clip, x, 0, -6.0f, NET_CLIP_ELEMS);
  check("left", left, 0, x, 2.5f, NET_LEFT_ELEMS);
  check("pair", pair, x, y, 0, NET_PAIR_ELEMS);
  check("vrelu", vrelu, z, 0, 0.0f, NET_VRELU_ELEMS);
  check("vnegzero", vnegzero, z, 0, -0.0f, NET_VNEGZERO_ELEMS);
  check("vclip", vclip, z, 0, -6.0f, NET_VCLIP_ELEMS);
  check("vleft", vleft, 0, z, 2.5f, NET_VLEFT_ELEMS);
  check("vpair", vpair, z, w, 0, NET_VPAIR_ELEMS);
  check_min("min", min, x, -6.0f, NET_MIN_ELEMS);
  check_min("vmin", vmin, z, -6.0f, NET_VMIN_ELEMS);
  return 0;
}
