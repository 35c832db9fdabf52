#!/usr/bin/env bash
# The strict validation of the microbenchmarks (the ctest versions use loose
# tolerances, this machine being shared): prints the figures recorded in
# docs/results.md.
#   microbench/validate.sh [BUILD_DIR] [RUNS]
# 1. alpha and beta of mheta-microbench against an independent plain-MPI
#    ping-pong in the same job, RUNS times, 15% each;
# 2. the per-byte read cost under `mheta run --emulate` with an I/O factor of
#    4 against plain runs, RUNS alternating pairs of runs, compared by the
#    median of each side (the plain figure itself moves by 20% from run to
#    run here), 4x within 15%.
set -uo pipefail
build=${1:-$(dirname "$0")/../build}
runs=${2:-5}
mpiexec=${MHETA_MPIEXEC:-mpiexec}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== ping-pong: mheta-microbench vs plain MPI (2 ranks, 15%)"
for i in $(seq "$runs"); do
  "$mpiexec" -n 2 "$build/tests/microbench/microbench_pingpong_agreement" --alpha-tolerance 0.15 \
    --beta-tolerance 0.15 --budget 1 --alternations 3 --attempts 1 | grep -v '^attempt'
  echo "   exit $? (0 agrees, 1 disagrees, 77 machine too loaded to measure)"
done

echo "== emulated I/O factor 4 (2 ranks, 6 s budget per run)"
echo '{"format": "mheta-emulation/1", "ranks": [{"cpu_factor": 1, "io_factor": 4}]}' >"$tmp/io4.json"
common=(--budget 6 --disk-file-bytes 8388608)
plain=()
emulated=()
read_cost() {
  # Mean over nodes of read_s_per_byte.
  python3 -c "import json,sys; n=json.load(open(sys.argv[1]))['nodes']; print(sum(x['disk']['read_s_per_byte'] for x in n)/len(n))" "$1"
}
for i in $(seq "$runs"); do
  "$mpiexec" -n 2 "$build/microbench/mheta-microbench" "${common[@]}" -o "$tmp/plain.json" 2>/dev/null
  MHETA_INTERPOSE_LIB="$build/interpose/libmheta-interpose.so" "$build/cli/mheta" run -n 2 \
    --emulate "$tmp/io4.json" --capture off -- "$build/microbench/mheta-microbench" "${common[@]}" \
    -o "$tmp/emulated.json" 2>/dev/null
  plain+=("$(read_cost "$tmp/plain.json")")
  emulated+=("$(read_cost "$tmp/emulated.json")")
  echo "   run $i: read s/byte plain ${plain[-1]}, emulated ${emulated[-1]}"
done
python3 - "${plain[*]}" "${emulated[*]}" <<'PY'
import statistics, sys
plain = [float(x) for x in sys.argv[1].split()]
emulated = [float(x) for x in sys.argv[2].split()]
ratio = statistics.median(emulated) / statistics.median(plain)
ok = abs(ratio / 4 - 1) <= 0.15
print(f"   median ratio {ratio:.3f} (4 within 15%: {'yes' if ok else 'no'})")
PY
