#!/usr/bin/env python3
"""`mheta microbench` fits all-to-all and reduce-scatter curves that price
them as the emulated network does (docs/microbench.md, docs/emulation.md): on
4 ranks of an emulated network of known latency alpha and bandwidth 1/beta
under the virtual clock, at P = 2, 3, 4 ranks and every byte count n of the
sweep, within a generous tolerance (the clock's prices are exact; the fit's
points also hold the CPU time spent around each call):
  alltoall        (P-1)(alpha + n beta)                 n bytes per peer
  reduce_scatter  ceil(log2 P) alpha + (P-1) n beta     n bytes per rank's block
The curves they borrowed before they were measured fail: allgather's prices
log2(P) latencies for the all-to-all's P-1 (33 % below for 8 bytes on 4
ranks), allreduce's log2(P) n beta for the reduce-scatter's (P-1) n beta
(33 % below for 256 KiB on 4 ranks).

  emulated_collectives.py --mheta MHETA --mpiexec MPIEXEC --out DIR [--tolerance 0.25]
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, exit_if_failed  # noqa: E402
from emulated_microbench import measure_emulated, parse_args, within  # noqa: E402

# Not a preset's network, so that nothing measured by default passes.
LATENCY_S = 200e-6
BANDWIDTH_BPS = 40e6
TERMS = ["c0", "c_log2p", "c_p", "c_bytes", "c_bytes_log2p", "c_bytes_p"]
EXPECTED = {
    "alltoall": lambda p, n: (p - 1) * (LATENCY_S + n / BANDWIDTH_BPS),
    "reduce_scatter": lambda p, n: math.ceil(math.log2(p)) * LATENCY_S + (p - 1) * n / BANDWIDTH_BPS,
}


def curve_seconds(curve, ranks, nbytes):
    """model::CollectiveCurve::seconds: the curve's terms at (P, n), clamped at 0."""
    log2p = math.log2(ranks)
    basis = [1, log2p, ranks, nbytes, nbytes * log2p, nbytes * ranks]
    return max(0.0, sum(curve.get(name, 0.0) * x for name, x in zip(TERMS, basis)))


def main():
    args = parse_args(__doc__, 0.25)
    network = {"latency_us": LATENCY_S * 1e6, "bandwidth_MBps": BANDWIDTH_BPS / 1e6}
    cluster = measure_emulated(args, "collectives-4", {"ranks": [{"cpu_factor": 1}], "network": network}, ranks=4)
    curves = cluster["network"]["collectives"]
    for op, expected in EXPECTED.items():
        if not check(op in curves, "no %s curve in the cluster file: %s" % (op, sorted(curves))):
            continue
        curve = curves[op]
        print("%s curve: %s" % (op, {name: curve.get(name) for name in TERMS}))
        for ranks in (2, 3, 4):
            for nbytes in cluster["measurement"]["collectives"]["bytes"]:
                within("%s of %d bytes on %d ranks (s)" % (op, nbytes, ranks), curve_seconds(curve, ranks, nbytes),
                       expected(ranks, nbytes), args.tolerance)
    exit_if_failed()


if __name__ == "__main__":
    main()
