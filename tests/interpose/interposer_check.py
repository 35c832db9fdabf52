#!/usr/bin/env python3
"""End-to-end checks of libmheta-interpose.so and `mheta run` (ctest drives
them; tests/interpose/CMakeLists.txt). Each subcommand runs real mpiexec and
exits non-zero with a message when what it checks does not hold.

  unchanged   the program prints the same with and without the interposer,
              and the profile it captured is consistent (messages pair up,
              every rank calls the same collectives)
  capture-io  the capture_io program's profile: variables, I/O, prefetch, halo
  emulation   CPU and I/O factors stretch compute and reads as configured
  predict     a NAS-style CG captured with MHETA_ROWS and automatic detection:
              `mheta predict` with the distribution it ran with is close to
              the measured iteration time
  run-errors  bad settings make `mheta run` fail before the program starts
  app         an app of apps/ under `mheta run`: result and profile
  virtual-clock  MPI_Wtime under the virtual clock: compute x factor, waits,
              barriers, messages, non-blocking collectives; reproducible
  virtual-app an app on more ranks than cores under the virtual clock: its
              answer, and two runs' median iteration times
  virtual-vs-wall  an app with every factor 1: virtual against wall
              iteration time
  run-compute an app under `mheta run --emulate`: the profile's in-core
              compute is the median of the run's own in-core iterations
  pace        a loop under `mheta run`: the capture's pace (the run's mean
              iteration over the captured one) and the warning it brings
"""
import argparse
import collections
import json
import math
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import outside_bound  # noqa: E402


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def run(cmd, env=None, check=True):
    merged = dict(os.environ)
    merged.update(env or {})
    result = subprocess.run(cmd, env=merged, capture_output=True, text=True, timeout=300)
    if check and result.returncode != 0:
        fail("%s exited with %d\nstdout:\n%s\nstderr:\n%s" % (" ".join(cmd), result.returncode, result.stdout, result.stderr))
    return result


def preloaded(args, np, program, env):
    cmd = [args.mpiexec, "-n", str(np), "-genv", "LD_PRELOAD", args.lib] + program
    return run(cmd, env)


def plain(args, np, program):
    return run([args.mpiexec, "-n", str(np)] + program)


def load_profile(path):
    if not os.path.exists(path):
        fail("no profile at " + path)
    with open(path) as f:
        return json.load(f)


def check_consistent(profile):
    """The pairing rules the model relies on: the k-th send src->dst with tag
    t matches the k-th recv at dst from src with tag t; every rank calls the
    same collectives in the same order."""
    sends = collections.Counter()
    recvs = collections.Counter()
    collectives = []
    for r, rank in enumerate(profile["ranks"]):
        ops = []
        for section in rank["sections"]:
            for c in section["comm"]:
                if c["op"] == "send":
                    sends[(r, c["peer"], c["tag"], c["bytes"])] += 1
                elif c["op"] == "recv":
                    recvs[(c["peer"], r, c["tag"], c["bytes"])] += 1
                else:
                    ops.append(c["op"])
        collectives.append(ops)
    if sends != recvs:
        fail("sends and receives do not pair up: sends %s, receives %s" % (dict(sends), dict(recvs)))
    if any(ops != collectives[0] for ops in collectives):
        fail("ranks call different collectives: %s" % collectives)
    return sends, collectives[0]


def check_collective_bytes(profile, expected):
    """Every captured collective named in `expected` ("op:bytes,...") carries those bytes on every rank."""
    wanted = dict((op, int(b)) for op, b in (item.split(":") for item in expected.split(",") if item))
    for r, rank in enumerate(profile["ranks"]):
        for section in rank["sections"]:
            for c in section["comm"]:
                if c["op"] in wanted and c["bytes"] != wanted[c["op"]]:
                    fail("rank %d: %s of %d bytes, expected %d" % (r, c["op"], c["bytes"], wanted[c["op"]]))


def totals(rank):
    compute = 0.0
    io = collections.defaultdict(lambda: collections.Counter())
    for section in rank["sections"]:
        for stage in section["stages"]:
            compute += stage["compute_s"]
            for entry in stage.get("io", []):
                for kind in ("reads", "writes"):
                    if kind in entry:
                        for key in ("count", "bytes", "seconds"):
                            io[(entry["variable"], kind)][key] += entry[kind][key]
                if entry.get("prefetch"):
                    io[(entry["variable"], "reads")]["prefetch"] += 1
                    io[(entry["variable"], "reads")]["overlap"] += entry.get("overlap_compute_s", 0)
    return compute, io


# MPICH's UCX transport logs on stdout: "... UCX  WARN  unexpected tag-receive
# descriptor ... was not matched" at MPI_Finalize for a message nobody
# received. Threads calling MPI at once make the virtual clock fall back
# (docs/emulation.md), and a send time travelling on its private
# communicator then and then can stay unreceived (2 runs in about 30 under
# load, after the interposer receives what is there at MPI_Finalize): the
# transport's diagnostic, not the program's result.
TRANSPORT_LOG = re.compile(r"^\[[0-9.]+\] \[[^]]*\] +\S+:\d+ +UCX +WARN ")


def results_of(stdout, timing_key):
    """The program's output without its timing lines (they differ run to run)
    and without the transport's warnings."""
    return "".join(line + "\n" for line in stdout.splitlines()
                   if not (timing_key and timing_key in line) and not TRANSPORT_LOG.match(line))


def reference_run(args, program):
    """The program's run without the interposer. A program that exits
    without MPI_Finalize ends its ranks one by one, and MPICH's launcher
    kills those still exiting once one has gone (exit 9, SIGKILL): whether
    that happens is a race of the launcher's, not the program's, so with
    --skips-finalize such a run is the reference, its stdout without the
    launcher's report (which starts with a blank line and a rule of '=')."""
    if not args.skips_finalize:
        return plain(args, args.np, program).stdout
    cmd = [args.mpiexec, "-n", str(args.np)] + program
    result = run(cmd, check=False)
    if result.returncode not in (0, signal.SIGKILL):
        fail("%s exited with %d\nstdout:\n%s\nstderr:\n%s" %
             (" ".join(cmd), result.returncode, result.stdout, result.stderr))
    report = re.search(r"^\n?={20,}\n=   BAD TERMINATION", result.stdout, re.MULTILINE)
    return result.stdout[:report.start()] if report else result.stdout


def check_records_numbered(path, iterations):
    """Every rank's accounting records, cut at the calls that end the
    run's iterations, are numbered as the profile counts them: the records
    skipped before the first, plus one a record after it, reach the run's
    count."""
    with open(path) as f:
        accounting = json.load(f)
    if accounting.get("boundary") != "call":
        fail("the records should be ended by counted calls, not %r" % accounting.get("boundary"))
    for rank in accounting["ranks"]:
        last = rank.get("skipped", 0) + len(rank["iterations"]) - 1
        if last != iterations:
            fail("rank %d's records end at iteration %d (%d skipped, %d records), the profile counts %d" %
                 (rank["rank"], last, rank.get("skipped", 0), len(rank["iterations"]), iterations))


