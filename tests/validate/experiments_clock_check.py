"""scripts/experiments.sh's CLOCK: the clock reaches both commands it runs.

The script is run against a build folder of recording stand-ins (its
`cli/mheta` appends each command line to a log and writes the results a
`validate` would, with known numbers), so what is checked is the script's
own plumbing: `CLOCK=wall` gives `--clock wall` to the `mheta run` that
measures the cluster and to `mheta validate`, which gets that cluster, kept
under a name of its clock; unset, neither gets `--clock` (their default);
a bad value stops the script before it creates anything.

Usage: experiments_clock_check.py SOURCE_DIR
"""
import os
import pathlib
import shlex
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from checks import check, exit_if_failed  # noqa: E402

MHETA_STAND_IN = r"""#!/usr/bin/env bash
# Records its command line; `validate -o FILE` writes results of known numbers.
printf '%s\n' "$*" >>"$MHETA_STAND_IN_LOG"
if [ "$1" = validate ]; then
  while [ $# -gt 0 ]; do
    if [ "$1" = -o ]; then
      cat >"$2" <<'EOF'
{"summary": {"measured": 8, "error_min": 0.01, "error_mean": 0.02, "error_max": 0.03, "noise_floor": 0.04,
 "predicted_best": "GBS", "measured_best": "GBS", "predicted_best_is_measured_best": true,
 "predicted_best_excess": 0.0, "spectrum_best_over_searched": 0.05}}
EOF
    fi
    shift
  done
fi
"""


def executable(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def run_script(script, build, out, log, clock):
    env = dict(os.environ, RANKS="2", CONFIGS="mix:5", APPS="jacobi", REPEAT="2", MHETA_STAND_IN_LOG=str(log))
    env.pop("CLOCK", None)
    if clock is not None:
        env["CLOCK"] = clock
    return subprocess.run(["bash", str(script), str(build), str(out)], env=env, capture_output=True, text=True,
                          timeout=60)


def commands(log, name):
    """The logged command lines whose first word is `name`, as word lists."""
    lines = log.read_text().splitlines() if log.exists() else []
    return [shlex.split(line) for line in lines if line.split(" ", 1)[0] == name]


def option(words, name):
    return words[words.index(name) + 1] if name in words else None


def main():
    script = pathlib.Path(sys.argv[1]) / "scripts" / "experiments.sh"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        build = tmp / "build"
        executable(build / "cli" / "mheta", MHETA_STAND_IN)
        executable(build / "apps" / "jacobi", "#!/bin/sh\n")
        executable(build / "microbench" / "mheta-microbench", "#!/bin/sh\n")

        log = tmp / "wall.log"
        result = run_script(script, build, tmp / "wall", log, "wall")
        check(result.returncode == 0, "CLOCK=wall: exit %d, stderr: %s" % (result.returncode, result.stderr))
        runs, validates = commands(log, "run"), commands(log, "validate")
        check(len(runs) == 1 and len(validates) == 1,
              "CLOCK=wall: one cluster measured and one validation, got %s" % log.read_text())
        if runs and validates:
            run, validate = runs[0], validates[0]
            cluster = tmp / "wall" / "mix-5" / "jacobi.cluster.wall.json"
            check(option(run, "--clock") == "wall", "the cluster's mheta run gets --clock wall: %s" % run)
            check("mheta-microbench" in " ".join(run) and option(run, "-o") == str(cluster),
                  "the microbenchmark writes the wall clock's cluster %s: %s" % (cluster, run))
            check(option(validate, "--clock") == "wall", "mheta validate gets --clock wall: %s" % validate)
            check(option(validate, "--cluster") == str(cluster), "validate predicts with that cluster: %s" % validate)
            check(option(validate, "--emulate") == option(run, "--emulate"),
                  "both run under one emulation: %s, %s" % (option(validate, "--emulate"), option(run, "--emulate")))
        check("wall clock" in result.stdout.splitlines()[-1] if result.stdout else False,
              "the summary's last line names the clock: %r" % result.stdout[-200:])

        log = tmp / "default.log"
        result = run_script(script, build, tmp / "default", log, None)
        check(result.returncode == 0, "CLOCK unset: exit %d, stderr: %s" % (result.returncode, result.stderr))
        for words in commands(log, "run") + commands(log, "validate"):
            check("--clock" not in words, "CLOCK unset: no --clock, the commands' default: %s" % words)
        check(any(option(w, "--cluster") == str(tmp / "default" / "mix-5" / "jacobi.cluster.json")
                  for w in commands(log, "validate")), "CLOCK unset: the cluster keeps its name")

        result = run_script(script, build, tmp / "sundial", tmp / "sundial.log", "sundial")
        check(result.returncode == 2, "CLOCK=sundial: exit %d, expected 2" % result.returncode)
        check("CLOCK=sundial" in result.stderr and "virtual or wall" in result.stderr,
              "CLOCK=sundial: the message names the value and the choices: %r" % result.stderr)
        check(not (tmp / "sundial").exists() and not (tmp / "sundial.log").exists(),
              "CLOCK=sundial: nothing created, nothing run")
    exit_if_failed()


if __name__ == "__main__":
    main()
