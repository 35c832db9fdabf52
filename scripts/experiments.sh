#!/usr/bin/env bash
# The MHETA paper's experiments (§5, Fig 9-11) on this machine: the four apps
# on the emulated DC, IO, HY1 and HY2 clusters, Jacobi also with prefetch,
# each through `mheta validate` (capture under Blk, spectrum + GBS predicted,
# every distribution run for real), then one line per configuration in a
# summary table.
#
# Usage: scripts/experiments.sh BUILD_DIR [OUT_DIR]
#   RANKS=4            ranks (8 oversubscribes 2 cores 4x; docs/emulation.md)
#   CONFIGS="DC IO HY1 HY2"  presets, emulation files, or mix:SEED, a random
#                      cluster (scripts/random-cluster.py) with memory relative
#                      to each app's Blk share
#   APPS="jacobi jacobi-prefetch cg lanczos rna"
#   STEPS=2            steps per leg of the spectrum
#   REPEAT=3           runs of every distribution (mheta validate --repeat)
#   CAPTURE_ITERATION= iteration to capture (default: the interposer's, 2)
#   BUDGET_MINUTES=30  no new configuration is started after this
#   MICROBENCH_BUDGET=20  seconds to measure each emulated cluster
#   CLOCK=             virtual or wall: the clock of every emulated run, the
#                      cluster's microbenchmark as well as the validation's
#                      (mheta run/validate --clock); unset: their default,
#                      the virtual clock. The cluster file is then named
#                      cluster.CLOCK.json, so a cluster measured under one
#                      clock is never reused under the other
#   UPDATE_DOCS=1      replace the generated table in docs/results.md
# Resumable: rerun with the same OUT_DIR and finished work is skipped.
set -euo pipefail
clock=()
clock_suffix=
case ${CLOCK:-} in
  '') ;;
  virtual|wall) clock=(--clock "$CLOCK"); clock_suffix=.$CLOCK ;;
  *) echo "experiments.sh: CLOCK=$CLOCK: expected virtual or wall" >&2; exit 2 ;;
esac
build=$(cd "${1:?usage: experiments.sh BUILD_DIR [OUT_DIR]}" && pwd)
out=$(mkdir -p "${2:-experiments}" && cd "${2:-experiments}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
ranks=${RANKS:-4}
configs=${CONFIGS:-DC IO HY1 HY2}
apps=${APPS:-jacobi jacobi-prefetch cg lanczos rna}
steps=${STEPS:-2}
repeat=${REPEAT:-3}
capture=()
if [ -n "${CAPTURE_ITERATION:-}" ]; then capture=(--capture-iteration "$CAPTURE_ITERATION"); fi
budget_s=$(( ${BUDGET_MINUTES:-30} * 60 ))
microbench_budget=${MICROBENCH_BUDGET:-20}
mheta=$build/cli/mheta
export MHETA_MPIEXEC=${MHETA_MPIEXEC:-mpiexec}

# Problem sizes: a few seconds per run at 4 ranks, local blocks larger than
# a small node's memory (4 MiB) and smaller than a normal one's (32 MiB).
# 12 iterations: validate takes the median of the 11 after the first.
app_command() {
  case $1 in
    jacobi) echo "$build/apps/jacobi --rows 2048 --cols 2048 --iters 12 --no-check" ;;
    jacobi-prefetch) echo "$build/apps/jacobi --rows 2048 --cols 2048 --iters 12 --no-check --prefetch" ;;
    cg) echo "$build/apps/cg --rows 60000 --iters 12 --no-check" ;;
    lanczos) echo "$build/apps/lanczos --rows 1536 --iters 12 --no-check" ;;
    rna) echo "$build/apps/rna --rows 1536 --cols 1536 --iters 12 --no-check" ;;
    *) echo "unknown app $1" >&2; return 2 ;;
  esac
}

# A Blk share of each app's distributed data per rank, for a random mix's
# memory: rows x the profile's bytes per row (jacobi: u and v, 2 x cols x 8;
# cg: a CSR row of the sizes above, 536 bytes; lanczos and rna: one row of
# 8-byte values) / ranks.
app_share_bytes() {
  case $1 in
    jacobi|jacobi-prefetch) echo $(( 2048 * 2 * 2048 * 8 / ranks )) ;;
    cg) echo $(( 60000 * 536 / ranks )) ;;
    lanczos|rna) echo $(( 1536 * 1536 * 8 / ranks )) ;;
  esac
}

