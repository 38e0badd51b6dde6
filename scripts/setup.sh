#!/usr/bin/env bash
# Installs the Debian 12 (bookworm) packages that tgc needs to build and test.
#
# Idempotent: when every package is already installed it touches neither apt
# nor the network, so re-runs are fast and work offline. Run it as root, or as
# a user with sudo.
#
# With --bench it also installs what bench/run.py needs: PyTorch and
# torchvision (the peer, and the exporter of ResNet-18 and MobileNetV2),
# OpenBLAS (without it PyTorch falls back to the reference BLAS, no fair
# peer) and, unless an npm is already on the PATH (NodeSource's nodejs ships
# its own and conflicts with Debian's), node and npm for onnxruntime-node.
# models/make_models.py needs the same PyTorch.
set -euo pipefail

packages=(
  cmake ninja-build ccache g++ clang       # build tools
  libmlir-19-dev mlir-19-tools             # MLIR 19: libraries, mlir-tblgen-19
  llvm-19-dev llvm-19-tools                # LLVM 19, FileCheck and lit
  libonnx-dev libonnx-testdata             # ONNX checker/shape inference, backend test data
  libprotobuf-dev protobuf-compiler        # ONNX's protobuf
  catch2 libcli11-dev nlohmann-json3-dev   # unit tests, command line, JSON
  python3                                  # Debian's, for lit
  python3-numpy python3-onnx               # the end-to-end tests (test/e2e)
)
if [[ ${1:-} == --bench ]]; then
  packages+=(python3-torch python3-torchvision libopenblas0-pthread)
  if ! command -v npm >/dev/null; then
    packages+=(nodejs npm)
  fi
elif (($#)); then
  echo "usage: scripts/setup.sh [--bench]" >&2
  exit 2
fi

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
  if [[ $status != installed ]]; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages are installed"
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null; then
  as_root=(sudo)
else
  echo "setup: not root and no sudo; install these packages first:" >&2
  echo "  ${missing[*]}" >&2
  exit 1
fi

echo "setup: installing ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"
