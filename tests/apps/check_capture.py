#!/usr/bin/env python3
"""Runs jacobi in core under libmheta-interpose.so, capturing the iteration
between the first two mheta_mark_iteration() calls, and checks that the
profile shows every rank's out-of-core I/O there: the interposer forces out
of core for that iteration (mheta_out_of_core_forced() of
<mheta/interposer.h>) and io/ follows it (io/icla_group.hpp).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


p = argparse.ArgumentParser()
p.add_argument("--mpiexec", required=True)
p.add_argument("--np-flag", default="-n")
p.add_argument("--library", required=True)
p.add_argument("--app", required=True)
args = p.parse_args()

rows, cols, ranks = 64, 32, 2
with tempfile.TemporaryDirectory(prefix="mheta-capture-test-") as work:
    profile = os.path.join(work, "profile.json")
    env = dict(os.environ, MHETA_CAPTURE="mark", MHETA_PROFILE=profile, MHETA_MEMORY_BYTES=str(1 << 30))
    env.pop("MHETA_FORCE_OOC", None)
    command = [args.mpiexec, args.np_flag, str(ranks), "-genv", "LD_PRELOAD", args.library, args.app,
               "--rows", str(rows), "--cols", str(cols), "--iters", "4", "--data", os.path.join(work, "data")]
    print("running: " + " ".join(command), flush=True)
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    sys.stdout.write(done.stdout[-3000:])
    sys.stderr.write(done.stderr[-3000:])
    if done.returncode != 0 or "jacobi: PASS" not in done.stdout:
        fail("jacobi under the interposer did not PASS")
    lines = [json.loads(l) for l in done.stdout.splitlines() if l.startswith('{"')]
    for rank in (l for l in lines if l["mheta"] == "rank"):
        if not all(v["in_core"] for v in rank["variables"]):
            fail("the run should be in core outside the captured iteration")
        # Iteration 1 is captured (out of core); iteration 2 reloads; 3 is in core again.
        reads = [it["reads"] for it in rank["iterations"]]
        if reads[1] < 1 or reads[3] != 0:
            fail("reads per iteration %r: expected I/O in the captured iteration only" % reads)
    with open(profile) as f:
        captured = json.load(f)

if not captured.get("forced_out_of_core"):
    fail("the profile should say the captured iteration was forced out of core")
block = rows // ranks * cols * 8
for r, rank in enumerate(captured["ranks"]):
    read = sum(io.get("reads", {}).get("bytes", 0) for s in rank["sections"] for st in s["stages"]
               for io in st.get("io", []))
    written = sum(io.get("writes", {}).get("bytes", 0) for s in rank["sections"] for st in s["stages"]
                  for io in st.get("io", []))
    # One sweep reads the current grid and writes the next, each the whole block.
    if read != block or written < block:
        fail("rank %d: captured %d bytes read and %d written, expected %d read and at least %d written"
             % (r, read, written, block, block))
print("PASS: the captured iteration holds every rank's I/O")
