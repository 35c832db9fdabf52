#!/usr/bin/env python3
"""The rounds a collective over some but not all ranks is recorded as
(docs/interpose.md, "collectives over some but not all ranks"), with
tests/corpus/summa_grid.c under real mpiexec (ctest drives it;
tests/interpose/CMakeLists.txt). At 4 ranks its grid is 2 x 2: each
iteration broadcasts two panels along every row and two down every
column, and reduces on the rows, all on communicators of 2 ranks. Exits
non-zero with a message when a check fails.

On every rank of the automatically captured iteration:
  - there are such rounds (messages of tag 2147483645), each a send
    followed by its round's receive, as many receives as sends;
  - each round's send is `nonblocking` and `synchronous` (its completion
    waits for the receiver to reach the receive: docs/model.md,
    "Collectives over a group"), completed right after that receive;
  - its results are unchanged and the profile follows
    docs/schemas/profile.schema.json.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import fail, interposed_profile, profile_check_parser, result_lines  # noqa: E402

GROUP_TAG = 2147483645



def main():
    args = profile_check_parser(__doc__, 60).parse_args()
    profile = interposed_profile(args, [args.program, "64", str(args.iterations)],
                                 compared=result_lines)
    for r, rank in enumerate(profile["ranks"]):
        sends = receives = 0
        for s, section in enumerate(rank["sections"]):
            comm = section["comm"]
            for k, op in enumerate(comm):
                if op.get("tag") != GROUP_TAG:
                    continue
                if op["op"] == "recv":
                    receives += 1
                    continue
                sends += 1
                what = "rank %d: the round's send at section %d, operation %d" % (r, s, k)
                if op.get("nonblocking") is not True or op.get("synchronous") is not True:
                    fail("%s is not marked nonblocking and synchronous: %s" % (what, op))
                after = comm[k + 1] if k + 1 < len(comm) else None
                if after is None or after["op"] != "recv" or after.get("tag") != GROUP_TAG:
                    fail("%s is not followed by its round's receive: %s" % (what, after))
                if op.get("completed_at") != {"section": s, "comm": k + 2}:
                    fail("%s is completed at %s, not right after its round's receive" % (what, op.get("completed_at")))
        if sends == 0:
            fail("rank %d: no round of a collective over a group in the captured iteration" % r)
        if sends != receives:
            fail("rank %d: %d rounds' sends against %d receives" % (r, sends, receives))
    print("ok: %d ranks, every round's send synchronous and completed after its receive" % args.np)


if __name__ == "__main__":
    main()
