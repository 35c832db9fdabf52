#!/usr/bin/env bash
# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer:
# builds in build-asan/ (or $MHETA_BUILD_DIR) with -DMHETA_SANITIZE=ON and
# runs every test. Extra arguments go to ctest (e.g. -R interpose).
#
# The sanitizer runtime is linked into every program and library of the
# build, so ranks that preload the (sanitized) interposer load it too; it is
# not first in their library list (LD_PRELOAD is), which ASan accepts with
# verify_asan_link_order=0. Leaks are reported, except the ones MPICH and
# HDF5 keep until exit (scripts/lsan-suppressions.txt).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MHETA_BUILD_DIR:-$root/build-asan}
"$root/scripts/install-deps.sh"
MHETA_BUILD_DIR=$build "$root/scripts/build.sh" -DMHETA_SANITIZE=ON
export ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1:abort_on_error=1
export LSAN_OPTIONS=suppressions=$root/scripts/lsan-suppressions.txt:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd "$build"
# Sanitized programs run two to three times slower: the timeouts grow alike.
ctest --output-on-failure --timeout 1500 -j 2 "$@"
