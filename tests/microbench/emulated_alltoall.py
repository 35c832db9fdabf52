#!/usr/bin/env python3
"""`mheta microbench` fits an all-to-all curve that prices MPI_Alltoall as the
emulated network does (docs/microbench.md, docs/emulation.md): on 4 ranks of
an emulated network of known latency alpha and bandwidth 1/beta under the
virtual clock, the fitted curve gives (P-1)(alpha + n beta) for n bytes per
peer on P = 2, 3, 4 ranks, within a generous tolerance (the clock's prices
are exact; the fit's points also hold the CPU time spent around each call).
allgather's ring curve, which alltoall borrowed before it was measured,
prices log2(P) latencies instead of P-1: 33 % below for 8 bytes on 4 ranks,
which fails.

  emulated_alltoall.py --mheta MHETA --mpiexec MPIEXEC --out DIR [--tolerance 0.25]
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


def curve_seconds(curve, ranks, nbytes):
    """model::CollectiveCurve::seconds: the curve's terms at (P, n), clamped at 0."""
    log2p = math.log2(ranks)
    basis = [1, log2p, ranks, nbytes, nbytes * log2p, nbytes * ranks]
    return max(0.0, sum(curve.get(name, 0.0) * x for name, x in zip(TERMS, basis)))


def main():
    args = parse_args(__doc__, 0.25)

    network = {"latency_us": LATENCY_S * 1e6, "bandwidth_MBps": BANDWIDTH_BPS / 1e6}
    cluster = measure_emulated(args, "alltoall-4", {"ranks": [{"cpu_factor": 1}], "network": network}, ranks=4)
    curves = cluster["network"]["collectives"]
    if not check("alltoall" in curves, "no alltoall curve in the cluster file: %s" % sorted(curves)):
        exit_if_failed()
    curve = curves["alltoall"]
    print("alltoall curve: %s" % {name: curve.get(name) for name in TERMS})
    for ranks in (2, 3, 4):
        for nbytes in cluster["measurement"]["collectives"]["bytes"]:
            expected = (ranks - 1) * (LATENCY_S + nbytes / BANDWIDTH_BPS)
            within("alltoall of %d bytes per peer on %d ranks (s)" % (nbytes, ranks), curve_seconds(curve, ranks, nbytes),
                   expected, args.tolerance)
    exit_if_failed()


if __name__ == "__main__":
    main()
