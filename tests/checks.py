"""Soft assertions shared by the Python test drivers: a failed check is
printed and remembered, the driver goes on to check the rest, and
`exit_if_failed()` ends it with status 1 so ctest reports every failure of a
run at once, not only the first."""
import sys

FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL: " + message, file=sys.stderr)
    return condition


def exit_if_failed():
    if FAILURES:
        sys.exit(1)
