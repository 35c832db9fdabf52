#!/usr/bin/env python3
"""A collective that costs the program far more than the cluster prices it
(docs/model.md, "Collectives as the program paid for them"): dear_reduction
sums with MPI_Allreduce under a reduction operation of its own that takes
2 ms a call, after 3 ms of compute. On the wall clock the capture records
each rank's time inside the allreduce (`inside_s`, at least the operation's
2 ms on the rank that arrived last). On a cluster whose allreduce costs
10 us and whose rates are the profile's (the cluster it was captured on),
`mheta predict` prices the allreduce at that time: an iteration of at least
4.5 ms, silently. On a cluster of other rates (captured elsewhere) the
cluster's 10 us prices it, an iteration at least 1.5 ms shorter than the
first (the same captured compute, however long the machine's load made
it), and `mheta predict` warns, naming the collective,
both figures and what they add to an iteration. Under the virtual clock
nothing is recorded (the emulated network prices the call) and nothing is
said.

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


def cluster(path, io_slowdown=1):
    """Two nodes of the machine, MPI-IO `io_slowdown` times as slow; an allreduce of any size costs 10 us."""
    node = lambda name: {"name": name, "memory_bytes": 1 << 34, "cpu_power": 1,
                         "slowdown": {"cpu": 1, "io": io_slowdown},
                         "disk": {"read_overhead_s": 1e-4, "read_s_per_byte": 1e-8, "write_overhead_s": 1e-4,
                                  "async_read_overhead_s": 1e-4,
                                  "write_s_per_byte": 1e-8}}
    with open(path, "w") as f:
        json.dump({"format": "mheta-cluster/1", "nodes": [node("a"), node("b")],
                   "network": {"send_overhead_s": 1e-6, "recv_overhead_s": 1e-6, "latency_s": 5e-6,
                               "s_per_byte": 1e-9, "pairs": [], "collectives": {"allreduce": {"c0": 1e-5}}}}, f)


def capture(args, name, options):
    """mheta run (2 ranks, 30 steps) with `options`: the profile's path, and its allreduces."""
    profile = os.path.join(args.out, name + ".profile.json")
    run = subprocess.run([args.mheta, "run", "-n", "2", "--rows", "64", "--profile", profile] + options +
                         ["--", args.program, "30"], capture_output=True, text=True, timeout=240)
    if run.returncode != 0:
        fail("%s: mheta run exited %d:\n%s" % (name, run.returncode, run.stderr))
    with open(profile) as f:
        p = json.load(f)
    allreduces = [op for rank in p["ranks"] for s in rank["sections"] for op in s["comm"] if op["op"] == "allreduce"]
    return profile, allreduces


def predict(args, name, profile, cluster_path):
    """mheta predict of the profile's own distribution: the iteration (s), and what it said on stderr."""
    with open(profile) as f:
        p = json.load(f)
    dist = os.path.join(args.out, name + ".dist.txt")
    with open(dist, "w") as f:
        f.write("\n".join(str(r) for r in p["distribution"]) + "\n")
    result = subprocess.run([args.mheta, "predict", dist, "--profile", profile, "--cluster", cluster_path, "--json"],
                            capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        fail("%s: mheta predict exited %d:\n%s" % (name, result.returncode, result.stderr))
    prediction = json.loads(result.stdout)
    iteration = prediction["iteration_s"]
    print("%s: predicted %.4g s an iteration; collectives %s; mheta predict said:\n%s" %
          (name, iteration, prediction["collectives"], result.stderr))
    return iteration, result.stderr, prediction["collectives"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mheta", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    here = os.path.join(args.out, "cluster-here.json")
    elsewhere = os.path.join(args.out, "cluster-elsewhere.json")
    cluster(here)
    cluster(elsewhere, io_slowdown=2)

    profile, allreduces = capture(args, "wall", [])
    check(len(allreduces) == 2, "wall: %d allreduces captured, not one per rank" % len(allreduces))
    inside = [op.get("inside_s") for op in allreduces]
    print("wall: time inside the allreduce per rank: %s" % inside)
    if check(all(t is not None for t in inside), "wall: an allreduce without inside_s: %s" % allreduces):
        check(min(inside) >= 1.5e-3, "wall: the fastest rank spent %.3g s inside, less than the operation's 2 ms"
              % min(inside))
    here_s, said, collectives = predict(args, "captured here", profile, here)
    check([c["priced_by"] for c in collectives] == ["capture"],
          "captured here: the allreduce is not priced by its capture: %s" % collectives)
    check(here_s >= 4.5e-3, "captured here: predicted %.3g s, not the 3 ms of compute plus the allreduce's 2 ms"
          % here_s)
    check("collective #" not in said, "captured here: mheta predict warned of a collective it prices as captured")
    # Both predictions price the same captured compute, whatever the
    # machine's load made it: they differ by the allreduce alone, its 2 ms
    # as captured against the cluster's 10 us.
    elsewhere_s, said, collectives = predict(args, "captured elsewhere", profile, elsewhere)
    check([c["priced_by"] for c in collectives] == ["cluster"],
          "captured elsewhere: the allreduce is not priced by the cluster: %s" % collectives)
    check(here_s - elsewhere_s >= 1.5e-3,
          "captured elsewhere: predicted %.3g s, not the %.3g s captured here less the allreduce's 2 ms"
          % (elsewhere_s, here_s))
    check(WARNING in said, "captured elsewhere: mheta predict did not warn %r" % WARNING)
    check("the cluster prices it at 10 us" in said, "captured elsewhere: the warning does not give the cluster's 10 us")

    profile, allreduces = capture(args, "virtual", ["--emulate", "HY1"])
    check(all("inside_s" not in op for op in allreduces), "virtual: inside_s recorded: %s" % allreduces)
    _, said, collectives = predict(args, "virtual", profile, here)
    check(all("inside_s" not in c and c["priced_by"] == "cluster" for c in collectives),
          "virtual: a collective with a captured time: %s" % collectives)
    check("collective #" not in said, "virtual: mheta predict warned of a collective:\n%s" % said)
    exit_if_failed()


if __name__ == "__main__":
    main()
