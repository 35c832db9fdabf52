#!/usr/bin/env python3
"""Redistribution on the fly, end to end: auto_sweep on 4 ranks of an
emulated heterogeneous cluster (interposer, preset DC: CPU factors 3, 1,
1.5, 1.5), once staying on Blk and once with the runtime deciding after the
captured iteration. Checks: both answers equal the serial reference; the
runtime redistributed; the measured time per iteration after it is lower
than on Blk; with one iteration left it decides by its rule (and stays, in
the regular build). Prints the measured and predicted figures (docs/results.md).
Without the interposer the runtime must say so and the program go on."""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys

# 24 iterations: the gain over the 22 after the captured one clearly pays
# for the move (about 0.3 s here); 3 iterations leave one, which cannot.
ROWS, COLS, ITERS = "4000", "256", "24"
MARGIN = 1.25  # the runtime moves when the gain exceeds the cost x (1 + margin), margin 0.25


def run(args, work, *extra, interpose=True, iters=ITERS):
    command = [args.mpiexec, args.np_flag, "4"]
    if interpose:
        command += ["-genv", "LD_PRELOAD", args.interpose, "-genv", "MHETA_EMULATE", "DC",
                    "-genv", "MHETA_PROFILE", os.path.join(work, "profile.json")]
    command += [args.program, os.path.join(work, "data"), ROWS, COLS, iters, *extra]
    out = subprocess.run(command, capture_output=True, text=True, timeout=150, cwd=work)
    print("$", " ".join(command), "->", out.returncode)
    print(out.stdout, end="")
    print(out.stderr, end="", file=sys.stderr)
    lines = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
    return out, lines


def after_capture(lines):
    # Iterations 1 (setup, cold) and 2 (captured, forced out of core) and 3
    # (the first on the new blocks) are not steady state.
    return statistics.median(l["seconds"] for l in lines if l.get("iteration", 0) > 3)


def main():
    parser = argparse.ArgumentParser()
    for option in ("--program", "--interpose", "--mpiexec", "--np-flag", "--work"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    failures = []

    out, lines = run(args, args.work, "--stay")
    if out.returncode != 0 or {"result": "PASS"}.items() > lines[-1].items():
        failures.append("the run on Blk did not pass")
    blk = after_capture(lines)

    out, lines = run(args, args.work)
    decisions = [l for l in lines if "decision" in l]
    if out.returncode != 0 or lines[-1].get("result") != "PASS":
        failures.append("the run with redistribution on the fly did not match the serial reference")
    if len(decisions) != 1 or decisions[0]["decision"] != "redistribute":
        failures.append("expected one decision to redistribute, got %s" % decisions)
    if not any(l.get("iteration") == 3 and l["rows"] != lines[0]["rows"] for l in lines):
        failures.append("iteration 3 did not run on the new distribution")
    moved = after_capture(lines)
    if decisions:
        d = decisions[0]
        predicted = 1 - d["predicted_best_s"] / d["predicted_current_s"]
        print("measured: Blk %.4f s/iteration, after redistribution %.4f s (%.0f%% less); predicted %.4f -> %.4f "
              "(%.0f%% less); move predicted %.3f s, took %.3f s"
              % (blk, moved, 100 * (1 - moved / blk), d["predicted_current_s"], d["predicted_best_s"],
                 100 * predicted, d["cost_s"], d["moved_s"]))
    if not moved < blk:
        failures.append("after redistribution %.4f s/iteration is not below Blk's %.4f" % (moved, blk))

    # One iteration left: its gain (0.03 s here) is below the predicted
    # move (0.05 s, x 1.25), and the runtime stays. Under the sanitizers the
    # compute, and with it one iteration's gain, is twice as long while the
    # move's price is not, and the gain paid (0.064 > 0.060 s): what holds
    # in every build is that the runtime decides by its own rule.
    out, lines = run(args, args.work, iters="3")
    decisions = [l for l in lines if "decision" in l]
    pays = bool(decisions) and decisions[0]["gain_s"] > decisions[0]["cost_s"] * MARGIN
    if out.returncode != 0 or len(decisions) != 1 or decisions[0]["decision"] != ("redistribute" if pays else "stay"):
        failures.append("with one iteration left the runtime did not decide by gain > cost x %.2f: %s" %
                        (MARGIN, decisions))
    elif pays:
        print("note: one iteration's predicted gain paid the predicted move in this build (%.4f > %.4f x %.2f)" %
              (decisions[0]["gain_s"], decisions[0]["cost_s"], MARGIN))

    out, lines = run(args, args.work, interpose=False, iters="3")
    if out.returncode != 0 or "needs the interposer" not in out.stdout:
        failures.append("without the interposer the runtime did not say so, or the program failed")

    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
