#!/usr/bin/env python3
"""mheta's launchers (cli/launcher.hpp) against fake srun and mpirun
(fake_launcher.py) that record exactly what they receive and then run the
program with MPICH: the command line of each preset, the environment
passed through --export or -x and not set in the launcher itself, a
template of one's own, a wrong template, `mheta run` telling its own
options from the program's, and `mheta validate` starting every process
through the launcher."""
import argparse
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, exit_if_failed  # noqa: E402


class Launch:
    def __init__(self, args, work):
        self.args = args
        self.work = work
        self.bin = os.path.join(work, "bin")
        os.makedirs(self.bin)
        for name in ("srun", "mpirun"):
            path = os.path.join(self.bin, name)
            shutil.copy(args.fake, path)
            os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        self.log = os.path.join(work, "launcher.log")

    def mheta(self, *argv, env=None):
        """Runs mheta; returns (completed process, [what each launcher received])."""
        if os.path.exists(self.log):
            os.remove(self.log)
        environment = {k: v for k, v in os.environ.items() if not k.startswith("MHETA_")}
        environment.update(PATH=self.bin + os.pathsep + os.environ["PATH"], FAKE_LAUNCHER_LOG=self.log,
                           FAKE_MPIEXEC=self.args.mpiexec)
        environment.update(env or {})
        run = subprocess.run([self.args.mheta, *argv], capture_output=True, text=True, cwd=self.work,
                             env=environment, timeout=300)
        received = []
        if os.path.exists(self.log):
            with open(self.log) as f:
                received = [json.loads(line) for line in f]
        return run, received

    def profile_ranks(self, path):
        with open(path) as f:
            return len(json.load(f)["ranks"])


def own_records(words, prefix):
    """The path of the records mheta run keeps for the time of the run (its
    name holds mheta run's process id), from the launcher's arguments."""
    for word in words:
        if word.startswith(prefix):
            return word[len(prefix):]
    return ""


def run_under_srun(t):
    profile = os.path.join(t.work, "srun-profile.json")
    run, got = t.mheta("run", "-n", "2", "--launcher", "slurm", "--rows", "64", "--profile", profile, "--",
                       t.args.ring)
    check(run.returncode == 0, "mheta run --launcher slurm failed: " + run.stderr)
    if not check(len(got) == 1, "srun was started %d times" % len(got)):
        return
    # The run's own sampled records, beside the profile for the time of the run.
    records = own_records(got[0]["argv"][2].split(","), "MHETA_ACCOUNTING=")
    exported = ",".join(["ALL", "LD_PRELOAD=" + t.args.interposer, "MHETA_ROWS=64", "MHETA_PROFILE=" + profile,
                         "MHETA_ACCOUNTING=" + records, "MHETA_ACCOUNTING_SAMPLES=64"])
    check(got[0]["launcher"] == "srun" and got[0]["argv"] == ["-n", "2", "--export=" + exported, t.args.ring],
          "srun received %r" % got[0]["argv"])
    check(os.path.dirname(records) == t.work and not os.path.exists(records),
          "the run's own records %s: not beside the profile, or left there" % records)
    check(not got[0]["ld_preload_in_launcher"], "LD_PRELOAD was set in srun itself")
    check(os.path.exists(profile) and t.profile_ranks(profile) == 2, "no 2-rank profile under srun")


