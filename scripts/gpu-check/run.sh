#!/bin/bash
# The CUDA target on a real NVIDIA GPU (see bundle.sh): every bundled model
# through `tgc verify --target cuda`, `tgc bench --target cuda`, and the
# ONNX backend suite against xfail-cuda.txt. Run from the repository root:
#   bash BUNDLE/run.sh BUNDLE [SECONDS] [JOBS]
# SECONDS bounds the whole run (default 480); results and logs go to $OUT
# (default /tmp/gpu-check-out), a summary to stdout.
set -u
bundle=${1:?the bundle folder}
deadline=${2:-480}
jobs=${3:-$(nproc)}
OUT=${OUT:-/tmp/gpu-check-out}
mkdir -p "$OUT"
start=$(date +%s)
log() { echo "[$(( $(date +%s) - start ))s] $*" | tee -a "$OUT/steps.log"; }
export PATH=/usr/local/cuda/bin:/usr/local/nvidia/bin:$PATH
py=$(command -v /usr/bin/python3 || command -v python3)
{ nvidia-smi -L; nvcc --version | tail -2; gcc --version | head -1; } 2>&1 | tee "$OUT/env.txt"

work=$(mktemp -d)
"$py" -c "import sys, tarfile
for name in sys.argv[2:]: tarfile.open(name).extractall(sys.argv[1])" \
  "$work" "$bundle/tgc.tar.xz" "$bundle/onnxdata.tar.xz"
export LD_LIBRARY_PATH=$work/lib
tgc=$work/tgc
"$tgc" --version || exit 1

# Every bundled model (a folder of models/ with a model.onnx), with the
# tolerance of ctest's gpu.verify.cuda.* (tf32 tensor cores).
for dir in models/*/; do
  model=$(basename "$dir")
  [ -f "models/$model/model.onnx" ] || continue
  timeout 120 "$tgc" verify "models/$model" --target cuda --atol 2e-3 > "$OUT/verify_$model.txt" 2>&1
  log "verify cuda $model: exit $? $(tail -1 "$OUT/verify_$model.txt")"
done
timeout 60 "$py" test/gpu/gpu_tests.py bench --tgc "$tgc" --work "$work/bench" \
  models/mlp/model.onnx > "$OUT/gpu_bench_test.txt" 2>&1
log "gpu_tests.py bench: exit $? $(tail -1 "$OUT/gpu_bench_test.txt")"
for model in resblock transformer textdet; do
  timeout 60 "$tgc" bench "models/$model/model.onnx" --target cuda --iterations 200 > "$OUT/bench_$model.txt" 2>&1
  log "bench cuda $model: exit $? $(grep latency "$OUT/bench_$model.txt")"
done

# The suite in two halves, each writing its results, so that a run cut off
# by the deadline still reports one.
for half in a b; do
  if [ $half = a ]; then filter='^test_[a-l]'; else filter='^(?!test_[a-l])'; fi
  left=$(( deadline - ($(date +%s) - start) ))
  [ $left -lt 20 ] && { log "no time left for conformance half $half"; break; }
  timeout $left "$py" test/conformance/run.py --tgc "$tgc" --data "$work/data" \
    --target cuda --jobs "$jobs" --filter "$filter" \
    --results "$OUT/conformance-cuda-$half.json" > "$OUT/conformance-$half.txt" 2>&1
  log "conformance half $half: exit $? $(tail -2 "$OUT/conformance-$half.txt" | head -1)"
  grep -E "UNEXPECTED|NOW PASSES" "$OUT/conformance-$half.txt" | cut -c1-300 | head -30
done
rm -rf "$work"