start=$(date +%s)
summary=$out/summary.md
{
  echo "| app | config | ranks | distributions | error min / mean / max | noise floor | predicted best | measured best | same | predicted best's excess | spectrum best vs GBS |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} >"$summary"
not_run=()
for config in $configs; do
  if (( $(date +%s) - start > budget_s )); then
    not_run+=("$config (time budget spent)")
    continue
  fi
  dir=$out/${config//:/-}
  mkdir -p "$dir"
  for app in $apps; do
    if (( $(date +%s) - start > budget_s )); then
      not_run+=("$app on $config (time budget spent)")
      continue
    fi
    program=$(app_command "$app" | cut -d' ' -f1)
    if [ ! -x "$program" ]; then
      not_run+=("$app on $config ($program is not built)")
      continue
    fi
    # One cluster per emulated configuration, measured the way the apps run;
    # a random mix's memory follows each app's share, so it is one per app.
    emulation=$config
    cluster=$dir/cluster$clock_suffix.json
    if [[ $config == mix:* ]]; then
      emulation=$dir/$app.emulation.json
      cluster=$dir/$app.cluster$clock_suffix.json
      python3 "$here/random-cluster.py" --seed "${config#mix:}" --ranks "$ranks" \
        --share-bytes "$(app_share_bytes "$app")" -o "$emulation"
    fi
    if [ ! -f "$cluster" ]; then
      "$mheta" run -n "$ranks" --emulate "$emulation" "${clock[@]}" --capture off -- \
        "$build/microbench/mheta-microbench" -o "$cluster" --budget "$microbench_budget" --progress never >/dev/null
    fi
    results=$dir/$app.json
    echo "== $app on $config, $ranks ranks" >&2
    if ! "$mheta" validate -n "$ranks" --app "$(app_command "$app")" --emulate "$emulation" "${clock[@]}" --steps "$steps" --repeat "$repeat" "${capture[@]}" \
         --cluster "$cluster" -o "$results" >"$dir/$app.txt"; then
      not_run+=("$app on $config (failed: see $dir/$app.txt and ${results%.json}-work/logs)")
      continue
    fi
    "$mheta" report "$results" -o "$dir/$app.html" --title "$app on $config ($ranks ranks)"
    python3 - "$results" "$app" "$config" "$ranks" >>"$summary" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
s = doc["summary"]
pct = lambda x: "%.1f%%" % (100 * x)
over = s.get("spectrum_best_over_searched")
noise = s.get("noise_floor")
print("| %s | %s | %s | %d | %s / %s / %s | %s | %s | %s | %s | %s | %s |" % (
    sys.argv[2], sys.argv[3], sys.argv[4], s["measured"], pct(s["error_min"]), pct(s["error_mean"]),
    pct(s["error_max"]), "n/a" if noise is None else pct(noise), s["predicted_best"], s["measured_best"], "yes" if s["predicted_best_is_measured_best"] else "no",
    pct(s["predicted_best_excess"]), "n/a" if over is None else ("%+.1f%%" % (100 * over))))
EOF
  done
done
{
  echo
  echo "$(date -u +%Y-%m-%dT%H:%MZ), $(( $(date +%s) - start )) s, steps $steps, $repeat runs each, ${CLOCK:-default (virtual)} clock, load average $(cut -d' ' -f1-3 /proc/loadavg)."
  for item in "${not_run[@]+"${not_run[@]}"}"; do echo "Not run: $item."; done
} >>"$summary"
cat "$summary"

if [ "${UPDATE_DOCS:-0}" = 1 ]; then
  python3 - "$here/../docs/results.md" "$summary" <<'EOF'
import sys
doc_path, summary_path = sys.argv[1], sys.argv[2]
text = open(doc_path).read()
begin, end = "<!-- experiments.sh: begin -->", "<!-- experiments.sh: end -->"
if begin not in text or end not in text:
    sys.exit("docs/results.md has no experiments.sh markers")
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open(doc_path, "w").write(head + begin + "\n" + open(summary_path).read() + end + tail)
EOF
fi
