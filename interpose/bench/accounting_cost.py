#!/usr/bin/env python3
"""Cost of the accounting service (MHETA_ACCOUNTING, docs/interpose.md
"Accounting") per intercepted call, on the ping-pong of default_mode_cost.py
(8-byte messages, 2 ranks), side by side:

  no library      the ping-pong alone
  capture off     the library loaded, MHETA_CAPTURE=off (accounting off: the
                  service does not exist, the wrappers read one flag)
  accounting      capture off, MHETA_ACCOUNTING set and every 1000th
                  MPI_Send ending an iteration (MHETA_ACCOUNTING_CALL): the
                  wrappers engaged, two clock reads and an add per call, one
                  record per iteration

Each figure is the median over --runs runs (alternating) of the best round
trip of a batch; per call = (round trip - no library's) / 4.

Usage: interpose/bench/accounting_cost.py --build BUILD [--runs 5] [--round-trips 100000]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

from default_mode_cost import round_trip_ns  # beside this script


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", required=True)
    parser.add_argument("--mpiexec", default="mpiexec")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--round-trips", type=int, default=100000)
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    lib = os.path.join(build, "interpose", "libmheta-interpose.so")
    bench = os.path.join(build, "interpose", "bench", "interpose_pingpong_calls")
    plain = [args.mpiexec, "-n", "2"]
    loaded = plain + ["-genv", "LD_PRELOAD", lib]
    with tempfile.TemporaryDirectory() as tmp:
        records = os.path.join(tmp, "accounting.json")
        variants = [
            ("no library", plain, {}),
            ("capture off", loaded, {"MHETA_CAPTURE": "off"}),
            ("accounting", loaded, {"MHETA_CAPTURE": "off", "MHETA_ACCOUNTING": records,
                                    "MHETA_ACCOUNTING_CALL": "MPI_Send:1000"}),
        ]
        figures = {name: [] for name, *_ in variants}
        for _ in range(args.runs):
            for name, launcher, env in variants:
                figures[name].append(round_trip_ns(launcher + [bench, str(args.round_trips), "0"], env))
        with open(records) as f:
            kept = [len(rank["iterations"]) for rank in json.load(f)["ranks"]]
        if min(kept) < args.round_trips // 1000 - 1:
            sys.exit("accounting kept %s records, expected about %d per rank" % (kept, args.round_trips // 1000))
    base = statistics.median(figures["no library"])
    print("ping-pong of 8 bytes, 2 ranks, %d round trips a run, median of %d runs" % (args.round_trips, args.runs))
    print("| variant | round trip | per intercepted call over no library |")
    print("|---|---|---|")
    for name, *_ in variants:
        trip = statistics.median(figures[name])
        print("| %s | %.1f ns | %s |" % (name, trip, "-" if name == "no library" else "%.1f ns" % ((trip - base) / 4)))


if __name__ == "__main__":
    main()
