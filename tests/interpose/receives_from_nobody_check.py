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
import os
import sys


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, exit_if_failed, interposed_profile, profile_check_parser  # noqa: E402

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
    args = profile_check_parser(__doc__, 60).parse_args()
    profile = interposed_profile(args, [args.program, str(args.iterations)])
    for r, rank in enumerate(profile["ranks"]):
        check_rank(r, rank, args.np)
    exit_if_failed()
    print("ok: %d ranks, each block's compute after its receive (from MPI_PROC_NULL on the edge ranks) in a section "
          "of its own" % args.np)


if __name__ == "__main__":
    main()
