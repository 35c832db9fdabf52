#!/usr/bin/env bash
# README command 1: install what is missing, build, and run mheta's main job
# on its embedded default example.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
build=${MHETA_BUILD_DIR:-$root/build}
exec "$build/cli/mheta" demo --examples "$root/examples" "$@"
