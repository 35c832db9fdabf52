#!/usr/bin/env python3
"""A non-blocking collective over some but not all ranks (docs/interpose.md,
"collectives over some but not all ranks"), with
tests/interpose/group_iallreduce.c under real mpiexec (ctest drives it;
tests/interpose/CMakeLists.txt): rows of two ranks, each iteration an
MPI_Iallreduce on the row (or a persistent one's MPI_Start), compute,
MPI_Wait, an MPI_Allreduce over all. Exits non-zero with a message when a
check fails.

On every rank of the automatically captured iteration:
  - its row's rounds (messages of tag 2147483645): each send `nonblocking`,
    not `synchronous`, and completed in a later section than its own (the
    compute between the post and the wait is the overlap);
  - the rounds' receives just where the sends complete (the wait), as
    many as the sends, from the row's other member;
  - its results are unchanged and the profile follows
    docs/schemas/profile.schema.json.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import fail, interposed_profile, profile_check_parser, result_lines  # noqa: E402

GROUP_TAG = 2147483645


def main():
    parser = profile_check_parser(__doc__, 60)
    parser.add_argument("--persistent", action="store_true", help="the persistent MPI_Allreduce_init form")
    args = parser.parse_args()
    program = [args.program, str(args.iterations)] + (["persistent"] if args.persistent else [])
    profile = interposed_profile(args, program, compared=result_lines)
    for r, rank in enumerate(profile["ranks"]):
        partner = r ^ 1 if (r ^ 1) < args.np else None
        sends, receives = [], []
        for s, section in enumerate(rank["sections"]):
            for k, op in enumerate(section["comm"]):
                if op.get("tag") == GROUP_TAG:
                    (receives if op["op"] == "recv" else sends).append(((s, k), op))
        if partner is None:
            if sends or receives:
                fail("rank %d, alone in its row, has rounds: %s %s" % (r, sends, receives))
            continue
        if not sends:
            fail("rank %d: no round of its row's reduction in the captured iteration" % r)
        for (s, k), op in sends:
            what = "rank %d: the round's send at section %d, operation %d" % (r, s, k)
            if op.get("nonblocking") is not True or op.get("synchronous"):
                fail("%s is not a nonblocking, not synchronous send: %s" % (what, op))
            done = op.get("completed_at")
            if done is None or done["section"] <= s:
                fail("%s is completed at %s, not after the compute that follows its post" % (what, done))
            waited = rank["sections"][done["section"]]["comm"][done["comm"]:]
            if not waited or waited[0]["op"] != "recv" or waited[0].get("tag") != GROUP_TAG:
                fail("%s: its round's receive is not where it completes: %s" % (what, waited[:1]))
        if len(receives) != len(sends) or any(op["peer"] != partner for _, op in sends + receives):
            fail("rank %d: rounds %s against receives %s, its row's other member is %d" %
                 (r, sends, receives, partner))
    print("ok: %d ranks, every round posted without waiting and received where the collective completes" % args.np)


if __name__ == "__main__":
    main()
