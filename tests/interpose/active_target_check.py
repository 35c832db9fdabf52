#!/usr/bin/env python3
"""One-sided transfers in general active target epochs (docs/interpose.md,
"What is recorded"), with tests/corpus/pscw_wave.c under real mpiexec
(ctest drives it; tests/interpose/CMakeLists.txt). Each step every rank
posts to its neighbours, starts an access epoch to them, puts a row into
each, completes and waits. Exits non-zero with a message when a check
fails.

On the automatically captured iteration (tag 2147483644, the epochs'):
  - each rank's post sends each neighbour a notice (0 bytes,
    `nonblocking`; completed at the rank's wait, which may fall in the
    next period, where the rotation that lines the periods up puts the
    post last);
  - each rank's complete sends each neighbour one transfer of a row's
    bytes (`nonblocking`, completed after it), and the operation just
    before each transfer is the receive of that same neighbour's notice:
    a transfer waits for its own target's post, not for every target's;
  - each rank receives from each neighbour its notice and its transfer,
    as many receives as the neighbour sent it;
  - its results are unchanged and the profile follows
    docs/schemas/profile.schema.json.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import fail, halo_program_profile, profile_check_parser  # noqa: E402

EPOCH_TAG = 2147483644
COLUMNS = 512


def main():
    args = profile_check_parser(__doc__, 40).parse_args()
    profile = halo_program_profile(args, COLUMNS)
    sent = collections.Counter()      # (origin, target) -> messages of the epochs
    received = collections.Counter()  # (origin, target) -> their receives
    for r, rank in enumerate(profile["ranks"]):
        neighbours = {p for p in (r - 1, r + 1) if 0 <= p < args.np}
        # The iteration's operations in order, each with its place.
        ops = [((s, k), op) for s, section in enumerate(rank["sections"]) for k, op in enumerate(section["comm"])]
        notified, transferred = set(), set()
        for i, ((s, k), op) in enumerate(ops):
            if op.get("tag") != EPOCH_TAG:
                continue
            what = "rank %d: section %d, operation %d" % (r, s, k)
            if op["op"] == "recv":
                received[(op["peer"], r)] += 1
                continue
            sent[(r, op["peer"])] += 1
            if op.get("nonblocking") is not True:
                fail("%s: an epoch's message that is not a nonblocking send: %s" % (what, op))
            if op["bytes"] == 0:
                notified.add(op["peer"])
                continue
            transferred.add(op["peer"])
            if op["bytes"] != 8 * COLUMNS:
                fail("%s: a transfer of %d bytes, a row is %d" % (what, op["bytes"], 8 * COLUMNS))
            done = op.get("completed_at")
            if done is None or (done["section"], done["comm"]) <= (s, k):
                fail("%s: a transfer not completed after it was sent: %s" % (what, done))
            before = ops[i - 1][1]
            if (before["op"], before.get("tag"), before["peer"]) != ("recv", EPOCH_TAG, op["peer"]):
                fail("%s: the transfer to rank %d is not just after the receive of its notice, but after %s" %
                     (what, op["peer"], before))
        if notified != neighbours or transferred != neighbours:
            fail("rank %d: notices to %s and transfers to %s, its neighbours are %s" %
                 (r, sorted(notified), sorted(transferred), sorted(neighbours)))
    if sent != received:
        fail("messages of the epochs %s against receives %s" % (dict(sent), dict(received)))
    print("ok: %d ranks, %d messages of the epochs, each transfer just after its target's notice" %
          (args.np, sum(sent.values())))


if __name__ == "__main__":
    main()