def cmd_unchanged(args):
    with tempfile.TemporaryDirectory() as tmp:
        program = [a.replace("@TMP@", tmp) for a in args.program]
        expected = results_of(reference_run(args, program), args.timing_key)
        profile_path = os.path.join(tmp, "profile.json")
        env = dict(item.split("=", 1) for item in args.env)
        env["MHETA_PROFILE"] = profile_path
        accounting_path = os.path.join(tmp, "accounting.json")
        if args.expect_records_numbered:
            env["MHETA_ACCOUNTING"] = accounting_path
        interposed = preloaded(args, args.np, program, env)
        got = results_of(interposed.stdout, args.timing_key)
        # Said at most once by each rank, and by at least one.
        if args.says_once and not 1 <= interposed.stderr.count(args.says_once) <= args.np:
            fail("expected the ranks to say once each %r, stderr:\n%s" % (args.says_once, interposed.stderr))
        if got != expected:
            fail("output changed under the interposer:\n--- plain\n%s--- interposed\n%s" % (expected, got))
        if args.no_profile:
            if os.path.exists(profile_path):
                fail("a profile was written although no rank should have captured an iteration")
            print("ok: output unchanged, no profile (as expected)")
            return
        if args.profile_unchecked:
            print("ok: the run ended, its output unchanged")
            return
        profile = load_profile(profile_path)
        if len(profile["ranks"]) != args.np:
            fail("profile has %d ranks, expected %d" % (len(profile["ranks"]), args.np))
        if args.expect_iterations and profile["iterations"] != args.expect_iterations:
            # A count that rests on measured time (a pace) is run again.
            (outside_bound if args.iterations_timed else fail)(
                "profile says %d iterations (%s), the run made %d" %
                (profile["iterations"], profile.get("iterations_source"), args.expect_iterations))
        if args.expect_records_numbered:
            check_records_numbered(accounting_path, profile["iterations"])
        if args.expect_confident:
            capture = profile.get("capture")
            if not capture or capture["repetitions"] < 3 or capture["time_share"] < 0.5:
                fail("the capture should be sure of its loop (3 repetitions or more, half the run or more): %s"
                     % capture)
        sends, collectives = check_consistent(profile)
        if args.messages and sum(sends.values()) != args.messages:
            fail("%d messages captured, expected the %d of one iteration" % (sum(sends.values()), args.messages))
        # Any whole period is an iteration: the capture may start anywhere in it.
        expected_collectives = args.collectives.split(",") if args.collectives else None
        if expected_collectives and not any(collectives == expected_collectives[i:] + expected_collectives[:i]
                                            for i in range(len(expected_collectives))):
            fail("captured collectives %s, expected %s (or a rotation)" % (collectives, args.collectives))
        check_collective_bytes(profile, args.collective_bytes)
    print("ok: output unchanged, profile consistent (%d messages, collectives %s)" % (sum(sends.values()), collectives))


def cmd_capture_io(args):
    cols, icla_rows = 256, 32
    with tempfile.TemporaryDirectory() as tmp:
        program = [args.program[0], tmp, "4"] + (["write-first"] if args.write_first else [])
        expected = plain(args, args.np, program).stdout
        profile_path = os.path.join(tmp, "profile.json")
        got = preloaded(args, args.np, program, {"MHETA_PROFILE": profile_path}).stdout
        if got != expected:
            fail("output changed under the interposer")
        p = load_profile(profile_path)
    rows = [64 + 16 * r for r in range(args.np)]
    if p["distribution"] != rows:
        fail("distribution %s, expected the hinted local rows %s" % (p["distribution"], rows))
    variables = {v["name"]: v for v in p["variables"]}
    b_name = os.path.join(tmp, "B.{rank}.bin")
    if set(variables) != {"A", b_name}:
        fail("variables %s, expected A and %s" % (sorted(variables), b_name))
    if variables["A"] != {"name": "A", "bytes_per_row": cols * 8, "access": "read_write"}:
        fail("variable A is %s" % variables["A"])
    if variables[b_name]["access"] != "read_only" or variables[b_name]["bytes_per_row"] != cols * 8:
        fail("variable B is %s" % variables[b_name])
    if not p["prefetch"]:
        fail("the profile does not say the program prefetches")
    check_consistent(p)
    for r, rank in enumerate(p["ranks"]):
        compute, io = totals(rank)
        chunks = -(-rows[r] // icla_rows)
        a_reads, a_writes, b_reads = io[("A", "reads")], io[("A", "writes")], io[(b_name, "reads")]
        if (a_reads["count"], a_reads["bytes"]) != (chunks, rows[r] * cols * 8):
            fail("rank %d reads of A: %s, expected %d requests of %d bytes in all" % (r, dict(a_reads), chunks, rows[r] * cols * 8))
        if a_reads["prefetch"] == 0:
            fail("rank %d: reads of A are not marked as prefetches: %s" % (r, dict(a_reads)))
        # T_A: the compute on every ICLA but the last (about 0.4-0.7 of the
        # rank's compute: B's sweep is a fifth of it), or, when each ICLA is
        # written back before it is computed on, nothing (under 0.05): that
        # write waits on the disk for the prefetch, and the compute comes
        # after it. Wall-clock compute of 3 ranks on 2 cores: a time slice
        # lost in a section outside the overlap lowers the share (0.08 in one
        # of 12 runs of the sanitized build), so the bound only tells some
        # T_A from none.
        overlap_share = a_reads["overlap"] / compute if compute > 0 else 0
        if args.write_first and overlap_share > 0.05:
            fail("rank %d: T_A is %.1f%% of the compute, but a blocking write follows each prefetch's issue: "
                 "the compute after it overlaps nothing (%s)" % (r, 100 * overlap_share, dict(a_reads)))
        if not args.write_first and overlap_share < 0.03:
            fail("rank %d: T_A is %.1f%% of the compute, expected the compute on every ICLA but the last (%s)"
                 % (r, 100 * overlap_share, dict(a_reads)))
        if (a_writes["count"], a_writes["bytes"]) != (chunks, rows[r] * cols * 8):
            fail("rank %d writes of A: %s" % (r, dict(a_writes)))
        if (b_reads["count"], b_reads["bytes"], b_reads["prefetch"]) != (1, rows[r] * cols * 8, 0):
            fail("rank %d reads of B: %s" % (r, dict(b_reads)))
        peers = sorted(c["peer"] for s in rank["sections"] for c in s["comm"] if c["op"] == "send")
        expected_peers = sorted([q for q in (r - 1, r + 1) if 0 <= q < args.np])
        if peers != expected_peers:
            fail("rank %d sends to %s, expected %s" % (r, peers, expected_peers))
        if len(rank["sections"][0]["stages"]) < 2:
            fail("rank %d: the stage marks did not subdivide the section" % r)
        if compute <= 0:
            fail("rank %d: no compute recorded" % r)
    print("ok: variables, I/O, prefetch and halo of capture_io match what it does")


def cmd_emulation(args):
    """Rank 1: CPU factor 2 and I/O factor 4; rank 2 (with --np 3): I/O
    factor 4 only, so its compute must stay that of rank 0 (the emulated
    completion of its non-blocking writes is I/O, not compute). Rank 0's
    compute is its CPU time times the dilation (docs/emulation.md)."""
    cpu, io_factor = 2.0, 4.0
    ratios = collections.defaultdict(list)
    nodes = [{"cpu_factor": 1, "io_factor": 1},
             {"cpu_factor": cpu, "io_factor": io_factor, "memory_bytes": 12345678},
             {"cpu_factor": 1, "io_factor": io_factor}][:args.np]
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "emulation.json")
        with open(config, "w") as f:
            json.dump({"format": "mheta-emulation/1", "wait": "sleep", "ranks": nodes}, f)
        profile_path = os.path.join(tmp, "profile.json")
        for _ in range(args.runs):
            run([args.mheta, "run", "-n", str(args.np), "--emulate", config, "--capture-iteration", "3",
                 "--profile", profile_path, "--", args.program[0], tmp, "5"] + (["sync"] if args.sync else []),
                {"MHETA_CLOCK": args.clock})
            p = load_profile(profile_path)
            ranks = [totals(r) for r in p["ranks"]]
            c0, io0 = ranks[0]
            ratios[("compute over CPU time", 0)].append(c0 / args.probe_cpu_s)
            for r in range(1, args.np):
                c, io = ranks[r]
                ratios[("compute", r)].append(c / c0)
                ratios[("reads", r)].append(io[("X", "reads")]["seconds"] / io0[("X", "reads")]["seconds"])
                ratios[("writes", r)].append(io[("Y", "writes")]["seconds"] / io0[("Y", "writes")]["seconds"])
            if p["ranks"][1]["memory_budget_bytes"] != 12345678:
                fail("rank 1 was not given the emulated memory budget: %s" % p["ranks"][1]["memory_budget_bytes"])
    median = {key: statistics.median(values) for key, values in ratios.items()}
    for (what, r), values in sorted(ratios.items()):
        print("rank %d, %s%s: median %.3f (runs %s)" % (r, what, "" if r == 0 else " / rank 0's", median[(what, r)],
                                                              " ".join("%.3f" % x for x in values)))

    def expect(key, target, tolerance, floor, ceiling):
        value = median[key]
        if abs(value - target) > tolerance * target or not floor <= value <= ceiling:
            outside_bound("rank %d's %s: %.3f, expected %g (factors %s)" % (key[1], key[0], value, target,
                                                                            nodes[key[1]]))

    # Floors an emulator that does nothing (ratios near 1) fails. Writes to
    # the page cache vary most between ranks (write-back starts when it
    # will), hence the lowest floor.
    # Rank 0 (CPU factor 1) captures its CPU time times the dilation: the
    # ranks on the node over its cores, when there are more ranks.
    # The virtual clock needs no dilation (CPU time does not grow with
    # oversubscription).
    dilation = 1.0 if args.clock == "virtual" else max(1.0, args.np / len(os.sched_getaffinity(0)))
    if p.get("clock", "wall") != args.clock:
        fail("the profile says it was taken with the %s clock, expected %s" % (p.get("clock", "wall"), args.clock))
    expect(("compute over CPU time", 0), dilation, args.cpu_tolerance / 2, 0, 1e9)
    expect(("compute", 1), cpu, args.cpu_tolerance, 1.4, 1e9)
    expect(("reads", 1), io_factor, args.io_tolerance, 1.5, 1e9)
    expect(("writes", 1), io_factor, args.io_tolerance, 1.3, 1e9)
    if args.np >= 3:
        expect(("compute", 2), 1.0, args.cpu_tolerance, 0, 1.4)
        expect(("reads", 2), io_factor, args.io_tolerance, 1.5, 1e9)
        expect(("writes", 2), io_factor, args.io_tolerance, 1.3, 1e9)
    print("ok")


