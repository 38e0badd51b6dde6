#!/bin/bash
# Packs what a GPU machine needs to check the CUDA target on real hardware:
# a tgc linked against the static MLIR/LLVM libraries (the shared ones are
# over 150 MB; this tgc is about 9 MB, and needs only ONNX's and protobuf's
# libraries, packed beside it) and the ONNX backend test data.
#
#   scripts/gpu-check/bundle.sh [BUILD_DIR] [OUT_DIR]
#
# BUILD_DIR (default build) must hold a built tgc; OUT_DIR (default
# .gpu-check, which .gitignore leaves out) receives tgc.tar.xz,
# onnxdata.tar.xz and run.sh. On the GPU machine, from the repository root:
#   bash OUT_DIR/run.sh OUT_DIR [SECONDS] [JOBS]
set -euo pipefail
build=$(realpath "${1:-build}")
out=$(realpath -m "${2:-.gpu-check}")
llvm=/usr/lib/llvm-19/lib
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$out" "$stage/lib"

# Every tgc library and every MLIR/LLVM archive in one group: the linker
# takes only the members tgc reaches (about 9 MB after strip).
mapfile -t tgc_libs < <(find "$build/lib" -name 'libTgc*.a' | sort)
g++ -O2 -Wl,--gc-sections -o "$stage/tgc" \
  "$build/tools/tgc/CMakeFiles/tgc.dir/tgc.cpp.o" \
  -Wl,--start-group "${tgc_libs[@]}" "$llvm"/libMLIR*.a "$llvm"/libLLVM*.a \
  -Wl,--end-group \
  /usr/lib/x86_64-linux-gnu/libonnx.so.1 \
  /usr/lib/x86_64-linux-gnu/libonnx_proto.so.1 \
  /usr/lib/x86_64-linux-gnu/libprotobuf.so \
  -lz /usr/lib/x86_64-linux-gnu/libzstd.so.1 -ltinfo -lpthread -ldl
strip "$stage/tgc"
cp -L /usr/lib/x86_64-linux-gnu/libonnx.so.1 \
      /usr/lib/x86_64-linux-gnu/libonnx_proto.so.1 \
      /usr/lib/x86_64-linux-gnu/libprotobuf.so.32 "$stage/lib/"
LD_LIBRARY_PATH="$stage/lib" "$stage/tgc" --version >/dev/null
tar -C "$stage" -cJf "$out/tgc.tar.xz" tgc lib
tar -C /usr/share/libonnx-testdata -cJf "$out/onnxdata.tar.xz" data
cp "$(dirname "$0")/run.sh" "$out/run.sh"
du -sh "$out"
