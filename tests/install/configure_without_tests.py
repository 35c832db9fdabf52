#!/usr/bin/env python3
"""Configures mheta as a user who builds only the tool would
(-DBUILD_TESTING=OFF -DMHETA_BUILD_BENCH=OFF) with GoogleTest and Google
Benchmark made unfindable: the configure must succeed, generate the tool's
targets and none of the tests', and look up neither Chromium nor a test
Python."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, exit_if_failed  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="mheta-configure-")
    try:
        done = subprocess.run(["cmake", "-S", args.source, "-B", work, "-DBUILD_TESTING=OFF", "-DMHETA_BUILD_BENCH=OFF",
                               "-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON", "-DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON"],
                              capture_output=True, text=True)
        if not check(done.returncode == 0, "the configure without tests failed:\n" + done.stdout + done.stderr):
            exit_if_failed()
        with open(os.path.join(work, "CMakeCache.txt")) as f:
            cache = f.read()
        for needed_only_by_tests in ("MHETA_CHROMIUM", "MHETA_SYSTEM_PYTHON", "GTest_DIR", "benchmark_DIR"):
            check(needed_only_by_tests not in cache, "the configure without tests looked up " + needed_only_by_tests)
        targets = subprocess.run(["cmake", "--build", work, "--target", "help"], capture_output=True, text=True).stdout
        for tool in ("mheta", "mheta_interpose", "mheta-microbench"):
            check("... " + tool + "\n" in targets, "no target " + tool + " without tests:\n" + targets)
        check("model_tests" not in targets, "test targets are generated with BUILD_TESTING=OFF")
        exit_if_failed()
        print("ok: configured without GoogleTest, Google Benchmark, Chromium or a test Python")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