def cmd_predict(args):
    with tempfile.TemporaryDirectory() as tmp:
        cluster = args.cluster
        if not cluster:
            cluster = os.path.join(tmp, "cluster.json")
            # Measured with sleep-waiting, as the program runs: spinning ranks
            # on an oversubscribed node would price collectives at milliseconds.
            run([args.mheta, "run", "-n", str(args.np), "--wait", "sleep", "--capture", "off", "--",
                 args.microbench, "-o", cluster, "--budget", "20"])
        profile_path = os.path.join(tmp, "profile.json")
        rows = args.rows
        cg = [args.program[0], str(rows), str(args.iterations)]
        captured_run = run([args.mheta, "run", "-n", str(args.np), "--rows", str(rows), "--wait", "sleep",
                            "--profile", profile_path, "--"] + cg).stdout
        # The run that was captured measures its own iterations too (the
        # capture is one of them): the same moment of a shared machine.
        same_run = json.loads(captured_run.strip().splitlines()[-1])["iteration_s"]
        # The actual time: runs of the program as it normally runs (same
        # waiting, no capture), median of a few on this shared machine.
        times = []
        for _ in range(args.runs):
            out = run([args.mheta, "run", "-n", str(args.np), "--wait", "sleep", "--capture", "off", "--"] + cg).stdout
            times.append(json.loads(out.strip().splitlines()[-1])["iteration_s"])
        measured = statistics.median(times)
        p = load_profile(profile_path)
        dist = os.path.join(tmp, "dist.txt")
        with open(dist, "w") as f:
            f.write("\n".join(str(r) for r in p["distribution"]) + "\n")
        predicted = json.loads(run([args.mheta, "predict", dist, "--profile", profile_path, "--cluster", cluster,
                                    "--json"]).stdout)["iteration_s"]
    error = abs(predicted - measured) / min(predicted, measured)
    print("measured %.6f s per iteration, predicted %.6f s, difference %.1f%% (MHETA §5.2.1 metric); "
          "the captured run itself measured %.6f s, difference %.1f%%" %
          (measured, predicted, 100 * error, same_run, 100 * abs(predicted - same_run) / min(predicted, same_run)))
    if error > args.tolerance:
        outside_bound("prediction differs by %.1f%%, more than %.0f%%" % (100 * error, 100 * args.tolerance))
    print("ok")


