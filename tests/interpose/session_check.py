#!/usr/bin/env python3
"""A program that starts MPI with MPI_Session_init and never calls MPI_Init
(tests/interpose/session_program.c), under the interposer with real
mpiexec (ctest drives it; tests/interpose/CMakeLists.txt): its results
unchanged, no profile written, and one line, from one process, saying that
the interposer follows nothing of it and why (docs/interpose.md, "Limits").
Exits non-zero with a message when a check fails."""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import fail, run_interposed_unchanged  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    for name in ("mpiexec", "lib", "program"):
        parser.add_argument("--" + name, required=True)
    parser.add_argument("--np", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        profile = os.path.join(tmp, "profile.json")
        interposed = run_interposed_unchanged(args.mpiexec, args.np, args.lib, [args.program, "40"],
                                              dict(os.environ, MHETA_PROFILE=profile))
        if os.path.exists(profile):
            fail("a profile was written for a program the interposer cannot follow")
    said = [line for line in interposed.stderr.splitlines() if "MPI_Session_init" in line]
    if len(said) != 1:
        fail("expected one line about MPI_Session_init, got %d:\n%s" % (len(said), interposed.stderr))
    print("ok: results unchanged, no profile, said once: %s" % said[0])


if __name__ == "__main__":
    main()
