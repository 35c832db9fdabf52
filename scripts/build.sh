#!/usr/bin/env bash
# Configures and builds mheta in build/ (or $MHETA_BUILD_DIR) with warnings
# as errors. Extra arguments go to cmake, e.g. -DMHETA_SANITIZE=ON.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MHETA_BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMHETA_WERROR=ON "$@" >/dev/null
cmake --build "$build" -j "$(nproc)"
