#!/usr/bin/env python3
"""`mheta microbench --emulate FILE` measures the emulated cluster (docs/microbench.md):
with the virtual clock, an emulation file whose nodes have cpu_factor 2 gives
a compute unit twice as long as one of cpu_factor 1, and the emulated
network's 50 us latency is the latency measured, its 50 us + bytes / 117 MB/s
each point of the link's curve. A bad --clock is one line
and exit 2 before anything runs.

  emulated_rates.py --mheta MHETA --mpiexec MPIEXEC --out DIR [--tolerance 0.35]
"""
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, exit_if_failed  # noqa: E402
from emulated_microbench import measure_emulated, parse_args, within  # noqa: E402

NETWORK = {"latency_us": 50, "bandwidth_MBps": 117}


def measure(args, cpu_factor, round_):
    return measure_emulated(args, "cluster-cpu-%g-%d" % (cpu_factor, round_),
                            {"ranks": [{"cpu_factor": cpu_factor}], "network": NETWORK})


def main():
    args = parse_args(__doc__, 0.35)

    bad = subprocess.run([args.mheta, "microbench", "-n", "2", "--clock", "sundial", "-o",
                          os.path.join(args.out, "never.json")], capture_output=True, text=True, timeout=60)
    check(bad.returncode == 2 and "--clock sundial: expected virtual or wall" in bad.stderr,
          "--clock sundial: exit %d, stderr %r" % (bad.returncode, bad.stderr))

    # Two runs of each factor, alternated, their units pooled: the CPU time
    # of the memory-bound unit moves by tens of per cent between runs on a
    # loaded machine (one pair of single runs gave 2.77).
    runs = {1: [], 2: []}
    for round_ in range(2):
        for factor in (1, 2):
            runs[factor].append(measure(args, factor, round_))
    one = runs[1][0]
    unit_one = statistics.median([u for run in runs[1] for u in run["measurement"]["cpu"]["unit_s"]])
    unit_two = statistics.median([u for run in runs[2] for u in run["measurement"]["cpu"]["unit_s"]])
    within("compute unit, cpu_factor 2 / cpu_factor 1", unit_two / unit_one, 2, args.tolerance)
    within("measured latency under the emulated 50 us network (s)", one["network"]["latency_s"], 50e-6,
           args.tolerance)
    # The emulated network is linear by construction: the measured curve
    # follows it at every probed size (a curve of other sizes' times, or of
    # the wrong unit, does not).
    for point in one["network"]["curve"]:
        emulated_s = 50e-6 + point["bytes"] / (NETWORK["bandwidth_MBps"] * 1e6)
        within("curve at %d bytes under the emulated network (s)" % point["bytes"], point["s"], emulated_s,
               args.tolerance)
    exit_if_failed()


if __name__ == "__main__":
    main()
