#!/usr/bin/env python3
"""Ranks that captured different steps of a loop whose tags are the step
number pair up (docs/interpose.md, "Which iteration"), with
late_starting_steps.c under real mpiexec (ctest drives it;
tests/interpose/CMakeLists.txt). Exits non-zero with a message when a check
fails.

Each step of the program's periodic ring sends to the right under tag 2 s
and to the left under 2 s + 1; rank 0 alone reduces a diagnostic on a
communicator of its own in the first steps, so its loop, and its captured
step, begin later than its neighbours'. On every rank of the automatically
captured iteration:
  - one receive from each neighbour and one send to each, whose tags are
    two apart and odd for the messages going left;
  - every receive has its send in its peer's iteration, with the same tag
    (the profile fits together, as mheta predict requires of it: the
    captured steps' tags differ, and the receivers' were moved to the
    senders');
  - the output is unchanged and the profile follows
    docs/schemas/profile.schema.json.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import (check, check_receives_matched, exit_if_failed, interposed_profile,  # noqa: E402
                    profile_check_parser, profile_messages)


def main():
    args = profile_check_parser(__doc__, 60).parse_args()
    profile = interposed_profile(args, [args.program, str(args.iterations)])
    ranks = profile["ranks"]
    n = len(ranks)
    for r, rank in enumerate(ranks):
        left, right = (r - 1) % n, (r + 1) % n
        for op in ("send", "recv"):
            messages = profile_messages(rank, op)
            peers = sorted(peer for peer, _ in messages)
            check(peers == sorted([left, right]) and all(count == 1 for count in messages.values()),
                  "rank %d: its iteration's %ss are %s ((peer, tag): count), expected one to rank %d and one "
                  "to rank %d" % (r, op, messages, left, right))
            going_left = [tag for (peer, tag) in messages if peer == (left if op == "send" else right)]
            check(all(tag % 2 == 1 for tag in going_left),
                  "rank %d: the %s going left has tag %s, expected an odd one (2 s + 1)" % (r, op, going_left))
    check_receives_matched(ranks)
    exit_if_failed()
    print("ok: %d ranks, the captured steps' messages pair up" % n)


if __name__ == "__main__":
    main()
