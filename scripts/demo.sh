#!/usr/bin/env bash
# Compiles the bundled MNIST-style CNN to C, builds examples/mnist_app.c
# against the emitted package with the system C compiler, runs it, then runs
# the same model through `tgc run` on its bundled test input and checks it
# against PyTorch's output with `tgc verify`.
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

# tgc compile MODEL -o DIR --name PREFIX writes mnist.h, mnist.c,
# mnist_weights.c, mnist.json and a CMakeLists.txt into DIR (README.md: the
# emitted package). DIR is replaced as a whole, and only on success.
rm -rf build/demo-out
"$tgc" compile models/cnn/model.onnx -o build/demo --name mnist

# One plain cc line builds the app: every .c of the package plus the example.
cc -std=c99 -O2 -Wall -Wextra -Werror -Ibuild/demo \
  "$app" build/demo/*.c -o build/mnist_app -lm
echo "demo: running build/mnist_app"
build/mnist_app

"$tgc" run models/cnn/model.onnx \
  --input input=models/cnn/test_data_set_0/input_0.pb \
  --output-dir build/demo-out
echo "demo: tgc run wrote:"
ls -l build/demo-out

"$tgc" verify models/cnn
