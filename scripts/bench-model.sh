#!/usr/bin/env bash
# Builds and runs the model benchmark: time to evaluate one distribution for
# 8 to 8192 ranks, printed beside the targets.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" >/dev/null
build=${MHETA_BUILD_DIR:-$root/build}
"$build/bench/bench_model" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true "$@"
