#!/usr/bin/env bash
# The long fuzz run (docs/results.md, "Fuzzing"): every target of
# tests/fuzz/fuzz_targets.hpp on mutated seeds, 10^6 executions by default.
#   scripts/fuzz.sh [executions] [seed]
# Builds mheta_fuzz in build/ (or $MHETA_BUILD_DIR) first. A finding leaves
# its input in fuzz-finding-<target>.bin in the current directory and exits
# non-zero; add it to tests/fuzz/hostile_input_test.cpp once fixed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MHETA_BUILD_DIR:-$root/build}
executions=${1:-1000000}
seed=${2:-1}
cmake --build "$build" -j "$(nproc)" --target mheta_fuzz >/dev/null
"$build/tests/fuzz/mheta_fuzz" --seeds "$root/tests/fuzz/seeds" --seeds "$root/examples/jacobi-hy1" \
  --executions "$executions" --seed "$seed"
