#!/usr/bin/env python3
"""Every command that prints results prints them as JSON with --json, each
checked against its schema under docs/schemas/; `-o -` writes to standard
output; errors (CLI11's too) start with `mheta <command>:`; a mistyped
command gets the nearest name; `predict` names the bottleneck on the
critical path; `mheta trace` writes the trace-event format."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, exit_if_failed  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mheta", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--make", required=True)
    args = parser.parse_args()
    example = os.path.join(args.root, "examples", "jacobi-hy1")
    inputs = ["--profile", os.path.join(example, "profile.json"), "--cluster", os.path.join(example, "cluster.json")]
    schemas = {}
    for name in os.listdir(os.path.join(args.root, "docs", "schemas")):
        with open(os.path.join(args.root, "docs", "schemas", name)) as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        schemas[name] = schema
    store = {s["$id"]: s for s in schemas.values()}

    def valid(document, schema_name, what):
        schema = schemas[schema_name]
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        errors = list(jsonschema.Draft202012Validator(schema, resolver=resolver).iter_errors(document))
        return check(not errors, "%s does not follow %s: %s" % (what, schema_name, errors[0].message if errors else ""))

    work = tempfile.mkdtemp(prefix="mheta-json-")

    def mheta(*argv, stdin=None):
        return subprocess.run([args.mheta, *argv], capture_output=True, text=True, cwd=work, timeout=300)

    try:
        # predict: the bottleneck of Blk is rank 1 (823 ms of compute, no
        # wait); rank 0 finishes with it only because it waits 0.41 s for it.
        run = mheta("predict", os.path.join(example, "blk.txt"), *inputs, "--json")
        check(run.returncode == 0, "predict --json failed: " + run.stderr)
        out = json.loads(run.stdout)
        valid(out, "prediction.schema.json", "predict --json")
        check(out["slowest_rank"] == 1, "predict names rank %d the bottleneck, not rank 1" % out["slowest_rank"])
        last = max(r["total_s"] for r in out["ranks"])
        finishers = [i for i, r in enumerate(out["ranks"]) if r["total_s"] >= last * (1 - 1e-12)]
        check(out["slowest_rank"] == min(finishers, key=lambda i: out["ranks"][i]["wait_s"]),
              "the bottleneck is not the last finisher that waited least")
        table = mheta("predict", os.path.join(example, "blk.txt"), *inputs)
        slowest_line = [line for line in table.stdout.splitlines() if line.endswith("<- slowest")]
        check(len(slowest_line) == 1 and slowest_line[0].split()[0] == "1", "the table marks %r" % slowest_line)

        run = mheta("demo", "--examples", os.path.join(args.root, "examples"), "--json")
        check(run.returncode == 0, "demo --json failed: " + run.stderr)
        valid(json.loads(run.stdout), "demo.schema.json", "demo --json")

        # search: -o - puts the distribution on stdout, the JSON on stderr.
        run = mheta("search", *inputs, "--json", "-o", "-")
        check(run.returncode == 0, "search --json -o - failed: " + run.stderr)
        found = json.loads(run.stderr)
        valid(found, "search.schema.json", "search --json")
        rows = [int(line) for line in run.stdout.splitlines() if line and not line.startswith("#")]
        check(rows == found["distribution"],
              "search -o - printed %r, the JSON says %r" % (run.stdout, found["distribution"]))
        check(not os.path.exists(os.path.join(work, "-")), "search -o - wrote a file named -")
        check(sum(found["distribution"]) == sum(out["distribution"]), "the search lost rows")

        # trace: the trace-event format, one track per rank, flows paired.
        run = mheta("trace", os.path.join(example, "profile.json"), "--cluster", os.path.join(example, "cluster.json"),
                    "-o", "-")
        check(run.returncode == 0, "trace -o - failed: " + run.stderr)
        trace = json.loads(run.stdout)
        valid(trace, "trace.schema.json", "mheta trace")
        events = trace["traceEvents"]
        ranks = len(out["ranks"])
        threads = sorted(e["tid"] for e in events if e["ph"] == "M" and e["name"] == "thread_name")
        check(threads == list(range(ranks)), "trace tracks %r, not one per rank" % threads)
        slices = [e for e in events if e["ph"] == "X"]
        check({e["cat"] for e in slices} >= {"section", "compute", "comm"}, "trace lacks kinds of slices")
        for rank in range(ranks):
            end = max(e["ts"] + e["dur"] for e in slices if e["tid"] == rank)
            check(abs(end - out["ranks"][rank]["total_s"] * 1e6) <= 1e-3 * max(end, 1),
                  "rank %d's track ends at %g us, the prediction at %g s" % (rank, end, out["ranks"][rank]["total_s"]))
            sections = [e for e in slices if e["tid"] == rank and e["cat"] == "section"]
            for e in slices:
                if e["tid"] != rank or e["cat"] == "section":
                    continue
                inside = [s for s in sections if s["args"]["section"] == e["args"]["section"]]
                check(len(inside) == 1 and inside[0]["ts"] <= e["ts"] + 1e-6 and
                      e["ts"] + e["dur"] <= inside[0]["ts"] + inside[0]["dur"] + 1e-6,
                      "a %s slice of rank %d is outside its section" % (e["name"], rank))
        flows = {}
        for e in events:
            if e["ph"] in ("s", "f"):
                flows.setdefault(e["id"], []).append(e)
        check(len(flows) > 0, "the trace has no message flows")
        for ident, ends in flows.items():
            phases = sorted(e["ph"] for e in ends)
            if not check(phases == ["f", "s"], "flow %d has ends %r" % (ident, phases)):
                continue
            start, finish = sorted(ends, key=lambda e: e["ph"], reverse=True)
            check(start["ts"] <= finish["ts"] and start["tid"] != finish["tid"],
                  "message %d goes back in time or to its own rank" % ident)
            # Each end starts with its send or receive slice, of its category.
            for end, kind in ((start, "send"), (finish, "receive")):
                check(any(e["name"] == kind and e["tid"] == end["tid"] and e["ts"] == end["ts"] and
                          e["cat"] == end["cat"] for e in slices),
                      "message %d's %s end is not at the start of a %s slice" % (ident, end["ph"], kind))
        check(trace["otherData"]["bottleneck_rank"] == 1, "the trace names another bottleneck")

        # redistribute --json, under mpiexec: a move with checksums.
        data = os.path.join(work, "data")
        for name, rows in (("old.txt", "40\n24\n"), ("new.txt", "20\n44\n"), ("wrong.txt", "30\n34\n")):
            with open(os.path.join(work, name), "w") as f:
                f.write(rows)
        made = subprocess.run([args.mpiexec, "-n", "2", args.make, data, os.path.join(work, "old.txt")],
                              capture_output=True, text=True)
        if check(made.returncode == 0, "make_local_arrays failed: " + made.stderr):
            run = subprocess.run([args.mpiexec, "-n", "2", args.mheta, "redistribute", "--data", data, "--from",
                                  os.path.join(work, "old.txt"), "--to", os.path.join(work, "new.txt"), "--checksum",
                                  "--json"], capture_output=True, text=True, timeout=300)
            check(run.returncode == 0, "redistribute --json failed: " + run.stderr)
            moved = json.loads(run.stdout)
            valid(moved, "redistribute.schema.json", "redistribute --json")
            check(moved["moved"] and moved["distribution"] == [20, 44] and moved["from"] == [40, 24],
                  "redistribute --json said %r" % moved)
            check(moved["checksums"]["before"] == moved["checksums"]["after"], "the checksums changed")
            # A wrong --from: the error once, not once per rank.
            run = subprocess.run([args.mpiexec, "-n", "2", args.mheta, "redistribute", "--data", data, "--from",
                                  os.path.join(work, "wrong.txt"), "--to", os.path.join(work, "old.txt")],
                                 capture_output=True, text=True, timeout=300)
            lines = [line for line in run.stderr.splitlines() if line.startswith("mheta redistribute:")]
            check(run.returncode == 3 and len(lines) == 1, "a wrong --from gave %d and %r" % (run.returncode, lines))

        # Errors name the command, CLI11's own too.
        for argv, prefix in ((["predict"], "mheta predict: "), (["search", "--min-rows", "x"], "mheta search: "),
                             (["run", "-n", "0", "--", "true"], "mheta run: "),
                             (["microbench", "-n", "0"], "mheta microbench: "),
                             (["trace", os.path.join(work, "missing.json")], "mheta trace: "),
                             (["report"], "mheta report: ")):
            run = mheta(*argv)
            check(run.returncode in (2, 3) and run.stderr.startswith(prefix),
                  "mheta %s: exit %d, stderr %r" % (" ".join(argv), run.returncode, run.stderr))
        run = mheta("microbench", "-n", "1")
        check(run.returncode == 2 and "at least 2" in run.stderr, "microbench -n 1: %r" % run.stderr)
        run = mheta("predcit")
        check(run.returncode == 2 and run.stderr.startswith("mheta predcit: unknown command; did you mean predict?"),
              "a mistyped command: %r" % run.stderr)
        run = mheta("xyzzy")
        check(run.returncode == 2 and "the commands are" in run.stderr and "predict" in run.stderr,
              "an unknown command: %r" % run.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    exit_if_failed()
    print("json outputs and errors checked")


if __name__ == "__main__":
    main()
