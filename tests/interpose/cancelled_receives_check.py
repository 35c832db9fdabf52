#!/usr/bin/env python3
"""A cancelled receive is no message (docs/interpose.md, "What is
recorded"), with cancelled_receives.c under real mpiexec (ctest drives it;
tests/interpose/CMakeLists.txt). Exits non-zero with a message when a check
fails.

Every step of the program's ring exchange posts a receive for a control
message nobody sends and cancels it (completed by MPI_Wait, MPI_Test or
MPI_Waitall). MPICH leaves another message's source and tag in the
cancelled receive's status. On every rank of the automatically captured
iteration:
  - the receives are the ring's, from the left neighbour with its tag, one
    each (none of the control tag, none from any other rank);
  - every receive has its send in the neighbour's iteration (the profile
    fits together, as mheta predict requires);
  - the output (what was received, and how many receives were cancelled)
    is unchanged, and the profile follows docs/schemas/profile.schema.json.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import (check, check_receives_matched, exit_if_failed, interposed_profile,  # noqa: E402
                    profile_check_parser, profile_messages)

DATA = 1  # cancelled_receives.c's ring tag


def main():
    args = profile_check_parser(__doc__, 60).parse_args()
    profile = interposed_profile(args, [args.program, str(args.iterations)])
    ranks = profile["ranks"]
    for r, rank in enumerate(ranks):
        left = (r + args.np - 1) % args.np
        received = profile_messages(rank, "recv")
        check(received == {(left, DATA): 1},
              "rank %d receives %s in its iteration, expected one message of tag %d from rank %d alone (a "
              "cancelled receive recorded as a message?)" % (r, received, DATA, left))
    check_receives_matched(ranks)
    exit_if_failed()
    print("ok: %d ranks, the cancelled receives left out, each ring receive matched by its send" % args.np)


if __name__ == "__main__":
    main()