def block_rows(rows, ranks):
    return [rows // ranks + (1 if r < rows % ranks else 0) for r in range(ranks)]


def cmd_app(args):
    """An app of apps/ under `mheta run`: same result as without the
    interposer, and a profile whose distribution, variables, I/O bytes and
    messages are what the app does (MHETA_MEMORY_BYTES keeps it out of core;
    the captured iteration is the second, marked by the app)."""
    name = os.path.basename(args.program[0])
    env = {"MHETA_MEMORY_BYTES": str(args.budget)}
    with tempfile.TemporaryDirectory() as tmp:
        common = ["--rows", str(args.rows), "--iters", str(args.iterations)]
        plain_out = run([args.mpiexec, "-n", str(args.np)] + args.program + common + ["--data", os.path.join(tmp, "a")], env).stdout
        profile_path = os.path.join(tmp, "profile.json")
        out = run([args.mheta, "run", "-n", str(args.np), "--profile", profile_path, "--"] + args.program + common +
                  ["--data", os.path.join(tmp, "b")], env).stdout
        verdict = [line for line in plain_out.splitlines() if "PASS" in line]
        if not verdict or verdict != [line for line in out.splitlines() if "PASS" in line]:
            fail("%s: result differs under the interposer:\n%s\n---\n%s" % (name, verdict, out))
        p = load_profile(profile_path)
    rows = block_rows(args.rows, args.np)
    if p["distribution"] != rows:
        fail("%s: distribution %s, expected Blk %s" % (name, p["distribution"], rows))
    sends, collectives = check_consistent(p)
    bpr = {v["name"]: v["bytes_per_row"] for v in p["variables"]}
    written = {v["name"] for v in p["variables"] if v["access"] == "read_write"}
    for r, rank in enumerate(p["ranks"]):
        _, io = totals(rank)
        read_vars = {v for (v, kind) in io if kind == "reads" and io[(v, kind)]["bytes"] > 0}
        if not read_vars:
            fail("%s rank %d reads nothing in the captured iteration" % (name, r))
        for v in read_vars:
            expected = args.sweeps_read * rows[r] * bpr[v]
            if io[(v, "reads")]["bytes"] != expected:
                fail("%s rank %d read %d bytes of %s, expected %d sweep(s) of %d rows x %d bytes" %
                     (name, r, io[(v, "reads")]["bytes"], v, args.sweeps_read, rows[r], bpr[v]))
        for v in written:
            expected = args.sweeps_written * rows[r] * bpr[v]
            if io[(v, "writes")]["bytes"] != expected:
                fail("%s rank %d wrote %d bytes of %s, expected %d" % (name, r, io[(v, "writes")]["bytes"], v, expected))
        peers = sorted({c["peer"] for s in rank["sections"] for c in s["comm"] if c["op"] in ("send", "recv")})
        if args.pattern == "neighbours" and peers != [q for q in (r - 1, r + 1) if 0 <= q < args.np]:
            fail("%s rank %d exchanges with %s, expected its neighbours" % (name, r, peers))
        if args.pattern == "collectives" and peers:
            fail("%s rank %d sends point-to-point messages to %s" % (name, r, peers))
    if args.collectives and not set(args.collectives.split(",")) <= set(collectives):
        fail("%s: collectives %s do not include %s" % (name, collectives, args.collectives))
    if args.sweeps_written == 0 and written:
        fail("%s: variables %s written, but the app only reads" % (name, sorted(written)))
    print("ok: %s on %d ranks: result unchanged; profile: Blk %s, variables %s, %d messages, collectives %s" %
          (name, args.np, rows, sorted(bpr), sum(sends.values()), collectives))


def probe_lines(out):
    """virtual_clock_probe's per-rank lines, by rank."""
    ranks = {}
    for line in out.splitlines():
        words = line.split()
        if words and words[0] == "rank":
            ranks[int(words[1])] = {words[i]: float(words[i + 1]) for i in range(2, len(words) - 1, 2)}
    return ranks


def cmd_virtual_clock(args):
    """virtual_clock_probe under an emulation of distinct CPU factors and a
    50 us network, with the virtual clock (docs/emulation.md): MPI_Wtime
    advances by CPU time x factor over compute, not at all while waiting; a
    barrier and an Iallreduce end at the same time on every rank, after the
    latest entry; a message is received at least the latency after it was
    sent; the exchanged values are those of a run without the interposer;
    two runs give the same times."""
    factors = [1.0, 2.0, 3.0, 1.5][:args.np]
    plain_out = plain(args, args.np, args.program).stdout
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "emulation.json")
        with open(config, "w") as f:
            # A stated network: the machine's, measured at MPI_Init, varies
            # with the load of a shared machine.
            json.dump({"format": "mheta-emulation/1", "ranks": [{"cpu_factor": c} for c in factors],
                       "network": {"latency_us": 50, "bandwidth_MBps": 117}}, f)
        env = {"MHETA_EMULATE": config, "MHETA_CAPTURE": "off", "MHETA_CLOCK": "virtual"}
        for _ in range(2):
            out = preloaded(args, args.np, args.program, env).stdout
            checksum = [line for line in out.splitlines() if line.startswith("checksum")]
            if checksum != [line for line in plain_out.splitlines() if line.startswith("checksum")]:
                fail("the exchanged values differ under the virtual clock:\n%s\n---\n%s" % (plain_out, out))
            runs.append(probe_lines(out))
    for ranks in runs:
        if sorted(ranks) != list(range(args.np)):
            fail("expected a line from every rank, got %s" % sorted(ranks))
        for r, v in ranks.items():
            expected = v["cpu"] * factors[r]
            if abs(v["compute"] - expected) > args.cpu_tolerance * expected:
                outside_bound("rank %d: MPI_Wtime advanced %.4f s over %.4f s of CPU at factor %g (expected %.4f)" %
                     (r, v["compute"], v["cpu"], factors[r], expected))
        barrier = {v["barrier"] for v in ranks.values()}
        if min(barrier) < max(v["t1"] for v in ranks.values()):
            fail("the barrier must end after the latest entry: %s" % ranks)
        for r, v in ranks.items():
            if r > 0 and v["received"] - v["sent"] < 50e-6:
                fail("rank %d received at %.6f a message sent at %.6f, before the latency" %
                     (r, v["received"], v["sent"]))
            if v["after"] < v["latest"]:
                fail("rank %d: Iallreduce ended at %.6f, before the latest entry %.6f" % (r, v["after"], v["latest"]))
        # Each time is read by MPI_Wtime just after the call: the CPU time of
        # returning from it is in it, microseconds, and a few hundred on a
        # loaded machine (40 runs under a build: 0.21 and 0.29 ms twice).
        # Time that waiting leaked into would be milliseconds.
        if max(barrier) - min(barrier) > 1e-4:
            outside_bound("the barrier ended %.6f s apart on the ranks: %s" % (max(barrier) - min(barrier), ranks))
        for r, v in ranks.items():
            if r > 0 and v["received"] - v["sent"] >= 0.005:
                outside_bound("rank %d received at %.6f a message sent at %.6f (waiting is not compute)" %
                              (r, v["received"], v["sent"]))
            if abs(v["after"] - ranks[0]["after"]) > 1e-4:
                outside_bound("rank %d: Iallreduce ended at %.6f, %.6f s apart from rank 0's" %
                              (r, v["after"], v["after"] - ranks[0]["after"]))
    first, second = (runs[0][0]["after"], runs[1][0]["after"])
    if abs(first - second) > args.tolerance * first:
        outside_bound("two runs end at virtual times %.6f and %.6f" % (first, second))
    print("ok: %d ranks, factors %s; end times of two runs %.6f, %.6f s" % (args.np, factors, first, second))


def median_iteration_s(out):
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    seconds = [line["seconds"] for line in lines if line.get("mheta") == "iteration"]
    if not seconds:
        fail("no iteration times in the output:\n" + out)
    return statistics.median(seconds)


