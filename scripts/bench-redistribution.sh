#!/usr/bin/env bash
# Redistribution throughput beside a plain write of the same bytes on the
# same file system, in one run (tests/redistribute/redistribution_throughput:
# medians of 5 rounds of each), for 2 and 4 ranks and two moves: Blk to
# shares 1:2:...:ranks, and a move of most rows. Prints each ratio beside
# the target (>= 0.8), and the processor seconds of both (all ranks).
#   scripts/bench-redistribution.sh [MIB] [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MHETA_BUILD_DIR:-$root/build}
mib=${1:-256}
dir=${2:-${TMPDIR:-/tmp}/mheta-bench-redistribution}
cmake --build "$build" --target redistribution_throughput >/dev/null
program=$build/tests/redistribute/redistribution_throughput
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-22s %14s %14s %8s  %s\n' ranks move "write MB/s" "redistr. MB/s" ratio "target >= 0.8"
for ranks in 2 4; do
  for move in shares most; do
    line=$(mpiexec -n "$ranks" "$program" "$dir" "$mib" $([ "$move" = most ] && echo most) | tail -n 1)
    python3 - "$line" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
print(f"{r['ranks']:<6} {r['move']:<22} {r['sequential_write_MBps']:14.0f} {r['redistribution_MBps']:14.0f} "
      f"{r['ratio']:8.2f}  {'met' if r['ratio'] >= 0.8 else 'MISSED'}   "
      f"(last round: exchange {r['last_round_exchange_s']:.2f} s, verify {r['last_round_verify_s']:.2f} s, "
      f"switch {r['last_round_switch_s']:.2f} s; completion recorded and old blocks freed in the background "
      f"{r['last_round_background_s']:.2f} s more; processor s, all ranks: write {r['sequential_write_processor_s']:.2f}, "
      f"redistribution {r['redistribution_processor_s']:.2f}; checksum unchanged: {r['checksum_unchanged']})")
PY
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
