#!/usr/bin/env python3
"""Communicators created in the loop (docs/interpose.md, "What is
recorded"), with tests/interpose/comm_per_iteration.c under real mpiexec
(ctest drives it; tests/interpose/CMakeLists.txt) at 4 ranks: each
iteration splits MPI_COMM_WORLD in halves of two and duplicates it. Exits
non-zero with a message when a check fails.

On every rank of the automatically captured iteration:
  - two collectives over every rank: the barrier the MPI_Comm_dup is
    recorded as (0 bytes), then the MPI_Allreduce on the copy;
  - the rounds of the split's barrier on the half (tag 2147483645, 0 bytes)
    before those of the MPI_Allreduce on it (8 bytes), each with the half's
    other member;
  - its results are unchanged and the profile follows
    docs/schemas/profile.schema.json.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import fail, interposed_profile, profile_check_parser, result_lines  # noqa: E402

GROUP_TAG = 2147483645


def main():
    args = profile_check_parser(__doc__, 40).parse_args()
    profile = interposed_profile(args, [args.program, str(args.iterations)], compared=result_lines)
    for r, rank in enumerate(profile["ranks"]):
        ops = [op for section in rank["sections"] for op in section["comm"]]
        collectives = [(op["op"], op["bytes"]) for op in ops if op["op"] not in ("send", "recv")]
        if sorted(collectives) != [("allreduce", 8), ("barrier", 0)]:
            fail("rank %d: collectives over every rank %s, expected the dup's barrier and an allreduce" %
                 (r, collectives))
        rounds = [(op["op"], op["bytes"], op["peer"]) for op in ops if op.get("tag") == GROUP_TAG]
        partner = (r + 2) % 4
        if sorted(rounds) != sorted([("send", 0, partner), ("recv", 0, partner),
                                     ("send", 8, partner), ("recv", 8, partner)]):
            fail("rank %d: the half's rounds %s, expected a barrier's and an allreduce's with rank %d" %
                 (r, rounds, partner))
    print("ok: %d ranks, the dup's barrier over every rank and the split's rounds on each half" % args.np)


if __name__ == "__main__":
    main()