def run_under_mpirun_from_environment(t):
    # MHETA_LAUNCHER chooses the launcher; the program's own --rows stays its own.
    profile = os.path.join(t.work, "mpirun-profile.json")
    run, got = t.mheta("run", "-n", "2", "--profile", profile, t.args.ring, "--rows", "64",
                       env={"MHETA_LAUNCHER": "openmpi"})
    check(run.returncode == 0, "MHETA_LAUNCHER=openmpi mheta run failed: " + run.stderr)
    if not check(len(got) == 1, "mpirun was started %d times" % len(got)):
        return
    records = own_records(got[0]["argv"], "MHETA_ACCOUNTING=")
    expected = ["-n", "2", "-x", "LD_PRELOAD=" + t.args.interposer, "-x", "MHETA_PROFILE=" + profile,
                "-x", "MHETA_ACCOUNTING=" + records, "-x", "MHETA_ACCOUNTING_SAMPLES=64", t.args.ring, "--rows", "64"]
    check(got[0]["launcher"] == "mpirun" and got[0]["argv"] == expected, "mpirun received %r" % got[0]["argv"])
    check(not got[0]["ld_preload_in_launcher"], "LD_PRELOAD was set in mpirun itself")
    check(os.path.exists(profile) and t.profile_ranks(profile) == 2, "no 2-rank profile under mpirun")


def thread_wait_policy(t):
    # Where the ranks' waits sleep (emulating, or --wait sleep), OpenMP's
    # threads are told to sleep too, unless the user chose a policy.
    def exported(*options, env=None):
        run, got = t.mheta("run", "-n", "2", "--launcher", "slurm", "--capture", "off", *options, "--", t.args.ring,
                           env=env)
        check(run.returncode == 0, "mheta run %s failed: %s" % (" ".join(options), run.stderr))
        return got[0]["argv"][2].split(",") if len(got) == 1 and len(got[0]["argv"]) > 2 else []

    policy = "OMP_WAIT_POLICY=passive"
    check(policy in exported("--emulate", "HY1"), "an emulated run did not make OpenMP's waits passive")
    check(policy in exported("--wait", "sleep"), "a run whose waits sleep did not make OpenMP's waits passive")
    check(not any(v.startswith("OMP_WAIT_POLICY=") for v in exported()), "a run whose waits spin set OMP_WAIT_POLICY")
    check(not any(v.startswith("OMP_WAIT_POLICY=") for v in exported("--emulate", "HY1",
                                                                      env={"OMP_WAIT_POLICY": "active"})),
          "the user's own OMP_WAIT_POLICY was overridden")


def own_template(t):
    profile = os.path.join(t.work, "template-profile.json")
    template = "srun --ntasks={n} --export=ALL[,{name}={value}] {program}"
    run, got = t.mheta("run", "-n", "2", "--launcher", template, "--profile", profile, "--", t.args.ring)
    # The fake srun takes no --ntasks: it refuses (exit 97), and mheta says the program failed.
    check(run.returncode == 5, "a refused launch exits %d, not 5" % run.returncode)
    check(len(got) == 1 and got[0]["argv"][0] == "--ntasks=2", "the template gave %r" % (got[:1],))
    template = "srun -n {n} [--export=ALL,{name}={value}] {program}"
    run, got = t.mheta("run", "-n", "2", "--launcher", template, "--capture", "off", "--", t.args.ring)
    check(run.returncode == 0, "a template of one's own failed: " + run.stderr)
    check(len(got) == 1 and got[0]["argv"] == ["-n", "2", "--export=ALL,LD_PRELOAD=" + t.args.interposer,
                                               "--export=ALL,MHETA_CAPTURE=off",
                                               "--export=ALL,MHETA_PROFILE=" + os.path.join(t.work, "mheta-profile.json"),
                                               t.args.ring],
          "a word repeated per variable gave %r" % (got[:1],))


def wrong_template(t):
    run, got = t.mheta("run", "-n", "2", "--launcher", "srun", "--", t.args.ring)
    check(run.returncode == 2 and run.stderr.startswith("mheta run: launcher \"srun\""),
          "a template without {n} gave %d: %s" % (run.returncode, run.stderr))
    check(got == [], "a wrong template still started a launcher")


