#!/usr/bin/env python3
"""tests/retry_timing.py against a check that counts its attempts in a file:
a figure outside its bound twice, then within, passes at the third attempt;
outside its bound every time fails after the third; any other failure fails
at the first, never run again."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from checks import OUTSIDE_BOUND, check, exit_if_failed  # noqa: E402

# The check: exits with the code its attempt is given on the command line
# (the last one from then on), counting its attempts in a file.
CHECK = """
import sys
path, codes = sys.argv[1], [int(c) for c in sys.argv[2:]]
with open(path, "a") as f:
    f.write("x")
with open(path) as f:
    attempt = len(f.read())
sys.exit(codes[min(attempt, len(codes)) - 1])
"""


def attempts_of(codes):
    """Runs the check under retry_timing.py; its exit and the attempts made."""
    with tempfile.TemporaryDirectory() as tmp:
        counter = os.path.join(tmp, "attempts")
        result = subprocess.run([sys.executable, os.path.join(HERE, "retry_timing.py"), "--", sys.executable, "-c",
                                 CHECK, counter] + [str(c) for c in codes], capture_output=True, text=True)
        with open(counter) as f:
            return result.returncode, len(f.read()), result.stdout


def expect(codes, returncode, attempts):
    got = attempts_of(codes)
    check(got[:2] == (returncode, attempts), "a check exiting %s: exit %d after %d attempts, expected exit %d after %d\n%s"
          % (codes, got[0], got[1], returncode, attempts, got[2]))


expect([0], 0, 1)
expect([OUTSIDE_BOUND, OUTSIDE_BOUND, 0], 0, 3)
expect([OUTSIDE_BOUND], 1, 3)
expect([1], 1, 1)
expect([OUTSIDE_BOUND, 1], 1, 2)
expect([-6 & 0xFF], -6 & 0xFF, 1)
exit_if_failed()
print("ok")
