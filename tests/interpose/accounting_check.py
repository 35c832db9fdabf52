#!/usr/bin/env python3
"""End-to-end check of the interposer's accounting service (MHETA_ACCOUNTING,
docs/interpose.md "Accounting") on accounting_probe.c under real mpiexec, 2
ranks: every iteration recorded on every rank, the terms adding up to the
iteration, and each where the probe's structure puts it (compute, the sleep
in the wall clock only, I/O, rank 1 waiting for rank 0), the time each rank
waited for a core beside them (a large share with both ranks on one core), with iterations
ended by marks, MPI_Pcontrol or every k-th call of a function (one for
every rank, or each rank its own), and sampled. Exits non-zero
with a message when something does not hold. Tolerances are generous: the
machine is shared."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, exit_if_failed  # noqa: E402

ITERATIONS = 8


def fail(message):
    """A check that cannot go on: the rest would only repeat it."""
    check(False, message)
    exit_if_failed()


def accounted(args, tmp, name, marks, env, launcher=()):
    path = os.path.join(tmp, name + ".json")
    cmd = list(launcher) + [args.mpiexec, "-n", "2", "-genv", "LD_PRELOAD", args.lib, "-genv", "MHETA_ACCOUNTING", path,
           "-genv", "MHETA_PROFILE", os.path.join(tmp, name + ".profile.json")]
    for key, value in env.items():
        cmd += ["-genv", key, value]
    cmd += [args.program, str(ITERATIONS), marks, tmp]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        fail("%s exited with %d\n%s%s" % (" ".join(cmd), result.returncode, result.stdout, result.stderr))
    if not os.path.exists(path):
        fail("%s: no accounting written\n%s" % (name, result.stderr))
    with open(path) as f:
        doc = json.load(f)
    if doc.get("format") != "mheta-accounting/1":
        fail("%s: format %r" % (name, doc.get("format")))
    if doc.get("terms") != ["compute", "io", "comm", "wait", "total"]:
        fail("%s: terms %r" % (name, doc.get("terms")))
    if len(doc["ranks"]) != 2:
        fail("%s: %d ranks recorded, expected 2" % (name, len(doc["ranks"])))
    return doc


def steady(doc, rank):
    """Each term's median over the iterations after the first."""
    records = doc["ranks"][rank]["iterations"][1:]
    return dict(zip(["compute", "io", "comm", "wait", "total"], (statistics.median(c) for c in zip(*records))))


def expect(name, what, value, low, high):
    check(low <= value <= high, "%s: %s = %.4f s, expected within [%.4f, %.4f]" % (name, what, value, low, high))


def check_records(name, doc, boundary, clock):
    if doc["boundary"] != boundary:
        fail("%s: boundary %r, expected %r" % (name, doc["boundary"], boundary))
    if doc["clock"] != clock:
        fail("%s: clock %r, expected %r" % (name, doc["clock"], clock))
    for r, rank in enumerate(doc["ranks"]):
        if rank["rank"] != r or len(rank["iterations"]) != ITERATIONS:
            fail("%s: rank %d holds %d records, expected %d (one per boundary)"
                 % (name, r, len(rank["iterations"]), ITERATIONS))
    check_records_add_up(name, doc)


def check_records_add_up(name, doc):
    for r, rank in enumerate(doc["ranks"]):
        for k, (compute, io, comm, wait, total) in enumerate(rank["iterations"]):
            if abs(compute + io + comm + wait - total) > 1e-6 + 1e-6 * total:
                fail("%s: rank %d iteration %d: terms add up to %.6f, total %.6f"
                     % (name, r, k, compute + io + comm + wait, total))


