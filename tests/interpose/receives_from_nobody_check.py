#!/usr/bin/env python3
"""A non-blocking receive from MPI_PROC_NULL counts, where it completes, as a
receive (docs/interpose.md, "What is recorded"), with receives_from_nobody.c
under real mpiexec (ctest drives it; tests/interpose/CMakeLists.txt). Exits
non-zero with a message when a check fails.

The program sweeps blocks down a chain of ranks and back, each block
received (every non-blocking form), relaxed for 5 us and sent on. The edge
ranks receive each block of one sweep from MPI_PROC_NULL: their short
compute after the wait must open a section of its own, as after a real
receive, not join the section of the sends before it. On every rank of the
automatically captured iteration:
  - each sweep's block sends (tags 1 and 2, none to MPI_PROC_NULL) are all
    there, each in a section of its own with compute before it;
  - the output (what was received, and every receive's status and request
    handle as the program sees them) is unchanged, and the profile follows
    docs/schemas/profile.schema.json.
"""
import argparse
import json
import os
import sys
import tempfile

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, exit_if_failed, run_interposed_unchanged  # noqa: E402

BLOCKS = 5  # receives_from_nobody.c's
DOWN, UP = 1, 2


def expected_sends(r, np):
    """The block sends of rank r's iteration by tag: down the chain but from
    the last rank, up it but from the first."""
    expected = {}
    if r + 1 < np:
        expected[DOWN] = BLOCKS
    if r > 0:
        expected[UP] = BLOCKS
    return expected


def check_rank(r, rank, np):
    sections = rank["sections"]
    seen = {}
    for s, section in enumerate(sections):
        sends = [op["tag"] for op in section["comm"] if op["op"] == "send"]
        for tag in sends:
            seen[tag] = seen.get(tag, 0) + 1
        compute = sum(stage["compute_s"] for stage in section["stages"])
        where = "rank %d, section %d (comm %s, compute %g s)" % (
            r, s, [(op["op"], op.get("peer"), op.get("tag")) for op in section["comm"]], compute)
        check(len(sends) <= 1, "%s: %d block sends in one section; the compute after each receive (from "
              "MPI_PROC_NULL on an edge rank) is not in a section of its own" % (where, len(sends)))
        if sends:
            check(compute > 0, "%s: a block send with no compute before it in its section" % where)
    check(seen == expected_sends(r, np),
          "rank %d: block sends by tag %s in the captured iteration, expected %s" % (r, seen, expected_sends(r, np)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--lib", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--schema", required=True)
    parser.add_argument("--np", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=60)
    parser.add_argument("--emulate", help="MHETA_EMULATE for the interposed run (the virtual clock's path)")
    args = parser.parse_args()
    with open(args.schema) as f:
        schema = jsonschema.Draft202012Validator(json.load(f))
    program = [args.program, str(args.iterations)]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "profile.json")
        env = dict(os.environ, MHETA_PROFILE=path)
        if args.emulate:
            env["MHETA_EMULATE"] = args.emulate
        interposed = run_interposed_unchanged(args.mpiexec, args.np, args.lib, program, env)
        if not os.path.exists(path):
            sys.exit("FAIL: no profile written:\n" + interposed.stderr)
        with open(path) as f:
            profile = json.load(f)
    errors = sorted(schema.iter_errors(profile), key=str)
    if errors:
        sys.exit("FAIL: the profile does not follow the schema: %s" % errors[0].message)
    if len(profile["ranks"]) != args.np:
        sys.exit("FAIL: the profile has %d ranks, expected %d" % (len(profile["ranks"]), args.np))
    for r, rank in enumerate(profile["ranks"]):
        check_rank(r, rank, args.np)
    exit_if_failed()
    print("ok: %d ranks, each block's compute after its receive (from MPI_PROC_NULL on the edge ranks) in a section "
          "of its own" % args.np)


if __name__ == "__main__":
    main()
