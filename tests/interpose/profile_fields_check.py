#!/usr/bin/env python3
"""What the interposer writes into profile.json beyond the captured
iteration, with cg (apps/cg.cpp) under real mpiexec (ctest drives it;
tests/interpose/CMakeLists.txt). Exits non-zero with a message when a check
fails.

  - `iterations` is the run's: cg --iters 5 under `mheta run` gives 5,
    counted from its iteration marks at MPI_Finalize ("counted"), not the 2
    seen when the capture ended; `mheta run --iterations N` states N
    ("stated").
  - `mheta run --row-weights <data>/a.row_weights.txt` puts cg's weights into
    row_weights, equal to the file's.
  - A program that brackets one iteration of several with MPI_Pcontrol
    counts nothing: its profile keeps the count seen at the capture
    ("captured").
  - A program that does not mark its iterations (nas_style_cg.c) counts
    them too: under automatic detection (the iterations before detection
    included) and in `call:MPI_Allreduce:2` mode, N iterations give N
    ("counted").
  - A run that aborts after its capture keeps the profile written when the
    capture ended, with the count seen then (2, "captured").
  - A malformed weights file: `mheta run` refuses it before the program
    starts, naming the file and the line; MHETA_ROW_WEIGHTS set directly
    gives one warning, the program still passes, and the profile has no
    row_weights.
"""
import argparse
import json

import jsonschema
import os
import subprocess
import sys
import tempfile


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def run(cmd, env=None, expect=0):
    merged = dict(os.environ)
    merged.update(env or {})
    result = subprocess.run(cmd, env=merged, capture_output=True, text=True, timeout=240)
    if expect is not None and result.returncode != expect:
        fail("%s exited with %d, expected %d\nstdout:\n%s\nstderr:\n%s" %
             (" ".join(cmd), result.returncode, expect, result.stdout, result.stderr))
    return result


def passed(result, what):
    if not any("PASS" in line for line in result.stdout.splitlines()):
        fail("%s: the program did not pass:\n%s\n%s" % (what, result.stdout, result.stderr))


SCHEMA = None


def load(path):
    """The profile, checked against docs/schemas/profile.schema.json."""
    if not os.path.exists(path):
        fail("no profile at " + path)
    with open(path) as f:
        profile = json.load(f)
    errors = sorted(SCHEMA.iter_errors(profile), key=str)
    if errors:
        fail("%s does not follow the schema: %s" % (path, errors[0].message))
    return profile


