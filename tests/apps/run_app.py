#!/usr/bin/env python3
"""Runs one of mheta's apps under mpiexec and checks what it reports.

Checks: exit status and the PASS line (the app compared its answer with its
serial reference); in core, no I/O after the first iteration; out of core,
the ICLA rows and N_L the sizing policy gives for the budget, recomputed here
independently, and per iteration exactly sweeps x (rows x bytes per row)
read (and written) in sweeps x N_L MPI-IO calls.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def uneven_distribution(rows, ranks):
    """Uneven, with a zero-row rank: [0, rows] for 2 ranks; [5, 0, 2, 3]/10 for 4."""
    if ranks == 2:
        return [0, rows]
    shares = [rows * 5 // 10, 0, rows * 2 // 10]
    shares += [0] * (ranks - 1 - len(shares))
    return shares + [rows - sum(shares)]


def run(args, extra, data, env):
    command = [args.mpiexec, args.np_flag, str(args.ranks), args.app, "--data", data] + extra
    print("running: " + " ".join(command), flush=True)
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=args.timeout)
    sys.stdout.write(done.stdout[-4000:])
    sys.stderr.write(done.stderr[-4000:])
    return done


def check_error(args, extra, work, env):
    bad_dist = os.path.join(work, "dist.txt")
    with open(bad_dist, "w") as f:
        f.write("# one rank too few\n" + " ".join(["1"] * (args.ranks - 1)) + "\n")
    done = run(args, extra + ["--dist", bad_dist], os.path.join(work, "data"), env)
    if done.returncode != 2:
        fail("a dist.txt with the wrong number of ranks should exit 2, got %d" % done.returncode)
    if bad_dist not in done.stderr or "ranks" not in done.stderr:
        fail("the error should name %s and the ranks: %r" % (bad_dist, done.stderr))
    # Data generated under Blk, reused by a second run, then opened under
    # another distribution.
    data = os.path.join(work, "blk")
    for attempt in ("generates", "reuses"):
        done = run(args, extra, data, env)
        if done.returncode != 0 or "PASS" not in done.stdout:
            fail("the run under Blk that %s the data failed" % attempt)
    other = os.path.join(work, "other.txt")
    with open(other, "w") as f:
        f.write(" ".join(str(r) for r in uneven_distribution(args.rows, args.ranks)) + "\n")
    done = run(args, extra + ["--dist", other], data, env)
    if done.returncode != 2 or ".h5: was written for the distribution" not in done.stderr:
        fail("opening Blk data under another distribution should exit 2 naming the file: %r" % done.stderr)
    print("errors reported as expected")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mpiexec", required=True)
    p.add_argument("--np-flag", default="-n")
    p.add_argument("--ranks", type=int, required=True)
    p.add_argument("--app", required=True)
    p.add_argument("--rows", type=int, required=True)
    p.add_argument("--mode", choices=["in-core", "out-of-core", "forced", "errors"], required=True)
    p.add_argument("--budget", type=int, default=1 << 30, help="MHETA_MEMORY_BYTES out of core")
    p.add_argument("--prefetch", action="store_true")
    p.add_argument("--dist", choices=["blk", "uneven"], default="blk")
    p.add_argument("--sweeps-read", type=int, default=1, help="full reads of the first variable per iteration")
    p.add_argument("--sweeps-written", type=int, default=0)
    p.add_argument("--timeout", type=int, default=300)
    p.add_argument("app_args", nargs="*")
    args = p.parse_args()

    env = dict(os.environ)
    env.pop("MHETA_FORCE_OOC", None)
    env["MHETA_MEMORY_BYTES"] = str(args.budget if args.mode == "out-of-core" else 1 << 30)
    if args.mode == "forced":
        env["MHETA_FORCE_OOC"] = "1"
    extra = ["--rows", str(args.rows)] + args.app_args + (["--prefetch"] if args.prefetch else [])
    with tempfile.TemporaryDirectory(prefix="mheta-app-test-") as work:
        if args.mode == "errors":
            check_error(args, extra, work, env)
            return
        if args.dist == "uneven":
            dist = os.path.join(work, "dist.txt")
            with open(dist, "w") as f:
                f.write(" ".join(str(r) for r in uneven_distribution(args.rows, args.ranks)) + "\n")
            extra += ["--dist", dist]
        done = run(args, extra, os.path.join(work, "data"), env)
    if done.returncode != 0:
        fail("exit status %d" % done.returncode)
    lines = [json.loads(l) for l in done.stdout.splitlines() if l.startswith('{"')]
    results = [l for l in lines if l["mheta"] == "result"]
    if len(results) != 1 or results[0]["check"] != "PASS":
        fail("no PASS result line")
    iterations = [l for l in lines if l["mheta"] == "iteration"]
    ranks = [l for l in lines if l["mheta"] == "rank"]
    if len(ranks) != args.ranks or not iterations:
        fail("expected %d rank lines and iteration lines" % args.ranks)
    if [l["index"] for l in iterations] != list(range(len(iterations))):
        fail("iteration lines out of order")
    for rank in ranks:
        check_rank(args, rank)
    print("PASS: %d iterations checked on %d ranks" % (len(iterations), len(ranks)))


def check_rank(args, rank):
    name = "rank %d" % rank["rank"]
    variables = rank["variables"]
    owns = rank["rows"] > 0
    if args.mode == "in-core" or not owns:
        for v in variables:
            if owns and not v["in_core"]:
                fail(name + ": variable %s should be in core" % v["name"])
        for k, it in enumerate(rank["iterations"][1:], start=1):
            if it["reads"] or it["writes"]:
                fail(name + ": iteration %d did I/O in core: %r" % (k, it))
        return
    buffers = 2 if args.prefetch else 1
    row_bytes = sum(v["bytes_per_row"] for v in variables)
    budget = 1 << 30 if args.mode == "forced" else args.budget
    icla = max(1, budget // (row_bytes * buffers))
    first = variables[0]
    expected_icla = min(first["rows"], icla)
    chunks = math.ceil(first["rows"] / expected_icla)
    for v in variables:
        if v["in_core"] or v["icla_rows"] != expected_icla or v["chunks"] != chunks:
            fail(name + ": variable %s planned %r, expected %d ICLA rows, N_L %d"
                 % (v["name"], v, expected_icla, chunks))
    block_bytes = first["rows"] * first["bytes_per_row"]
    for k, it in enumerate(rank["iterations"]):
        expected = (args.sweeps_read * block_bytes, args.sweeps_read * chunks,
                    args.sweeps_written * block_bytes, args.sweeps_written * chunks)
        got = (it["read_bytes"], it["reads"], it["write_bytes"], it["writes"])
        if got != expected:
            fail(name + ": iteration %d: (read bytes, reads, written bytes, writes) %r, expected %r "
                 "(N_L = %d ICLAs of %d rows)" % (k, got, expected, chunks, expected_icla))


if __name__ == "__main__":
    main()
