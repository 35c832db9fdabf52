#!/usr/bin/env bash
# README command 1: install what is missing, build, and run mheta's main job
# on the bundled default: jacobi (out of core, HDF5 local arrays) on 2 ranks
# of an emulated heterogeneous cluster (examples/demo/two-nodes.json: rank 1
# has a quarter of the CPU speed, a disk four times as slow and 3 MiB of memory,
# on the presets' emulated network and disk, so its times repeat run to run).
#   1. capture one iteration, measure the cluster, predict the paper's
#      spectrum of distributions and search the best (GBS), run each for
#      real and compare (mheta validate), then write the HTML report;
#   2. move jacobi's local arrays from Blk to the best distribution
#      (mheta redistribute, checksummed) and run on it.
# Output goes to $MHETA_DEMO_DIR (default: demo-output/ in the clone).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
mkdir -p "${MHETA_BUILD_DIR:-$root/build}"
echo "== building (log: ${MHETA_BUILD_DIR:-$root/build}/build.log)" >&2
"$root/scripts/build.sh" >"${MHETA_BUILD_DIR:-$root/build}/build.log" 2>&1 || {
  tail -40 "${MHETA_BUILD_DIR:-$root/build}/build.log" >&2
  exit 1
}
build=${MHETA_BUILD_DIR:-$root/build}
out=${MHETA_DEMO_DIR:-$root/demo-output}
mheta="$build/cli/mheta"
emulation="$root/examples/demo/two-nodes.json"
app="$build/apps/jacobi --rows 2048 --cols 4096 --iters 8"
rm -rf "$out"
mkdir -p "$out"

echo "== mheta validate: capture, cluster, predict, search, run the spectrum" >&2
"$mheta" validate -n 2 --app "$app" --emulate "$emulation" --steps 2 --microbench-budget 5 \
  --work "$out/validate" -o "$out/results.json"
"$mheta" report "$out/results.json" -o "$out/report.html"

echo "== mheta search: the distribution to run with" >&2
"$mheta" search --profile "$out/validate/profile.json" --cluster "$out/validate/cluster.json" -o "$out/best.txt"

echo "== mheta redistribute: jacobi's local arrays from Blk to best.txt" >&2
"$mheta" predict "$out/best.txt" --profile "$out/validate/profile.json" --cluster "$out/validate/cluster.json" \
  --iterations 8
"$mheta" run -n 2 --emulate "$emulation" --capture off -- $app --data "$out/data" --no-check >"$out/blk-run.out"
printf '1024\n1024\n' >"$out/blk.txt"
"$mheta" redistribute -n 2 --from "$out/blk.txt" --to "$out/best.txt" --data "$out/data" --checksum
"$mheta" run -n 2 --emulate "$emulation" --capture off -- $app --data "$out/data" --dist "$out/best.txt" \
  >"$out/best-run.out"
grep -h '"result"' "$out/best-run.out" || true

# Blk and the chosen distribution, measured side by side: the median of each
# run's iterations after the first (the first creates or opens the data).
python3 - "$out/blk-run.out" "$out/best-run.out" "$(grep -v '^#' "$out/best.txt" | tr -s ' \n' ' ')" <<'EOF_PY'
import json, statistics, sys
def steady(path):
    lines = [json.loads(line) for line in open(path) if line.startswith("{")]
    seconds = [l["seconds"] for l in lines if l.get("mheta") == "iteration"]
    return statistics.median(seconds[1:] or seconds)
blk, best = steady(sys.argv[1]), steady(sys.argv[2])
print("== measured per iteration: Blk %.1f ms, chosen [%s] %.1f ms: %.2fx as fast" %
      (1e3 * blk, sys.argv[3].strip(), 1e3 * best, blk / best))
EOF_PY

echo "== done: $out/report.html, $out/results.json, $out/best.txt" >&2
