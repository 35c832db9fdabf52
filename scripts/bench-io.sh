#!/usr/bin/env bash
# Read/write bandwidth of the apps' out-of-core I/O against plain sequential
# I/O of the same bytes, in the same chunks, on the same disk, in the same run.
#
#   scripts/bench-io.sh [build-dir] [ranks] [repeats]
#
# The app is jacobi out of core (each iteration reads u and writes v, in
# ICLAs). Its bandwidth is bytes / seconds inside MPI_File_read_at and
# MPI_File_write_at, as it reports per iteration. The plain baseline has one
# process per rank, at the same time, pwrite() then pread() the same number of
# bytes in chunks of the same size on a file in the same directory. Files are
# in the page cache in both cases (the machine has far more memory than the
# data); MHETA_BENCH_DIR chooses the disk (default /tmp).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
ranks=${2:-2}
repeats=${3:-3}
work=$(mktemp -d "${MHETA_BENCH_DIR:-/tmp}/mheta-bench-io.XXXXXX")
trap 'rm -rf "$work"' EXIT
rows=${MHETA_BENCH_ROWS:-4096}
cols=${MHETA_BENCH_COLS:-4096}
iters=${MHETA_BENCH_ITERS:-4}
budget=${MHETA_BENCH_BUDGET:-16M}
echo "jacobi ${rows}x${cols} doubles, $iters iterations, $ranks ranks, MHETA_MEMORY_BYTES=$budget, in $work"
for r in $(seq "$repeats"); do
  rm -rf "$work/data"
  MHETA_MEMORY_BYTES=$budget ${MPIEXEC:-mpiexec} -n "$ranks" "$build/apps/jacobi" --rows "$rows" --cols "$cols" \
    --iters "$iters" --data "$work/data" --no-check > "$work/app.$r.jsonl"
done
python3 - "$work" "$repeats" "$iters" <<'PY'
import json, os, statistics, sys, time
from multiprocessing import Process, Queue

work, repeats = sys.argv[1], int(sys.argv[2])
PASSES = int(sys.argv[3])  # iterations: each reads and writes the whole block once

def plain(path, total, chunk, queue):
    """pwrite then pread `total` bytes in `chunk`-byte calls, sequentially,
    over a file the size of the rank's block (created first, untimed, as the
    app's files exist before its iterations), from and into one buffer."""
    buffer = memoryview(bytearray(os.urandom(chunk)))
    block = max(chunk, total // PASSES)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    for offset in range(0, block, chunk):
        os.pwrite(fd, buffer[:min(chunk, block - offset)], offset)
    def passes(call):
        start = time.perf_counter()
        done = 0
        while done < total:
            offset = done % block
            n = min(chunk, block - offset, total - done)
            call(fd, buffer[:n], offset)
            done += n
        return time.perf_counter() - start
    wseconds = passes(lambda fd, b, o: os.pwrite(fd, b, o))
    rseconds = passes(lambda fd, b, o: os.preadv(fd, [b], o))
    os.close(fd)
    os.unlink(path)
    queue.put((wseconds, rseconds))

rows = []
for r in range(1, repeats + 1):
    ranks = [json.loads(l) for l in open(os.path.join(work, "app.%d.jsonl" % r)) if '"mheta":"rank"' in l]
    app_r = sum(it["read_bytes"] for k in ranks for it in k["iterations"])
    app_rs = max(sum(it["read_seconds"] for it in k["iterations"]) for k in ranks)
    app_w = sum(it["write_bytes"] for k in ranks for it in k["iterations"])
    app_ws = max(sum(it["write_seconds"] for it in k["iterations"]) for k in ranks)
    queue, procs = Queue(), []
    for k in ranks:
        v = k["variables"][0]
        per_rank = sum(it["read_bytes"] for it in k["iterations"])
        procs.append(Process(target=plain, args=(os.path.join(work, "plain.%d" % k["rank"]), per_rank,
                                                   v["icla_rows"] * v["bytes_per_row"], queue)))
    for p in procs: p.start()
    results = [queue.get() for _ in procs]
    for p in procs: p.join()
    plain_ws = max(w for w, _ in results)
    plain_rs = max(rd for _, rd in results)
    rows.append((app_r / app_rs, app_r / plain_rs, app_w / app_ws, app_w / plain_ws))
    v = ranks[0]["variables"][0]
    if r == 1:
        print("ICLA: %d rows x %d bytes, N_L = %d per rank; %.0f MiB read and %.0f MiB written per run"
              % (v["icla_rows"], v["bytes_per_row"], v["chunks"], app_r / 2**20, app_w / 2**20))
MiB = 2**20
print("%-8s %12s %12s %8s %12s %12s %8s" % ("repeat", "app read", "plain read", "ratio", "app write", "plain write", "ratio"))
for i, (ar, pr, aw, pw) in enumerate(rows, 1):
    print("%-8d %9.0f MiB/s %9.0f MiB/s %7.0f%% %9.0f MiB/s %9.0f MiB/s %7.0f%%"
          % (i, ar / MiB, pr / MiB, 100 * ar / pr, aw / MiB, pw / MiB, 100 * aw / pw))
print("median read ratio %.0f%%, median write ratio %.0f%% (target >= 80%%)"
      % (100 * statistics.median(a / p for a, p, _, _ in rows), 100 * statistics.median(a / p for _, _, a, p in rows)))
PY