def weights_of(path):
    with open(path) as f:
        return [float(line) for line in f if line.strip() and not line.lstrip().startswith("#")]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--lib", required=True)
    parser.add_argument("--mheta", required=True)
    parser.add_argument("--np", type=int, default=2)
    parser.add_argument("--rows", type=int, default=3000)
    parser.add_argument("--schema", required=True, help="docs/schemas/profile.schema.json")
    parser.add_argument("--abort-program", help="tests/interpose/marked_then_abort.c")
    parser.add_argument("--pcontrol-program", help="tests/interpose/mixed_requests.c: MPI_Pcontrol around iteration 3")
    parser.add_argument("--unmarked-program", help="tests/interpose/nas_style_cg.c: no marks, automatic detection")
    parser.add_argument("cg", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cg = [a for a in args.cg if a != "--"]
    global SCHEMA
    with open(args.schema) as f:
        SCHEMA = jsonschema.Draft202012Validator(json.load(f))
    # Out of core, several ICLAs a rank (the budget of tests/apps, scaled).
    env = {"MHETA_MEMORY_BYTES": "131072"}
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "data")

        def cg_args(iters):
            return cg + ["--rows", str(args.rows), "--iters", str(iters), "--data", data]

        def mheta_run(extra, iters, profile, expect=0):
            return run([args.mheta, "run", "-n", str(args.np), "--profile", profile] + extra + ["--"] + cg_args(iters),
                       env, expect)

        # 1. The run's iterations, counted (cg marks every iteration).
        counted = os.path.join(tmp, "counted.json")
        passed(mheta_run([], 5, counted), "cg --iters 5")
        p = load(counted)
        if p["iterations"] != 5 or p.get("iterations_source") != "counted":
            fail("cg --iters 5: profile says %s iterations (%s), expected 5 counted" %
                 (p["iterations"], p.get("iterations_source")))
        if "row_weights" in p:
            fail("row_weights in a profile captured without --row-weights")

        # 2. Stated iterations, and the row weights cg wrote with its data.
        weights_file = os.path.join(data, "a.row_weights.txt")
        weights = weights_of(weights_file)
        if len(weights) != args.rows or len(set(weights)) < 2:
            fail("%s: %d weights (%d distinct), expected %d uneven ones" %
                 (weights_file, len(weights), len(set(weights)), args.rows))
        weighted = os.path.join(tmp, "weighted.json")
        passed(mheta_run(["--iterations", "40", "--row-weights", weights_file], 3, weighted), "cg --row-weights")
        p = load(weighted)
        if p["iterations"] != 40 or p.get("iterations_source") != "stated":
            fail("--iterations 40: profile says %s (%s)" % (p["iterations"], p.get("iterations_source")))
        if p.get("row_weights") != weights:
            fail("profile row_weights (%d entries) differ from %s" % (len(p.get("row_weights", [])), weights_file))

        # 3. A malformed file: refused by `mheta run`, a warning in the library.
        bad = os.path.join(tmp, "bad_weights.txt")
        with open(weights_file) as f:
            lines = f.read().splitlines()
        lines[6] = "seven"  # line 7
        with open(bad, "w") as f:
            f.write("\n".join(lines) + "\n")
        refused = os.path.join(tmp, "refused.json")
        result = mheta_run(["--row-weights", bad], 3, refused, expect=3)
        if bad + ":line 7" not in result.stderr or "mheta run" not in result.stderr:
            fail("mheta run --row-weights %s: message does not name the file and line 7: %s" % (bad, result.stderr))
        if os.path.exists(refused):
            fail("mheta run started the program despite the malformed weights")
        warned = os.path.join(tmp, "warned.json")
        result = run([args.mpiexec, "-n", str(args.np), "-genv", "LD_PRELOAD", args.lib, "-genv", "MHETA_PROFILE",
                      warned, "-genv", "MHETA_ROW_WEIGHTS", bad] + cg_args(3), env)
        passed(result, "cg with MHETA_ROW_WEIGHTS malformed")
        if result.stderr.count("MHETA_ROW_WEIGHTS") != 1 or bad + ":line 7" not in result.stderr:
            fail("expected one warning naming %s:line 7, got:\n%s" % (bad, result.stderr))
        p = load(warned)
        if "row_weights" in p:
            fail("the profile has row_weights from a malformed file")
        # 4. One MPI_Pcontrol(1) in a run of 6 iterations is no count.
        if args.pcontrol_program:
            bracketed = os.path.join(tmp, "bracketed.json")
            run([args.mpiexec, "-n", str(args.np), "-genv", "LD_PRELOAD", args.lib, "-genv", "MHETA_PROFILE",
                 bracketed, "-genv", "MHETA_CAPTURE", "pcontrol", args.pcontrol_program, "6"])
            p = load(bracketed)
            if p.get("iterations_source") != "captured":
                fail("one MPI_Pcontrol(1) in 6 iterations: iterations %s (%s), expected the captured count" %
                     (p["iterations"], p.get("iterations_source")))
        # 5. No marks: the k-th calls of the function that ends an iteration,
        # found by detection or named, counted to MPI_Finalize. Iteration
        # counts unlike the 2 seen at the capture and unlike each other.
        if args.unmarked_program:
            for capture, iterations in (("auto", 9), ("call:MPI_Allreduce:2", 7)):
                unmarked = os.path.join(tmp, "unmarked.json")
                if os.path.exists(unmarked):
                    os.remove(unmarked)
                run([args.mpiexec, "-n", str(args.np), "-genv", "LD_PRELOAD", args.lib, "-genv", "MHETA_PROFILE",
                     unmarked, "-genv", "MHETA_CAPTURE", capture, "-genv", "MHETA_ROWS", "4000",
                     args.unmarked_program, "4000", str(iterations)])
                p = load(unmarked)
                if p["iterations"] != iterations or p.get("iterations_source") != "counted":
                    fail("nas_style_cg, %d iterations, MHETA_CAPTURE=%s: profile says %s (%s), expected %d counted" %
                         (iterations, capture, p["iterations"], p.get("iterations_source"), iterations))
        # 6. Aborted after the capture: the profile of the capture stays.
        if args.abort_program:
            aborted = os.path.join(tmp, "aborted.json")
            run([args.mheta, "run", "-n", str(args.np), "--capture", "mark", "--profile", aborted, "--",
                 args.abort_program, "8", "4"], expect=5)
            p = load(aborted)
            if p["iterations"] != 2 or p.get("iterations_source") != "captured":
                fail("aborted after iteration 4: profile says %s (%s), expected the 2 seen at the capture" %
                     (p["iterations"], p.get("iterations_source")))
    print("ok: iterations counted (5 marked%s) and stated (40); %d row weights carried; a malformed file is refused "
          "by mheta run and a warning in the library" %
          (", 9 detected, 7 of call:MPI_Allreduce:2" if args.unmarked_program else "", args.rows))


if __name__ == "__main__":
    main()
