#!/usr/bin/env python3
"""A collective that costs the program far more than the cluster prices it
is told (docs/model.md, "Collectives as the program paid for them"):
dear_reduction sums with MPI_Allreduce under a reduction operation of its
own that takes 2 ms a call. On the wall clock the capture records each
rank's time inside the allreduce (`inside_s`, at least the operation's 2 ms
on the rank that arrived last), and `mheta predict` on a cluster whose
allreduce costs 10 us warns, naming the collective, both figures and what
they add to an iteration. Under the virtual clock nothing is recorded (the
emulated network prices the call) and nothing is said.

  dearer_collective_check.py --mheta MHETA --program dear_reduction --out DIR
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, exit_if_failed, fail  # noqa: E402

WARNING = "collective #1 of the iteration (allreduce of 512 bytes over 2 ranks) took "


def cluster(path):
    """Two nodes of the machine; an allreduce of any size costs 10 us."""
    node = lambda name: {"name": name, "memory_bytes": 1 << 34, "cpu_power": 1,
                         "disk": {"read_overhead_s": 1e-4, "read_s_per_byte": 1e-8, "write_overhead_s": 1e-4,
                                  "async_read_overhead_s": 1e-4,
                                  "write_s_per_byte": 1e-8}}
    with open(path, "w") as f:
        json.dump({"format": "mheta-cluster/1", "nodes": [node("a"), node("b")],
                   "network": {"send_overhead_s": 1e-6, "recv_overhead_s": 1e-6, "latency_s": 5e-6,
                               "s_per_byte": 1e-9, "pairs": [], "collectives": {"allreduce": {"c0": 1e-5}}}}, f)


def capture_and_predict(args, name, options):
    """mheta run (2 ranks, 30 steps) with `options`, then mheta predict of the captured distribution."""
    profile = os.path.join(args.out, name + ".profile.json")
    run = subprocess.run([args.mheta, "run", "-n", "2", "--rows", "64", "--profile", profile] + options +
                         ["--", args.program, "30"], capture_output=True, text=True, timeout=240)
    if run.returncode != 0:
        fail("%s: mheta run exited %d:\n%s" % (name, run.returncode, run.stderr))
    with open(profile) as f:
        p = json.load(f)
    dist = os.path.join(args.out, name + ".dist.txt")
    with open(dist, "w") as f:
        f.write("\n".join(str(r) for r in p["distribution"]) + "\n")
    predict = subprocess.run([args.mheta, "predict", dist, "--profile", profile, "--cluster", args.cluster],
                             capture_output=True, text=True, timeout=60)
    if predict.returncode != 0:
        fail("%s: mheta predict exited %d:\n%s" % (name, predict.returncode, predict.stderr))
    print("%s: mheta predict said:\n%s" % (name, predict.stderr))
    allreduces = [op for rank in p["ranks"] for s in rank["sections"] for op in s["comm"] if op["op"] == "allreduce"]
    return allreduces, predict.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mheta", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    args.cluster = os.path.join(args.out, "cluster.json")
    cluster(args.cluster)

    allreduces, said = capture_and_predict(args, "wall", [])
    check(len(allreduces) == 2, "wall: %d allreduces captured, not one per rank" % len(allreduces))
    inside = [op.get("inside_s") for op in allreduces]
    print("wall: time inside the allreduce per rank: %s" % inside)
    if check(all(t is not None for t in inside), "wall: an allreduce without inside_s: %s" % allreduces):
        check(min(inside) >= 1.5e-3, "wall: the fastest rank spent %.3g s inside, less than the operation's 2 ms"
              % min(inside))
    check(WARNING in said, "wall: mheta predict did not warn %r" % WARNING)
    check("the cluster prices it at 10 us" in said, "wall: the warning does not give the cluster's 10 us")

    allreduces, said = capture_and_predict(args, "virtual", ["--emulate", "HY1"])
    check(all("inside_s" not in op for op in allreduces), "virtual: inside_s recorded: %s" % allreduces)
    check("collective #" not in said, "virtual: mheta predict warned of a collective:\n%s" % said)
    exit_if_failed()


if __name__ == "__main__":
    main()
