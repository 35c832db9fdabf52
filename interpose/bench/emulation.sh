#!/usr/bin/env bash
# Emulation accuracy with the strict targets: CPU factor 2 gives 2x the
# compute (+-5%), I/O factor 4 gives 4x the read time (+-10%); median of 7
# runs of tests/interpose/emulation_probe on 2 ranks.
# Usage: interpose/bench/emulation.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: emulation.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
python3 "$here/../../tests/interpose/interposer_check.py" emulation \
  --mpiexec "${MPIEXEC:-mpiexec}" --lib "$build/interpose/libmheta-interpose.so" --mheta "$build/cli/mheta" \
  --runs 7 --cpu-tolerance 0.05 --io-tolerance 0.10 -- "$build/tests/interpose/interpose_emulation_probe"
