#!/usr/bin/env python3
"""The corpus under `mheta run`: for each program of expected.txt, at 2 ranks
(one per core) on the wall clock, or at --np ranks on the cluster --emulate
emulates (virtual clock):

1. runs it without the interposer (emulated: under `mheta run --emulate P
   --capture off`, whose virtual clock the program's own MPI_Wtime reads)
   and under `mheta run` (default capture mode; emulated: under P too) and
   checks that its "result" lines are identical;
2. checks whether a profile was written (a failure where expected.txt says
   "enforced", else reported);
3. with a profile, runs `mheta predict` of the program's own distribution on
   the cluster description and compares the predicted iteration time with
   the one the program measured itself ("loop:" line of the run without the
   interposer, the median of --runs runs); a failure only where the accuracy
   is "enforced". When the capture's iteration is a different unit from the
   program's (heat_pcontrol reduces every 10th step: 10 steps are one
   iteration of the loop the capture finds, and it counts 40 of them where
   the program counts 400 steps), both sides are compared per captured
   iteration: the measured time of the whole loop over the iterations the
   profile counts (the prediction prices the run as that many iterations);
   so too when the capture's iteration is the finer one (adaptive_jacobi's
   outer step makes no call besides its inner sweeps, whose number varies:
   the capture counts sweeps);
4. reports the iterations the profile counts against the program's own.

Emulated, the capture run also records the interposer's accounting (docs/
interpose.md, "Accounting"), and every measured run its own, with the
function the capture found to end an iteration: each record then holds,
per rank, the mean of every term (compute, I/O, communication and
waiting, total) over the iterations after the first, beside the model's
terms of `mheta predict --json`, and the term furthest from its prediction
(the bottleneck's communication and waiting together, as `mheta validate`
compares them).

Usage:
  check_corpus.py --mheta M --mpiexec E --bin DIR --cluster cluster.json [NAME ...]
                  [--np 2] [--runs 1] [--emulate P] [--table expected.txt] [--json OUT]
                  [--bound PCT]
With no NAME, every program of the table that was built. The cluster file
must exist (CMake measures it once with `mheta microbench`; so does
scripts/corpus-table.sh), measured under the same emulation and rank count
when --emulate is given. --json writes one record per program, for
scripts/corpus-table.sh. --bound enforces that accuracy bound (per cent) on
every program checked instead of expected.txt's (ctest's 8-rank checks under
the virtual clock hold it tighter than the 2-rank wall-clock ones).
"""
import argparse
import copy
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import OUTSIDE_BOUND  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LOOP_LINE = re.compile(r"^loop:\s*(\d+) iterations,\s*([0-9.eE+-]+) s,\s*([0-9.eE+-]+) s per iteration\s*$")


class CorpusEntry:
    """One row of expected.txt."""

    def __init__(self, line, source):
        fields = line.split()
        if len(fields) < 4:
            raise ValueError("%s: expected name rows profile accuracy [args...]: %r" % (source, line))
        self.name = fields[0]
        self.rows = int(fields[1])
        if fields[2] not in ("enforced", "target"):
            raise ValueError("%s: %s: profile must be enforced or target, not %r" % (source, self.name, fields[2]))
        self.profile_enforced = fields[2] == "enforced"
        # The target, and a looser bound the check enforces meanwhile.
        self.tolerance, self.enforced_tolerance = None, None
        for cell in fields[3].split(","):
            match = re.fullmatch(r"([0-9.]+)%:(enforced|target)", cell)
            if not match:
                raise ValueError("%s: %s: accuracy must look like 3%%:enforced, 3%%:target or "
                                 "3%%:target,9900%%:enforced, not %r" % (source, self.name, fields[3]))
            bound = float(match.group(1)) / 100
            if match.group(2) == "enforced":
                self.enforced_tolerance = bound
            if self.tolerance is None or bound < self.tolerance:
                self.tolerance = bound
        self.accuracy_enforced = self.enforced_tolerance == self.tolerance
        self.args = fields[4:]


def read_table(path):
    with open(path) as f:
        return [CorpusEntry(line, path) for line in f if line.strip() and not line.startswith("#")]


def run(cmd, cwd, accepted=(0,)):
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if result.returncode not in accepted:
        raise RuntimeError("%s exited with %d:\n%s%s" % (" ".join(cmd), result.returncode, result.stdout,
                                                         result.stderr))
    return result


def program_output(stdout, cmd):
    """The result lines and the loop line (iterations, seconds per iteration)."""
    results = [line.strip() for line in stdout.splitlines() if line.startswith("result ")]
    loops = [LOOP_LINE.match(line.strip()) for line in stdout.splitlines() if line.startswith("loop:")]
    if not results or len(loops) != 1 or loops[0] is None:
        raise RuntimeError("%s printed no result line or no single loop line:\n%s" % (" ".join(cmd), stdout))
    return results, int(loops[0].group(1)), float(loops[0].group(3))


