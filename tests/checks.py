"""Soft assertions shared by the Python test drivers: a failed check is
printed and remembered, the driver goes on to check the rest, and
`exit_if_failed()` ends it with status 1 so ctest reports every failure of a
run at once, not only the first; with OUTSIDE_BOUND when the only failures
are measured figures outside their bounds (check_figure)."""
import subprocess
import sys

FAILURES = []
OUTSIDE = []

# The exit of a figure measured outside its bound (an emulation factor, a
# prediction against a run, two runs' times): tests/retry_timing.py runs
# such a check again, and fails anything else at once.
OUTSIDE_BOUND = 3


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


def run_interposed_unchanged(mpiexec, np, lib, program, env):
    """Runs `program` (its argv) on `np` ranks without the interposer, then
    with it (LD_PRELOAD=`lib`, environment `env`), and ends the driver when
    the output changed; the interposed run."""
    plain = run_or_exit([mpiexec, "-n", str(np)] + program)
    interposed = run_or_exit([mpiexec, "-n", str(np), "-genv", "LD_PRELOAD", lib] + program, env=env)
    if interposed.stdout != plain.stdout:
        sys.exit("FAIL: output changed under the interposer:\n--- plain\n%s--- interposed\n%s" %
                 (plain.stdout, interposed.stdout))
    return interposed
