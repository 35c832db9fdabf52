#!/usr/bin/env python3
"""An emulated I/O factor shows up in the measured disk: `mheta-microbench`
on 2 ranks without the interposer, then under `mheta run --emulate` with
io_factor 4, and the two cluster files compared by
microbench_compare_disk_costs (its exit is this check's: 3 when the ratio is
outside its bound, which tests/retry_timing.py runs again with both runs).

  disk_factor_check.py --mpiexec M --mheta MHETA --microbench PROGRAM
                       --compare COMPARE --out DIR [--tolerance 0.5]
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import run_or_exit  # noqa: E402

FACTOR = 4
DISK_RUN = ["--budget", "3", "--disk-file-bytes", "8388608"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("--mpiexec", "--mheta", "--microbench", "--compare", "--out"):
        parser.add_argument(name, required=True)
    parser.add_argument("--tolerance", type=float, default=0.5)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    plain, emulated, emulation = (os.path.join(args.out, name) for name in
                                  ("disk-plain.json", "disk-emulated.json", "io-factor-4.json"))
    with open(emulation, "w") as f:
        json.dump({"format": "mheta-emulation/1", "ranks": [{"cpu_factor": 1, "io_factor": FACTOR}]}, f)
    run_or_exit([args.mpiexec, "-n", "2", args.microbench] + DISK_RUN + ["-o", plain])
    run_or_exit([args.mheta, "run", "-n", "2", "--emulate", emulation, "--capture", "off", "--", args.microbench] +
                DISK_RUN + ["-o", emulated])
    return subprocess.call([args.compare, plain, emulated, str(FACTOR), str(args.tolerance)])


if __name__ == "__main__":
    sys.exit(main())
