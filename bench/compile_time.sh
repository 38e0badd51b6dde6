#!/usr/bin/env bash
# Compile time of tgc itself: the median wall time of `tgc compile` for each
# bundled model over several runs. `tgc compile` stops at the C source, so no
# C compiler time is included. A benchmark, not a test: on shared machines
# absolute times move by +-30% between runs.
#
# Usage: bench/compile_time.sh [RUNS]      (default 5)
#        TGC=path/to/tgc bench/compile_time.sh   (default build/bin/tgc)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

runs=${1:-5}
tgc=${TGC:-build/bin/tgc}
if [[ ! -x $tgc ]]; then
  echo "compile_time: $tgc not found; build first (scripts/build.sh)" >&2
  exit 1
fi
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
  echo "compile_time: RUNS must be a positive number, not '$runs'" >&2
  exit 1
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

printf '%-12s %10s   (%d runs each)\n' model "median s" "$runs"
for model in mlp cnn resblock transformer; do
  times=()
  for ((i = 0; i < runs; i++)); do
    start=$(date +%s%N)
    "$tgc" compile "models/$model/model.onnx" -o "$out/$model" >/dev/null
    end=$(date +%s%N)
    times+=($((end - start)))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v model="$model" '
    { t[NR] = $1 }
    END {
      m = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
      printf "%-12s %10.3f\n", model, m / 1e9
    }'
done
