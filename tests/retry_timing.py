#!/usr/bin/env python3
"""Runs a timing check again when, and only when, its figure fell outside its bound.

  retry_timing.py [--attempts N] -- CHECK [ARGS...]

A check whose verdict rests on measured time (an emulation factor, a
prediction against a run, two runs' virtual times) exits with
OUTSIDE_BOUND (3) when the figure it measured is outside its bound, and
with any other non-zero code for everything else: a changed result, a
crash, a missing line, a deadlock caught by its timeout.

On a shared machine one load spike can put one measurement outside any
bound that still means something; what the bounds are there to catch (a
wrong unit, a deadlock, wall time leaking into the virtual clock, the
wrong loop) puts every measurement outside. So a check that exits
OUTSIDE_BOUND is run again, up to N attempts in all, and fails only when
every attempt did; any other failure fails at once. Every attempt's output
is passed on, so a figure outside its bound is never hidden. The strict
figures live in the benchmark scripts and docs/results.md, not here.
"""
import subprocess
import sys

from checks import OUTSIDE_BOUND


def main(argv):
    attempts = 3
    if argv[:1] == ["--attempts"]:
        attempts, argv = int(argv[1]), argv[2:]
    if argv[:1] != ["--"] or len(argv) < 2 or attempts < 1:
        sys.exit("usage: retry_timing.py [--attempts N] -- CHECK [ARGS...]")
    command = argv[1:]
    for attempt in range(1, attempts + 1):
        code = subprocess.call(command)
        if code != OUTSIDE_BOUND:
            if code == 0 and attempt > 1:
                print("retry_timing: within its bound at attempt %d of %d" % (attempt, attempts), flush=True)
            return code
        print("retry_timing: attempt %d of %d measured outside its bound%s" %
              (attempt, attempts, "; running it again" if attempt < attempts else ""), flush=True)
    print("retry_timing: outside its bound in all %d attempts" % attempts, flush=True)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