def emulation_options(args):
    return ["--emulate", args.emulate] if args.emulate else []


def measured_runs(entry, args, tmp, program, prog_args, call):
    """The program's own loop timing in --runs runs without capture (without
    the interposer on the wall clock; emulated, under the virtual clock with
    the accounting of the iterations `call` ends, when known)."""
    runs = []
    for k in range(args.runs):
        if not args.emulate:
            cmd = [args.mpiexec, "-n", str(args.np), program] + prog_args
        else:
            cmd = [args.mheta, "run", "-n", str(args.np), "--capture", "off"] + emulation_options(args)
            if call:
                cmd += ["--accounting-call", call, "--accounting", os.path.join(tmp, "run%d.accounting.json" % k)]
            cmd += ["--", program] + prog_args
        results, real_iterations, seconds = program_output(run(cmd, tmp).stdout, cmd)
        runs.append({"results": results, "iterations": real_iterations, "seconds": seconds,
                     "terms": accounted_terms(os.path.join(tmp, "run%d.accounting.json" % k))})
    return runs


TERMS = ("compute", "io", "comm", "wait", "total")


def accounted_terms(path):
    """Per rank, each term's mean over the accounting's iterations after the
    first (the setup), or None without records: the mean, as the program's
    own loop time is, and the model's terms with the compute's variation
    (a rare heavy iteration moves the mean, not the median)."""
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        ranks = json.load(f).get("ranks", [])
    means = []
    for r in ranks:
        iterations = r["iterations"][1:]
        if not iterations:
            return None
        means.append({t: statistics.fmean(i[k] for i in iterations) for k, t in enumerate(TERMS)})
        means[-1]["records"] = len(r["iterations"])
    return means or None


def median_terms(runs):
    """Term by term, the median over the runs that have records."""
    recorded = [r["terms"] for r in runs if r["terms"]]
    if not recorded or len({len(t) for t in recorded}) != 1:
        return None
    return [{t: statistics.median(run[rank][t] for run in recorded) for t in TERMS + ("records",)}
            for rank in range(len(recorded[0]))]


def largest_term_error(measured, predicted):
    """The term whose prediction is furthest from its measurement: every rank's
    compute and I/O, and the bottleneck's (the rank measured to wait least)
    communication and waiting together, whose split the interposer and the
    model draw differently (docs/validate.md, "Attribution")."""
    if not measured or len(measured) != len(predicted):
        return None
    candidates = []
    for rank, (m, p) in enumerate(zip(measured, predicted)):
        candidates.append((rank, "compute", p["compute_s"], m["compute"]))
        candidates.append((rank, "io", p["io_s"], m["io"]))
    bottleneck = min(range(len(measured)), key=lambda r: measured[r]["wait"])
    candidates.append((bottleneck, "comm+wait", predicted[bottleneck]["comm_s"] + predicted[bottleneck]["wait_s"],
                       measured[bottleneck]["comm"] + measured[bottleneck]["wait"]))
    rank, term, p, m = max(candidates, key=lambda c: abs(c[2] - c[3]))
    return {"rank": rank, "term": term, "predicted_s": p, "measured_s": m}


def records_are_iterations(record):
    """Whether every rank's accounted records are the captured iterations: the
    accounting ends them at the k-th calls of the function the capture's
    rank 0 found, which on another rank may come more or less often than
    once an iteration (channel_diagnostics: the wall ranks send fewer
    halos); its terms then describe parts of iterations, and are not
    compared."""
    counts = record.get("accounted_records")
    expected = record.get("iterations_counted")
    if not counts or not expected:
        return False
    return all(abs(n - expected) <= 0.05 * expected + 2 for n in counts)


