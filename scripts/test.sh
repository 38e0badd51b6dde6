#!/usr/bin/env bash
# The whole check: install what is missing, build, run every test under ctest
# (Catch2 unit tests, lit, end-to-end and conformance suites).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j2
