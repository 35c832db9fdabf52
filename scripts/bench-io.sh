#!/usr/bin/env bash
# Read/write bandwidth of the apps' out-of-core I/O against plain sequential
# I/O of the same bytes, in the same chunks, on the same files, in the same run.
#
#   scripts/bench-io.sh [build-dir] [ranks] [repeats]
#
# The app is jacobi out of core: each iteration reads u and writes v in ICLAs.
# Its bandwidth is bytes / seconds inside MPI_File_read_at and
# MPI_File_write_at, as it reports per iteration (the slowest rank's seconds),
# leaving out the first iteration: its writes fill v's blocks for the first
# time (the file is allocated, never filled), which plain I/O on u does not.
# Right after each app run, one apps/plain_io process per rank, all at once,
# pwrite()s then pread()s the same number of bytes in chunks of the ICLA's
# size over the first block-size bytes of that rank's own u file, from and
# into one buffer.
# Both start with no dirty pages (sync) and go through the page cache (the
# data is far smaller than memory);
# MHETA_BENCH_DIR chooses the disk (default /tmp). Sizes: MHETA_BENCH_ROWS,
# MHETA_BENCH_COLS, MHETA_BENCH_ITERS, MHETA_BENCH_BUDGET.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
ranks=${2:-2}
repeats=${3:-5}
rows=${MHETA_BENCH_ROWS:-4096}
cols=${MHETA_BENCH_COLS:-4096}
iters=${MHETA_BENCH_ITERS:-8}
budget=${MHETA_BENCH_BUDGET:-16M}
work=$(mktemp -d "${MHETA_BENCH_DIR:-/tmp}/mheta-bench-io.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "jacobi ${rows}x${cols} doubles, $iters iterations, $ranks ranks, MHETA_MEMORY_BYTES=$budget, in $work"

measure() {  # measure <app output> <iterations>: prints one JSON line
  python3 - "$1" "$2" "$build/apps/plain_io" <<'PY'
import json, os, subprocess, sys

app_output, passes, plain_io = sys.argv[1], int(sys.argv[2]) - 1, sys.argv[3]
ranks = [json.loads(l) for l in open(app_output) if '"mheta":"rank"' in l]
for k in ranks:
    k["iterations"] = k["iterations"][1:]
os.sync()  # start from clean pages, as the app did
procs = []
for k in ranks:
    v = k["variables"][0]
    total = sum(it["read_bytes"] for it in k["iterations"])
    path = os.path.join(os.path.dirname(app_output), "data", "u.%d.h5" % k["rank"])
    procs.append(subprocess.Popen([plain_io, "--file", path, "--bytes", str(total),
                                   "--chunk", str(v["icla_rows"] * v["bytes_per_row"]),
                                   "--block", str(total // passes)], stdout=subprocess.PIPE, text=True))
results = [json.loads(p.communicate()[0]) for p in procs]
read_bytes = sum(it["read_bytes"] for k in ranks for it in k["iterations"])
write_bytes = sum(it["write_bytes"] for k in ranks for it in k["iterations"])
v = ranks[0]["variables"][0]
print(json.dumps({
    "icla_bytes": v["icla_rows"] * v["bytes_per_row"], "chunks": v["chunks"],
    "read_bytes": read_bytes, "write_bytes": write_bytes,
    "app_read": read_bytes / max(sum(it["read_seconds"] for it in k["iterations"]) for k in ranks),
    "app_write": write_bytes / max(sum(it["write_seconds"] for it in k["iterations"]) for k in ranks),
    "plain_read": read_bytes / max(r["read_seconds"] for r in results),
    "plain_write": write_bytes / max(r["write_seconds"] for r in results)}))
PY
}

for r in $(seq "$repeats"); do
  rm -rf "$work/data"
  sync  # no dirty pages of earlier runs being written back during this one
  MHETA_MEMORY_BYTES=$budget ${MPIEXEC:-mpiexec} -n "$ranks" "$build/apps/jacobi" --rows "$rows" --cols "$cols" \
    --iters "$iters" --data "$work/data" --no-check > "$work/app.jsonl"
  measure "$work/app.jsonl" "$iters" >> "$work/results.jsonl"
done

python3 - "$work/results.jsonl" <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
MiB = 2 ** 20
first = runs[0]
print("ICLA %.0f MiB, N_L = %d per rank; per run %.0f MiB read and %.0f MiB written"
      % (first["icla_bytes"] / MiB, first["chunks"], first["read_bytes"] / MiB, first["write_bytes"] / MiB))
print("%-6s %14s %14s %6s %14s %14s %6s" % ("run", "app read", "plain read", "ratio", "app write", "plain write", "ratio"))
for i, r in enumerate(runs, 1):
    print("%-6d %8.0f MiB/s %8.0f MiB/s %5.0f%% %8.0f MiB/s %8.0f MiB/s %5.0f%%"
          % (i, r["app_read"] / MiB, r["plain_read"] / MiB, 100 * r["app_read"] / r["plain_read"],
             r["app_write"] / MiB, r["plain_write"] / MiB, 100 * r["app_write"] / r["plain_write"]))
print("median ratio: read %.0f%%, write %.0f%% (target >= 80%%)"
      % (100 * statistics.median(r["app_read"] / r["plain_read"] for r in runs),
         100 * statistics.median(r["app_write"] / r["plain_write"] for r in runs)))
PY
