#!/usr/bin/env bash
# README command 2: install what is missing, build, run the whole test suite.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$@"
build=${MHETA_BUILD_DIR:-$root/build}
cd "$build"
ctest --output-on-failure --timeout 600 -j 2
