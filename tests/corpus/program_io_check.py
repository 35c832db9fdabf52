#!/usr/bin/env python3
"""The I/O a program does on its own files in its loop is in its profile and
in the prediction (docs/model.md, "I/O the program does itself"), end to end
at 2 ranks with real mpiexec:

1. captures `ooc_mpiio` (each rank streams its block of one shared file
   through a 64-row buffer every iteration, MPI_File_read_at and
   MPI_File_write_at, no hints) under `mheta run -n 2`;
2. predicts its own distribution and one with 1.5 and 0.5 times the rows
   with `mheta predict --json` on a cluster with memory for every row.

Checks: the file is in the profile as the program's own, per row, 8192
bytes a row (1024 doubles); each rank's captured iteration reads and
writes its whole block, rows x 8192 bytes each way; the prediction of the
own distribution charges each rank the I/O time it was captured with
(however much memory the node has), and the other distribution 1.5 and
0.5 times that.

Usage: program_io_check.py --mheta M --mpiexec E --program ooc_mpiio --cluster cluster.json [--keep DIR]
"""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import run_or_exit  # noqa: E402

ROWS = 1024
ROW_BYTES = 1024 * 8


def captured_io(rank, which):
    """Requests, bytes and seconds of one rank's captured reads or writes."""
    stats = [io[which] for section in rank["sections"] for stage in section["stages"]
             for io in stage.get("io", []) if which in io]
    return sum(s["count"] for s in stats), sum(s["bytes"] for s in stats), sum(s["seconds"] for s in stats)


def close(a, b):
    return abs(a - b) <= 1e-9 + 1e-6 * abs(b)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mheta", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--cluster", required=True)
    parser.add_argument("--keep")
    args = parser.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="mheta-program-io-")
    os.makedirs(work, exist_ok=True)
    path = lambda name: os.path.join(work, name)
    env = dict(os.environ, MHETA_MPIEXEC=args.mpiexec)

    run_or_exit([args.mheta, "run", "-n", "2", "--rows", str(ROWS), "--profile", path("profile.json"), "--",
         args.program, path("field.dat"), str(ROWS), "40"], env=env)
    profile = json.load(open(path("profile.json")))
    variables = profile["variables"]
    if len(variables) != 1:
        sys.exit("FAIL: the profile names %d variables, expected the program's one file: %r"
                 % (len(variables), variables))
    v = variables[0]
    if v.get("io") != "program_file" or v.get("per_row") is not True or v["bytes_per_row"] != ROW_BYTES:
        sys.exit("FAIL: the file is in the profile as %r, expected the program's own, per row, %d bytes a row"
                 % (v, ROW_BYTES))
    rows = profile["distribution"]
    for r, rank in enumerate(profile["ranks"]):
        for which in ("reads", "writes"):
            count, nbytes, seconds = captured_io(rank, which)
            if nbytes != rows[r] * ROW_BYTES or count == 0 or seconds <= 0:
                sys.exit("FAIL: rank %d's captured %s: %d requests, %d bytes in %g s; expected its block of %d rows, "
                         "%d bytes" % (r, which, count, nbytes, seconds, rows[r], rows[r] * ROW_BYTES))

    # Memory for every row on every node: an out-of-core array would cost nothing.
    cluster = json.load(open(args.cluster))
    for node in cluster["nodes"]:
        node["memory_bytes"] = 1 << 40
    with open(path("cluster.json"), "w") as f:
        json.dump(cluster, f)

    def predict(dist):
        with open(path("dist.txt"), "w") as f:
            f.write(" ".join(str(x) for x in dist) + "\n")
        result = run_or_exit([args.mheta, "predict", path("dist.txt"), "--profile", path("profile.json"),
                      "--cluster", path("cluster.json"), "--json"])
        return [rank["io_s"] for rank in json.loads(result.stdout)["ranks"]]

    captured = [captured_io(rank, "reads")[2] + captured_io(rank, "writes")[2] for rank in profile["ranks"]]
    own = predict(rows)
    moved = [rows[0] + rows[0] // 2, rows[1] - rows[0] // 2]
    other = predict(moved)
    print("captured I/O per rank %s ms; predicted at %s rows %s ms, at %s rows %s ms"
          % (["%.3f" % (1e3 * s) for s in captured], rows, ["%.3f" % (1e3 * s) for s in own], moved,
             ["%.3f" % (1e3 * s) for s in other]))
    for r in range(2):
        if not close(own[r], captured[r]):
            sys.exit("FAIL: rank %d predicted %g s of I/O at its own rows, captured %g s" % (r, own[r], captured[r]))
        expected = captured[r] * moved[r] / rows[r]
        if not close(other[r], expected):
            sys.exit("FAIL: rank %d predicted %g s of I/O at %d rows, expected %g s (captured x %d / %d)"
                     % (r, other[r], moved[r], expected, moved[r], rows[r]))
    print("PASS")


if __name__ == "__main__":
    main()
