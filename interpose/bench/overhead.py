#!/usr/bin/env python3
"""Overhead of libmheta-interpose.so when it is loaded but not capturing
(MHETA_CAPTURE=off), measured side by side in one run:

1. per intercepted call: call_overhead (MPI_Test on MPI_REQUEST_NULL) with
   and without the library; target <= 100 ns;
2. whole run of jacobi (or any program given with --program), alternating
   runs with and without the library; target <= 2% slowdown.

Usage: interpose/bench/overhead.py --build BUILD [--ranks 2] [--runs 7]
       [--program "apps/jacobi --rows 2048 --cols 2048 --iters 20"]
"""
import argparse
import json
import os
import statistics
import tempfile

from runner import run  # beside this script


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", required=True)
    parser.add_argument("--mpiexec", default="mpiexec")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--program", default="apps/jacobi --rows 2048 --cols 2048 --iters 30")
    args = parser.parse_args()
    lib = os.path.join(args.build, "interpose", "libmheta-interpose.so")
    off = {"MHETA_CAPTURE": "off"}

    bench = [args.mpiexec, "-n", "1", os.path.join(args.build, "interpose", "bench", "interpose_call_overhead")]
    plain_ns, loaded_ns = [], []
    for _ in range(args.runs):
        plain_ns.append(json.loads(run(bench, {})[0])["ns_per_call"])
        loaded_ns.append(json.loads(run(bench[:3] + ["-genv", "LD_PRELOAD", lib] + bench[3:], off)[0])["ns_per_call"])
    per_call = statistics.median(loaded_ns) - statistics.median(plain_ns)
    print("per intercepted call: %.1f ns plain, %.1f ns with the library (capture off): overhead %.1f ns (target <= 100)"
          % (statistics.median(plain_ns), statistics.median(loaded_ns), per_call))

    program = args.program.split()
    program[0] = os.path.join(args.build, program[0])
    with tempfile.TemporaryDirectory() as tmp:
        program += ["--data", os.path.join(tmp, "data")] if "apps/" in args.program else []
        cmd = [args.mpiexec, "-n", str(args.ranks)] + program
        run(cmd, {})  # generates the input once
        plain_s, loaded_s = [], []
        for _ in range(args.runs):
            plain_s.append(run(cmd, {})[1])
            loaded_s.append(run(cmd[:3] + ["-genv", "LD_PRELOAD", lib] + cmd[3:], off)[1])
    slowdown = statistics.median(loaded_s) / statistics.median(plain_s) - 1
    print("whole run of %s on %d ranks: %.3f s plain, %.3f s with the library (medians of %d alternating runs): "
          "slowdown %+.2f%% (target <= 2%%)" % (args.program, args.ranks, statistics.median(plain_s),
                                                statistics.median(loaded_s), args.runs, 100 * slowdown))


if __name__ == "__main__":
    main()