def check_program(entry, args, tmp):
    record = {"name": entry.name, "rows": entry.rows, "np": args.np, "emulate": args.emulate, "failures": [],
              "outside_bound": []}
    program = os.path.join(args.bin, entry.name)
    prog_args = [a.replace("{src}", HERE).replace("{tmp}", tmp) for a in entry.args]

    # Emulated, the capture comes first: its accounting names the call that
    # ends an iteration, with which the measured runs account theirs.
    profile = os.path.join(tmp, "profile.json")
    capture_accounting = os.path.join(tmp, "capture.accounting.json")
    captured = [args.mheta, "run", "-n", str(args.np), "--rows", str(entry.rows), "--profile", profile] + \
        emulation_options(args) + (["--accounting", capture_accounting] if args.emulate or args.run_compute else []) + \
        ["--", program] + prog_args
    run_result = run(captured, tmp, accepted=(0, 6))  # 6: ran, but no profile (checked below)
    captured_results, _, captured_seconds = program_output(run_result.stdout, captured)
    record["captured_run_s"] = captured_seconds
    record["run_messages"] = [line for line in run_result.stderr.splitlines() if "mheta" in line]
    call = None
    if os.path.isfile(capture_accounting):
        with open(capture_accounting) as f:
            call = json.load(f).get("call")

    runs = measured_runs(entry, args, tmp, program, prog_args, call)
    record["measured_runs_s"] = [r["seconds"] for r in runs]
    record["measured_s"] = statistics.median(record["measured_runs_s"])
    record["iterations_real"] = runs[0]["iterations"]
    record["measured_ranks"] = median_terms(runs)
    for r in runs:
        if r["results"] != runs[0]["results"]:
            record["failures"].append("results differ between runs: %s and %s" % (r["results"], runs[0]["results"]))
    if captured_results != runs[0]["results"]:
        record["failures"].append("results changed under mheta run: %s, without: %s" %
                                  (captured_results, runs[0]["results"]))
    record["profile"] = os.path.isfile(profile)
    if (run_result.returncode == 6) == record["profile"]:
        record["failures"].append("mheta run exited %d with%s a profile" %
                                  (run_result.returncode, "" if record["profile"] else "out"))
    if not record["profile"]:
        if entry.profile_enforced:
            record["failures"].append("no profile written")
        return record

    with open(profile) as f:
        p = json.load(f)
    record["iterations_counted"] = p.get("iterations")
    record["capture"] = p.get("capture")  # how sure an automatic capture is (absent in other modes)
    dist = os.path.join(tmp, "dist.txt")
    with open(dist, "w") as f:
        f.write("\n".join(str(r) for r in p["distribution"]) + "\n")
    try:
        prediction = json.loads(run([args.mheta, "predict", dist, "--profile", profile, "--cluster", args.cluster,
                                     "--json"], tmp).stdout)
    except RuntimeError as error:
        record["failures"].append("mheta predict of the profile failed: %s" % error)
        return record
    record["predicted_s"] = prediction["iteration_s"]
    record["predicted_ranks"] = prediction["ranks"]
    if args.cluster_collectives:
        record["predicted_cluster_collectives_s"] = predict_with_cluster_collectives(args, tmp, p, dist)
    if record["measured_ranks"]:
        record["accounted_records"] = [r["records"] for r in record["measured_ranks"]]
    record["largest_term_error"] = largest_term_error(record["measured_ranks"], prediction["ranks"]) \
        if records_are_iterations(record) else None
    # The unit compared: the captured iteration. Where the capture counts
    # fewer, longer iterations than the program (a period holding a rarer
    # collective), or more, shorter ones (an inner solver's sweep, where the
    # outer step makes no call of its own and its sweeps vary in number),
    # the program's time per captured iteration is its whole loop over the
    # captured count.
    # A count off by one or two (a loop whose first iteration the detector
    # could not tell apart) is the same unit.
    counted = record["iterations_counted"]
    real = record["iterations_real"]
    record["steps_per_iteration"] = 1
    if counted and (real >= 1.5 * counted or counted >= 1.5 * real):
        record["steps_per_iteration"] = real / counted
    compared = record["measured_s"] * record["steps_per_iteration"]
    record["compared_s"] = compared
    error = abs(record["predicted_s"] - compared) / min(record["predicted_s"], compared)
    record["error"] = error
    bound = args.bound / 100 if args.bound is not None else entry.enforced_tolerance
    if bound is not None and error > bound:
        record["outside_bound"].append("prediction %.6g s differs from the measured %.6g s by %.1f%%, more than %.0f%%"
                                  % (record["predicted_s"], compared, 100 * error, 100 * bound))
    return record


def predict_with_cluster_collectives(args, tmp, profile, dist):
    """mheta predict of the profile with its collectives' captured times
    removed, so that the cluster prices every collective (as for a profile
    captured elsewhere); None when the capture timed none."""
    profile = copy.deepcopy(profile)  # the caller's profile keeps its times
    timed = [op for rank in profile["ranks"] for s in rank["sections"] for op in s["comm"] if "inside_s" in op]
    if not timed:
        return None
    for op in timed:
        del op["inside_s"]
    path = os.path.join(tmp, "profile-untimed-collectives.json")
    with open(path, "w") as f:
        json.dump(profile, f)
    out = run([args.mheta, "predict", dist, "--profile", path, "--cluster", args.cluster, "--json"], tmp).stdout
    return json.loads(out)["iteration_s"]


