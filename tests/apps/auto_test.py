#!/usr/bin/env python3
"""Redistribution on the fly (--auto) of one app, end to end, on 4 ranks of
an emulated heterogeneous cluster: `mheta run -n 4 --emulate E --capture
mark --capture-iteration C -- APP ... --auto`.

Scenario `move` runs the app twice on the same problem: once on Blk without
--auto, once with it. Checks: both answers equal the serial reference (the
app's PASS); rank 0 printed exactly one decision, to redistribute, to a
distribution other than Blk; the rank lines show the new rows; the median
iteration time after the move is below the median before it (iterations
2 to C-2), within --tolerance (the machine is shared and noisy). Prints one
JSON summary line with the Blk run's median over the same iterations too
(scripts/bench-auto.sh tabulates them).

With --row-weights NAME, the runs after the first give the interposer the
per-row work the app wrote to its data directory (cg's nonzeros per row).

Scenario `rerun` (after `move`'s runs, on its data directory): the app run
again with --auto --dist <the distribution chosen> finds its data already
there and starts on it; run again on Blk, its data is brought back to Blk.
Both must pass.

Scenario `plain` runs it with --auto under plain mpiexec (no interposer):
the runtime must say once that it needs the interposer, and the app pass.

The app's own arguments (sizes, iterations) follow `--`.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys


def run(args, work, extra, label):
    command = [args.mheta, "run", "-n", "4", "--emulate", args.emulate, "--capture", "mark",
               "--capture-iteration", str(args.capture_iteration), "--profile",
               os.path.join(work, "profile-%s.json" % label)]
    # The work of each row, when the app wrote it (cg: its rows' nonzeros),
    # so that the model weighs rows as the app does (docs/interpose.md).
    weights = os.path.join(work, "data", args.row_weights or "-")
    if args.row_weights and os.path.exists(weights):
        command += ["--row-weights", weights]
    command += ["--", args.app, "--data", os.path.join(work, "data")] + args.app_args + extra
    print("$ " + " ".join(command), flush=True)
    done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout, cwd=work)
    lines = []
    for text in done.stdout.splitlines():
        line = json.loads(text) if text.startswith("{") else {}
        if line:
            lines.append(line)
        if not line or line.get("mheta") in ("decision", "result"):
            print(text)
    sys.stderr.write(done.stderr[-3000:])
    return done.returncode, lines


def of_kind(lines, kind):
    return [l for l in lines if l.get("mheta") == kind]


def passed(code, lines):
    return code == 0 and any(l.get("check") == "PASS" for l in of_kind(lines, "result"))


def seconds(lines, first):
    """Iteration times (the slowest rank's) from iteration index `first` on."""
    return [l["seconds"] for l in of_kind(lines, "iteration") if l["index"] >= first]


def rows_of(lines):
    return [l["rows"] for l in sorted(of_kind(lines, "rank"), key=lambda l: l["rank"])]


def move(args, failures):
    code, blk = run(args, args.work, [], "blk")
    if not passed(code, blk):
        failures.append("the run on Blk did not pass (exit %d)" % code)
    code, auto = run(args, args.work, ["--auto"], "auto")
    if not passed(code, auto):
        failures.append("the run with --auto did not pass: its answer differs from the serial reference (exit %d)"
                        % code)
    decisions = of_kind(auto, "decision")
    if len(decisions) != 1:
        failures.append("expected exactly one decision; got %s" % decisions)
        return None
    d = decisions[0]
    if d["decision"] != "redistribute":
        failures.append("expected a decision to redistribute; got %s" % d)
    if d["to"] == d["from"] or d["from"] != rows_of(blk):
        failures.append("the new distribution %s is not a move from Blk %s" % (d["to"], rows_of(blk)))
    if rows_of(auto) != d["to"]:
        failures.append("the rank lines show %s, not the new distribution %s" % (rows_of(auto), d["to"]))
    # Index C is the first iteration on the new blocks (it reloads them):
    # steady state from C + 1 on, in both runs.
    after = seconds(auto, args.capture_iteration + 1)
    blk_same = seconds(blk, args.capture_iteration + 1)
    # Before: between the cold first iteration and the two the interposer
    # forces out of core (the captured one and the one before it).
    before = seconds(auto, 1)[:args.capture_iteration - 3]
    summary = {
        "app": os.path.basename(args.app), "decision": d["decision"],
        "emulate": os.path.basename(args.emulate),
        "from": d["from"], "to": d["to"],
        "blk_measured_s": statistics.median(blk_same),
        "before_move_measured_s": statistics.median(before) if before else None,
        "predicted_blk_s": d["predicted_current_s"], "predicted_best_s": d["predicted_best_s"],
        "after_move_measured_s": statistics.median(after),
        "move_predicted_s": d["cost_s"], "move_measured_s": d["moved_s"],
    }
    summary["predicted_gain"] = 1 - summary["predicted_best_s"] / summary["predicted_blk_s"]
    summary["measured_gain"] = 1 - summary["after_move_measured_s"] / summary["blk_measured_s"]
    print(json.dumps({"auto_summary": summary}))
    if d["decision"] != "redistribute":
        return None
    # Generous: the machine is a shared 2-core box running 4 ranks.
    if before and not summary["after_move_measured_s"] < summary["before_move_measured_s"] * args.tolerance:
        failures.append("after the move the median iteration took %.4f s, not below %.2f x the %.4f s before it"
                        % (summary["after_move_measured_s"], args.tolerance, summary["before_move_measured_s"]))
    return d["to"]


def rerun(args, failures, chosen):
    dist = os.path.join(args.work, "chosen.txt")
    with open(dist, "w") as out:
        out.write("\n".join(str(r) for r in chosen) + "\n")
    code, lines = run(args, args.work, ["--auto", "--dist", dist], "rerun")
    if not passed(code, lines):
        failures.append("the rerun on the chosen distribution did not pass (exit %d)" % code)
    # Where a run started: the distribution its decision moved from (it may
    # move again after it).
    started = [d["from"] for d in of_kind(lines, "decision")]
    if started != [chosen]:
        failures.append("the rerun started on %s, not on the chosen %s" % (started, chosen))
    code, lines = run(args, args.work, ["--auto"], "back")
    started = [d["from"] for d in of_kind(lines, "decision")]
    if not passed(code, lines):
        failures.append("the rerun on Blk of the redistributed directory did not pass (exit %d)" % code)
    # Blk: blocks differ by at most one row.
    if len(started) != 1 or max(started[0]) - min(started[0]) > 1:
        failures.append("the rerun on Blk did not start on Blk: %s" % started)


def plain(args, failures):
    """--auto without the interposer: the runtime says so once and the app
    runs on its distribution to the same answer."""
    command = [args.mpiexec, args.np_flag, "4", args.app, "--data", os.path.join(args.work, "data")] + \
        args.app_args + ["--auto"]
    print("$ " + " ".join(command), flush=True)
    done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout, cwd=args.work)
    lines = [json.loads(t) for t in done.stdout.splitlines() if t.startswith("{")]
    sys.stderr.write(done.stderr[-3000:])
    if not passed(done.returncode, lines):
        failures.append("--auto without the interposer did not pass (exit %d)" % done.returncode)
    if done.stdout.count("needs the interposer") != 1 or of_kind(lines, "decision"):
        failures.append("--auto without the interposer did not say once that it needs it:\n" + done.stdout[-2000:])


def main():
    parser = argparse.ArgumentParser()
    for option in ("--app", "--work"):
        parser.add_argument(option, required=True)
    parser.add_argument("--mheta")
    parser.add_argument("--emulate")
    parser.add_argument("--capture-iteration", type=int, default=6)
    parser.add_argument("--row-weights", help="file of per-row work the app writes in its data directory")
    parser.add_argument("--scenario", choices=("move", "rerun", "plain"), default="move")
    parser.add_argument("--mpiexec", help="for --scenario plain")
    parser.add_argument("--np-flag", default="-n")
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--tolerance", type=float, default=1.25)
    parser.add_argument("app_args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.app_args[:1] == ["--"]:
        args.app_args = args.app_args[1:]
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    failures = []
    if args.scenario == "plain":
        plain(args, failures)
        for f in failures:
            print("FAIL: " + f, file=sys.stderr)
        return 1 if failures else 0
    chosen = move(args, failures)
    if args.scenario == "rerun" and chosen is not None:
        rerun(args, failures, chosen)
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
