#!/usr/bin/env python3
"""Sends of non-contiguous datatypes are marked in the profile and named to
the user (docs/model.md, "Assumptions and limits"), at 2 ranks with real
mpiexec:

- `subarray_ssend` on 256 x 256 points sends its halo planes of fixed first
  index as an MPI_Type_vector of 256 values (at 2 ranks the process grid is
  2 x 1, so these are all the messages it sends): under the wall clock
  every captured send of its profile says `"segments": 256`, and `mheta
  run` and `mheta predict` warn of them; under the virtual clock
  (--emulate) the profile says the same, and nothing warns: the emulated
  network prices a message by its bytes, as the model does;
- `converge_land` sends contiguous rows of MPI_DOUBLE_PRECISION: no
  segments recorded, nothing warned of.

Every run's results are the program's own without the interposer.

Usage: strided_sends_check.py --mheta M --mpiexec E --strided subarray_ssend --contiguous converge_land
                              --cluster cluster.json
"""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import run_or_exit  # noqa: E402

WARNING = "sends are of non-contiguous datatypes"


def results(stdout):
    return [line for line in stdout.splitlines() if line.startswith("result ")]


def segments(profile):
    """Per rank, the segments of each captured send (1 where not said)."""
    return [[op.get("segments", 1) for section in rank["sections"] for op in section["comm"] if op["op"] == "send"]
            for rank in profile["ranks"]]


def check(args, work, program, emulate, expected_segments):
    expected = results(run_or_exit([args.mpiexec, "-n", "2"] + program).stdout)
    profile = os.path.join(work, "profile.json")
    emulation = ["--emulate", "HY1"] if emulate else []
    run = run_or_exit([args.mheta, "run", "-n", "2", "--rows", "512", "--profile", profile] + emulation +
                      ["--"] + program)
    name = "%s%s" % (os.path.basename(program[0]), " (virtual clock)" if emulate else "")
    if results(run.stdout) != expected:
        sys.exit("FAIL: %s: results changed under mheta run:\n%s\n---\n%s" % (name, expected, results(run.stdout)))
    with open(profile) as f:
        found = segments(json.load(f))
    dist = os.path.join(work, "dist.txt")
    with open(dist, "w") as f:
        f.write("256 256\n")
    predicted = run_or_exit([args.mheta, "predict", dist, "--profile", profile, "--cluster", args.cluster])
    warned = [WARNING in run.stderr, WARNING in predicted.stderr]
    print("%s: segments of the captured sends per rank %s; run and predict warned: %s" % (name, found, warned))
    if any(not sends or any(s != expected_segments for s in sends) for sends in found):
        sys.exit("FAIL: %s: expected every rank's sends of %d segments, found %s" % (name, expected_segments, found))
    warns = expected_segments > 1 and not emulate
    if warned != [warns, warns]:
        sys.exit("FAIL: %s: warned %s, expected %s:\n%s\n%s" % (name, warned, [warns, warns], run.stderr,
                                                                 predicted.stderr))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mheta", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--strided", required=True, help="subarray_ssend")
    parser.add_argument("--contiguous", required=True, help="converge_land")
    parser.add_argument("--cluster", required=True, help="a cluster.json of 2 ranks")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        check(args, work, [args.strided, "256", "60"], False, 256)
        check(args, work, [args.strided, "256", "60"], True, 256)
        check(args, work, [args.contiguous, "256", "256", "2e-3"], False, 1)
    print("ok")


if __name__ == "__main__":
    main()