def redistribute_under_srun(t):
    data = os.path.join(t.work, "data")
    dist = os.path.join(t.work, "dist.txt")
    with open(dist, "w") as f:
        f.write("40\n24\n")
    made = subprocess.run([t.args.mpiexec, "-n", "2", t.args.make, data, dist], capture_output=True, text=True)
    if not check(made.returncode == 0, "make_local_arrays failed: " + made.stderr):
        return
    run, got = t.mheta("redistribute", "-n", "2", "--launcher", "slurm", "--data", data, "--recover", "--checksum",
                       "--json")
    check(run.returncode == 0, "mheta redistribute -n 2 --launcher slurm failed: " + run.stderr)
    if not check(len(got) == 1, "srun was started %d times" % len(got)):
        return
    check(got[0]["argv"][:3] == ["-n", "2", "--export=ALL,MHETA_LAUNCHED=1"] and
          got[0]["argv"][3:5] == [t.args.mheta, "redistribute"], "srun received %r" % got[0]["argv"])
    try:
        out = json.loads(run.stdout)
    except ValueError:
        check(False, "redistribute --json printed no single JSON document: %r" % run.stdout)
        return
    check(out["distribution"] == [40, 24] and out["moved"] is False, "redistribute --json said %r" % out)


def microbench_under_mpirun(t):
    cluster = os.path.join(t.work, "cluster.json")
    run, got = t.mheta("microbench", "-n", "2", "--launcher", "openmpi", "-o", cluster, "--budget", "2")
    check(run.returncode == 0, "mheta microbench --launcher openmpi failed: " + run.stderr)
    if check(len(got) == 1, "mpirun was started %d times" % len(got)):
        check(got[0]["argv"][:2] == ["-n", "2"] and os.path.basename(got[0]["argv"][2]) == "mheta-microbench" and
              got[0]["argv"][3:] == ["-o", cluster, "--budget", "2"], "mpirun received %r" % got[0]["argv"])
    check(os.path.exists(cluster), "no cluster.json under mpirun")


def validate_under_srun(t):
    # Every process validate starts (capture, microbench, warm-up, the
    # measured run) goes through the launcher, with the emulation exported.
    results = os.path.join(t.work, "results.json")
    run, got = t.mheta("validate", "-n", "2", "--launcher", "slurm", "--app", t.args.ring, "--rows", "64",
                       "--emulate", "HY1", "--across", "HY1", "--repeat", "1", "--microbench-budget", "2",
                       "-o", results)
    check(run.returncode == 0, "mheta validate --launcher slurm failed: " + run.stderr)
    check(len(got) >= 4, "srun was started %d times, not for capture, microbench, warm-up and run" % len(got))
    for launch in got:
        exported = launch["argv"][2] if len(launch["argv"]) > 2 else ""
        check(launch["launcher"] == "srun" and launch["argv"][:2] == ["-n", "2"] and
              exported.startswith("--export=ALL,LD_PRELOAD=" + t.args.interposer) and "MHETA_EMULATE=HY1" in exported,
              "srun received %r" % launch["argv"])
    programs = [os.path.basename(launch["argv"][3]) for launch in got if len(launch["argv"]) > 3]
    check("mheta-microbench" in programs and programs.count(os.path.basename(t.args.ring)) >= 3,
          "validate launched %r" % programs)
    if check(os.path.exists(results), "validate wrote no results under srun"):
        with open(results) as f:
            doc = json.load(f)
        measured = [d for d in doc["distributions"] if d.get("actual", 0) > 0]
        check(doc["format"] == "mheta-validation/3" and len(measured) == 1,
              "validate's results under srun: %r" % doc.get("distributions"))


SCENARIOS = {f.__name__: f for f in (run_under_srun, run_under_mpirun_from_environment, thread_wait_policy,
                                     own_template, wrong_template,
                                     redistribute_under_srun, microbench_under_mpirun, validate_under_srun)}


def main():
    parser = argparse.ArgumentParser()
    for name in ("mheta", "interposer", "ring", "make", "mpiexec", "fake"):
        parser.add_argument("--" + name, required=True)
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="mheta-launch-")
    try:
        SCENARIOS[args.scenario](Launch(args, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    exit_if_failed()
    print(args.scenario + " passed")


if __name__ == "__main__":
    main()
