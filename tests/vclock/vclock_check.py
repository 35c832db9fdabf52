#!/usr/bin/env python3
"""End-to-end checks of the virtual clock (docs/emulation.md, "Virtual time"); ctest
drives them (tests/vclock/CMakeLists.txt). Each subcommand runs real mpiexec
and exits non-zero with a message when what it checks does not hold.

  unchanged     a program prints the same result lines without the
                interposer, under `mheta run --clock wall` and under
                `mheta run --clock virtual` (both emulating HY1)
  cpu-factor    cpu_factor 2 on every rank doubles a compute-bound run's
                MPI_Wtime-measured time, and the virtual time is the CPU time
                times the factor even with more ranks than cores (no dilation)
  io-factor     io_factor 4 on one rank, 1 on the other, doing the same I/O side by side: 4x the virtual time
                (--io-mode io_c: with MPI-4's large-count MPI-IO calls)
  disk          the emulation's disk times an I/O-bound run by its arithmetic, the same run after run
                (--io-mode io_split: with split collective MPI-IO, begin/end; io_nb: non-blocking;
                --clock wall: under the wall clock, whose ranks sleep until the disk has served them)
  gatherv       an allgatherv of unequal blocks ends on every rank at its largest block's pace
  start         every rank's clock reads 0 as MPI_Init returns, and a first barrier ends at the
                network's cost, whatever the ranks' CPU factors: the interposer's own start is
                no compute
  latency       an emulated latency of 50 us shows in a ping-pong's round trip
  link          a rank's link puts its messages out one after another
  reproducible  the same run twice gives the same virtual time
  sleeps        a rank waiting in a loop of MPI_Test and nanosleep (or
                usleep) for a message its sender sends 0.2 s late (asleep,
                no compute): the processor time of the sleeps (~20 us each
                on a virtual machine) is no virtual time
  status-polls  a rank spinning on MPI_Request_get_status for a message
                sent 0.2 s late: the time inside the calls is no compute
  work-polls    work between polls is compute: 20 us slices between
                MPI_Test calls, and 2 ms after each MPI_Testany that found
                a message in a loop spinning empty
  cancel        receives cancelled on MPI_COMM_SELF and MPI_COMM_WORLD
                under the virtual clock: every rank completes, and MPI says
                they were cancelled
  followed      the calls of followed_calls.c (matched probes, synchronous
                sends, persistent collectives, MPI_Comm_idup), of
                neighbour_calls.c (neighbourhood collectives) or of
                one_sided_calls.c (post/start/complete/wait, lock/unlock,
                flush): the program's results unchanged, each virtual time
                where the network puts it
  dynamic       a program spawning a process of itself (dynamic_processes.c):
                results unchanged under the virtual clock, and when the
                spawn succeeds the interposer says once that it does not
                follow it (and the spawned process once that it runs unwatched)
  unfollowed    one-sided post/start/complete/wait on a window the clock
                did not see created (unfollowed_calls.c): results unchanged,
                each rank says once that the clock does not follow them, and
                a wait in one is no compute
  clocks        a loop of compute timed by MPI_Wtime and by the program's
                other clocks (clock_probe's clock_gettime, gettimeofday,
                timespec_get; C++'s std::chrono clocks; Fortran's
                system_clock), CPU factor 3: every clock tells the virtual
                time MPI_Wtime does, 3 times the CPU time, and CLOCK_MONOTONIC
                never goes back across MPI_Init and MPI_Finalize
  threads       a hybrid MPI + OpenMP program (tests/corpus/omp_jacobi.c)
                with two threads a rank takes half the virtual time of one
                thread a rank: OpenMP's waits passive under `mheta run`, so
                no spinning counts as compute

The timing checks keep generous tolerances (the machine is shared); the
strict figures are scripts/bench-vclock.sh's.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import outside_bound  # noqa: E402


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def run(cmd, env=None, accepted=(0,)):
    merged = dict(os.environ)
    merged.update(env or {})
    result = subprocess.run(cmd, env=merged, capture_output=True, text=True, timeout=600)
    if result.returncode not in accepted:
        fail("%s exited with %d\nstdout:\n%s\nstderr:\n%s" % (" ".join(cmd), result.returncode, result.stdout,
                                                              result.stderr))
    return result


def under_mheta(args, np, clock, emulate, program, tmp, capture=False, env=None):
    cmd = [args.mheta, "run", "-n", str(np), "--emulate", emulate, "--clock", clock]
    cmd += ["--profile", os.path.join(tmp, "profile.json")] if capture else ["--capture", "off"]
    # Capturing, a program whose calls never repeat ends with exit 6 (no
    # profile): a fine run for the checks here, which look at its output.
    return run(cmd + ["--"] + program, env, accepted=(0, 6) if capture else (0,))


# A network that costs nothing, for the checks of the CPU and disk factors:
# without a network block the clock uses the machine's own, measured when
# the program starts, which on a loaded shared machine can be milliseconds
# a message and would blur the factor being checked.
FREE_NETWORK = {"latency_us": 0, "bandwidth_MBps": 1e9}


def emulation_file(tmp, name, node, network=FREE_NETWORK):
    """A one-node emulation file (every rank the same node)."""
    doc = {"format": "mheta-emulation/1", "ranks": [node], "network": network}
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def figure(stdout, key):
    match = re.search(r"\b%s=([0-9.eE+-]+)" % key, stdout)
    if not match:
        fail("no %s= in the program's output:\n%s" % (key, stdout))
    return float(match.group(1))


def median_elapsed(args, np, emulate, program, tmp, runs=3):
    """The median over a few runs: one run on a loaded machine may be off."""
    return statistics.median(figure(under_mheta(args, np, "virtual", emulate, program, tmp).stdout, "elapsed_s")
                             for _ in range(runs))


def within(name, value, target, tolerance):
    error = abs(value / target - 1)
    print("%s: %.4g (target %.4g, within %.3g%%: %s)" % (name, value, target, 100 * tolerance,
                                                         "yes" if error <= tolerance else "no"))
    if error > tolerance:
        outside_bound("%s is %.4g, %.1f%% from %.4g (tolerance %.3g%%)" % (name, value, 100 * error, target,
                                                                          100 * tolerance))


def cmd_unchanged(args):
    for np in args.ranks:
        with tempfile.TemporaryDirectory() as tmp:
            program = [a.replace("@TMP@", tmp) for a in args.program]
            plain = run([args.mpiexec, "-n", str(np)] + program).stdout
            if not plain.strip():
                fail("%s printed nothing on %d ranks" % (" ".join(program), np))
            for clock in ("wall", "virtual"):
                got = under_mheta(args, np, clock, "HY1", program, tmp, capture=True).stdout
                if got != plain:
                    fail("%d ranks, --clock %s: output changed\n--- without the interposer\n%s--- with it\n%s" %
                         (np, clock, plain, got))
        print("ok: %d ranks, the same %d result lines without the interposer, --clock wall and --clock virtual" %
              (np, len(plain.splitlines())))


def cmd_cpu_factor(args):
    with tempfile.TemporaryDirectory() as tmp:
        program = [args.probe, "compute", "20", "10"]
        one = median_elapsed(args, 2, emulation_file(tmp, "cpu1", {"cpu_factor": 1}), program, tmp)
        two = median_elapsed(args, 2, emulation_file(tmp, "cpu2", {"cpu_factor": 2}), program, tmp)
        within("cpu_factor 2 / cpu_factor 1 virtual time (medians of 3 runs)", two / one, 2, args.tolerance)
        # Four ranks on the machine's cores: the virtual time is still the
        # CPU time times the factor, however the ranks shared the cores.
        four = under_mheta(args, 4, "virtual", emulation_file(tmp, "cpu2", {"cpu_factor": 2}), program, tmp).stdout
        within("4 ranks, cpu_factor 2: virtual time / CPU time", figure(four, "elapsed_s") / figure(four, "cpu_s"), 2,
               args.tolerance)


def cmd_threads(args):
    # A hybrid rank's OpenMP threads under the virtual clock (docs/emulation.md,
    # "Threads of a rank"): the clock counts the CPU time of the thread that
    # calls MPI, so with two threads a rank (four threads on the machine's
    # two cores) a rank's compute is its main thread's half of each parallel
    # loop, provided the threads that finish first do not spin: `mheta run`
    # makes their waits passive. Spinning, the main thread's CPU time was
    # 7 times one thread's (docs/results.md, "OpenMP threads under the
    # virtual clock").
    with tempfile.TemporaryDirectory() as tmp:
        emulate = emulation_file(tmp, "cpu1", {"cpu_factor": 1})
        per_iteration = {}
        for threads in (1, 2):
            env = {"OMP_NUM_THREADS": str(threads)}
            runs = [under_mheta(args, 2, "virtual", emulate, args.program, tmp, env=env).stdout for _ in range(3)]
            per_iteration[threads] = statistics.median(
                float(re.search(r"([0-9.eE+-]+) s per iteration", out).group(1)) for out in runs)
        print("virtual iteration time: %.4g s with one thread a rank, %.4g s with two" %
              (per_iteration[1], per_iteration[2]))
        within("two threads / one thread, virtual iteration time (medians of 3 runs)",
               per_iteration[2] / per_iteration[1], 0.5, args.tolerance)


def cmd_io_factor(args):
    # The I/O a run measures moves by tens of percent from one run to the
    # next and from one rank to the other within a run (the page cache, the
    # other tests' writes): ratios of the two ranks' virtual times ranged
    # 2.0-6.4 on an idle machine. What the factor must do is exact: multiply
    # the I/O the rank itself measured. So each rank's virtual time is
    # divided by the real time of the same loop (CLOCK_MONOTONIC, which the
    # interposer leaves alone), and the two ranks' quotients, io_factor 4 over
    # io_factor 1, are compared: what the disk did cancels. Which rank has
    # which factor alternates from run to run; the median of six is taken.
    with tempfile.TemporaryDirectory() as tmp:
        program = [args.probe, args.io_mode, tmp, "20"]
        ratios = []
        for run_index in range(6):
            slow = run_index % 2
            factors = [{"io_factor": 4 if rank == slow else 1} for rank in range(2)]
            path = os.path.join(tmp, "io-factors-%d.json" % slow)
            with open(path, "w") as f:
                json.dump({"format": "mheta-emulation/1", "ranks": factors, "network": FREE_NETWORK}, f)
            out = under_mheta(args, 2, "virtual", path, program, tmp).stdout

            def dilation(rank):
                return figure(out, "rank%d_elapsed_s" % rank) / figure(out, "rank%d_real_s" % rank)

            ratios.append(dilation(slow) / dilation(1 - slow))
        print("ratios of six runs: " + " ".join("%.3f" % r for r in ratios))
        within("%s: io_factor 4 / io_factor 1, each rank's virtual over real time, side by side in one run "
               "(median of 6 runs)" % args.io_mode, statistics.median(ratios), 4, args.tolerance)


def cmd_disk(args):
    # On the emulation's disk an I/O-bound run's time is the disk's
    # arithmetic, whatever the machine's disk and page cache did: each
    # iteration writes then reads 4 MiB (clock_probe io), so rank r takes
    # iterations x io_factor_r x ((L + B/W) + (L + B/R)), and a second run
    # the same. Under the virtual clock that is virtual time; under the wall
    # clock the ranks sleep until the disk has served each request, so it is
    # MPI_Wtime's real time, on a faster disk and fewer iterations to keep
    # the run short (still slower than the page cache the requests really go
    # to, a few milliseconds for all of it).
    # --short-requests: 200 requests of 1.25 ms each, where a sleep that
    # wakes 0.1 ms late each time would add 8 %: the late wakes must be
    # credited against the next sleeps.
    block = 512 * 1024 * 8
    if args.short_requests:
        iterations, latency, read_Bps, write_Bps, repeat_tolerance = 100, 200e-6, 4000e6, 4000e6, args.tolerance
    elif args.clock == "virtual":
        iterations, latency, read_Bps, write_Bps, repeat_tolerance = 20, 1e-3, 10e6, 20e6, args.tolerance / 10
    else:
        iterations, latency, read_Bps, write_Bps, repeat_tolerance = 5, 1e-3, 200e6, 100e6, args.tolerance / 5
    factors = [1, 3]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "disk.json")
        with open(path, "w") as f:
            json.dump({"format": "mheta-emulation/1", "ranks": [{"io_factor": x} for x in factors],
                       "network": FREE_NETWORK,
                       "disk": {"latency_us": latency * 1e6, "read_MBps": read_Bps / 1e6,
                                "write_MBps": write_Bps / 1e6}}, f)
        program = [args.probe, args.io_mode, tmp, str(iterations)]
        runs = [under_mheta(args, 2, args.clock, path, program, tmp).stdout for _ in range(2)]
        for rank, factor in enumerate(factors):
            expected = iterations * factor * ((latency + block / write_Bps) + (latency + block / read_Bps))
            for k, out in enumerate(runs):
                within("run %d, rank %d (io_factor %g): %s time of %d write+read iterations" %
                       (k + 1, rank, factor, args.clock, iterations),
                       figure(out, "rank%d_elapsed_s" % rank), expected, args.tolerance)
        first, second = (figure(out, "rank1_elapsed_s") for out in runs)
        within("rank 1, second run / first run", second / first, 1, repeat_tolerance)


def cmd_gatherv(args):
    # An allgatherv of unequal blocks ends, on every rank, at the largest
    # block's pace (a ring forwards some block at each of its P - 1 steps):
    # (P - 1) x 1 MB at 10 MB/s = 0.2 s on 3 ranks, however small a rank's own.
    ranks, block, bandwidth = 3, 1000000, 10e6
    with tempfile.TemporaryDirectory() as tmp:
        path = emulation_file(tmp, "gatherv", {}, {"latency_us": 0, "bandwidth_MBps": bandwidth / 1e6})
        out = under_mheta(args, ranks, "virtual", path, [args.probe, "gatherv", str(block)], tmp).stdout
        for rank in range(ranks):
            within("allgatherv of one 1 MB block and two of 8 bytes, rank %d's end" % rank,
                   figure(out, "rank%d_end_s" % rank), (ranks - 1) * block / bandwidth, args.tolerance)


def cmd_start(args):
    # The interposer's start inside MPI_Init (communicators duplicated, the
    # wake board's window) is collective and spins while the other ranks
    # start; counted as compute it read 0.16-0.5 s on 8 HY1 ranks (CPU
    # factors 1-3). What is left is a few clock readings: microseconds.
    bound = 2e-3
    for np in args.ranks:
        with tempfile.TemporaryDirectory() as tmp:
            out = under_mheta(args, np, "virtual", "HY1", [args.probe, "start"], tmp).stdout
        for rank in range(np):
            start, barrier = figure(out, "rank%d_start_s" % rank), figure(out, "rank%d_barrier_s" % rank)
            print("%d ranks, rank %d: MPI_Init returned at %.6f s, the first barrier ended at %.6f s" %
                  (np, rank, start, barrier))
            if start > bound or barrier > bound:
                fail("%d ranks, rank %d: MPI_Init returned at %.6f s and the first barrier ended at %.6f s of "
                     "virtual time, not within %.0f ms: the interposer's start was charged as compute" %
                     (np, rank, start, barrier, 1e3 * bound))


def cmd_latency(args):
    with tempfile.TemporaryDirectory() as tmp:
        program = [args.probe, "pingpong", "2000", "8"]
        # The same run on a network of no latency and a practically
        # unlimited bandwidth: the difference is the emulated latency alone.
        free = emulation_file(tmp, "free", {})
        slow = emulation_file(tmp, "slow", {}, {"latency_us": 50, "bandwidth_MBps": 1e9})
        base = figure(under_mheta(args, 2, "virtual", free, program, tmp).stdout, "round_trip_s")
        late = figure(under_mheta(args, 2, "virtual", slow, program, tmp).stdout, "round_trip_s")
        within("one-way latency seen by MPI_Wtime (s)", (late - base) / 2, 50e-6, args.tolerance)


def cmd_link(args):
    """Rank 0 sends 100 kB to each of 3 ranks at once over an emulated link of
    10 MB/s (10 ms a message) and no latency: its link puts them out one
    after another, so its Waitall ends, and the last receiver has its
    message, after 3 x 10 ms; links that carried them side by side would say
    10 ms."""
    with tempfile.TemporaryDirectory() as tmp:
        network = emulation_file(tmp, "link", {}, {"latency_us": 0, "bandwidth_MBps": 10})
        out = under_mheta(args, 4, "virtual", network, [args.probe, "fanout", "100000"], tmp).stdout
        within("rank 0's Waitall of 3 Isends of 10 ms each (s)", figure(out, "elapsed_s"), 0.03, args.tolerance)
        within("the last receiver's arrival (s)", figure(out, "last_arrival_s"), 0.03, args.tolerance)


def cmd_calls(args):
    """An intercepted call with nothing around it costs the program ~30 ns; the
    interposer reads the thread's CPU clock at each one, a system call of
    ~0.4 us where the vDSO has none (virtual machines). That reading is no
    compute of the program: the clock's advance per call must stay below it
    (or below 0.25 us where a reading is cheaper than that)."""
    with tempfile.TemporaryDirectory() as tmp:
        node = emulation_file(tmp, "one", {})
        out = under_mheta(args, 2, "virtual", node, [args.probe, "calls", "200000"], tmp).stdout
        per_call, read = figure(out, "per_call_s"), figure(out, "cpu_read_s")
        bound = max(read, 0.25e-6)
        print("virtual time per MPI_Iprobe with nothing between: %.1f ns (at most %.1f ns; a CPU clock reading "
              "costs %.1f ns here)" % (per_call * 1e9, bound * 1e9, read * 1e9))
        if per_call < 0:
            fail("the clock went back %.1f ns per intercepted call" % (-per_call * 1e9))
        if per_call >= bound:
            outside_bound("each intercepted call moved the clock %.1f ns: the interposer's own CPU clock readings "
                 "(%.1f ns each) are counted as compute" % (per_call * 1e9, read * 1e9))


def cmd_sleeps(args):
    """Before the interposer left the sleeps' processor time out of compute,
    each poll of such a loop cost the waiting rank ~20 us of virtual time
    here (nanosleep's own CPU time on a virtual machine): 27 ms for a wait
    of 1300 polls, where the message is there at once in virtual time. The
    bound allows half the sleeps' processor time and 2 us a poll beside it
    (the loop's own and the call's, ~0.7 us here)."""
    with tempfile.TemporaryDirectory() as tmp:
        node = emulation_file(tmp, "one", {})
        for how in ("nanosleep", "usleep"):
            out = under_mheta(args, 2, "virtual", node, [args.probe, "polls", how, "50"], tmp).stdout
            if figure(out, "received") != 42:
                fail("the message's value changed under the virtual clock:\n" + out)
            elapsed, polls, sleep_cpu = figure(out, "elapsed_s"), figure(out, "polls"), figure(out, "sleep_cpu_s")
            bound = polls * (0.5 * sleep_cpu + 2e-6)
            print("%s: a wait of %d polls took %.3f ms of virtual time (at most %.3f ms; the sleeps' processor time "
                  "was %.3f ms)" % (how, polls, elapsed * 1e3, bound * 1e3, polls * sleep_cpu * 1e3))
            if elapsed > bound:
                outside_bound("%s: the polling loop's wait took %.3f ms of virtual time, more than %.3f ms: the "
                              "sleeps' processor time is counted as compute" % (how, elapsed * 1e3, bound * 1e3))


def cmd_status_polls(args):
    """A rank spinning on MPI_Request_get_status waits: before the interposer
    followed that call, the whole spin was compute (0.199-0.200 s of virtual
    time for a wait of 0.2 s on the wall clock); then the loop's own
    compute between the calls (7.6-10.4 ms here); since the polling loop's
    own time between two polls is no compute, 1.0-2.1 ms here and 5.5-6.0
    ms on a busier machine (the gaps an interrupt made longer); since one
    longer gap in a loop spinning empty is an interrupt's, 0.06-0.16 ms.
    The bound is 2 % of the wait's wall time."""
    with tempfile.TemporaryDirectory() as tmp:
        out = under_mheta(args, 2, "virtual", "HY1", [args.probe, "status_polls"], tmp).stdout
        if figure(out, "received") != 42:
            fail("the message's value changed under the virtual clock:\n" + out)
        elapsed, wall, polls = figure(out, "elapsed_s"), figure(out, "wall_s"), figure(out, "polls")
        print("a wait of %d MPI_Request_get_status polls: %.3f ms of virtual time, %.3f ms on the wall clock"
              % (polls, elapsed * 1e3, wall * 1e3))
        if elapsed > 0.02 * wall:
            outside_bound("the polling loop's wait took %.3f ms of virtual time, more than 2 %% of its %.3f ms on "
                          "the wall clock: the time inside MPI_Request_get_status, or the loop's between the polls, "
                          "is counted as compute"
                          % (elapsed * 1e3, wall * 1e3))


def cmd_work_polls(args):
    """The polling loop's own time is no compute, and a longer section in a
    loop spinning empty is an interrupt's: work a program does between its
    polls, at every poll or once a poll found something, still is. Each
    wait's virtual time is its work's CPU time (all factors 1; the messages
    are there at once in virtual time)."""
    with tempfile.TemporaryDirectory() as tmp:
        node = emulation_file(tmp, "one", {})
        out = under_mheta(args, 2, "virtual", node, [args.probe, "work_polls"], tmp).stdout
        if figure(out, "received") != 42 + 100 + 200:
            fail("the messages' values changed under the virtual clock:\n" + out)
        for wait in ("sliced", "found"):
            elapsed, cpu = figure(out, wait + "_s"), figure(out, wait + "_cpu_s")
            print("%s: %.3f ms of virtual time for %.3f ms of work" % (wait, elapsed * 1e3, cpu * 1e3))
            within("%s: virtual time / work's CPU time" % wait, elapsed / cpu, 1, args.tolerance)


def cmd_clocks(args):
    """Each clock brackets the same loop as MPI_Wtime, read next to it: the
    same virtual time to the few microseconds between the readings (at
    most 1 %). Before the program's clocks were followed they told the
    machine's time, about the CPU time on 2 ranks (a third of MPI_Wtime's)."""
    with tempfile.TemporaryDirectory() as tmp:
        node = emulation_file(tmp, "cpu3", {"cpu_factor": 3})
        programs = [[args.probe, "clocks", "20", "10"]] + [[p, "20", "10"] for p in args.program]
        for program in programs:
            name = os.path.basename(program[0])
            out = under_mheta(args, 2, "virtual", node, program, tmp).stdout
            wtime, cpu = figure(out, "wtime_s"), figure(out, "cpu_s")
            within("%s: MPI_Wtime / CPU time" % name, wtime / cpu, 3, args.tolerance)
            clocks = [k for k in re.findall(r"\b([a-z_0-9]+)_s=", out) if k not in ("wtime", "cpu")]
            if not clocks:
                fail("%s printed no clock's time:\n%s" % (name, out))
            for clock in clocks:
                ratio = figure(out, clock + "_s") / wtime
                print("%s: %s / MPI_Wtime %.4f" % (name, clock, ratio))
                if abs(ratio - 1) > 0.01:
                    fail("%s: the loop took %.6f s by %s and %.6f s by MPI_Wtime: the program's clock is not the "
                         "virtual one\n%s" % (name, figure(out, clock + "_s"), clock, wtime, out))
            if "ordered=" in out and figure(out, "ordered") != 1:
                fail("%s: CLOCK_MONOTONIC went back across MPI_Init or MPI_Finalize:\n%s" % (name, out))


def cmd_deadlines(args):
    """Programs waiting by their clock, which tells virtual time: the probe's
    absolute clock_nanosleep deadline 50 ms on and loop of 1 ms sleeps until
    its time of day has moved 50 ms; the other programs' (deadline_waits)
    condition variables, semaphore, timed lock, C's and C++'s, each to a
    deadline 50 ms on. Before the sleeps were owed to the clock and the
    deadlines translated, the clock_nanosleep returned at once (0.02 ms on
    the machine: the deadline lay in the machine's past), the loop took
    4.6 s on the machine, or had not ended after 5 s (its clock moved only
    by the loop's compute, ~10 us a sleep), and of the other waits the
    condition variable's and semaphore's returned after 0.06 and 0.03 ms,
    the timed lock's after 0.25 ms, C++'s wait_for after 17 ms (it waits
    again until its steady clock has passed the deadline, which only the
    loop's compute moved).
    Each must last its 50 ms on both clocks (at most 0.5 s) and, where the
    program says, end by timing out."""
    with tempfile.TemporaryDirectory() as tmp:
        node = emulation_file(tmp, "cpu3", {"cpu_factor": 3})
        for program in [[args.probe, "deadlines"]] + [[p] for p in args.program]:
            name = os.path.basename(program[0])
            out = under_mheta(args, 2, "virtual", node, program, tmp).stdout
            if "loop_ended=" in out and figure(out, "loop_ended") != 1:
                fail("a loop of sleeps until the program's clock passed a time 50 ms on had not ended after 5 s:\n"
                     + out)
            waits = re.findall(r"\b([a-z_0-9]+)_machine_s=", out)
            if not waits:
                fail("%s printed no wait's time:\n%s" % (name, out))
            for wait in waits:
                machine, program_s = figure(out, wait + "_machine_s"), figure(out, wait + "_program_s")
                print("%s %s: %.1f ms on the machine's clock, %.1f ms on the program's (each 50-500)"
                      % (name, wait, machine * 1e3, program_s * 1e3))
                for clock, value in (("machine's", machine), ("program's", program_s)):
                    if not 0.0499 <= value <= 0.5:
                        fail("%s %s: the wait for 50 ms took %.3f ms on the %s clock\n%s"
                             % (name, wait, value * 1e3, clock, out))
                if wait + "_timedout=" in out and figure(out, wait + "_timedout") != 1:
                    fail("%s %s: the wait did not end at its deadline\n%s" % (name, wait, out))


def cmd_cancel(args):
    with tempfile.TemporaryDirectory() as tmp:
        for np in args.ranks:
            out = under_mheta(args, np, "virtual", "HY1", [args.probe, "cancel"], tmp).stdout
            for rank in range(np):
                if figure(out, "rank%d_cancelled" % rank) != 1:
                    fail("rank %d's receives were not cancelled under the virtual clock:\n%s" % (rank, out))
            print("%d ranks: every rank's receives cancelled, on MPI_COMM_SELF and MPI_COMM_WORLD" % np)


def cmd_reproducible(args):
    with tempfile.TemporaryDirectory() as tmp:
        program = [args.probe, "mixed", "200"]
        first = figure(under_mheta(args, 4, "virtual", "HY1", program, tmp).stdout, "elapsed_s")
        second = figure(under_mheta(args, 4, "virtual", "HY1", program, tmp).stdout, "elapsed_s")
        within("second run / first run virtual time", second / first, 1, args.tolerance)


def cmd_followed(args):
    """The program prints name=value and expected_name=value on stderr; it is
    given the network's latency (s) and, with --bandwidth, its bandwidth
    (bytes/s): without, the bandwidth is practically unlimited."""
    latency = 0.02  # far above what a message takes on this machine, so it is the emulated one that shows
    with tempfile.TemporaryDirectory() as tmp:
        network = emulation_file(tmp, "net", {}, {"latency_us": latency * 1e6,
                                                  "bandwidth_MBps": args.bandwidth or 1e9})
        for mode in args.modes:
            program = [args.probe, mode, repr(latency)] + ([repr(args.bandwidth * 1e6)] if args.bandwidth else [])
            for np in args.ranks:
                plain = run([args.mpiexec, "-n", str(np)] + program).stdout
                result = under_mheta(args, np, "virtual", network, program, tmp)
                if result.stdout != plain or not plain.strip():
                    fail("%s on %d ranks: output changed under the virtual clock\n--- without the interposer\n%s"
                         "--- with it\n%s" % (mode, np, plain, result.stdout))
                figures = dict(re.findall(r"\b([a-z_0-9]+)=([0-9.eE+-]+)", result.stderr))
                names = [n for n in figures if not n.startswith("expected_") and "expected_" + n in figures]
                if not names:
                    fail("%s on %d ranks printed no figures:\n%s" % (mode, np, result.stderr))
                for name in names:
                    within("%s, %d ranks: %s" % (mode, np, name), float(figures[name]),
                           float(figures["expected_" + name]), args.tolerance)


# What the interposer says of dynamic processes (interpose/collective_handlers.cpp
# and interpose/runtime.cpp).
NOT_FOLLOWED = "MPI_Comm_spawn connects processes of another MPI_COMM_WORLD"
UNWATCHED = "processes started by MPI_Comm_spawn run unwatched"


def unchanged_under_virtual_clock(args, np, program):
    """Runs `program` (@TMP@: a scratch folder) without the interposer and
    under the virtual clock emulating HY1; fails unless it prints the same.
    Returns the run under the clock."""
    with tempfile.TemporaryDirectory() as tmp:
        program = [a.replace("@TMP@", tmp) for a in program]
        plain = run([args.mpiexec, "-n", str(np)] + program).stdout
        result = under_mheta(args, np, "virtual", "HY1", program, tmp)
    if result.stdout != plain or not plain.strip():
        fail("%d ranks: output changed under the virtual clock\n--- without the interposer\n%s--- with it\n%s" %
             (np, plain, result.stdout))
    return result


def cmd_dynamic(args):
    for np in args.ranks:
        result = unchanged_under_virtual_clock(args, np, [args.probe])
        plain = result.stdout
        said = [line for line in result.stderr.splitlines() if NOT_FOLLOWED in line]
        unwatched = [line for line in result.stderr.splitlines() if UNWATCHED in line]
        if "not supported by this MPI" in plain:
            # Nothing was connected: nothing to say.
            if said or unwatched:
                fail("%d ranks: the spawn failed, yet the interposer said:\n%s" % (np, result.stderr))
            print("ok: %d ranks, this MPI spawns no process (%s); the program's lines are unchanged under the "
                  "virtual clock" % (np, plain.splitlines()[0]))
            continue
        if len(said) != 1 or len(unwatched) != 1:
            fail("%d ranks: expected one line '%s...' and one '%s...', got:\n%s" % (np, NOT_FOLLOWED, UNWATCHED,
                                                                                   result.stderr))
        print("ok: %d ranks, results unchanged; said once: %s" % (np, said[0]))


# What the interposer says of calls the clock does not follow
# (interpose/window_handlers.cpp, interpose/message_handlers.cpp), the
# figure of the program's wait in them, and what that wait was.
UNFOLLOWED = [
    ("the virtual clock does not follow", "pscw_wait_s", "a post/start/complete/wait epoch"),
    ("partitioned communication is not followed", "partitioned_wait_s",
     "a loop of MPI_Parrived and the MPI_Wait of a partitioned receive"),
]


def cmd_unfollowed(args):
    for np in args.ranks:
        result = unchanged_under_virtual_clock(args, np, [args.probe])
        for phrase, name, what in UNFOLLOWED:
            said = [line for line in result.stderr.splitlines() if phrase in line]
            ranks = sorted(re.search(r"\(rank (\d+)\)", line).group(1) for line in said)
            if not said or len(set(ranks)) != len(ranks):
                fail("%d ranks: expected one line '%s ...' per rank at most, and at least one; got:\n%s" %
                     (np, phrase, result.stderr))
            # Rank 0 waited 30 ms of the last rank's compute: counted as
            # compute, that wait moved its clock by ~30 ms.
            wait = figure(result.stderr, name)
            print("%d ranks: results unchanged; said on ranks %s; rank 0's clock moved %.6f s in %s it waited "
                  "30 ms in (at most 0.005)" % (np, ",".join(ranks), wait, what))
            if wait > 0.005:
                fail("%d ranks: a wait in %s moved the clock by %.6f s" % (np, what, wait))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("check", choices=["unchanged", "cpu-factor", "io-factor", "disk", "gatherv", "start", "latency",
                                          "link", "calls", "sleeps", "status-polls", "work-polls", "cancel", "reproducible",
                                          "followed", "dynamic", "unfollowed", "threads", "clocks", "deadlines"])
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--mheta", required=True)
    parser.add_argument("--probe", help="the clock_probe program (followed: the followed_calls, neighbour_calls "
                        "or one_sided_calls program; dynamic: "
                        "the dynamic_processes program; unfollowed: the unfollowed_calls program)")
    parser.add_argument("--ranks", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--tolerance", type=float, default=0.15)
    parser.add_argument("--modes", nargs="+", default=[], help="followed: the modes of the program to run")
    parser.add_argument("--bandwidth", type=float, help="followed: the network's bandwidth, MB/s (default: "
                        "practically unlimited), given to the program in bytes/s")
    parser.add_argument("--io-mode", default="io", choices=["io", "io_c", "io_split", "io_nb"],
                        help="io-factor, disk: the clock_probe mode (io_c: the large-count MPI-IO calls; io_split: "
                        "split collective MPI-IO; io_nb: non-blocking MPI-IO)")
    parser.add_argument("--clock", default="virtual", choices=["virtual", "wall"], help="disk: the clock of the runs")
    parser.add_argument("--short-requests", action="store_true",
                        help="disk: many short requests (100 iterations on a disk of 200 us and 4000 MB/s)")
    parser.add_argument("program", nargs="*", help="unchanged: the program and its arguments (@TMP@: a scratch "
                        "folder); threads: a hybrid MPI + OpenMP program printing its time per iteration; clocks: more programs "
                        "taking MS ITERATIONS and printing their clocks' times")
    args = parser.parse_args()
    {
        "unchanged": cmd_unchanged,
        "cpu-factor": cmd_cpu_factor,
        "threads": cmd_threads,
        "io-factor": cmd_io_factor,
        "disk": cmd_disk,
        "gatherv": cmd_gatherv,
        "start": cmd_start,
        "latency": cmd_latency,
        "link": cmd_link,
        "calls": cmd_calls,
        "sleeps": cmd_sleeps,
        "status-polls": cmd_status_polls,
        "work-polls": cmd_work_polls,
        "cancel": cmd_cancel,
        "clocks": cmd_clocks,
        "deadlines": cmd_deadlines,
        "reproducible": cmd_reproducible,
        "followed": cmd_followed,
        "dynamic": cmd_dynamic,
        "unfollowed": cmd_unfollowed,
    }[args.check](args)


if __name__ == "__main__":
    main()
