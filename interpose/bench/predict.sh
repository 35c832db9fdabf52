#!/usr/bin/env bash
# Prediction of an unmodified NAS-style CG (no marks, no io/), captured with
# MHETA_ROWS and automatic iteration detection on 4 ranks with sleep-waiting:
# `mheta predict` with the distribution it ran with against its measured
# time per iteration; target within 5% (MHETA §5.2.1 metric). The cluster is
# measured first with mheta-microbench (under the interposer's sleep-wait).
# Usage: interpose/bench/predict.sh BUILD_DIR [RANKS] [ROWS] [REPEATS]
set -euo pipefail
build=$(cd "${1:?usage: predict.sh BUILD_DIR [RANKS] [ROWS] [REPEATS]}" && pwd)
ranks=${2:-4}
rows=${3:-200000}
repeats=${4:-5}
here=$(cd "$(dirname "$0")" && pwd)
mpiexec=${MPIEXEC:-mpiexec}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The cluster is measured the way the program runs: sleep-waiting (with more
# ranks than cores, spinning ranks would price collectives at milliseconds).
MHETA_MPIEXEC=$mpiexec "$build/cli/mheta" run -n "$ranks" --wait sleep --capture off -- \
  "$build/microbench/mheta-microbench" -o "$tmp/cluster.json" --budget 60 >/dev/null
for i in $(seq "$repeats"); do
  python3 "$here/../../tests/interpose/interposer_check.py" predict \
    --mpiexec "$mpiexec" --lib "$build/interpose/libmheta-interpose.so" --mheta "$build/cli/mheta" \
    --cluster "$tmp/cluster.json" --np "$ranks" --rows "$rows" --iterations 30 --tolerance 0.05 \
    -- "$build/tests/interpose/interpose_nas_style_cg" | grep "^measured" || true
done
