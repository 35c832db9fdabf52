#!/usr/bin/env bash
# The corpus table of docs/results.md: every program of tests/corpus at 2
# ranks (one per core), without the interposer and under `mheta run`, its
# own measured iteration time against `mheta predict` of its own
# distribution, on a cluster.json measured here once with `mheta microbench`
# (or given as CLUSTER). Prints a Markdown table.
# Usage: scripts/corpus-table.sh BUILD_DIR [RUNS]   (RUNS: runs without the interposer, median)
# RECORDS=DIR keeps check_corpus.py's records (records.json) and log there.
set -euo pipefail
build=$(cd "${1:?usage: corpus-table.sh BUILD_DIR [RUNS]}" && pwd)
runs=${2:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
mpiexec=${MPIEXEC:-mpiexec}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cluster=${CLUSTER:-}
if [[ -z $cluster ]]; then
  cluster=$tmp/cluster.json
  "$build/cli/mheta" microbench -n 2 --budget 30 -o "$cluster" --mpiexec "$mpiexec" \
    --program "$build/microbench/mheta-microbench" >"$tmp/microbench.log"
fi
python3 "$root/tests/corpus/check_corpus.py" --mheta "$build/cli/mheta" --mpiexec "$mpiexec" \
  --bin "$build/tests/corpus" --cluster "$cluster" --runs "$runs" --json "$tmp/records.json" >"$tmp/check.log" || true
if [[ -n ${RECORDS:-} ]]; then cp "$tmp/records.json" "$tmp/check.log" "$RECORDS/"; fi
python3 - "$tmp/records.json" "$root/tests/corpus/expected.txt" <<'PY'
import json, re, sys
records = json.load(open(sys.argv[1]))
shape = {}
for line in open(sys.argv[2]):
    if line.strip() and not line.startswith("#"):
        shape[line.split()[0]] = line.split()
def t(s):
    return "-" if s is None else ("%.2f ms" % (s * 1e3) if s >= 1e-3 else "%.1f µs" % (s * 1e6))
print("| code | measured per iteration | predicted | difference | iterations counted / real | profile written | capture's time share |")
print("|---|---|---|---|---|---|---|")
for r in records:
    if "measured_s" not in r:
        print("| %s | failed: %s | | | | | |" % (r["name"], r["failures"][0].splitlines()[0]))
        continue
    diff = "-" if "error" not in r else "%.0f%%" % (100 * r["error"]) if r["error"] < 10 else "%.0f×" % (
        max(r["predicted_s"], r["measured_s"]) / min(r["predicted_s"], r["measured_s"]))
    counted = "%s / %d" % (r.get("iterations_counted", "-"), r["iterations_real"])
    changed = [f for f in r["failures"] if f.startswith("results changed")]
    share = "-" if not r.get("capture") else "%.2f (%d repetitions)" % (r["capture"]["time_share"],
                                                                         r["capture"]["repetitions"])
    print("| %s | %s | %s | %s | %s | %s%s | %s |" % (r["name"], t(r["measured_s"]), t(r.get("predicted_s")), diff,
          counted, "yes" if r["profile"] else "no", "; OUTPUT CHANGED" if changed else "", share))
PY
