#!/usr/bin/env python3
"""MPI-4's MPI_Isendrecv and MPI_Isendrecv_replace are recorded as the two
messages they are (docs/interpose.md, "What is recorded"), with
isendrecv_halo.c under real mpiexec (ctest drives it;
tests/interpose/CMakeLists.txt). Exits non-zero with a message when a check
fails, 77 (skipped) on an MPI without MPI_Isendrecv.

The program's halos go up by MPI_Isendrecv (tag 1, one row of n doubles) and
down by MPI_Isendrecv_replace (tag 2, two rows), the edge ranks sending to
and receiving from MPI_PROC_NULL; each step's change is reduced with
MPI_Allreduce, so that an interposer that does not record Isendrecv still
captures an iteration (of the allreduce alone). On every rank of the
automatically captured iteration:
  - the sends are exactly one up (but from rank 0) and one down (but from
    the last rank), with their peers, tags and bytes; none to MPI_PROC_NULL;
  - the receives are exactly one from below (but on the last rank) and one
    from above (but on rank 0), with their sources, tags and bytes;
  - each send is non-blocking and completed in the iteration, and the
    receives are recorded where the requests complete, after the interior's
    compute: no section holds both a send and a receive;
  - the output is unchanged and the profile follows
    docs/schemas/profile.schema.json.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, exit_if_failed, interposed_profile, profile_check_parser  # noqa: E402

UP, DOWN = 1, 2  # isendrecv_halo.c's tags
SKIPPED = 77


def expected_messages(r, np, n):
    """Rank r's sends and receives of one iteration, (peer, tag, bytes) each, sorted."""
    row = 8 * n
    sends, receives = [], []
    if r > 0:
        sends.append((r - 1, UP, row))
        receives.append((r - 1, DOWN, 2 * row))
    if r + 1 < np:
        sends.append((r + 1, DOWN, 2 * row))
        receives.append((r + 1, UP, row))
    return sorted(sends), sorted(receives)


def check_rank(r, rank, np, n):
    sections = rank["sections"]
    sends = [op for section in sections for op in section["comm"] if op["op"] == "send"]
    receives = [op for section in sections for op in section["comm"] if op["op"] == "recv"]
    want_sends, want_receives = expected_messages(r, np, n)
    got_sends = sorted((op["peer"], op["tag"], op["bytes"]) for op in sends)
    got_receives = sorted((op["peer"], op["tag"], op["bytes"]) for op in receives)
    check(got_sends == want_sends, "rank %d: sends (peer, tag, bytes) %s, expected %s" % (r, got_sends, want_sends))
    check(got_receives == want_receives,
          "rank %d: receives (peer, tag, bytes) %s, expected %s" % (r, got_receives, want_receives))
    for op in sends:
        check(op.get("nonblocking") is True and "completed_at" in op,
              "rank %d: the send %s is not a non-blocking send completed in the iteration" % (r, op))
    for s, section in enumerate(sections):
        kinds = {op["op"] for op in section["comm"]}
        compute = sum(stage["compute_s"] for stage in section["stages"])
        where = "rank %d, section %d (comm %s, compute %g s)" % (
            r, s, [(op["op"], op.get("peer"), op.get("tag")) for op in section["comm"]], compute)
        check(not {"send", "recv"} <= kinds,
              "%s: a send and a receive in one section; the receive is not recorded where the request completes, "
              "after the interior's compute" % where)
        if "recv" in kinds:
            check(compute > 0, "%s: a receive with no compute (the interior's) before it" % where)


def main():
    parser = profile_check_parser(__doc__, 200)
    parser.add_argument("--n", type=int, default=1024, help="doubles a row")
    args = parser.parse_args()
    program = [args.program, str(args.iterations), str(args.n)]
    if subprocess.run([args.mpiexec, "-n", "1"] + program[:1] + ["0", "8"], capture_output=True).returncode == SKIPPED:
        print("skipped: this MPI has no MPI_Isendrecv")
        sys.exit(SKIPPED)
    profile = interposed_profile(args, program)
    for r, rank in enumerate(profile["ranks"]):
        check_rank(r, rank, args.np, args.n)
    exit_if_failed()
    print("ok: %d ranks, each Isendrecv(_replace) recorded as its send where it is posted and its receive where it "
          "completes" % args.np)


if __name__ == "__main__":
    main()
