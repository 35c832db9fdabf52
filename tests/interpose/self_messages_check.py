#!/usr/bin/env python3
"""Messages a rank sends itself (docs/interpose.md, "What is recorded"),
with tests/interpose/torus_halo.c under real mpiexec (ctest drives it;
tests/interpose/CMakeLists.txt): on a periodic 2-D grid of 2 or 3 ranks
one dimension has a single rank, whose halos there go to itself. Exits
non-zero with a message when a check fails.

On the automatically captured iteration:
  - a profile is written (a message to itself made the profile invalid,
    and none was written);
  - no rank has an operation whose peer is itself;
  - every rank sends to and receives from each of its other neighbours;
  - its results are unchanged and the profile follows
    docs/schemas/profile.schema.json.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import fail, interposed_profile, profile_check_parser, result_lines  # noqa: E402


def main():
    args = profile_check_parser(__doc__, 40).parse_args()
    profile = interposed_profile(args, [args.program, str(args.iterations)], compared=result_lines)
    for r, rank in enumerate(profile["ranks"]):
        ops = [op for section in rank["sections"] for op in section["comm"] if op["op"] in ("send", "recv")]
        if any(op["peer"] == r for op in ops):
            fail("rank %d messages itself in the profile: %s" % (r, [op for op in ops if op["peer"] == r]))
        # On a 1-D ring of np ranks (the grid's other dimension has one), the
        # other neighbours are the ranks before and after.
        others = {(r + 1) % args.np, (r - 1) % args.np} - {r}
        for kind in ("send", "recv"):
            peers = {op["peer"] for op in ops if op["op"] == kind}
            if peers != others:
                fail("rank %d: %ss to %s, its other neighbours are %s" % (r, kind, sorted(peers), sorted(others)))
    print("ok: %d ranks, no message to itself recorded, every other neighbour's halos" % args.np)


if __name__ == "__main__":
    main()