def cmd_virtual_app(args):
    """An app of apps/ on more ranks than cores under `mheta run --emulate`
    with the virtual clock: the answer of a run without the interposer, and
    two runs whose median iteration times agree within --tolerance."""
    name = os.path.basename(args.program[0])
    env = {"MHETA_MEMORY_BYTES": str(args.budget), "MHETA_CLOCK": "virtual"}
    with tempfile.TemporaryDirectory() as tmp:
        common = ["--rows", str(args.rows), "--iters", str(args.iterations)]
        plain_out = run([args.mpiexec, "-n", str(args.np)] + args.program + common + ["--data", os.path.join(tmp, "a")],
                        env).stdout
        verdict = [line for line in plain_out.splitlines() if "PASS" in line]
        medians = []
        for i in range(2):
            out = run([args.mheta, "run", "-n", str(args.np), "--emulate", args.preset, "--capture", "off", "--"] +
                      args.program + common + ["--data", os.path.join(tmp, "v%d" % i)], env).stdout
            if not verdict or verdict != [line for line in out.splitlines() if "PASS" in line]:
                fail("%s: result differs under the virtual clock:\n%s\n---\n%s" % (name, verdict, out))
            medians.append(median_iteration_s(out))
    spread = abs(medians[0] - medians[1]) / min(medians)
    if spread > args.tolerance:
        outside_bound("%s on %d ranks, %s: median iteration times %.6f and %.6f s differ by %.1f%%" %
             (name, args.np, args.preset, medians[0], medians[1], 100 * spread))
    print("ok: %s on %d ranks under %s: result unchanged; median iteration %.6f and %.6f s (%.2f%% apart)" %
          (name, args.np, args.preset, medians[0], medians[1], 100 * spread))


def cmd_virtual_vs_wall(args):
    """An app on as many ranks as cores, every factor 1 and the machine's own
    network: the median iteration time under the virtual clock
    (MHETA_CLOCK=virtual without an emulation) against the wall clock's
    without the interposer, medians of --runs runs each."""
    name = os.path.basename(args.program[0])
    env = {"MHETA_MEMORY_BYTES": str(args.budget)}
    walls, virtuals = [], []
    with tempfile.TemporaryDirectory() as tmp:
        common = ["--rows", str(args.rows), "--iters", str(args.iterations), "--data", os.path.join(tmp, "d")]
        for _ in range(args.runs):
            walls.append(median_iteration_s(run([args.mpiexec, "-n", str(args.np)] + args.program + common, env).stdout))
            virtual_env = dict(env, MHETA_CLOCK="virtual", MHETA_CAPTURE="off")
            virtuals.append(median_iteration_s(preloaded(args, args.np, args.program + common, virtual_env).stdout))
    wall, virtual = statistics.median(walls), statistics.median(virtuals)
    gap = abs(virtual - wall) / wall
    print("%s on %d ranks: wall %.6f s, virtual %.6f s (%.1f%% apart; target %.0f%%); runs wall %s, virtual %s" %
          (name, args.np, wall, virtual, 100 * gap, 100 * args.tolerance, " ".join("%.6f" % w for w in walls),
           " ".join("%.6f" % v for v in virtuals)))
    if gap > args.tolerance:
        outside_bound("%s: the virtual iteration time is %.1f%% from the wall clock's" % (name, 100 * gap))


def in_core_compute(rank):
    """A rank's compute in its recorded iterations after the first that did
    no I/O and some compute (model/in_core_compute.hpp); 3 or more: the rank
    runs in core."""
    return [it[0] for it in rank["iterations"][1:] if it[1] == 0 and it[0] > 0]


def in_core_medians(accounting):
    """Per rank, the median of in_core_compute(), or None with fewer than 3."""
    medians = []
    for rank in accounting["ranks"]:
        in_core = in_core_compute(rank)
        medians.append(statistics.median(in_core) if len(in_core) >= 3 else None)
    return medians


def cmd_run_compute(args):
    """An app under `mheta run --emulate` (virtual clock): each rank's
    `in_core_compute_s` is the median of the run's in-core iterations, as
    the accounting it keeps (--accounting) records them; without
    --accounting the run's own records are gone afterwards and the profile
    still gets them, under the wall clock too."""
    name = os.path.basename(args.program[0])
    with tempfile.TemporaryDirectory() as tmp:
        def captured(label, options):
            directory = os.path.join(tmp, label)
            os.mkdir(directory)
            profile = os.path.join(directory, "profile.json")
            result = run([args.mheta, "run", "-n", str(args.np), "--emulate", args.preset, "--profile", profile] +
                         options + ["--"] + args.program + ["--rows", str(args.rows), "--iters", str(args.iterations),
                                                            "--data", os.path.join(directory, "data")])
            # A rank's captured compute over 3x from the run's median on a
            # loaded machine (0.17-0.63x once in a full suite run): mheta run
            # keeps the captured compute, as it should; measured again.
            if "are not the captured period" in result.stderr:
                outside_bound("%s: %s" % (name, result.stderr))
            return load_profile(profile), result.stderr, directory

        accounting_path = os.path.join(tmp, "accounting.json")
        p, stderr, _ = captured("kept", ["--accounting", accounting_path])
        with open(accounting_path) as f:
            expected = in_core_medians(json.load(f))
        if None in expected:
            fail("%s: a rank has fewer than 3 in-core iterations in %s; give more --iterations" % (name, accounting_path))
        said = "in-core compute of %d of %d ranks" % (args.np, args.np)
        if said not in stderr:
            fail("%s: mheta run did not say %r:\n%s" % (name, said, stderr))
        for r, rank in enumerate(p["ranks"]):
            got = rank.get("in_core_compute_s")
            if got is None or abs(got - expected[r]) > 1e-9 * expected[r]:
                fail("%s rank %d: in_core_compute_s %s, the run's in-core median %.9f s" % (name, r, got, expected[r]))

        p, stderr, directory = captured("own", [])
        left = [f for f in os.listdir(directory) if "accounting" in f]
        if left:
            fail("%s: the run's own records were left beside the profile: %s" % (name, left))
        if said not in stderr or any("in_core_compute_s" not in rank for rank in p["ranks"]):
            fail("%s: without --accounting the profile did not get the run's in-core compute:\n%s" % (name, stderr))

        p, stderr, directory = captured("wall", ["--clock", "wall"])
        left = [f for f in os.listdir(directory) if "accounting" in f]
        if left or said not in stderr or any("in_core_compute_s" not in rank for rank in p["ranks"]):
            fail("%s: under the wall clock the profile did not get the run's in-core compute, or its records were "
                 "left (%s):\n%s" % (name, left, stderr))
    print("ok: %s on %d ranks under %s: in-core compute per rank %s s, the medians of the run's iterations" %
          (name, args.np, args.preset, " ".join("%.6f" % e for e in expected)))


def run_bounded(cmd, seconds, env=None):
    """cmd's result, or a failure when it has not ended in `seconds` (its
    launcher and the ranks it started are killed then)."""
    merged = dict(os.environ)
    merged.update(env or {})
    process = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, env=merged)
    try:
        stdout, stderr = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        fail("the run did not end in %d s (ranks waiting for each other): %s" % (seconds, " ".join(cmd)))
    if process.returncode != 0:
        fail("%s exited with %d:\n%s" % (" ".join(cmd), process.returncode, stderr))
    return subprocess.CompletedProcess(cmd, process.returncode, stdout, stderr)


