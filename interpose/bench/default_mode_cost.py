#!/usr/bin/env python3
"""Cost of the default capture mode per intercepted call, on a ping-pong of
8-byte messages at 2 ranks (interpose/bench/pingpong_calls.c), side by side:

  no library            the ping-pong alone
  capture off           the library loaded, MHETA_CAPTURE=off
  default, detecting    the library in its default mode on the plain
                        ping-pong (nothing ends detection)
  default, concluded    the same after a warm-up loop with a collective,
                        where detection concludes and the capture is done

Each figure is the median over --runs runs of the best round trip of a
batch of 50 (pingpong_calls.c: the least disturbed batch on a shared machine);
the cost per call is (round trip - no library's) / 4, four intercepted calls
being on a round trip's critical path. Targets: <= 100 ns per call while
detecting, <= 50 ns once detection has concluded.

Usage: interpose/bench/default_mode_cost.py --build BUILD [--runs 7] [--round-trips 200000]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

from overhead import run  # beside this script


def round_trip_ns(cmd, env):
    return json.loads(run(cmd, env)[0].strip().splitlines()[-1])["ns_per_round_trip"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", required=True)
    parser.add_argument("--mpiexec", default="mpiexec")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--round-trips", type=int, default=200000)
    parser.add_argument("--warm-up", type=int, default=50, help="round trips with a barrier before 'concluded'")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    lib = os.path.join(build, "interpose", "libmheta-interpose.so")
    bench = os.path.join(build, "interpose", "bench", "interpose_pingpong_calls")
    plain = [args.mpiexec, "-n", "2"]
    loaded = plain + ["-genv", "LD_PRELOAD", lib]
    variants = [
        ("no library", plain, {}, 0, None),
        ("capture off", loaded, {"MHETA_CAPTURE": "off"}, 0, None),
        ("default, detecting", loaded, {}, 0, 100),
        ("default, concluded", loaded, {}, args.warm_up, 50),
    ]
    figures = {name: [] for name, *_ in variants}
    with tempfile.TemporaryDirectory() as tmp:
        profile = os.path.join(tmp, "profile.json")
        for _ in range(args.runs):  # alternating: the machine is shared
            for name, launcher, env, warm_up, _ in variants:
                if launcher is loaded:
                    env = dict(env, MHETA_PROFILE=profile, MHETA_ROWS="2")
                cmd = launcher + [bench, str(args.round_trips), str(warm_up)]
                figures[name].append(round_trip_ns(cmd, env))
                # Detection concluded exactly where the variant says so.
                if name.startswith("default") and os.path.exists(profile) != (warm_up > 0):
                    sys.exit("%s: detection %s, unlike what the variant measures" %
                             (name, "concluded" if warm_up == 0 else "never concluded"))
                if os.path.exists(profile):
                    os.remove(profile)
    base = statistics.median(figures["no library"])
    print("ping-pong of 8 bytes, 2 ranks, %d round trips a run, median of %d runs" % (args.round_trips, args.runs))
    print("| variant | round trip | per intercepted call over no library | target |")
    print("|---|---|---|---|")
    for name, _, _, _, target in variants:
        trip = statistics.median(figures[name])
        per_call = (trip - base) / 4
        print("| %s | %.1f ns | %s | %s |" % (name, trip, "-" if name == "no library" else "%.1f ns" % per_call,
                                              "<= %d ns" % target if target else "-"))


if __name__ == "__main__":
    main()
