#!/usr/bin/env python3
"""The floors of docs/architecture.md hold in the repository, and the check
would notice if they did not: an upward include and a sibling include in a
scratch tree are both reported, a downward one is not.

  layering_test.py ROOT
"""
import pathlib
import subprocess
import sys
import tempfile

root = pathlib.Path(sys.argv[1])
check = root / "scripts" / "check_layering.py"


def run(tree):
    done = subprocess.run([sys.executable, str(check), str(tree)], capture_output=True, text=True)
    return done.returncode, done.stdout


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


code, out = run(root)
print(out, end="")
if code != 0:
    fail("the repository includes across floors (above)")

with tempfile.TemporaryDirectory(prefix="mheta-layering-") as scratch:
    tree = pathlib.Path(scratch)
    for area, text in {
        "model/ok.hpp": '#include "model/other.hpp"\n#include <vector>\n#include <mheta/marks.h>\n',
        "io/down.cpp": '#include "model/gen_block.hpp"\n',
        "io/up.cpp": '#include "advisor/auto_redistribute.hpp"\n',
        "microbench/main.cpp": '#include "cli/command.hpp"\n',
        "search/sibling.cpp": '  #  include "io/local_array.hpp"\n',
        "tests/io/any.cpp": '#include "cli/command.hpp"\n#include <mheta/exit_codes.hpp>\n',
    }.items():
        path = tree / area
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    code, out = run(tree)
    print(out, end="")
    reported = [line.split(":", 1)[0] for line in out.splitlines() if line.startswith(("io/", "microbench/", "search/", "model/", "tests/"))]
    if code == 0:
        fail("an upward include went unnoticed")
    if sorted(reported) != ["io/up.cpp", "microbench/main.cpp", "search/sibling.cpp"]:
        fail("reported %r, expected exactly io/up.cpp, microbench/main.cpp and search/sibling.cpp" % reported)
print("PASS")