# mheta run warns beyond this pace (cli/run_command.cpp, kUnsteadyPace).
WARNED_PACE = 1.3


def pace_over_median(accounting):
    """The run's mean iteration over its median one, from its records
    (model/in_core_compute.hpp, pace_over_median_iteration): per rank, the
    totals after the first record, without the iterations with I/O of a
    rank that runs in core; the furthest from 1 over the ranks."""
    furthest = None
    for rank in accounting["ranks"]:
        in_core = len(in_core_compute(rank)) >= 3
        totals = [it[4] for it in rank["iterations"][1:] if not (in_core and it[1] > 0)]
        if len(totals) < 3 or statistics.median(totals) <= 0:
            continue
        pace = statistics.mean(totals) / statistics.median(totals)
        if furthest is None or abs(math.log(pace)) > abs(math.log(furthest)):
            furthest = pace
    return furthest


def mean_variation(profile):
    """The largest of the ranks' mean compute_variation factors (1 without)."""
    means = [sum(r["compute_variation"]) / len(r["compute_variation"])
             for r in profile["ranks"] if r.get("compute_variation")]
    return max(means) if means else 1.0


def cmd_pace(args):
    """`mheta run` of a loop whose steps grow (--grows), or of a steady one,
    under the wall clock or (--emulate) the virtual one: the program's
    results unchanged; the run's records (--accounting) price the profile's
    compute, so the profile's capture.pace is the run's mean iteration over
    its median one, as the records give it, and mheta run's warning is given
    exactly when it is beyond WARNED_PACE either way; for the steady loop
    within 1/1.5 to 1.5."""
    with tempfile.TemporaryDirectory() as tmp:
        expected = results_of(plain(args, args.np, args.program).stdout, args.timing_key)
        profile = os.path.join(tmp, "profile.json")
        records = os.path.join(tmp, "accounting.json")
        emulation = ["--emulate", args.emulate] if args.emulate else []
        result = run([args.mheta, "run", "-n", str(args.np), "--profile", profile, "--accounting", records] +
                     emulation + ["--"] + args.program)
        if results_of(result.stdout, args.timing_key) != expected:
            fail("output changed under mheta run:\n--- plain\n%s--- mheta run\n%s" % (expected, result.stdout))
        pace = (load_profile(profile).get("capture") or {}).get("pace")
        if pace is None:
            fail("the profile's capture has no pace: %s" % load_profile(profile).get("capture"))
        warned = "the run's median iteration's time on average" in result.stderr
        # The compute's variation prices its share of the pace already.
        priced = mean_variation(load_profile(profile))
        if warned != (pace > WARNED_PACE * priced or pace < 1 / WARNED_PACE):
            fail("pace %.2f (variation %.2f), and mheta run %s:\n%s"
                 % (pace, priced, "warned" if warned else "did not warn", result.stderr))
        with open(records) as f:
            expected_pace = pace_over_median(json.load(f))
        if expected_pace is None or abs(pace - expected_pace) > 1e-9 * expected_pace:
            fail("pace %.6f, the run's records give %s:\n%s" % (pace, expected_pace, result.stderr))
        if args.grows and pace < args.min_pace:
            outside_bound("a loop whose steps grow: pace %.2f, expected %g or more" % (pace, args.min_pace))
        if not args.grows and not 1 / 1.5 <= pace <= 1.5:
            outside_bound("a steady loop: pace %.2f, expected 0.67 to 1.5" % pace)
    print("ok: pace %.2f, %s" % (pace, "warned" if warned else "no warning"))


def cmd_marks_on_one_rank(args):
    """A program that marks on rank 0 only, or (its argument "others") on
    every rank but 0: each rank that marks waits MHETA_GATHER_WAIT seconds
    at its capture's end, says so, and the run ends with its output
    unchanged and a profile gathered at MPI_Finalize."""
    marking = list(range(1, args.np)) if "others" in args.program[1:] else [0]
    with tempfile.TemporaryDirectory() as tmp:
        expected = plain(args, args.np, args.program).stdout
        profile_path = os.path.join(tmp, "profile.json")
        got = run_bounded([args.mheta, "run", "-n", str(args.np), "--profile", profile_path, "--"] + args.program,
                          120, {"MHETA_GATHER_WAIT": "2"})
        if got.stdout != expected:
            fail("output changed under the interposer:\n%s\nagainst\n%s" % (got.stdout, expected))
        said = sorted(line for line in got.stderr.splitlines() if "gathered at MPI_Finalize instead" in line)
        if len(said) != len(marking) or any("rank %d:" % r not in line for r, line in zip(marking, said)):
            fail("expected ranks %s to say once each that they went on without the others; stderr:\n%s" %
                 (marking, got.stderr))
        load_profile(profile_path)
    print("ok: the run ended, its output unchanged, ranks %s said why they went on, the profile was written" %
          marking)


def cmd_setup_then_marks(args):
    """A program whose ranks but 0 run a long loop of their own before the
    marked main loop: every rank must take the marks, and the run end with
    its output unchanged and a profile of the marked iteration."""
    with tempfile.TemporaryDirectory() as tmp:
        program = [args.program[0], tmp] + args.program[1:]
        expected = plain(args, args.np, program).stdout
        # A slow CPU under the virtual clock: the setup loop's 60 steps take
        # seconds of virtual time, long enough for detection to conclude on
        # it, in a fraction of a second of the machine's.
        emulation = os.path.join(tmp, "slow.json")
        with open(emulation, "w") as f:
            json.dump({"format": "mheta-emulation/1", "ranks": [{"cpu_factor": 40}],
                       "network": {"latency_us": 50, "bandwidth_MBps": 100}}, f)
        profile_path = os.path.join(tmp, "profile.json")
        got = run_bounded([args.mheta, "run", "-n", str(args.np), "--emulate", emulation, "--clock", "virtual",
                           "--profile", profile_path, "--"] + program, 120)
        if got.stdout != expected:
            fail("output changed under the interposer:\n%s\nagainst\n%s" % (got.stdout, expected))
        p = load_profile(profile_path)
    check_consistent(p)
    for r, rank in enumerate(p["ranks"]):
        peers = sorted(c["peer"] for s in rank["sections"] for c in s["comm"])
        expected_peers = sorted([(r + 1) % args.np, (r - 1) % args.np])
        if peers != expected_peers:
            fail("rank %d's captured iteration talks to %s, not its ring neighbours %s (not the marked loop)"
                 % (r, peers, expected_peers))
    print("ok: every rank took the marks; the profile is the marked loop's")


