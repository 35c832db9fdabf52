#!/usr/bin/env bash
# The price of the apps' on-the-fly moves, predicted against measured:
# jacobi, lanczos and rna on 4 ranks of tests/apps/one_slow_node.json (CPU
# factors 1, 1, 1, 6; virtual clock), the sizes of their ctest, through
# tests/apps/auto_test.py. One line per app and round; MHETA_INTERPOSE_LIB
# chooses another interposer to compare with.
# Usage: scripts/bench-auto-moves.sh [BUILD] [ROUNDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
rounds=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "round app          move predicted  move measured  measured/predicted  Blk s/it   after s/it"
for round in $(seq "$rounds"); do
  for app in jacobi lanczos rna; do
    case $app in
      jacobi) args=(--rows 4096 --cols 1024 --iters 160) ;;
      lanczos) args=(--rows 2048 --iters 140) ;;
      rna) args=(--rows 4096 --cols 2048 --iters 40) ;;
    esac
    python3 "$root/tests/apps/auto_test.py" --mheta "$build/cli/mheta" --app "$build/apps/$app" \
      --emulate "$root/tests/apps/one_slow_node.json" --scenario move --row-weights a.row_weights.txt \
      --work "$work/$app" -- "${args[@]}" 2>&1 | grep auto_summary |
      python3 -c "
import json, sys
d = json.loads(sys.stdin.read())['auto_summary']
p, m = d['move_predicted_s'], d['move_measured_s']
print('%5s %-8s %12.3f s %12.3f s %19.2f %10.4f %12.4f' % ('$round', '$app', p, m, m / p, d['blk_measured_s'], d['after_move_measured_s']))"
  done
done
