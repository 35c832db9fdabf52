#!/usr/bin/env python3
"""The corpus under `mheta run`: for each program of expected.txt, at 2 ranks
(one per core):

1. runs it without the interposer and under `mheta run` (default capture
   mode) and checks that its "result" lines are identical;
2. checks whether a profile was written (a failure where expected.txt says
   "enforced", else reported);
3. with a profile, runs `mheta predict` of the program's own distribution on
   the cluster description and compares the predicted iteration time with
   the one the program measured itself ("loop:" line of the run without the
   interposer); a failure only where the accuracy is "enforced";
4. reports the iterations the profile counts against the program's own.

Usage:
  check_corpus.py --mheta M --mpiexec E --bin DIR --cluster cluster.json [NAME ...]
                  [--np 2] [--runs 1] [--table expected.txt] [--json OUT]
With no NAME, every program of the table that was built. The cluster file
must exist (CMake measures it once with `mheta microbench`; so does
scripts/corpus-table.sh). --json writes one record per program, for
scripts/corpus-table.sh.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

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


def run(cmd, cwd):
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
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


def check_program(entry, args, tmp):
    record = {"name": entry.name, "rows": entry.rows, "failures": []}
    program = os.path.join(args.bin, entry.name)
    prog_args = [a.replace("{src}", HERE).replace("{tmp}", tmp) for a in entry.args]
    plain = [args.mpiexec, "-n", str(args.np), program] + prog_args
    per_iteration = []
    for _ in range(args.runs):
        results, real_iterations, seconds = program_output(run(plain, tmp).stdout, plain)
        per_iteration.append(seconds)
    record["measured_s"] = statistics.median(per_iteration)
    record["iterations_real"] = real_iterations

    profile = os.path.join(tmp, "profile.json")
    captured = [args.mheta, "run", "-n", str(args.np), "--rows", str(entry.rows), "--profile", profile, "--",
                program] + prog_args
    run_result = run(captured, tmp)
    captured_results, _, captured_seconds = program_output(run_result.stdout, captured)
    record["captured_run_s"] = captured_seconds
    record["run_messages"] = [line for line in run_result.stderr.splitlines() if "mheta" in line]
    if captured_results != results:
        record["failures"].append("results changed under mheta run: %s, without: %s" % (captured_results, results))
    record["profile"] = os.path.isfile(profile)
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
    error = abs(record["predicted_s"] - record["measured_s"]) / min(record["predicted_s"], record["measured_s"])
    record["error"] = error
    if entry.enforced_tolerance is not None and error > entry.enforced_tolerance:
        record["failures"].append("prediction %.6g s differs from the measured %.6g s by %.1f%%, more than %.0f%%"
                                  % (record["predicted_s"], record["measured_s"], 100 * error,
                                     100 * entry.enforced_tolerance))
    return record


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
    if entry.enforced_tolerance is not None and not entry.accuracy_enforced:
        text += "; enforced meanwhile: %.0f%%" % (100 * entry.enforced_tolerance)
    if record.get("capture"):
        text += "; capture: %d repetitions, %.0f%% of the run" % (record["capture"]["repetitions"],
                                                                   100 * record["capture"]["time_share"])
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
    parser.add_argument("--json", help="write the records here")
    args = parser.parse_args()
    # The programs run in scratch folders: every path given must hold there.
    args.bin, args.cluster = os.path.abspath(args.bin), os.path.abspath(args.cluster)
    if os.sep in args.mheta:
        args.mheta = os.path.abspath(args.mheta)
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
    records, failed = [], False
    for entry in chosen:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                record = check_program(entry, args, tmp)
            except RuntimeError as error:
                record = {"name": entry.name, "failures": [str(error)]}
        records.append(record)
        if "measured_s" in record:
            print(describe(record, entry))
        for failure in record["failures"]:
            print("FAIL %s: %s" % (entry.name, failure))
            failed = True
        sys.stdout.flush()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)
    print("FAILED" if failed else "ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
