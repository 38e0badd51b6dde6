#!/usr/bin/env bash
# Compiles the bundled MNIST-style CNN to C, builds a small app against the
# emitted package with the system C compiler, runs it, then runs the same
# model through `tgc run` on its bundled test input.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
bash scripts/build.sh

tgc=build/bin/tgc
app=examples/mnist_app.c
for needed in "$tgc" "$app"; do
  if [[ ! -f $needed ]]; then
    echo "demo: $needed is missing" >&2
    exit 1
  fi
done

# tgc compile MODEL -o DIR --name PREFIX writes mnist.h, mnist.c, the weights
# and the runtime sources into DIR (see docs: the emitted package).
rm -rf build/demo build/demo-out
"$tgc" compile models/cnn/model.onnx -o build/demo --name mnist

# One plain cc line builds the app: every .c of the package plus the example.
cc -std=c99 -O2 -Wall -Wextra -Werror -Ibuild/demo \
  "$app" build/demo/*.c -o build/demo/mnist_app -lm -pthread
echo "demo: running build/demo/mnist_app"
build/demo/mnist_app

"$tgc" run models/cnn/model.onnx \
  --input input=models/cnn/test_data_set_0/input_0.pb \
  --output-dir build/demo-out
echo "demo: tgc run wrote:"
ls -l build/demo-out