def cmd_run_errors(args):
    with tempfile.TemporaryDirectory() as tmp:
        marker = os.path.join(tmp, "started")
        # The program would leave a marker if it ever started.
        program = ["--", "/bin/sh", "-c", "touch " + marker]
        bad_json = os.path.join(tmp, "bad.json")
        with open(bad_json, "w") as f:
            f.write('{"format": "mheta-emulation/1", "ranks": [{"cpu_factor": "fast"}]}')
        bad_network = os.path.join(tmp, "bad-network.json")
        with open(bad_network, "w") as f:
            f.write('{"format": "mheta-emulation/1", "ranks": [{}], "network": {"latency_us": 50, "bandwidth_MBps": 0}}')
        truncated = os.path.join(tmp, "truncated.json")
        with open(truncated, "w") as f:
            f.write('{"format": "mheta-emulation/1", "ranks": [')
        # Hostile files: nested past the limit, a factor that would sleep for ever.
        deep = os.path.join(tmp, "deep.json")
        with open(deep, "w") as f:
            f.write('{"format": "mheta-emulation/1", "ranks": ' + "[" * 100000 + "]" * 100000 + "}")
        slow = os.path.join(tmp, "slow.json")
        with open(slow, "w") as f:
            f.write('{"format": "mheta-emulation/1", "ranks": [{"cpu_factor": 1e19}]}')
        fifo = os.path.join(tmp, "fifo")
        os.mkfifo(fifo)
        cases = [
            (["--emulate", deep], 3, "nesting deeper than"),
            (["--emulate", slow], 3, "ranks[0].cpu_factor"),
            (["--dist", fifo], 3, "not a regular file"),
            (["--row-weights", "/dev/zero"], 3, "not a regular file"),
            (["--emulate", "HY3"], 3, "HY3"),
            (["--emulate", bad_json], 3, "cpu_factor"),
            (["--emulate", truncated], 3, truncated),
            (["--emulate", bad_network], 3, "network.bandwidth_MBps"),
            (["--clock", "sundial"], 2, "--clock sundial"),
            (["--profile", os.path.join(tmp, "missing", "p.json")], 4, "does not exist"),
            (["--capture", "sometimes"], 2, "--capture"),
            (["--capture", "call:MPI_Allreduce:99999999999999999999"], 2, "--capture"),
            (["--accounting-call", "Allreduce"], 2, "--accounting-call Allreduce"),
            (["--accounting-call", "MPI_Allreduce:0"], 2, "--accounting-call"),
            (["--wait", "nap"], 2, "--wait"),
            (["-o", "p.json"], 2, "unknown option -o"),  # a mistyped option, not the program
        ]
        os.chmod(tmp, 0o755)
        readonly = os.path.join(tmp, "readonly")
        os.mkdir(readonly, 0o555)
        if os.geteuid() != 0:  # root writes anywhere
            cases.append((["--profile", os.path.join(readonly, "p.json")], 4, "not writable"))
        for extra, code, words in cases:
            result = run([args.mheta, "run", "-n", "2"] + extra + program, check=False)
            if result.returncode != code:
                fail("mheta run %s exited %d, expected %d; stderr: %s" % (" ".join(extra), result.returncode, code, result.stderr))
            if words not in result.stderr or "mheta run" not in result.stderr:
                fail("mheta run %s: message does not say '%s': %s" % (" ".join(extra), words, result.stderr))
            if os.path.exists(marker):
                fail("mheta run %s started the program despite the bad setting" % " ".join(extra))
            if "Traceback" in result.stderr or "terminate called" in result.stderr:
                fail("mheta run %s crashed: %s" % (" ".join(extra), result.stderr))
        if args.static_program:
            result = run([args.mheta, "run", "-n", "2", "--", args.static_program, marker], check=False)
            if result.returncode != 3 or "statically linked" not in result.stderr or os.path.exists(marker):
                fail("mheta run of a statically linked program exited %d (expected 3, not started): %s" %
                     (result.returncode, result.stderr))
        # Counts out of range are command-line errors that say the range.
        for extra, words in ((["-n", "0"], "from 1 to 2147483647"),
                             (["-n", "2", "--rows", "99999999999999999999"], "from 1 to 9223372036854775807")):
            result = run([args.mheta, "run"] + extra + program, check=False)
            if result.returncode != 2 or words not in result.stderr or len(result.stderr) > 400:
                fail("mheta run %s exited %d with: %s" % (" ".join(extra), result.returncode, result.stderr))
            if os.path.exists(marker):
                fail("mheta run %s started the program" % " ".join(extra))
        # Settings the library itself cannot use never stop the program: it
        # warns and runs unemulated, and the profile it cannot write is a
        # warning too.
        mpi_program = args.program or ["/bin/true"]
        expected = plain(args, 2, mpi_program).stdout
        result = run([args.mpiexec, "-n", "2", "-genv", "LD_PRELOAD", args.lib, "-genv", "MHETA_EMULATE", bad_json,
                      "-genv", "MHETA_PROFILE", os.path.join(tmp, "missing", "p.json"),
                      "-genv", "MHETA_CAPTURE", "call:MPI_Allreduce:1"] + mpi_program, check=False)
        if result.returncode != 0 or result.stdout != expected:
            fail("the program failed or changed under unusable settings: %s\n%s" % (result.stdout, result.stderr))
        if args.program:
            for words in ("MHETA_EMULATE", "cannot write the profile"):
                if words not in result.stderr:
                    fail("no warning about '%s' on stderr: %s" % (words, result.stderr))
        # A malformed network block and an unknown clock: one line each a
        # rank, naming the cause, and the program's results as without them.
        result = run([args.mpiexec, "-n", "2", "-genv", "LD_PRELOAD", args.lib, "-genv", "MHETA_EMULATE", bad_network,
                      "-genv", "MHETA_CLOCK", "sundial", "-genv", "MHETA_CAPTURE", "off"] + mpi_program, check=False)
        if result.returncode != 0 or result.stdout != expected:
            fail("the program failed or changed under a bad network or clock: %s\n%s" % (result.stdout, result.stderr))
        if args.program:
            for words in ("network.bandwidth_MBps", "MHETA_CLOCK=sundial"):
                lines = [line for line in result.stderr.splitlines() if words in line]
                if len(lines) != 2:
                    fail("expected one line naming '%s' from each of the 2 ranks: %s" % (words, result.stderr))
        # Nor do hostile ones: a nested emulation file, inputs that are a FIFO
        # or /dev/zero, numbers past 64 bits. The program neither crashes nor
        # hangs, and writes its profile without them.
        profile = os.path.join(tmp, "hostile-profile.json")
        result = run([args.mpiexec, "-n", "2", "-genv", "LD_PRELOAD", args.lib, "-genv", "MHETA_EMULATE", deep,
                      "-genv", "MHETA_DIST", fifo, "-genv", "MHETA_ROW_WEIGHTS", "/dev/zero",
                      "-genv", "MHETA_ROWS", "99999999999999999999", "-genv", "MHETA_CAPTURE_ITERATION", "-3",
                      "-genv", "MHETA_PROFILE", profile, "-genv", "MHETA_CAPTURE", "call:MPI_Allreduce:1"]
                     + mpi_program, check=False)
        if result.returncode != 0 or result.stdout != expected:
            fail("the program failed or changed under hostile settings: %s\n%s" % (result.stdout, result.stderr))
        if args.program:
            for words in ("nesting deeper than", "not a regular file", "MHETA_ROWS=99999999999999999999"):
                if words not in result.stderr:
                    fail("no warning about '%s' on stderr: %s" % (words, result.stderr))
        # A program that runs but never calls MPI: its run is fine, its
        # profile missing, and the exit says so (6), unless none was asked for.
        for extra, code in (([], 6), (["--capture", "off"], 0)):
            result = run([args.mheta, "run", "-n", "2"] + extra + program, check=False)
            if result.returncode != code or not os.path.exists(marker):
                fail("mheta run %s of a program without MPI exited %d, expected %d after running it: %s" %
                     (" ".join(extra), result.returncode, code, result.stderr))
            if code == 6 and "wrote no profile" not in result.stderr:
                fail("mheta run without a profile does not say so: %s" % result.stderr)
            os.remove(marker)
        print("ok: %d bad settings rejected before the program started; a run without a profile exits 6" % len(cases))


