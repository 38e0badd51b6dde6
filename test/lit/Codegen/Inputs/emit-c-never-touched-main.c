/* Driver for emit-c-never-touched.mlir: compiled with -include of the
   emitted source; y = x + 1 where x is 0, 1, 2, ... (the never-read loads
   give 0), and nothing past y is written. */
#include <stdio.h>

int main(void) {
  static float x[NET_X_ELEMS], y[NET_Y_ELEMS + 8];
  net_inputs in;
  net_outputs out;
  int i;
  for (i = 0; i < NET_X_ELEMS; ++i)
    x[i] = (float)i;
  for (i = 0; i < NET_Y_ELEMS + 8; ++i)
    y[i] = -7.0f;
  in.x = x;
  out.y = y;
  if (net_run(&in, &out, NULL) != NET_OK)
    return 1;
  printf("y:");
  for (i = 0; i < NET_Y_ELEMS; ++i)
    printf(" %g", y[i]);
  for (i = NET_Y_ELEMS; i < NET_Y_ELEMS + 8; ++i)
    if (y[i] != -7.0f)
      printf(" OVERWRITTEN");
  printf("\n");
  return 0;
}
