#!/usr/bin/env python3
"""A profile captured on one emulated cluster predicts another (docs/model.md,
"Predicting another cluster"), end to end at 2 ranks under the virtual clock:

1. characterizes the target cluster: `mheta microbench --emulate target.json`;
2. captures `ooc_mpiio` (compute and MPI-IO, no marks) under the source
   cluster: `mheta run --emulate source.json`;
3. predicts its own distribution on the target: `mheta predict --cluster`,
   and again from the same profile without its recorded rates (as a
   profile written before they were recorded);
4. runs it under the target (`--capture off`) and reads its own timing
   ("loop:" line: MPI_Wtime, the virtual clock).

Checks: the profile records each rank's source factors; the target cluster
its own; the prediction is within --tolerance of the measured iteration
(generous: CPU and I/O time on a shared machine move by tens of per cent);
the prediction without rates is off by the factors' ratio (at least twice
the time), and `mheta predict` warns about it.

Usage: other_cluster_check.py --mheta M --mpiexec E --microbench P --program ooc_mpiio
                              [--tolerance 0.5] [--keep DIR]
"""
import argparse
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import outside_bound, run_or_exit  # noqa: E402

LOOP_LINE = re.compile(r"^loop:\s*(\d+) iterations,\s*([0-9.eE+-]+) s,\s*([0-9.eE+-]+) s per iteration\s*$", re.M)

ROWS = 1024
ROW_BYTES = 1024 * 8
# The program streams its block in chunks of 64 rows whatever its memory,
# and the model prices that I/O whatever the memory too (docs/model.md, "I/O
# the program does itself"): 64 rows of memory change nothing.
MEMORY = 64 * ROW_BYTES
# Source: rank 0 has a slower CPU, rank 1 a slower disk. Target: both
# slower still, CPU and disk, so that the profile's times must be scaled by
# 3 to 6 to describe it.
SOURCE = {"format": "mheta-emulation/1", "name": "source",
          "ranks": [{"cpu_factor": 2, "io_factor": 1, "memory_bytes": MEMORY},
                    {"cpu_factor": 1, "io_factor": 2, "memory_bytes": MEMORY}]}
TARGET = {"format": "mheta-emulation/1", "name": "target",
          "ranks": [{"cpu_factor": 6, "io_factor": 6, "memory_bytes": MEMORY},
                    {"cpu_factor": 6, "io_factor": 6, "memory_bytes": MEMORY}]}


def error(a, b):
    return abs(a - b) / min(a, b)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mheta", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--microbench", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--tolerance", type=float, default=0.5)
    parser.add_argument("--keep")
    args = parser.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="mheta-other-cluster-")
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, MHETA_MPIEXEC=args.mpiexec)
    path = lambda name: os.path.join(work, name)
    for name, emulation in (("source.json", SOURCE), ("target.json", TARGET)):
        with open(path(name), "w") as f:
            json.dump(emulation, f)

    run_or_exit([args.mheta, "microbench", "-n", "2", "--emulate", path("target.json"), "--budget", "10",
         "-o", path("target-cluster.json"), "--mpiexec", args.mpiexec, "--program", args.microbench])
    cluster = json.load(open(path("target-cluster.json")))
    for i, node in enumerate(cluster["nodes"]):
        if node.get("slowdown") != {"cpu": 6, "io": 6}:
            sys.exit("FAIL: target cluster node %d states slowdown %r, expected cpu 6, io 6" % (i, node.get("slowdown")))

    run_or_exit([args.mheta, "run", "-n", "2", "--emulate", path("source.json"), "--rows", str(ROWS),
         "--profile", path("profile.json"), "--", args.program, path("capture.dat"), str(ROWS), "40"], env=env)
    profile = json.load(open(path("profile.json")))
    rates = [rank.get("slowdown") for rank in profile["ranks"]]
    if rates != [{"cpu": 2, "io": 1}, {"cpu": 1, "io": 2}]:
        sys.exit("FAIL: the profile records the rates %r, expected the source's factors" % rates)
    with open(path("dist.txt"), "w") as f:
        f.write(" ".join(str(r) for r in profile["distribution"]) + "\n")

    def predict(profile_file):
        result = run_or_exit([args.mheta, "predict", path("dist.txt"), "--profile", profile_file,
                      "--cluster", path("target-cluster.json"), "--json"])
        return json.loads(result.stdout)["iteration_s"], result.stderr

    predicted, warning = predict(path("profile.json"))
    if "warning" in warning:
        sys.exit("FAIL: mheta predict warned about a profile with its rates: " + warning)
    for rank in profile["ranks"]:
        del rank["slowdown"]
    with open(path("profile-without-rates.json"), "w") as f:
        json.dump(profile, f)
    unscaled, warning = predict(path("profile-without-rates.json"))
    if "records no rates" not in warning:
        sys.exit("FAIL: mheta predict did not warn about a profile without rates: %r" % warning)

    measured_run = run_or_exit([args.mheta, "run", "-n", "2", "--emulate", path("target.json"), "--capture", "off",
                                "--", args.program, path("target.dat"), str(ROWS), "40"], env=env)
    loop = LOOP_LINE.search(measured_run.stdout)
    if not loop:
        sys.exit("FAIL: no loop line in the target run's output:\n" + measured_run.stdout)
    measured = float(loop.group(3))

    print("captured on source, predicted on target %.3f ms, measured on target %.3f ms (error %.1f %%); "
          "the same profile without its rates %.3f ms (error %.1f %%)"
          % (1e3 * predicted, 1e3 * measured, 100 * error(predicted, measured), 1e3 * unscaled,
             100 * error(unscaled, measured)))
    if error(predicted, measured) > args.tolerance:
        outside_bound("the prediction is %.1f %% off the measured time (tolerance %.0f %%)"
                      % (100 * error(predicted, measured), 100 * args.tolerance))
    # Target over source is 3 to 6 on every term: unscaled, the profile
    # describes a cluster at least twice as fast.
    if predicted < 2 * unscaled:
        sys.exit("FAIL: normalizing by the rates changed the prediction from %.3f ms to only %.3f ms"
                 % (1e3 * unscaled, 1e3 * predicted))
    print("PASS")


if __name__ == "__main__":
    main()
