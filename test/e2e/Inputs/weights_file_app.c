/* e2e.weights_file: loads cnn.safetensors (argv[1]) the way a product
 * would, checks it with cnn_weights_check and, if it is accepted, runs the
 * model on an all-zero input. Prints "check N", then "status N" and the
 * outputs one per line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cnn.h"

static void *aligned(size_t bytes, size_t align, unsigned char **block) {
  *block = malloc(bytes + align);
  if (!*block)
    exit(2);
  return *block + (align - (uintptr_t)*block % align) % align;
}

static float image[CNN_INPUT_ELEMS], scores[CNN_OUTPUT_ELEMS];

int main(int argc, char **argv) {
  unsigned char *weights_block, *arena_block;
  unsigned char *weights;
  long size;
  int check, status, i;
  FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
  if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0)
    return 2;
  weights = aligned((size_t)size, CNN_WEIGHTS_ALIGN, &weights_block);
  if (fread(weights, 1, (size_t)size, f) != (size_t)size)
    return 2;
  fclose(f);

  check = cnn_weights_check(weights, (size_t)size);
  printf("check %d\n", check);
  if (check == CNN_OK) {
    cnn_inputs in = {image};
    cnn_outputs out = {scores};
    status = cnn_run(&in, &out,
                     aligned(CNN_ARENA_BYTES, CNN_ARENA_ALIGN, &arena_block),
                     weights);
    printf("status %d\n", status);
    for (i = 0; i < CNN_OUTPUT_ELEMS; ++i)
      printf("%.9g\n", scores[i]);
    free(arena_block);
  }
  free(weights_block);
  return 0;
}
