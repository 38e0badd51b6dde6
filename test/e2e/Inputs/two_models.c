/* e2e.two_models: two tgc packages in one program. Every symbol of a
 * package carries its --name prefix, so `cnn` and `mlp` link side by side.
 * Runs both on all-zero inputs and prints their outputs, one per line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cnn.h"
#include "mlp.h"

/* C99 has no aligned_alloc: over-allocate and round up. */
static void *aligned(size_t bytes, size_t align, unsigned char **block) {
  *block = malloc(bytes + align);
  if (!*block)
    exit(2);
  return *block + (align - (uintptr_t)*block % align) % align;
}

static float cnn_in[CNN_INPUT_ELEMS], cnn_out[CNN_OUTPUT_ELEMS];
static float mlp_in[MLP_INPUT_ELEMS], mlp_out[MLP_OUTPUT_ELEMS];

int main(void) {
  unsigned char *cnn_block, *mlp_block;
  cnn_inputs ci = {cnn_in};
  cnn_outputs co = {cnn_out};
  mlp_inputs mi = {mlp_in};
  mlp_outputs mo = {mlp_out};
  int cnn_status = cnn_run(
      &ci, &co, aligned(CNN_ARENA_BYTES, CNN_ARENA_ALIGN, &cnn_block));
  int mlp_status = mlp_run(
      &mi, &mo, aligned(MLP_ARENA_BYTES, MLP_ARENA_ALIGN, &mlp_block));
  int i;
  printf("status %d %d\n", cnn_status, mlp_status);
  for (i = 0; i < CNN_OUTPUT_ELEMS; ++i)
    printf("cnn %.9g\n", cnn_out[i]);
  for (i = 0; i < MLP_OUTPUT_ELEMS; ++i)
    printf("mlp %.9g\n", mlp_out[i]);
  free(cnn_block);
  free(mlp_block);
  return cnn_status || mlp_status;
}