def seconds_of(stdout, key):
    """The figure of the program's line "<key>: <s> s"."""
    match = re.search(r"^%s: ([0-9.]+) s$" % re.escape(key), stdout, re.MULTILINE)
    if not match:
        fail("no %r line in the output:\n%s" % (key, stdout))
    return float(match.group(1))


def cmd_sleep_wait(args):
    """Ranks that wait while the others need them, sleep-waited
    (MHETA_WAIT=sleep): the output unchanged, and each timed part (the
    program's "<key>: <s> s" lines, --timing-key comma-separated) within
    --slowdown times its time without the interposer."""
    keys = args.timing_key.split(",")
    reference = plain(args, args.np, args.program).stdout
    slept = preloaded(args, args.np, args.program, {"MHETA_WAIT": "sleep", "MHETA_CAPTURE": "off"}).stdout
    # Each rank prints its own results: in any order.
    results = [sorted(line for line in out.splitlines() if line.startswith("result ")) for out in (reference, slept)]
    if results[0] != results[1]:
        fail("output changed under the interposer:\n--- plain\n%s--- sleep-waited\n%s" % (reference, slept))
    for key in keys:
        without, with_sleeps = seconds_of(reference, key), seconds_of(slept, key)
        ratio = with_sleeps / max(without, 1e-6)
        if ratio > args.slowdown:
            outside_bound("%s took %.4f s sleep-waited against %.4f s without the interposer: %.1fx, bound %.0fx" %
                          (key, with_sleeps, without, ratio, args.slowdown))
        print("ok: %s %.4f s sleep-waited against %.4f s without the interposer (%.1fx, bound %.0fx)" %
              (key, with_sleeps, without, ratio, args.slowdown))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("check", choices=["unchanged", "capture-io", "emulation", "predict", "run-errors", "app",
                                          "virtual-clock", "virtual-app", "virtual-vs-wall", "run-compute",
                                          "setup-then-marks", "marks-on-one-rank", "pace", "sleep-wait"])
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--lib", required=True)
    parser.add_argument("--mheta")
    parser.add_argument("--microbench")
    parser.add_argument("--cluster")
    parser.add_argument("--np", type=int, default=2)
    parser.add_argument("--rows", type=int, default=40000)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--budget", type=int, default=98304, help="app: MHETA_MEMORY_BYTES")
    parser.add_argument("--sweeps-read", type=int, default=1)
    parser.add_argument("--sweeps-written", type=int, default=0)
    parser.add_argument("--pattern", choices=["neighbours", "collectives", "any"], default="any")
    parser.add_argument("--messages", type=int, default=0, help="unchanged: messages in one iteration, all ranks")
    parser.add_argument("--collectives", default="")
    parser.add_argument("--collective-bytes", default="",
                        help="unchanged: OP:BYTES,... the bytes every captured OP must carry on every rank")
    parser.add_argument("--env", action="append", default=[], help="unchanged: KEY=VALUE for the interposed run")
    parser.add_argument("--no-profile", action="store_true", help="unchanged: no rank captures an iteration, no profile is written")
    parser.add_argument("--profile-unchecked", action="store_true",
                        help="unchanged: the run ends with its output unchanged; whatever profile it writes")
    parser.add_argument("--expect-iterations", type=int, default=0, help="unchanged: the profile's iterations")
    parser.add_argument("--iterations-timed", action="store_true",
                        help="unchanged: the count rests on measured time (a pace), run again when it is off")
    parser.add_argument("--expect-records-numbered", action="store_true",
                        help="unchanged: the accounting's records are numbered as the profile's iterations")
    parser.add_argument("--expect-confident", action="store_true",
                        help="unchanged: the profile's capture saw its loop 3 times or more, over half the run")
    parser.add_argument("--timing-key", default="", help="output lines holding this are timings, not results")
    parser.add_argument("--grows", action="store_true", help="pace: the program's steps grow")
    parser.add_argument("--emulate", default="", help="pace: run under this emulation (the virtual clock)")
    parser.add_argument("--min-pace", type=float, default=1.1,
                        help="pace: the least pace of a loop that grows (its mean step over its median one)")
    parser.add_argument("--slowdown", type=float, default=20,
                        help="sleep-wait: bound on each timed part's time over its time without the interposer")
    parser.add_argument("--tolerance", type=float, default=0.5)
    # Relative; generous because the machine is shared (a woken rank may wait
    # milliseconds for a core). Without emulation the ratios are 1.
    parser.add_argument("--cpu-tolerance", type=float, default=0.6)
    parser.add_argument("--io-tolerance", type=float, default=1.5)
    parser.add_argument("--sync", action="store_true", help="emulation: the probe syncs its writes")
    parser.add_argument("--write-first", action="store_true",
                        help="capture-io: each ICLA written back right after the next one's prefetch is issued")
    parser.add_argument("--probe-cpu-s", type=float, default=0.020, help="emulation: the probe's CPU time per iteration")
    parser.add_argument("--preset", default="HY1", help="virtual-app, run-compute: the emulation")
    parser.add_argument("--clock", choices=["virtual", "wall"], default="virtual", help="emulation: MHETA_CLOCK")
    parser.add_argument("--says-once", default="", help="unchanged: text ranks print at most once each on stderr")
    parser.add_argument("--skips-finalize", action="store_true",
                        help="unchanged: the program exits without MPI_Finalize; its run without the interposer "
                        "may be reported killed by the launcher")
    parser.add_argument("--static-program", help="run-errors: a statically linked program, refused before it starts")
    argv = sys.argv[1:]
    program = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    args.program = program
    {"unchanged": cmd_unchanged, "capture-io": cmd_capture_io, "emulation": cmd_emulation,
     "predict": cmd_predict, "run-errors": cmd_run_errors, "app": cmd_app,
     "virtual-clock": cmd_virtual_clock, "virtual-app": cmd_virtual_app, "setup-then-marks": cmd_setup_then_marks,
     "marks-on-one-rank": cmd_marks_on_one_rank,
     "virtual-vs-wall": cmd_virtual_vs_wall, "run-compute": cmd_run_compute, "pace": cmd_pace,
     "sleep-wait": cmd_sleep_wait}[args.check](args)


if __name__ == "__main__":
    main()
