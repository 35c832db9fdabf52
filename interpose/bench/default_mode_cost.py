#!/usr/bin/env python3
"""Cost of the default capture mode per intercepted call, on a ping-pong of
8-byte messages at 2 ranks (interpose/bench/pingpong_calls.c), side by side:

  no library            the ping-pong alone
  capture off           the library loaded, MHETA_CAPTURE=off
  default, detecting    the library in its default mode, the round trips of
                        the run's first 1.8 s (detection concludes only once
                        its loop has run 2 s)
  default, concluded    the same run's round trips from 2.5 s on, after
                        detection has concluded (its loop ran 20 times, over
                        2 s and 80 % of the run)
  mheta run's default   the same two windows with the records `mheta run`
                        keeps by default under the wall clock: 64 to 320 of
                        the run's iterations (MHETA_ACCOUNTING_SAMPLES=64),
                        the wrappers idle between two of them; checks that
                        each rank's records are no more than 321

Each figure is the best over --runs runs of the best round trip of a batch
of 50 in its window (pingpong_calls.c); noise only adds time, and a shared
machine moves between states where the same round trip takes 0.27 us,
1.1 us or 10 ms, which a median would mix. The cost per call is the
difference from the best round trip of the runs without the library (whose
cost does not change over a run) / 4, four intercepted calls being on a
round trip's critical path. Targets: <= 100 ns per call while detecting,
<= 50 ns once detection has concluded.

Usage: interpose/bench/default_mode_cost.py --build BUILD [--runs 7] [--seconds 5]
"""
import argparse
import json
import os
import sys
import tempfile

from runner import run  # beside this script


def ping_pong(cmd, env):
    return json.loads(run(cmd, env)[0].strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", required=True)
    parser.add_argument("--mpiexec", default="mpiexec")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each run (past 2.5 s)")
    args = parser.parse_args()
    if args.seconds <= 3:
        sys.exit("--seconds must leave the concluded window (2.5 s on) some time")
    build = os.path.abspath(args.build)
    lib = os.path.join(build, "interpose", "libmheta-interpose.so")
    bench = os.path.join(build, "interpose", "bench", "interpose_pingpong_calls")
    plain = [args.mpiexec, "-n", "2"]
    loaded = plain + ["-genv", "LD_PRELOAD", lib]
    # name, the run's figure, target
    variants = [
        ("no library", "best_ns", None),
        ("capture off", "best_ns", None),
        ("default, detecting", "detecting_ns", 100),
        ("default, concluded", "concluded_ns", 50),
        ("mheta run's default, detecting", "detecting_ns", 100),
        ("mheta run's default, concluded", "concluded_ns", 50),
    ]
    runs = {"no library": [], "capture off": [], "default": [], "mheta run's default": []}
    with tempfile.TemporaryDirectory() as tmp:
        profile = os.path.join(tmp, "profile.json")
        for _ in range(args.runs):  # alternating: the machine is shared
            runs["no library"].append(ping_pong(plain + [bench, str(args.seconds)], {}))
            env = {"MHETA_PROFILE": profile, "MHETA_ROWS": "2"}
            runs["capture off"].append(ping_pong(loaded + [bench, str(args.seconds)], dict(env, MHETA_CAPTURE="off")))
            runs["default"].append(ping_pong(loaded + [bench, str(args.seconds)], env))
            if not os.path.exists(profile):
                sys.exit("default: no profile written: the ping-pong was not captured")
            os.remove(profile)
            records = os.path.join(tmp, "accounting.json")
            sampled = dict(env, MHETA_ACCOUNTING=records, MHETA_ACCOUNTING_SAMPLES="64")
            runs["mheta run's default"].append(ping_pong(loaded + [bench, str(args.seconds)], sampled))
            with open(records) as f:
                kept = [len(rank["iterations"]) for rank in json.load(f)["ranks"]]
            if not os.path.exists(profile) or max(kept) > 321:
                sys.exit("mheta run's default: no profile, or records not sampled (%s kept)" % kept)
            os.remove(profile)
            os.remove(records)
    print("ping-pong of 8 bytes, 2 ranks, %.1f s a run, best of %d runs" % (args.seconds, args.runs))
    print("| variant | round trip | per intercepted call over no library | target |")
    print("|---|---|---|---|")
    base = min(r["best_ns"] for r in runs["no library"])
    for name, key, target in variants:
        trip = min(r[key] for r in runs[name.split(",")[0]])
        per_call = "-" if name == "no library" else "%.1f ns" % ((trip - base) / 4)
        print("| %s | %.1f ns | %s | %s |" % (name, trip, per_call, "<= %d ns" % target if target else "-"))


if __name__ == "__main__":
    main()
