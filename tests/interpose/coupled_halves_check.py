#!/usr/bin/env python3
"""Point-to-point messages on an intercommunicator are recorded with the
world rank they reach (docs/interpose.md, "What is recorded"), with
coupled_halves.c under real mpiexec (ctest drives it;
tests/interpose/CMakeLists.txt). Exits non-zero with a message when a check
fails.

The program splits MPI_COMM_WORLD into two halves by rank parity, each a
ring of its own, coupled through an intercommunicator: every step each
rank swaps an 8-byte flux (MPI_Sendrecv, tag 5) and a 32 KiB boundary
block (MPI_Isend/MPI_Irecv, tag 6) with the rank of the same number in the
other half, a rank of the intercommunicator's remote group, and every
10th step an MPI_Allreduce on the intercommunicator. On every rank
of the automatically captured iteration:
  - the coupling's sends and receives are there, one of each tag a step
    (the iteration holds the 10 steps between the collectives on the
    intercommunicator), with the world rank of its partner (2 r + 1 -
    colour for half rank r) and their sizes;
  - every receive has its send in its peer's iteration;
  - the MPI_Allreduce on the intercommunicator every 10th step, which is
    not recorded, is said so once, on a group's rank 0;
  - the output is unchanged and the profile follows
    docs/schemas/profile.schema.json.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, check_receives_matched, exit_if_failed, interposed_profile, profile_check_parser  # noqa: E402

COUPLING = {5: 8, 6: 4096 * 8}  # coupled_halves.c's tags and their bytes


def partner(world_rank):
    """The world rank of the same half rank in the other half (the halves
    are the even and the odd world ranks, in world order)."""
    colour = world_rank % 2
    return 2 * (world_rank // 2) + 1 - colour


def main():
    args = profile_check_parser(__doc__, 60).parse_args()
    if args.np % 2:
        sys.exit("FAIL: coupled_halves needs an even number of ranks, not %d" % args.np)
    profile, stderr = interposed_profile(args, [args.program, str(args.iterations)], with_stderr=True)
    ranks = profile["ranks"]
    said = [line for line in stderr.splitlines() if "MPI_Allreduce on an intercommunicator is not recorded" in line]
    check(1 <= len(said) <= 2, "the run says %d time(s) that the intercommunicator's MPI_Allreduce is not recorded, "
          "expected once on each group's rank 0 at most, at least once:\n%s" % (len(said), stderr))
    for r, rank in enumerate(ranks):
        other = partner(r)
        for op in ("send", "recv"):
            coupled = sorted((m["peer"], m["tag"], m["bytes"]) for section in rank["sections"]
                             for m in section["comm"] if m["op"] == op and m["tag"] in COUPLING)
            # The iteration is the 10 steps between the intercommunicator's
            # collectives (detection sees them), or one step.
            steps = len(coupled) // len(COUPLING)
            expected = sorted((other, tag, size) for tag, size in COUPLING.items() for _ in range(steps))
            check(steps in (1, 10) and coupled == expected,
                  "rank %d: the coupling's %ss in its iteration are %s (peer, tag, bytes), expected one of each tag "
                  "to rank %d a step, for 1 or 10 steps" % (r, op, coupled, other))
    check_receives_matched(ranks)
    exit_if_failed()
    print("ok: %d ranks, each rank's coupling messages recorded with its partner in the other half" % args.np)


if __name__ == "__main__":
    main()
