#!/usr/bin/env python3
"""The I/O a program does on its own files in its loop is in its profile and
in the prediction (docs/model.md, "I/O the program does itself"), end to end
at 2 ranks with real mpiexec. Each program is captured under `mheta run -n 2`
and its own distribution and one with 1.5 and 0.5 times the rows predicted
with `mheta predict --json` on a cluster with memory for every row.

- `ooc_mpiio` streams each rank's block of one shared file through a 64-row
  buffer every iteration (MPI_File_read_at, MPI_File_write_at, no hints):
  the file is in the profile as the program's own, per row, 8192 bytes a
  row (1024 doubles); each rank's captured iteration reads and writes its
  whole block, rows x 8192 bytes each way; each rank is charged the I/O
  time it was captured with at its own rows (however much memory the node
  has), and 1.5 and 0.5 times that at the other distribution.
- `checkpoint_log` (1001 rows: 501 and 500) writes a 64 KiB record per rank
  to a shared checkpoint file and rank 0 a line to a log every iteration:
  both files are the program's own and not per row; each rank is charged
  the I/O it was captured with at both distributions, rank 1 none of the
  log.

Usage: program_io_check.py --mheta M --mpiexec E --program ooc_mpiio --fixed-program checkpoint_log
                           --cluster cluster.json [--keep DIR]
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
FIXED_ROWS = 1001


def captured_io(rank, which):
    """Requests, bytes and seconds of one rank's captured reads or writes."""
    stats = [io[which] for section in rank["sections"] for stage in section["stages"]
             for io in stage.get("io", []) if which in io]
    return sum(s["count"] for s in stats), sum(s["bytes"] for s in stats), sum(s["seconds"] for s in stats)


def close(a, b):
    return abs(a - b) <= 1e-9 + 1e-6 * abs(b)


class Check:
    """Captures a program at 2 ranks and predicts distributions of its profile."""

    def __init__(self, args, work, name):
        self.args = args
        self.path = lambda file: os.path.join(work, name + "-" + file)
        # Memory for every row on every node: an out-of-core array would cost nothing.
        cluster = json.load(open(args.cluster))
        for node in cluster["nodes"]:
            node["memory_bytes"] = 1 << 40
        with open(self.path("cluster.json"), "w") as f:
            json.dump(cluster, f)

    def capture(self, rows, program_argv):
        run_or_exit([self.args.mheta, "run", "-n", "2", "--rows", str(rows), "--profile", self.path("profile.json"),
                     "--"] + program_argv, env=dict(os.environ, MHETA_MPIEXEC=self.args.mpiexec))
        self.profile = json.load(open(self.path("profile.json")))
        return self.profile

    def predict_io(self, dist):
        with open(self.path("dist.txt"), "w") as f:
            f.write(" ".join(str(x) for x in dist) + "\n")
        result = run_or_exit([self.args.mheta, "predict", self.path("dist.txt"), "--profile", self.path("profile.json"),
                              "--cluster", self.path("cluster.json"), "--json"])
        return [rank["io_s"] for rank in json.loads(result.stdout)["ranks"]]

    def compare(self, factor_of_rows):
        """Predicted I/O per rank at its own rows and at 1.5 and 0.5 times rank 0's rows, against the captured
        I/O times factor_of_rows(new rows, captured rows)."""
        rows = self.profile["distribution"]
        captured = [captured_io(rank, "reads")[2] + captured_io(rank, "writes")[2] for rank in self.profile["ranks"]]
        moved = [rows[0] + rows[0] // 2, rows[1] - rows[0] // 2]
        own, other = self.predict_io(rows), self.predict_io(moved)
        print("%s: captured I/O per rank %s ms; predicted at %s rows %s ms, at %s rows %s ms"
              % (self.profile["program"], ["%.3f" % (1e3 * s) for s in captured], rows,
                 ["%.3f" % (1e3 * s) for s in own], moved, ["%.3f" % (1e3 * s) for s in other]))
        for r in range(2):
            if not close(own[r], captured[r]):
                sys.exit("FAIL: rank %d predicted %g s of I/O at its own rows, captured %g s" % (r, own[r], captured[r]))
            expected = captured[r] * factor_of_rows(moved[r], rows[r])
            if not close(other[r], expected):
                sys.exit("FAIL: rank %d predicted %g s of I/O at %d rows, expected %g s (captured at %d rows)"
                         % (r, other[r], moved[r], expected, rows[r]))
        return captured


def check_streamed(args, work):
    check = Check(args, work, "streamed")
    profile = check.capture(ROWS, [args.program, os.path.join(work, "field.dat"), str(ROWS), "40"])
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
    check.compare(lambda new, old: new / old)


def check_fixed(args, work):
    check = Check(args, work, "fixed")
    profile = check.capture(FIXED_ROWS, [args.fixed_program, work, str(FIXED_ROWS), "40"])
    names = sorted(os.path.basename(v["name"]) for v in profile["variables"])
    if names != ["checkpoint.dat", "run.log"]:
        sys.exit("FAIL: the profile names the files %r, expected checkpoint.dat and run.log" % names)
    for v in profile["variables"]:
        if v.get("io") != "program_file" or v.get("per_row") is not False:
            sys.exit("FAIL: %s is in the profile as %r, expected the program's own, not per row" % (v["name"], v))
    if profile["distribution"] != [501, 500]:
        sys.exit("FAIL: the profile's distribution is %r, expected 501 and 500 rows" % profile["distribution"])
    captured = check.compare(lambda new, old: 1.0)
    log = [v["name"] for v in profile["variables"] if v["name"].endswith("run.log")][0]
    rank1_log = [io for section in profile["ranks"][1]["sections"] for stage in section["stages"]
                 for io in stage.get("io", []) if io["variable"] == log]
    if rank1_log or not all(seconds > 0 for seconds in captured):
        sys.exit("FAIL: rank 1 wrote the log (%r) or a rank captured no I/O (%r)" % (rank1_log, captured))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mheta", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--program", required=True, help="ooc_mpiio")
    parser.add_argument("--fixed-program", required=True, help="checkpoint_log")
    parser.add_argument("--cluster", required=True)
    parser.add_argument("--keep")
    args = parser.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="mheta-program-io-")
    os.makedirs(work, exist_ok=True)
    check_streamed(args, work)
    check_fixed(args, work)
    print("PASS")


if __name__ == "__main__":
    main()
