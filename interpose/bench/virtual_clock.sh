#!/usr/bin/env bash
# The virtual clock's strict figures (docs/results.md):
# - reproducible: each app on 8 ranks under HY1, twice, median iteration
#   times within 1%; jacobi on 16 and 64 ranks likewise (all on this
#   machine's cores, however few);
# - faithful: each app on 2 ranks with every factor 1 and the machine's own
#   network, virtual against wall-clock iteration time within 5%, medians of 5.
# Usage: interpose/bench/virtual_clock.sh BUILD_DIR
set -uo pipefail
build=$(cd "${1:?usage: virtual_clock.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
check() {
  python3 "$here/../../tests/interpose/interposer_check.py" "$@"
}
common=(--mpiexec "${MPIEXEC:-mpiexec}" --lib "$build/interpose/libmheta-interpose.so" --mheta "$build/cli/mheta")
status=0
# app ranks rows iterations
reproducible=(
  "jacobi  8  2048  16"
  "cg      8  40000 16"
  "lanczos 8  2048  16"
  "rna     8  2048  16"
  "jacobi  16 2048  16"
  "jacobi  64 1024  8"
)
for row in "${reproducible[@]}"; do
  read -r app ranks rows iterations <<<"$row"
  check virtual-app "${common[@]}" --np "$ranks" --rows "$rows" --iterations "$iterations" --budget 262144 \
    --tolerance 0.01 --preset HY1 -- "$build/apps/$app" || status=1
done
# app rows iterations
faithful=(
  "jacobi  2048  8"
  "cg      40000 8"
  "lanczos 2048  8"
  "rna     2048  8"
)
for row in "${faithful[@]}"; do
  read -r app rows iterations <<<"$row"
  check virtual-vs-wall "${common[@]}" --np 2 --rows "$rows" --iterations "$iterations" --budget 262144 --runs 5 \
    --tolerance 0.05 -- "$build/apps/$app" || status=1
done
exit $status
