#!/usr/bin/env bash
# Redistribution on the fly (--auto) of every app, 4 ranks on an emulated
# heterogeneous cluster: for each app, Blk's measured time per iteration,
# the model's prediction on Blk and on the distribution it chose, the
# measured time after the move, predicted against measured gain, and the
# move's predicted and measured seconds, side by side.
#
#   scripts/bench-auto.sh [build-dir] [emulation]
#
# emulation: a preset or an emulation file (default tests/apps/one_slow_node.json:
# CPU factors 1, 1, 1, 6). Each app runs twice under
# `mheta run --capture mark --capture-iteration 6` (tests/apps/auto_test.py):
# on Blk, and with --auto (no cluster.json: the runtime's quick 4 s
# characterization). Measured figures are medians of the iterations after
# the 7th (the first on the new blocks), in both runs. Sizes as the ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
emulation=${2:-$root/tests/apps/one_slow_node.json}
work=$(mktemp -d "${MHETA_BENCH_DIR:-/tmp}/mheta-bench-auto.XXXXXX")
trap 'rm -rf "$work"' EXIT

# app, then its arguments (as tests/apps/CMakeLists.txt's auto_table).
runs=(
  "jacobi --rows 4096 --cols 1024 --iters 80"
  "cg --rows 200000 --iters 90"
  "lanczos --rows 2048 --iters 140"
  "rna --rows 4096 --cols 2048 --iters 40"
)
for run in "${runs[@]}"; do
  set -- $run
  app=$1
  shift
  python3 "$root/tests/apps/auto_test.py" --mheta "$build/cli/mheta" --app "$build/apps/$app" \
    --emulate "$emulation" --row-weights a.row_weights.txt --work "$work/$app" -- "$@" \
    >"$work/$app.log" 2>&1 || grep '^FAIL' "$work/$app.log" >&2 || true
  grep '"auto_summary"' "$work/$app.log" || true
done | python3 -c '
import json, sys
print("| app | decision: distribution | Blk measured | Blk predicted | GBS predicted | after the decision measured | gain predicted | gain measured | move predicted / measured |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for line in sys.stdin:
    s = json.loads(line)["auto_summary"]
    print("| %s | %s | %.4f s | %.4f s | %.4f s | %.4f s | %.0f%% | %.0f%% | %.2f / %.2f s |" % (
        s["app"], s["decision"] + ": " + " ".join(map(str, s["to"])), s["blk_measured_s"], s["predicted_blk_s"], s["predicted_best_s"],
        s["after_move_measured_s"], 100 * s["predicted_gain"], 100 * s["measured_gain"],
        s["move_predicted_s"], s["move_measured_s"]))
'
