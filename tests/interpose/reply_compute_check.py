#!/usr/bin/env python3
"""A ping-pong's compute stays where the program does it (docs/interpose.md,
"What is recorded"), with the corpus's pingpong under real mpiexec (ctest
drives it; tests/interpose/CMakeLists.txt). Exits non-zero with a message
when a check fails.

Rank 0 computes a step, sends 256 KiB to rank 1 and receives the reply;
rank 1 computes a step, receives, adds one number and sends the reply at
once. Between its receive and its reply rank 1 computes next to nothing,
and so does rank 0 between its send and its receive. In the automatically
captured iteration, on the wall clock:
  - the section that ends in rank 1's reply holds at most a tenth of its
    compute: the step computed after the reply is not moved ahead of it
    (which would hold the reply back by a whole step);
  - the section that ends in rank 0's receive of the reply holds at most a
    tenth of its compute: what the interposer does after a call returns
    (recording the message, feeding the detector) is not the program's
    compute;
  - the output is unchanged, and the profile follows the schema.
"""
import json
import os
import sys
import tempfile


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, exit_if_failed, profile_check_parser, run_or_exit  # noqa: E402

BYTES = 262144
WORK = 20000  # pingpong's floating-point updates per step (about 15 us here)
REQUEST, REPLY = 7, 8  # pingpong's tags


def compute_of(section):
    return sum(stage["compute_s"] for stage in section["stages"])


def check_section_ending_in(rank, r, op, tag):
    sections = rank["sections"]
    total = sum(compute_of(s) for s in sections)
    holding = [s for s in sections if any(c["op"] == op and c.get("tag") == tag for c in s["comm"])]
    layout = [([round(st["compute_s"] * 1e6, 2) for st in s["stages"]], [(c["op"], c.get("tag")) for c in s["comm"]])
              for s in sections]
    check(len(holding) == 1, "rank %d: %d sections with its %s of tag %d, expected 1: %s" %
          (r, len(holding), op, tag, layout))
    if len(holding) == 1:
        share = compute_of(holding[0]) / total if total > 0 else 1.0
        check(share <= 0.1, "rank %d: the section ending in its %s of tag %d holds %.0f%% of the iteration's "
              "compute, where the program computes next to nothing (sections as [compute in us], [ops]: %s)" %
              (r, op, tag, 100 * share, layout))


def results(stdout):
    """The program's results: its output but the line of its own timing."""
    return [line for line in stdout.splitlines() if not line.startswith("loop:")]


def interposed_profile(args, program):
    """The profile of `program` under the interposer, its results checked
    against a run without it (its timing line differs from run to run)."""
    import jsonschema  # only the drivers that check profiles need it

    plain = run_or_exit([args.mpiexec, "-n", str(args.np)] + program)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "profile.json")
        env = dict(os.environ, MHETA_PROFILE=path)
        interposed = run_or_exit([args.mpiexec, "-n", str(args.np), "-genv", "LD_PRELOAD", args.lib] + program,
                                 env=env)
        if results(interposed.stdout) != results(plain.stdout):
            sys.exit("FAIL: results changed under the interposer:\n%s---\n%s" % (plain.stdout, interposed.stdout))
        if not os.path.exists(path):
            sys.exit("FAIL: no profile written:\n" + interposed.stderr)
        with open(path) as f:
            profile = json.load(f)
    with open(args.schema) as f:
        errors = sorted(jsonschema.Draft202012Validator(json.load(f)).iter_errors(profile), key=str)
    if errors:
        sys.exit("FAIL: the profile does not follow the schema: %s" % errors[0].message)
    return profile


def main():
    args = profile_check_parser(__doc__, 600).parse_args()
    profile = interposed_profile(args, [args.program, str(BYTES), str(args.iterations), str(WORK)])
    if len(profile["ranks"]) != 2:
        sys.exit("FAIL: the profile has %d ranks, expected 2" % len(profile["ranks"]))
    check_section_ending_in(profile["ranks"][1], 1, "send", REPLY)
    check_section_ending_in(profile["ranks"][0], 0, "recv", REPLY)
    exit_if_failed()
    print("ok: the reply's section and the receive's hold no step's compute and no interposer bookkeeping")


if __name__ == "__main__":
    main()
