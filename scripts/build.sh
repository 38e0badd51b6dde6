#!/usr/bin/env bash
# Configures build/ (the first time) and builds tgc with Ninja.
# Extra arguments go to `cmake --build`, e.g. `scripts/build.sh -j1` or
# `scripts/build.sh --target tgc-unit-tests`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Let ccache hit across clones in different folders (CI builds a fresh one).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1

# After the first configure, ninja re-runs cmake itself when a CMakeLists.txt
# changes, so configuring again is only needed when build/ has no build files.
if [[ ! -f build/build.ninja || ! -f build/CMakeCache.txt ]]; then
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache
              -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -G Ninja -S . -B build \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-19/build/utils/lit/lit.py \
    "${launcher[@]}"
fi

cmake --build build "$@"
