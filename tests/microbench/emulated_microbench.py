"""`mheta microbench --emulate FILE` under the virtual clock, for the tests
that compare what it measures with the emulated cluster's known rates."""
import argparse
import json
import os
import subprocess

from checks import check, check_figure, exit_if_failed


def parse_args(description, tolerance):
    """--mheta, --mpiexec, --out (created) and --tolerance (relative, default `tolerance`)."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mheta", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--tolerance", type=float, default=tolerance)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    return args


def measure_emulated(args, name, emulation, ranks=2, extra=()):
    """Writes `emulation` (an emulation file's document) to args.out/NAME.emulation.json,
    measures it on `ranks` ranks with a 3 s budget (and the options `extra`) into
    args.out/NAME.json, and returns the cluster file's document (exits the test when the
    command fails)."""
    emulation_path = os.path.join(args.out, name + ".emulation.json")
    with open(emulation_path, "w") as f:
        json.dump(dict({"format": "mheta-emulation/1"}, **emulation), f)
    output = os.path.join(args.out, name + ".json")
    cmd = [args.mheta, "microbench", "-n", str(ranks), "--emulate", emulation_path, "--clock", "virtual", "--budget",
           "3", "--disk-file-bytes", "8388608", "--mpiexec", args.mpiexec, "-o", output] + list(extra)
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if not check(result.returncode == 0, "%s exited with %d:\n%s" % (" ".join(cmd), result.returncode, result.stderr)):
        exit_if_failed()
    with open(output) as f:
        return json.load(f)


def within(name, value, target, tolerance):
    """Prints the figure beside its target and checks it is within `tolerance` (relative) of it."""
    print("%s: %.4g (target %.4g within %.0f%%)" % (name, value, target, 100 * tolerance))
    return check_figure(abs(value / target - 1) <= tolerance,
                        "%s is %.4g, not %.4g within %.0f%%" % (name, value, target, 100 * tolerance))
