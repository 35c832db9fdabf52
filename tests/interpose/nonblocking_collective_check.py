#!/usr/bin/env python3
"""A non-blocking collective over every rank is recorded where it is posted
and completed where it is waited for (docs/interpose.md, "What is
recorded"), with tests/corpus/pipelined_cg.c under real mpiexec (ctest
drives it; tests/interpose/CMakeLists.txt). Each of its iterations posts an
MPI_Iallreduce of two doubles, exchanges halos and applies the operator,
then waits. Exits non-zero with a message when a check fails.

On every rank of the automatically captured iteration:
  - there is one allreduce, of 16 bytes, marked `nonblocking`, with a
    `completed_at` after it;
  - between the post and the completion are the halo messages and the
    operator's compute (more than nothing), which the model lets run beside
    the reduction (docs/model.md, "Non-blocking collectives");
  - its results are unchanged and the profile follows
    docs/schemas/profile.schema.json.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import fail, interposed_profile, profile_check_parser, result_lines  # noqa: E402



def main():
    args = profile_check_parser(__doc__, 60).parse_args()
    profile = interposed_profile(args, [args.program, "96", str(args.iterations)],
                                 compared=result_lines)
    for r, rank in enumerate(profile["ranks"]):
        sections = rank["sections"]
        posted = [(s, k, op) for s, section in enumerate(sections) for k, op in enumerate(section["comm"])
                  if op["op"] == "allreduce"]
        if len(posted) != 1:
            fail("rank %d: %d allreduces in the captured iteration, not one: %s" % (r, len(posted), posted))
        s, k, op = posted[0]
        what = "rank %d: the allreduce at section %d, operation %d" % (r, s, k)
        if op["bytes"] != 16 or op.get("nonblocking") is not True:
            fail("%s is not a nonblocking one of 16 bytes: %s" % (what, op))
        done = op.get("completed_at")
        if done is None or (done["section"], done["comm"]) <= (s, k):
            fail("%s is not completed after it is posted: %s" % (what, done))
        between = [c for section in sections[s:done["section"] + 1] for c in section["comm"]]
        between = between[k + 1:len(between) - (len(sections[done["section"]]["comm"]) - done["comm"])]
        if not any(c["op"] in ("send", "recv") for c in between):
            fail("%s: no halo message between its post and its completion: %s" % (what, between))
        overlapped = sum(stage["compute_s"] for section in sections[s + 1:done["section"] + 1]
                         for stage in section["stages"])
        if overlapped <= 0:
            fail("%s: no compute between its post and its completion" % what)
    print("ok: %d ranks, the allreduce posted, completed after the halos and %s compute" %
          (args.np, "the operator's"))


if __name__ == "__main__":
    main()
