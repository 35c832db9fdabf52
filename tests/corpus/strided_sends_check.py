#!/usr/bin/env python3
"""Sends of non-contiguous datatypes are recorded with their blocks and
priced by the cluster's cost of a block (docs/model.md, "Messages of
non-contiguous datatypes"), at 2 ranks with real mpiexec:

- `subarray_ssend` on 256 x 256 points sends its halo planes of fixed first
  index as an MPI_Type_vector of 256 values (at 2 ranks the process grid is
  2 x 1, so these are all the messages it sends): every captured send of
  its profile says `"segments": 256`, under the wall clock and under the
  virtual clock (--emulate) alike;
- `converge_land` sends contiguous rows of MPI_DOUBLE_PRECISION: no
  segments recorded;
- `mheta predict` of the wall-clock profile on the measured cluster
  (cluster.json, whose `network.segment_s` mheta microbench measured) is
  above the same profile's with its segments taken out, by no more than
  the blocks beyond each send's first times segment_s, and says nothing;
  on the cluster without segment_s it warns that the blocks are not
  priced; a virtual-clock profile is warned of on neither.

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

WARNING = "the cluster prices no block"


def results(stdout):
    return [line for line in stdout.splitlines() if line.startswith("result ")]


def segments(profile):
    """Per rank, the segments of each captured send (1 where not said)."""
    return [[op.get("segments", 1) for section in rank["sections"] for op in section["comm"] if op["op"] == "send"]
            for rank in profile["ranks"]]


def predict(args, profile, cluster, dist):
    """`mheta predict --json`: the iteration's time and whether it warned."""
    result = run_or_exit([args.mheta, "predict", dist, "--profile", profile, "--cluster", cluster, "--json"])
    return json.loads(result.stdout)["iteration_s"], WARNING in result.stderr


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
        doc = json.load(f)
    found = segments(doc)
    print("%s: segments of the captured sends per rank %s" % (name, found))
    if any(not sends or any(s != expected_segments for s in sends) for sends in found):
        sys.exit("FAIL: %s: expected every rank's sends of %d segments, found %s" % (name, expected_segments, found))
    if expected_segments == 1:
        return

    with open(args.cluster) as f:
        cluster = json.load(f)
    segment_s = cluster["network"].get("segment_s")
    if segment_s is None:
        sys.exit("FAIL: %s has no network.segment_s: mheta microbench did not measure it" % args.cluster)
    unpriced = os.path.join(work, "cluster-without-segments.json")
    del cluster["network"]["segment_s"]
    with open(unpriced, "w") as f:
        json.dump(cluster, f)
    contiguous = os.path.join(work, "contiguous.json")
    for rank in doc["ranks"]:
        for section in rank["sections"]:
            for op in section["comm"]:
                op.pop("segments", None)
    with open(contiguous, "w") as f:
        json.dump(doc, f)
    dist = os.path.join(work, "dist.txt")
    with open(dist, "w") as f:
        f.write("256 256\n")

    priced, warned = predict(args, profile, args.cluster, dist)
    bytes_only, _ = predict(args, contiguous, args.cluster, dist)
    unpriced_s, warned_unpriced = predict(args, profile, unpriced, dist)
    beyond = sum(s - 1 for sends in found for s in sends) * segment_s
    print("  segment_s %.3g s: predicted %.6e s, %.6e s without the blocks, %.6e s on the cluster without "
          "segment_s; warned %s, %s" % (segment_s, priced, bytes_only, unpriced_s, warned, warned_unpriced))
    if warned:
        sys.exit("FAIL: %s: mheta predict warned on a cluster that prices the blocks" % name)
    if warned_unpriced == emulate:
        sys.exit("FAIL: %s: on a cluster without segment_s mheta predict %s" %
                 (name, "warned of a virtual-clock profile" if emulate else "did not warn"))
    if abs(unpriced_s - bytes_only) > 1e-12 * bytes_only:
        sys.exit("FAIL: %s: without segment_s the blocks still cost something: %.9e against %.9e s"
                 % (name, unpriced_s, bytes_only))
    if segment_s > 0 and not 0 < priced - bytes_only <= beyond * (1 + 1e-9):
        sys.exit("FAIL: %s: the blocks added %.3e s to the iteration, expected more than 0 and at most %.3e s"
                 % (name, priced - bytes_only, beyond))


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
