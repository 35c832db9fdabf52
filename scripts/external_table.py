#!/usr/bin/env python3
"""LAMMPS inputs under mheta, as a Markdown table (scripts/external-codes.sh).

For each input: RUNS runs of the program without the interposer (its own
"Loop time of T on N procs for S steps with A atoms"), one under `mheta run`
(the default automatic capture, its thermo lines compared with the runs
without it), and `mheta predict` of the profile's own distribution on the
cluster. The run's time is compared whole (the capture's iterations need
not be the program's steps: a period of 20 steps between two rebuilds of
the neighbour lists is one), as |predicted - measured| / min of the two
(MHETA §5.2.1).

Usage: external_table.py --mheta M --np N --runs R --cluster C --dir D --program P INPUT...
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

LOOP = re.compile(r"^Loop time of ([0-9.eE+-]+) on (\d+) procs for (\d+) steps with (\d+) atoms")
THERMO = re.compile(r"^\s+\d+\s+-?[0-9.]")  # a thermo row: the step, then the values


def run(cmd, cwd):
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("external_table.py: %s exited with %d:\n%s%s" % (" ".join(cmd), result.returncode,
                                                                 result.stdout[-2000:], result.stderr[-2000:]))
    return result


def loop_and_thermo(stdout, cmd):
    loops = [LOOP.match(line) for line in stdout.splitlines() if line.startswith("Loop time")]
    if len(loops) != 1 or loops[0] is None:
        sys.exit("external_table.py: %s printed no single 'Loop time' line" % " ".join(cmd))
    m = loops[0]
    thermo = [line.split() for line in stdout.splitlines() if THERMO.match(line)]
    return {"seconds": float(m.group(1)), "steps": int(m.group(3)), "atoms": int(m.group(4)), "thermo": thermo}


def check(args, name):
    program = [args.program, "-in", name, "-log", "none"]
    bare_cmd = ["mpiexec", "-n", str(args.np)] + program
    bare = [loop_and_thermo(run(bare_cmd, args.dir).stdout, bare_cmd) for _ in range(args.runs)]
    profile = os.path.join(args.dir, name + ".profile.json")
    captured_cmd = [args.mheta, "run", "-n", str(args.np), "--rows", str(bare[0]["atoms"]), "--profile", profile,
                    "--"] + program
    captured_run = run(captured_cmd, args.dir)
    captured = loop_and_thermo(captured_run.stdout, captured_cmd)
    with open(profile) as f:
        p = json.load(f)
    dist = os.path.join(args.dir, name + ".dist.txt")
    with open(dist, "w") as f:
        f.write("\n".join(str(r) for r in p["distribution"]) + "\n")
    prediction = json.loads(run([args.mheta, "predict", dist, "--profile", profile, "--cluster", args.cluster,
                                 "--json"], args.dir).stdout)
    measured = statistics.median(b["seconds"] for b in bare)
    predicted = prediction["run_s"]
    return {
        "name": name,
        "steps": bare[0]["steps"],
        "measured": measured,
        "measured_runs": [b["seconds"] for b in bare],
        "interposed": captured["seconds"],
        "iterations": p.get("iterations"),
        "sections": len(p["ranks"][0]["sections"]),
        "capture": p.get("capture", {}),
        "predicted": predicted,
        "error": abs(predicted - measured) / min(predicted, measured),
        "unchanged": captured["thermo"] == bare[0]["thermo"] and all(b["thermo"] == bare[0]["thermo"] for b in bare),
        "warnings": [line for line in captured_run.stderr.splitlines() if "warning" in line],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mheta", required=True)
    parser.add_argument("--np", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cluster", required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args()
    args.mheta, args.program, args.cluster = (os.path.abspath(p) for p in (args.mheta, args.program, args.cluster))
    print("| input | steps | loop time, own (runs) | under mheta run | iterations counted | capture's time share "
          "(repetitions) | predicted run | difference | thermo unchanged |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.inputs:
        r = check(args, name)
        c = r["capture"]
        print("| %s | %d | %.2f s (%s) | %.2f s | %s (%d sections) | %.2f (%s) | %.2f s | %.1f%% | %s |" % (
            r["name"], r["steps"], r["measured"], ", ".join("%.2f" % t for t in r["measured_runs"]), r["interposed"],
            r["iterations"], r["sections"], c.get("time_share", 0), c.get("repetitions", "-"), r["predicted"],
            100 * r["error"], "yes" if r["unchanged"] else "NO"), flush=True)
        for w in r["warnings"]:
            print("  %s: %s" % (r["name"], w), file=sys.stderr)


if __name__ == "__main__":
    main()
