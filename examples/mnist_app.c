/* Classifies an all-zero 28x28 image with the package written by
 *   tgc compile models/cnn/model.onnx -o DIR --name mnist
 * Build: cc -std=c99 -O2 -IDIR examples/mnist_app.c DIR/mnist*.c -lm */
#include <stdint.h>
#include <stdio.h>
#include "mnist.h"

static float image[MNIST_INPUT_ELEMS], scores[MNIST_OUTPUT_ELEMS];
static unsigned char arena[MNIST_ARENA_BYTES + MNIST_ARENA_ALIGN];

int main(void) {
  mnist_inputs in = {image};    /* one pointer per model input, in order */
  mnist_outputs out = {scores}; /* and per output */
  int best = 0, i, status = mnist_run(&in, &out, arena + (-(uintptr_t)arena & (MNIST_ARENA_ALIGN - 1)));
  for (i = 1; i < MNIST_OUTPUT_ELEMS; ++i) best = scores[i] > scores[best] ? i : best;
  printf("status %d argmax %d\n", status, best);
  return status;
}