def describe(record, entry):
    text = "%s: measured %.3e s per iteration (%d iterations)" % (
        record["name"], record["measured_s"], record["iterations_real"])
    if "predicted_s" not in record:
        text += "; %s" % ("no profile (%s)" % ("enforced" if entry.profile_enforced else "target")
                          if not record["profile"] else "profile written, no prediction")
        if record["run_messages"]:
            text += "\n  " + "\n  ".join(record["run_messages"])
        return text
    text += "; predicted %.3e s, difference %.1f%% (%s %.0f%%); iterations counted %s / real %d" % (
        record["predicted_s"], 100 * record["error"], "enforced" if entry.accuracy_enforced else "target",
        100 * entry.tolerance, record["iterations_counted"], record["iterations_real"])
    if record["steps_per_iteration"] != 1:
        text += " (compared per captured iteration of %.3g of the program's: %.3e s measured)" % (
            record["steps_per_iteration"], record["compared_s"])
    if len(record["measured_runs_s"]) > 1:
        text += "; runs %s" % ", ".join("%.3e" % t for t in record["measured_runs_s"])
    worst = record.get("largest_term_error")
    if worst:
        text += "; largest term error: %s of rank %d, predicted %.3e s, measured %.3e s" % (
            worst["term"], worst["rank"], worst["predicted_s"], worst["measured_s"])
    if entry.enforced_tolerance is not None and not entry.accuracy_enforced:
        text += "; enforced meanwhile: %.0f%%" % (100 * entry.enforced_tolerance)
    cluster = record.get("predicted_cluster_collectives_s")
    if cluster:
        text += "; with the cluster's collective prices: predicted %.3e s, difference %.1f%%" % (
            cluster, 100 * abs(cluster - record["compared_s"]) / min(cluster, record["compared_s"]))
    if record.get("capture"):
        text += "; capture: %d repetitions, %.0f%% of the run" % (record["capture"]["repetitions"],
                                                                   100 * record["capture"]["time_share"])
        if "pace" in record["capture"]:
            text += ", pace %.2f" % record["capture"]["pace"]
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*")
    parser.add_argument("--mheta", required=True)
    parser.add_argument("--mpiexec", default="mpiexec")
    parser.add_argument("--bin", required=True, help="folder of the built corpus programs")
    parser.add_argument("--cluster", required=True, help="cluster.json for mheta predict")
    parser.add_argument("--table", default=os.path.join(HERE, "expected.txt"))
    parser.add_argument("--np", type=int, default=2)
    parser.add_argument("--runs", type=int, default=1, help="runs without the interposer (median)")
    parser.add_argument("--emulate", help="run every program on this emulated cluster (preset or file), virtual clock")
    parser.add_argument("--run-compute", action="store_true",
                        help="keep every iteration of the capture run's records on the wall clock (--accounting), "
                        "where mheta run by default keeps a sample of them to price the profile's compute")
    parser.add_argument("--cluster-collectives", action="store_true",
                        help="also predict with every collective at the cluster's price, the capture's times inside "
                        "them removed (docs/model.md, \"Collectives as the program paid for them\")")
    parser.add_argument("--bound", type=float, help="enforce this accuracy bound (per cent) instead of expected.txt's")
    parser.add_argument("--json", help="write the records here")
    args = parser.parse_args()
    # The programs run in scratch folders: every path given must hold there.
    args.bin, args.cluster = os.path.abspath(args.bin), os.path.abspath(args.cluster)
    if os.sep in args.mheta:
        args.mheta = os.path.abspath(args.mheta)
    if args.emulate and os.sep in args.emulate:  # a file, not a preset
        args.emulate = os.path.abspath(args.emulate)
    try:
        table = read_table(args.table)
    except (OSError, ValueError) as error:
        sys.exit("check_corpus: %s" % error)
    if not os.path.isfile(args.cluster):
        sys.exit("check_corpus: %s: no such cluster description (measure one with mheta microbench)"
                 % args.cluster)
    known = {entry.name: entry for entry in table}
    unknown = [name for name in args.names if name not in known]
    if unknown:
        sys.exit("check_corpus: not in %s: %s" % (args.table, ", ".join(unknown)))
    chosen = [known[name] for name in args.names] if args.names else \
        [entry for entry in table if os.path.isfile(os.path.join(args.bin, entry.name))]
    records, failed, outside = [], False, False
    for entry in chosen:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                record = check_program(entry, args, tmp)
            except RuntimeError as error:
                record = {"name": entry.name, "failures": [str(error)], "outside_bound": []}
        records.append(record)
        if "measured_s" in record:
            print(describe(record, entry))
        for failure in record["failures"]:
            print("FAIL %s: %s" % (entry.name, failure))
            failed = True
        for figure in record["outside_bound"]:
            print("FAIL (outside the bound) %s: %s" % (entry.name, figure))
            outside = True
        sys.stdout.flush()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)
    print("FAILED" if failed or outside else "ok")
    # A figure outside its bound alone exits OUTSIDE_BOUND: the check runs
    # again under tests/retry_timing.py; anything else fails at once.
    return 1 if failed else OUTSIDE_BOUND if outside else 0


if __name__ == "__main__":
    sys.exit(main())
