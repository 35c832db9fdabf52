"""Soft assertions shared by the Python test drivers: a failed check is
printed and remembered, the driver goes on to check the rest, and
`exit_if_failed()` ends it with status 1 so ctest reports every failure of a
run at once, not only the first; with OUTSIDE_BOUND when the only failures
are measured figures outside their bounds (check_figure)."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

FAILURES = []
OUTSIDE = []

# The exit of a figure measured outside its bound (an emulation factor, a
# prediction against a run, two runs' times): tests/retry_timing.py runs
# such a check again, and fails anything else at once.
OUTSIDE_BOUND = 3


def fail(message):
    """Ends the driver at once with this failure (a check whose later checks
    would mean nothing after it)."""
    sys.exit("FAIL: " + message)


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL: " + message, file=sys.stderr)
    return condition


def check_figure(condition, message):
    """check() of a measured figure against its bound."""
    if not condition:
        OUTSIDE.append(message)
        print("FAIL (outside the bound): " + message, file=sys.stderr)
    return condition


def outside_bound(message):
    """Ends the driver: a measured figure is outside its bound."""
    print("FAIL (outside the bound): " + message, file=sys.stderr)
    sys.exit(OUTSIDE_BOUND)


def exit_if_failed():
    if FAILURES:
        sys.exit(1)
    if OUTSIDE:
        sys.exit(OUTSIDE_BOUND)


def run_or_exit(argv, **kwargs):
    """Runs argv (stdout and stderr captured as text); a non-zero exit ends
    the driver at once with both, since nothing after it can be checked."""
    result = subprocess.run(argv, capture_output=True, text=True, timeout=600, **kwargs)
    if result.returncode != 0:
        sys.exit("FAIL: %s exited %d\n%s\n%s" % (" ".join(argv), result.returncode, result.stdout, result.stderr))
    return result


def run_interposed_unchanged(mpiexec, np, lib, program, env, compared=None):
    """Runs `program` (its argv) on `np` ranks without the interposer, then
    with it (LD_PRELOAD=`lib`, environment `env`), and ends the driver when
    the output changed (only its lines `compared` keeps, when given: a
    program that prints its own timings); the interposed run."""
    plain = run_or_exit([mpiexec, "-n", str(np)] + program)
    interposed = run_or_exit([mpiexec, "-n", str(np), "-genv", "LD_PRELOAD", lib] + program, env=env)

    def kept(output):
        return output if compared is None else [line for line in output.splitlines() if compared(line)]

    if kept(interposed.stdout) != kept(plain.stdout):
        sys.exit("FAIL: output changed under the interposer:\n--- plain\n%s--- interposed\n%s" %
                 (plain.stdout, interposed.stdout))
    return interposed


def profile_check_parser(description, iterations):
    """The options of a driver that runs one program under the interposer and
    checks the profile it writes (the program takes its iteration count
    first)."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--lib", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--schema", required=True)
    parser.add_argument("--np", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=iterations)
    parser.add_argument("--emulate", help="MHETA_EMULATE for the interposed run (the virtual clock's path)")
    return parser


def result_lines(line):
    """The lines a program prints that must not change under the interposer
    (its results, not the timing of its loop)."""
    return line.startswith("result")


def interposed_profile(args, program, compared=None, with_stderr=False):
    """Runs `program` as run_interposed_unchanged does, with the profile
    written to a scratch file (and args.emulate, if given), and returns the
    profile (with_stderr: and the run's stderr); ends the driver when none
    was written, when it does not follow args.schema, or when it has not
    args.np ranks."""
    import jsonschema  # only the drivers that check profiles need it

    with open(args.schema) as f:
        schema = jsonschema.Draft202012Validator(json.load(f))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "profile.json")
        env = dict(os.environ, MHETA_PROFILE=path)
        if args.emulate:
            env["MHETA_EMULATE"] = args.emulate
        interposed = run_interposed_unchanged(args.mpiexec, args.np, args.lib, program, env, compared)
        if not os.path.exists(path):
            sys.exit("FAIL: no profile written:\n" + interposed.stderr)
        with open(path) as f:
            profile = json.load(f)
    errors = sorted(schema.iter_errors(profile), key=str)
    if errors:
        sys.exit("FAIL: the profile does not follow the schema: %s" % errors[0].message)
    if len(profile["ranks"]) != args.np:
        sys.exit("FAIL: the profile has %d ranks, expected %d" % (len(profile["ranks"]), args.np))
    return (profile, interposed.stderr) if with_stderr else profile


def halo_program_profile(args, columns):
    """The profile of a corpus program that takes `rows columns steps` (a
    halo exchange on 96 rows of `columns`, args.iterations steps), its
    results unchanged under the interposer."""
    return interposed_profile(args, [args.program, "96", str(columns), str(args.iterations)], compared=result_lines)


def profile_messages(rank, op):
    """(peer, tag) -> count of the messages of kind op ("send" or "recv") in
    one rank's captured iteration."""
    counts = {}
    for section in rank["sections"]:
        for m in section["comm"]:
            if m["op"] == op:
                counts[(m["peer"], m["tag"])] = counts.get((m["peer"], m["tag"]), 0) + 1
    return counts


def check_receives_matched(ranks):
    """Every receive of every rank's iteration has its send, in the same
    number, in its peer's (the profile fits together, as mheta predict
    requires of it)."""
    for r, rank in enumerate(ranks):
        for (peer, tag), count in sorted(profile_messages(rank, "recv").items()):
            sent = profile_messages(ranks[peer], "send").get((r, tag), 0) if 0 <= peer < len(ranks) else 0
            check(sent == count, "rank %d receives %d message(s) of tag %d from rank %d, which sends %d" %
                  (r, count, tag, peer, sent))
