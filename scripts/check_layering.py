#!/usr/bin/env python3
"""Checks that no file includes an area on a higher floor, nor a sibling
area on its own floor (docs/architecture.md). Exit 0 when the layering
holds; 1 with one line per offending include otherwise.

  check_layering.py [ROOT]     check the tree at ROOT (default: the repository)
"""
import pathlib
import re
import sys

# Floor of each area: an area may include its own files and those of areas
# on lower floors only. include/ holds the project's public conventions
# (<mheta/...>: marks, hints, the interposer's contract, environment
# variables, exit codes), on the ground floor with nothing below it.
FLOORS = {
    "include": 0,
    "model": 1,
    "search": 2,
    "io": 2,
    "microbench": 2,
    "interpose": 2,
    "advisor": 3,
    "apps": 4,
    "cli": 4,
}
# Tests, benchmarks and examples may include any area.
UNCHECKED = {"tests", "bench", "examples", "build", "docs", "scripts"}
SOURCES = {".c", ".cc", ".cpp", ".h", ".hpp", ".def", ".f90"}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')


def area_of(include):
    """The area an include names, or None for a system or third-party header."""
    first = include.split("/", 1)[0]
    if first == "mheta":  # <mheta/marks.h>, found through include/
        return "include"
    return first if first in FLOORS and "/" in include else None


def problems(root):
    found = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in SOURCES or not path.is_file():
            continue
        relative = path.relative_to(root)
        area = relative.parts[0]
        if area in UNCHECKED or area not in FLOORS or len(relative.parts) < 2:
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = area_of(match.group(1))
            if target is None or target == area:
                continue
            if FLOORS[target] > FLOORS[area]:
                why = "a higher floor"
            elif FLOORS[target] == FLOORS[area]:
                why = "a sibling on the same floor"
            else:
                continue
            found.append("%s:%d: %s (floor %d) includes %s: %s (floor %d) is %s" %
                         (relative, number, area, FLOORS[area], match.group(1), target, FLOORS[target], why))
    return found


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    found = problems(root)
    for line in found:
        print(line)
    if found:
        print("layering: %d include(s) against the floors of docs/architecture.md" % len(found))
        return 1
    print("layering: every include goes down a floor (%d areas)" % len(FLOORS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
