#!/usr/bin/env python3
"""One-sided transfers in passive target epochs (docs/interpose.md, "What is
recorded"), with tests/corpus/passive_halo.c under real mpiexec (ctest
drives it; tests/interpose/CMakeLists.txt). The program holds one
MPI_Win_lock_all epoch for its whole run; each step puts its first and last
rows into the neighbours' window, flushes, and meets the others at a
barrier (an allreduce every 20th step). Exits non-zero with a message when
a check fails.

On the automatically captured iteration:
  - each rank's transfers (sends of tag 2147483646) are one to each
    neighbour, of a row's bytes, `nonblocking` and completed at the flush
    (a `completed_at` after them);
  - every transfer has its receive on its target, placed just before one
    of the target's collectives (where the target reads what was put), as
    many receives from each origin as the origin sent there;
  - its results are unchanged and the profile follows
    docs/schemas/profile.schema.json.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import fail, halo_program_profile, profile_check_parser  # noqa: E402

WINDOW_TAG = 2147483646
COLUMNS = 512


def main():
    args = profile_check_parser(__doc__, 40).parse_args()
    profile = halo_program_profile(args, COLUMNS)
    sent = collections.Counter()      # (origin, target) -> transfers
    received = collections.Counter()  # (origin, target) -> receives
    for r, rank in enumerate(profile["ranks"]):
        neighbours = {p for p in (r - 1, r + 1) if 0 <= p < args.np}
        targets = set()
        for s, section in enumerate(rank["sections"]):
            comm = section["comm"]
            for k, op in enumerate(comm):
                if op.get("tag") != WINDOW_TAG:
                    continue
                what = "rank %d: section %d, operation %d" % (r, s, k)
                if op["op"] == "recv":
                    received[(op["peer"], r)] += 1
                    after = comm[k + 1] if k + 1 < len(comm) else None
                    while after is not None and after["op"] == "recv" and after.get("tag") == WINDOW_TAG:
                        k += 1
                        after = comm[k + 1] if k + 1 < len(comm) else None
                    if after is None or after["op"] in ("send", "recv"):
                        fail("%s: a transfer's receive not just before a collective: %s" % (what, after))
                    continue
                sent[(r, op["peer"])] += 1
                targets.add(op["peer"])
                if op["bytes"] != 8 * COLUMNS or op.get("nonblocking") is not True:
                    fail("%s: a transfer that is not a nonblocking send of a row: %s" % (what, op))
                done = op.get("completed_at")
                if done is None or (done["section"], done["comm"]) <= (s, k):
                    fail("%s: a transfer not completed after it was put: %s" % (what, done))
        if targets != neighbours:
            fail("rank %d: transfers to %s, its neighbours are %s" % (r, sorted(targets), sorted(neighbours)))
    if sent != received:
        fail("transfers %s against receives %s" % (dict(sent), dict(received)))
    print("ok: %d ranks, %d transfers, each received before a collective of its target" %
          (args.np, sum(sent.values())))


if __name__ == "__main__":
    main()
