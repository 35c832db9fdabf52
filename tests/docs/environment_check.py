#!/usr/bin/env python3
"""<mheta/environment.hpp> names every MHETA_* environment variable: each
one it names is documented under docs/, and every MHETA_* variable the
sources spell out in quotes (getenv, messages) is one it names.

  environment_check.py ROOT
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
header = (root / "include" / "mheta" / "environment.hpp").read_text()
named = set(re.findall(r'inline constexpr const char\* k\w+ = "(MHETA_[A-Z_]+)"', header))
listed = set(re.findall(r'\{(k\w+),', header))
if len(named) < 10:
    print("FAIL: expected the variables in include/mheta/environment.hpp, found %r" % sorted(named))
    sys.exit(1)
problems = []
if len(listed) != len(named):
    problems.append("kAll lists %d variables, the header names %d" % (len(listed), len(named)))
docs = "\n".join(p.read_text() for p in (root / "docs").glob("*.md"))
for name in sorted(named):
    if name not in docs:
        problems.append("%s is not documented under docs/" % name)
for area in ("model", "search", "io", "microbench", "interpose", "advisor", "apps", "cli"):
    for path in sorted((root / area).rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".h", ".c") or not path.is_file():
            continue
        for name in re.findall(r'"(MHETA_[A-Z_]+)', path.read_text()):
            if name not in named:
                problems.append("%s spells %s, which include/mheta/environment.hpp does not name" %
                                (path.relative_to(root), name))
for p in problems:
    print("FAIL: " + p)
if problems:
    sys.exit(1)
print("PASS: %d variables, each documented and named once" % len(named))
