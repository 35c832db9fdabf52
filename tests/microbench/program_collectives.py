#!/usr/bin/env python3
"""`mheta microbench --profile` times a program's collectives at the rank and
byte counts its profile holds, and writes them as measured points
(docs/microbench.md, "A program's own collectives"). On 4 emulated ranks of
known latency alpha and bandwidth 1/beta under the virtual clock, every point
must price what the emulated network charges (docs/emulation.md), within a
generous tolerance (the clock's prices are exact; a point also holds the CPU
time spent around each call):
  barrier                 k alpha                   k = ceil(log2 P)
  scan                    k (alpha + n beta)        (no curve of its own: timed only at the program's sizes)
  reduce_scatter          k alpha + (P-1) n beta
  alltoall                (P-1)(alpha + n beta)
Two profiles, of 4 and of 3 ranks: the 3-rank one's collectives are timed on
a sub-communicator of 3. Sizes that the sweep never times (40000, 1000,
4096 bytes), so that a point read off the fitted curve would not be exact.

  program_collectives.py --mheta MHETA --mpiexec MPIEXEC --out DIR [--tolerance 0.25]
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, exit_if_failed  # noqa: E402
from emulated_microbench import measure_emulated, parse_args, within  # noqa: E402

LATENCY_S = 200e-6
BANDWIDTH_BPS = 40e6


def expected(op, p, n):
    k = math.ceil(math.log2(p))
    return {
        "barrier": k * LATENCY_S,
        "scan": k * (LATENCY_S + n / BANDWIDTH_BPS),
        "reduce_scatter": k * LATENCY_S + (p - 1) * n / BANDWIDTH_BPS,
        "alltoall": (p - 1) * (LATENCY_S + n / BANDWIDTH_BPS),
    }[op]


def write_profile(path, ranks, collectives):
    """A profile of `ranks` ranks of 10 rows whose iteration is the `collectives` ((op, bytes)) in order."""
    rank = lambda r: {"rank": r, "host": "h", "memory_budget_bytes": 1 << 30, "slowdown": {"cpu": 1, "io": 1},
                      "sections": [{"stages": [{"compute_s": 1e-3}], "comm": [{"op": op, "bytes": n}]}
                                   for op, n in collectives]}
    profile = {"format": "mheta-profile/1", "program": "synthetic", "iterations": 10, "global_rows": 10 * ranks,
               "distribution": [10] * ranks, "forced_out_of_core": False, "prefetch": False, "variables": [],
               "ranks": [rank(r) for r in range(ranks)]}
    with open(path, "w") as f:
        json.dump(profile, f)


def main():
    args = parse_args(__doc__, 0.25)
    programs = {4: [("reduce_scatter", 40000), ("alltoall", 1000), ("scan", 4096), ("barrier", 0)],
                3: [("reduce_scatter", 40000), ("scan", 4096)]}
    extra = []
    for ranks, collectives in programs.items():
        path = os.path.join(args.out, "profile-%d.json" % ranks)
        write_profile(path, ranks, collectives)
        extra += ["--profile", path]
    network = {"latency_us": LATENCY_S * 1e6, "bandwidth_MBps": BANDWIDTH_BPS / 1e6}
    cluster = measure_emulated(args, "program-collectives", {"ranks": [{"cpu_factor": 1}], "network": network},
                               ranks=4, extra=extra)
    points = cluster["network"].get("collective_points", {})
    print("collective_points: %s" % json.dumps(points))
    for ranks, collectives in programs.items():
        for op, nbytes in collectives:
            found = [p for p in points.get(op, []) if p["ranks"] == ranks and p["bytes"] == nbytes]
            if check(len(found) == 1, "%s of %d bytes on %d ranks: %d points, not 1" % (op, nbytes, ranks, len(found))):
                within("%s of %d bytes on %d ranks (s)" % (op, nbytes, ranks), found[0]["s"],
                       expected(op, ranks, nbytes), args.tolerance)
    listed = sum(len(v) for v in points.values())
    check(listed == 6, "%d points written, not the profiles' 6 collectives" % listed)
    exit_if_failed()


if __name__ == "__main__":
    main()