def queued_shares(name, doc):
    """Each rank's run-queue delay: one figure per iteration, within the
    iteration (wall seconds; checked against the total on the wall clock),
    and the share of its steady iterations it waited for a core."""
    shares = []
    for r, rank in enumerate(doc["ranks"]):
        queued = rank.get("queued")
        if queued is None or len(queued) != len(rank["iterations"]):
            fail("%s: rank %d: %r run-queue figures for %d iterations" % (name, r, queued, len(rank["iterations"])))
        totals = [it[4] for it in rank["iterations"]]
        for k, (q, total) in enumerate(zip(queued, totals)):
            check(q >= 0, "%s: rank %d iteration %d: run-queue delay %.6f < 0" % (name, r, k, q))
            if doc["clock"] == "wall":
                check(q <= total + 2e-3, "%s: rank %d iteration %d: waited %.6f s for a core in an iteration of "
                      "%.6f s" % (name, r, k, q, total))
        shares.append(sum(queued[1:]) / max(sum(totals[1:]), 1e-12))
    return shares


def check_structure(name, doc, sleep_counts):
    """Rank 0 computes 30 ms, rank 1 10 ms, both sleep 10 ms (compute in the
    wall clock, nothing in the virtual one), write and sync 1 MiB, and meet:
    rank 1 waits for rank 0."""
    r0, r1 = steady(doc, 0), steady(doc, 1)
    nap = 0.010 if sleep_counts else 0
    expect(name, "rank 0 compute", r0["compute"], 0.027 + nap, 0.25 if sleep_counts else 0.045)
    expect(name, "rank 1 compute", r1["compute"], 0.008 + nap, 0.20 if sleep_counts else 0.020)
    for r, terms in enumerate((r0, r1)):
        check(terms["io"] > 0, "%s: rank %d: no I/O accounted for its MPI_File_write_at and sync" % (name, r))
    check(r1["wait"] > r0["wait"] + 0.005, "%s: rank 1 waited %.4f s, rank 0 %.4f s: rank 1 should wait ~20 ms for "
          "rank 0" % (name, r1["wait"], r0["wait"]))
    check(abs(r0["total"] - r1["total"]) <= 0.25 * max(r0["total"], r1["total"]),
          "%s: iteration totals %.4f and %.4f differ: the ranks meet every iteration" % (name, r0["total"], r1["total"]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--lib", required=True)
    parser.add_argument("--program", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        wall = accounted(args, tmp, "wall-marks", "mark", {"MHETA_CAPTURE": "off"})
        check_records("wall-marks", wall, "mark", "wall")
        check_structure("wall-marks", wall, sleep_counts=True)
        queued_shares("wall-marks", wall)
        virtual = accounted(args, tmp, "virtual-marks", "mark", {"MHETA_CAPTURE": "off", "MHETA_CLOCK": "virtual"})
        check_records("virtual-marks", virtual, "mark", "virtual")
        check_structure("virtual-marks", virtual, sleep_counts=False)
        queued_shares("virtual-marks", virtual)
        # Both ranks on one core: while one computes (30 and 10 ms) the
        # other computes or polls MPI beside it, so each waits for the core
        # about half of the busy part of its iterations (~40 of ~90 ms).
        pinned = accounted(args, tmp, "one-core", "mark", {"MHETA_CAPTURE": "off"}, launcher=("taskset", "-c", "0"))
        check_records("one-core", pinned, "mark", "wall")
        shares = queued_shares("one-core", pinned)
        check(max(shares) >= 0.2, "one-core: two ranks on one core waited for it %s of their iterations, expected "
              "at least 20 %% on one of them" % ", ".join("%.1f %%" % (100 * x) for x in shares))
        print("run-queue share of the iterations, both ranks on one core: %s" %
              ", ".join("%.1f %%" % (100 * x) for x in shares))
        # MPI_Pcontrol(1) starts each iteration: the first record is the setup.
        pcontrol = accounted(args, tmp, "pcontrol", "pcontrol", {"MHETA_CAPTURE": "off"})
        check_records("pcontrol", pcontrol, "pcontrol", "wall")
        # No marks: every MPI_Allreduce ends one, as the capture counts them.
        calls = accounted(args, tmp, "call", "none", {"MHETA_CAPTURE": "call:MPI_Allreduce"})
        check_records("call", calls, "call", "wall")
        check_structure("call", calls, sleep_counts=True)
        # The same with capture off, the function named for the accounting
        # alone (what mheta validate's runs do after a capture found it).
        named = accounted(args, tmp, "accounting-call", "none",
                          {"MHETA_CAPTURE": "off", "MHETA_ACCOUNTING_CALL": "MPI_Allreduce"})
        check_records("accounting-call", named, "call", "wall")
        check_structure("accounting-call", named, sleep_counts=True)
        for name, doc in (("call", calls), ("accounting-call", named)):
            if doc.get("call") != "MPI_Allreduce:1":
                fail("%s: call %r, expected MPI_Allreduce:1" % (name, doc.get("call")))
        # Every second call: half the boundaries.
        halves = accounted(args, tmp, "accounting-call-2", "none",
                           {"MHETA_CAPTURE": "off", "MHETA_ACCOUNTING_CALL": "MPI_Allreduce:2"})
        counts = [len(rank["iterations"]) for rank in halves["ranks"]]
        if counts != [ITERATIONS // 2] * 2 or halves.get("call") != "MPI_Allreduce:2":
            fail("accounting-call-2: %s records, call %r" % (counts, halves.get("call")))
        # One call per rank (ranks whose iterations end at different calls):
        # rank 0 every call, rank 1 every second; the file says each rank's.
        each = accounted(args, tmp, "accounting-call-each", "none",
                         {"MHETA_CAPTURE": "off", "MHETA_ACCOUNTING_CALL": "MPI_Allreduce,MPI_Allreduce:2"})
        counts = [len(rank["iterations"]) for rank in each["ranks"]]
        if counts != [ITERATIONS, ITERATIONS // 2] or each.get("call") != "MPI_Allreduce:1,MPI_Allreduce:2":
            fail("accounting-call-each: %s records, call %r" % (counts, each.get("call")))
        # Sampled (MHETA_ACCOUNTING_SAMPLES=1: 1 to 5 records after the
        # first): iteration 1 is the first record (the capture counts from
        # the first MPI_Allreduce), then 2 to 6 are kept, thinned to the
        # multiples of 5 at the sixth record (one in five: never the even
        # ones alone, which a stride that doubled kept), 7 and 8 not
        # accounted (the wrappers idle until iteration 10 would start):
        # iterations 1 and 5.
        sampled = accounted(args, tmp, "sampled", "none",
                            {"MHETA_CAPTURE": "call:MPI_Allreduce", "MHETA_ACCOUNTING_SAMPLES": "1"})
        for r, rank in enumerate(sampled["ranks"]):
            if len(rank["iterations"]) != 2 or rank.get("every") != 5 or rank.get("skipped") != 1:
                fail("sampled: rank %d holds %d records, every %r, skipped %r; expected 2, 5 and 1"
                     % (r, len(rank["iterations"]), rank.get("every"), rank.get("skipped")))
        check_structure("sampled", sampled, sleep_counts=True)
        # Sampled marks: the mark that ends iteration i is the (i + 1)-th;
        # iterations 0 to 5 kept, thinned to 0 and 5 at the sixth record, 6
        # and 7 not accounted: iterations 0 and 5.
        marked = accounted(args, tmp, "sampled-marks", "mark", {"MHETA_CAPTURE": "off", "MHETA_ACCOUNTING_SAMPLES": "1"})
        for r, rank in enumerate(marked["ranks"]):
            if len(rank["iterations"]) != 2 or rank.get("every") != 5 or rank.get("skipped") is not None:
                fail("sampled-marks: rank %d holds %d records, every %r, skipped %r; expected 2, 5 and none"
                     % (r, len(rank["iterations"]), rank.get("every"), rank.get("skipped")))
        check_records_add_up("sampled-marks", marked)
        check_structure("sampled-marks", marked, sleep_counts=True)
    exit_if_failed()
    print("accounting: records, terms and boundaries as expected")


if __name__ == "__main__":
    main()
