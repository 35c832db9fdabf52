#!/usr/bin/env python3
"""The in-core compute `mheta run` takes from the whole run, against the
captured periods' alone, on the corpus programs (tests/corpus/expected.txt)
under an emulated cluster and the virtual clock: for each program and round,
one `mheta run` (which keeps its accounting), then `mheta predict` of its own
distribution from the profile as written and from the same profile without
`in_core_compute_s` (the captured compute), both against the iteration time
the program itself printed in that run. Same run, same moment of the machine:
only the compute level differs.

  scripts/compare-run-compute.py CLUSTER [--np 8] [--emulate HY1] [--rounds 2] [names...]
(CLUSTER from `mheta microbench -n NP --emulate E`; MHETA_BUILD_DIR or build/.)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "corpus"))
from check_corpus import HERE, program_output, read_table  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cluster")
    parser.add_argument("names", nargs="*")
    parser.add_argument("--np", type=int, default=8)
    parser.add_argument("--emulate", default="HY1")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    build = os.environ.get("MHETA_BUILD_DIR", os.path.join(ROOT, "build"))
    mheta = os.path.join(build, "cli", "mheta")
    cluster = os.path.abspath(args.cluster)
    entries = [e for e in read_table(os.path.join(HERE, "expected.txt")) if not args.names or e.name in args.names]
    errors = {"captured": [], "whole run": []}
    print("%-24s %5s %12s %26s %26s" % ("program", "round", "measured", "captured compute", "whole run's compute"))
    for entry in entries:
        for k in range(args.rounds):
            with tempfile.TemporaryDirectory() as tmp:
                profile = os.path.join(tmp, "profile.json")
                cmd = [mheta, "run", "-n", str(args.np), "--emulate", args.emulate, "--rows", str(entry.rows),
                       "--profile", profile, "--", os.path.join(build, "tests", "corpus", entry.name)] + \
                      [a.replace("{src}", HERE).replace("{tmp}", tmp) for a in entry.args]
                ran = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp)
                if ran.returncode != 0 or not os.path.exists(profile):
                    print("%-24s %5d no profile" % (entry.name, k))
                    continue
                _, loop_iterations, loop_s = program_output(ran.stdout, cmd)
                p = json.load(open(profile))
                # A captured iteration may hold several of the program's loop iterations.
                measured = loop_s * loop_iterations / max(1, p["iterations"])
                dist = os.path.join(tmp, "dist.txt")
                with open(dist, "w") as f:
                    f.write("\n".join(map(str, p["distribution"])) + "\n")

                def predicted(path):
                    out = subprocess.run([mheta, "predict", dist, "--profile", path, "--cluster", cluster, "--json"],
                                         capture_output=True, text=True)
                    return json.loads(out.stdout)["iteration_s"] if out.returncode == 0 else None

                whole = predicted(profile)
                for rank in p["ranks"]:
                    rank.pop("in_core_compute_s", None)
                captured_path = os.path.join(tmp, "captured.json")
                with open(captured_path, "w") as f:
                    json.dump(p, f)
                captured = predicted(captured_path)
                if whole is None or captured is None:
                    print("%-24s %5d no prediction" % (entry.name, k))
                    continue
                cells = []
                for label, value in (("captured", captured), ("whole run", whole)):
                    error = value / measured - 1
                    errors[label].append(abs(error))
                    cells.append("%10.1f us (%+6.1f%%)" % (value * 1e6, 100 * error))
                print("%-24s %5d %9.1f us %26s %26s" % (entry.name, k, measured * 1e6, cells[0], cells[1]), flush=True)
    for label, values in errors.items():
        if values:
            print("%s compute: |error| median %.1f%%, mean %.1f%%, max %.1f%% over %d runs" %
                  (label, 100 * statistics.median(values), 100 * statistics.mean(values), 100 * max(values), len(values)))


if __name__ == "__main__":
    main()
