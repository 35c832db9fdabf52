#!/usr/bin/env bash
# The corpus tables of docs/results.md: every program of tests/corpus, its
# own measured iteration time against `mheta predict` of its own
# distribution, on a cluster.json measured here once with `mheta microbench`
# (or given as CLUSTER). Prints a Markdown table.
# - By default at 2 ranks (one per core) on the wall clock: each program
#   without the interposer and under `mheta run`.
# - With EMULATE=P (a preset or an emulation file) at NP ranks (default 8)
#   on P under the virtual clock: each program's own timing under `mheta run
#   --emulate P --capture off` (MPI_Wtime is the virtual clock), the cluster
#   measured with `mheta microbench -n NP --emulate P`, and per program the
#   spread of its RUNS timings and the term (rank, compute / I/O /
#   communication and waiting) furthest from its prediction.
# Usage: [EMULATE=P] [NP=N] scripts/corpus-table.sh BUILD_DIR [RUNS] [NAME...]
#   RUNS: measured runs per program (median); NAME: only these programs.
# RECORDS=DIR keeps check_corpus.py's records (records.json) and log there.
set -euo pipefail
build=$(cd "${1:?usage: [EMULATE=P] [NP=N] corpus-table.sh BUILD_DIR [RUNS] [NAME...]}" && pwd)
runs=${2:-3}
shift $(($# < 2 ? $# : 2))
emulate=${EMULATE:-}
np=${NP:-$([[ -n $emulate ]] && echo 8 || echo 2)}
emulation=()
if [[ -n $emulate ]]; then
  [[ -f $emulate ]] && emulate=$(cd "$(dirname "$emulate")" && pwd)/$(basename "$emulate")
  emulation=(--emulate "$emulate")
fi
root=$(cd "$(dirname "$0")/.." && pwd)
# Made before the runs, so that a directory that cannot be made stops the
# script at once, not after them.
if [[ -n ${RECORDS:-} ]]; then mkdir -p "$RECORDS"; fi
mpiexec=${MPIEXEC:-mpiexec}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cluster=${CLUSTER:-}
if [[ -z $cluster ]]; then
  cluster=$tmp/cluster.json
  "$build/cli/mheta" microbench -n "$np" "${emulation[@]}" --budget 30 -o "$cluster" --mpiexec "$mpiexec" \
    --program "$build/microbench/mheta-microbench" >"$tmp/microbench.log"
fi
python3 "$root/tests/corpus/check_corpus.py" --mheta "$build/cli/mheta" --mpiexec "$mpiexec" \
  --bin "$build/tests/corpus" --cluster "$cluster" --runs "$runs" --np "$np" "${emulation[@]}" \
  --json "$tmp/records.json" "$@" >"$tmp/check.log" || true
if [[ -n ${RECORDS:-} ]]; then cp "$tmp/records.json" "$tmp/check.log" "$RECORDS/"; fi
python3 - "$tmp/records.json" <<'PY'
import json, sys
records = json.load(open(sys.argv[1]))
emulated = any(r.get("emulate") for r in records)
def t(s):
    return "-" if s is None else ("%.2f ms" % (s * 1e3) if s >= 1e-3 else "%.1f µs" % (s * 1e6))
def difference(r):
    if "error" not in r:
        return "-"
    if r["error"] < 10:
        return "%.1f%%" % (100 * r["error"]) if emulated else "%.0f%%" % (100 * r["error"])
    return "%.0f×" % (max(r["predicted_s"], r["compared_s"]) / min(r["predicted_s"], r["compared_s"]))
def share(r):
    c = r.get("capture")
    if not c:
        return "-"
    pace = ", pace %.2f" % c["pace"] if "pace" in c else ""
    return "%.2f (%d repetitions%s)" % (c["time_share"], c["repetitions"], pace)
def term(r):
    w = r.get("largest_term_error")
    return "-" if not w else "rank %d %s: %s / %s" % (w["rank"], w["term"], t(w["predicted_s"]), t(w["measured_s"]))
if emulated:
    print("| code | measured per iteration (runs) | spread | predicted | difference | largest term error "
          "(predicted / measured) | iterations counted / real | capture's time share (pace) |")
    print("|---|---|---|---|---|---|---|---|")
else:
    print("| code | measured per iteration | predicted | difference | iterations counted / real | profile written "
          "| capture's time share (pace) |")
    print("|---|---|---|---|---|---|---|")
for r in records:
    if "measured_s" not in r:
        print("| %s | failed: %s |%s" % (r["name"], r["failures"][0].splitlines()[0], " |" * (6 if emulated else 5)))
        continue
    counted = "%s / %d" % (r.get("iterations_counted", "-"), r["iterations_real"])
    changed = "; OUTPUT CHANGED" if any(f.startswith("results") for f in r["failures"]) else ""
    if not emulated:
        print("| %s | %s | %s | %s | %s | %s%s | %s |" % (r["name"], t(r["measured_s"]), t(r.get("predicted_s")),
              difference(r), counted, "yes" if r["profile"] else "no", changed, share(r)))
        continue
    runs = r["measured_runs_s"]
    spread = (max(runs) - min(runs)) / r["measured_s"]
    measured = " / ".join(t(x) for x in runs)
    predicted = t(r.get("predicted_s"))
    if r.get("steps_per_iteration", 1) != 1:  # compared per captured iteration
        measured += " (× %.3g: %s)" % (r["steps_per_iteration"], t(r["compared_s"]))
    if not r["profile"]:
        predicted = "no profile"
    print("| %s | %s | %.1f%% | %s | %s | %s | %s | %s%s |" % (r["name"], measured, 100 * spread, predicted,
          difference(r), term(r), counted, share(r), changed))
PY
