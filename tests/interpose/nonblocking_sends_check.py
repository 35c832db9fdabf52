#!/usr/bin/env python3
"""Which captured sends were non-blocking, and where each was completed
(docs/interpose.md, "Non-blocking sends"), with nonblocking_sends.c under
real mpiexec (ctest drives it; tests/interpose/CMakeLists.txt). Exits
non-zero with a message when a check fails.

On every rank of the automatically captured iteration:
  - the MPI_Isend of tag 1 is `nonblocking`, and its `completed_at` (the
    MPI_Waitall) is after it, with the interior's compute between the two
    (the completion is in a later section than the post, and that section
    has compute before it);
  - the persistent send of tag 3 (MPI_Startall, completed by polling
    MPI_Testall) likewise;
  - the blocking MPI_Send of tag 2 is neither;
  - the output is unchanged and the profile follows
    docs/schemas/profile.schema.json.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import fail, interposed_profile, profile_check_parser  # noqa: E402



def sends_of(rank):
    """Each send of the rank's iteration: (section, comm index, op)."""
    return [(s, k, op) for s, section in enumerate(rank["sections"]) for k, op in enumerate(section["comm"])
            if op["op"] == "send"]


def check_nonblocking(r, rank, s, k, op):
    what = "rank %d: the send of tag %d (section %d, operation %d)" % (r, op["tag"], s, k)
    if op.get("nonblocking") is not True:
        fail("%s is not marked nonblocking: %s" % (what, op))
    at = op.get("completed_at")
    if at is None:
        fail("%s has no completed_at, though the iteration completes it" % what)
    section = at["section"]
    if section <= s:
        fail("%s is completed at %s, not after the compute that follows its post" % (what, at))
    if not section < len(rank["sections"]) or at["comm"] > len(rank["sections"][section]["comm"]):
        fail("%s is completed at %s, a place the rank's iteration does not have" % (what, at))
    compute = sum(stage["compute_s"] for stage in rank["sections"][section]["stages"])
    if compute <= 0:
        fail("%s is completed at %s, after no compute of its own section" % (what, at))


def main():
    args = profile_check_parser(__doc__, 60).parse_args()
    profile = interposed_profile(args, [args.program, str(args.iterations)])
    for r, rank in enumerate(profile["ranks"]):
        seen = {}
        for s, k, op in sends_of(rank):
            seen[op["tag"]] = seen.get(op["tag"], 0) + 1
            if op["tag"] in (1, 3):
                check_nonblocking(r, rank, s, k, op)
            elif "nonblocking" in op or "completed_at" in op:
                fail("rank %d: the blocking MPI_Send of tag %d is marked: %s" % (r, op["tag"], op))
        expected = {1: 1, 3: 1}
        if r > 0:
            expected[2] = 1
        if seen != expected:
            fail("rank %d: sends by tag %s in the captured iteration, expected %s" % (r, seen, expected))
    print("ok: %d ranks, each Isend and persistent send marked and completed after its compute, each Send not"
          % args.np)


if __name__ == "__main__":
    main()
