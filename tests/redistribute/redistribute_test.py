#!/usr/bin/env python3
"""End-to-end tests of `mheta redistribute` under a real mpiexec.

Each scenario makes local arrays with make_local_arrays, records their
checksums (`mheta redistribute --recover --checksum`), does something to
them, and checks what a restart finds: one complete distribution, the one
expected, with the same checksums as before.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

RANKS = 4
ROWS = 2000
OLD = [700, 0, 500, 800]   # a rank with no rows
NEW = [300, 900, 600, 200]
# The fault points before the manifest commits leave the old distribution;
# from the commit on, the new one.
KEEPS_OLD = {"mid-write", "after-exchange", "before-commit"}


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Runner:
    def __init__(self, args):
        self.args = args
        self.work = args.work
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.data = os.path.join(self.work, "data")
        self.old = self.dist_file("old.txt", OLD)
        self.new = self.dist_file("new.txt", NEW)

    def dist_file(self, name, rows):
        path = os.path.join(self.work, name)
        with open(path, "w") as f:
            f.write("\n".join(str(r) for r in rows) + "\n")
        return path

    def mpirun(self, program, *argv, env=None):
        command = [self.args.mpiexec, self.args.np_flag, str(RANKS), program, *argv]
        environment = dict(os.environ)
        environment.pop("MHETA_REDISTRIBUTE_KILL", None)
        environment.pop("MHETA_REDISTRIBUTE_FILE_LIMIT", None)
        environment.pop("MHETA_REDISTRIBUTE_CORRUPT", None)
        environment.update(env or {})
        run = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=100)
        print("$", " ".join(command), "->", run.returncode)
        print(run.stdout, end="")
        print(run.stderr, end="", file=sys.stderr)
        return run

    def make(self, dist_file):
        run = self.mpirun(self.args.make, self.data, dist_file)
        check(run.returncode == 0, "make_local_arrays failed")

    def redistribute(self, *argv, env=None):
        return self.mpirun(self.args.mheta, "redistribute", "--data", self.data, *argv, env=env)

    def state(self):
        """Recovers, then returns (distribution, {variable: checksum}, output)."""
        run = self.redistribute("--recover", "--checksum")
        check(run.returncode == 0, "recovery failed")
        dist = re.search(r"^distribution \[([0-9 ]*)\]", run.stdout, re.M)
        check(dist is not None, "recovery did not name the distribution")
        sums = dict(re.findall(r"^  (\w+): checksum (\d+)$", run.stdout, re.M))
        check(sorted(sums) == ["a", "b", "c"], "recovery did not checksum every variable")
        check(not os.path.exists(os.path.join(self.data, "mheta-staging")), "the staging directory is left behind")
        return [int(x) for x in dist.group(1).split()], sums, run.stdout


def round_trip(r):
    r.make(r.old)
    dist, before, _ = r.state()
    check(dist == OLD, "fresh data is not in its own distribution")
    run = r.redistribute("--from", r.old, "--to", r.new, "--checksum")
    check(run.returncode == 0, "redistribution failed")
    check("redistributed" in run.stdout, "no summary line")
    dist, after, _ = r.state()
    check(dist == NEW and after == before, "new distribution %s, checksums %s vs %s" % (dist, after, before))
    # Back again in pieces of a few rows: many messages per transfer.
    run = r.redistribute("--from", r.new, "--to", r.old, "--piece-bytes", "20000")
    check(run.returncode == 0, "second redistribution failed")
    pieces = int(re.search(r"in (\d+) pieces", run.stdout).group(1))
    check(pieces > 50, "expected many pieces with --piece-bytes 20000, got %d" % pieces)
    dist, again, _ = r.state()
    check(dist == OLD and again == before, "back in %s with checksums %s" % (dist, again))
    # `-n 4` starts mpiexec itself.
    own = subprocess.run([r.args.mheta, "redistribute", "-n", str(RANKS), "--data", r.data, "--from", r.old,
                          "--to", r.new, "--checksum"], capture_output=True, text=True, timeout=100,
                         env=dict(os.environ, MHETA_MPIEXEC=r.args.mpiexec))
    print(own.stdout, end="")
    print(own.stderr, end="", file=sys.stderr)
    check(own.returncode == 0 and "redistributed" in own.stdout, "mheta redistribute -n 4 failed")
    dist, again, _ = r.state()
    check(dist == NEW and again == before, "after -n 4: %s with checksums %s" % (dist, again))


def kill(r, spec):
    point, _, victim = spec.partition("@")
    victim = victim or "1"
    r.make(r.old)
    _, before, _ = r.state()
    run = r.redistribute("--from", r.old, "--to", r.new, env={"MHETA_REDISTRIBUTE_KILL": point + "@" + victim})
    check(run.returncode != 0, "the run with rank %s killed at %s succeeded" % (victim, point))
    check("rank %s killed at %s" % (victim, point) in run.stderr, "rank %s did not reach %s" % (victim, point))
    dist, after, out = r.state()
    expected = OLD if point in KEEPS_OLD else NEW
    word = "old" if point in KEEPS_OLD else "new"
    check("complete in the %s distribution" % word in out, "recovery did not say the %s distribution" % word)
    check(dist == expected, "after a kill at %s the data is in %s, expected %s" % (point, dist, expected))
    check(after == before, "after a kill at %s the checksums changed: %s vs %s" % (point, after, before))
    # And the recovered data can be moved again.
    target = r.new if point in KEEPS_OLD else r.old
    source = r.old if point in KEEPS_OLD else r.new
    run = r.redistribute("--from", source, "--to", target, "--checksum")
    check(run.returncode == 0, "redistributing the recovered data failed")


def mount_tmpfs(path, size):
    os.makedirs(path, exist_ok=True)
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    return subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%d" % size, "tmpfs", path],
                          capture_output=True).returncode == 0


def disk_full(r):
    """A tmpfs too small for a second copy: refused before anything is written."""
    # About 3.1 MB of data (2000 rows of 1539 bytes): room for it and half a copy.
    mounted = mount_tmpfs(r.data, 9 * 512 * 1024)
    if not mounted:
        print("cannot mount a tmpfs here (not root?): the file size limit test covers full disks")
        return
    try:
        r.make(r.old)
        _, before, _ = r.state()
        run = r.redistribute("--from", r.old, "--to", r.new)
        check(run.returncode == 1, "a redistribution onto a full disk returned %d, expected 1" % run.returncode)
        check("not enough free space" in run.stderr, "the failure does not say the disk is too small")
        dist, after, _ = r.state()
        check(dist == OLD and after == before, "after the full disk: %s, checksums %s vs %s" % (dist, after, before))
    finally:
        subprocess.run(["umount", r.data])


def file_size_limit(r):
    """Writes of the new blocks fail midway (EFBIG, as ENOSPC would): rolled back."""
    r.make(r.old)
    _, before, _ = r.state()
    run = r.redistribute("--from", r.old, "--to", r.new, env={"MHETA_REDISTRIBUTE_FILE_LIMIT": str(200 * 1024)})
    check(run.returncode == 1, "a redistribution whose writes fail returned %d, expected 1" % run.returncode)
    check("rolled back" in run.stderr, "the failure does not say it rolled back")
    dist, after, _ = r.state()
    check(dist == OLD and after == before, "after failed writes: %s, checksums %s vs %s" % (dist, after, before))


def corrupt(r):
    """A byte of rank 1's new block differs from what was sent when it is
    read back: verification catches it, every rank fails and it rolls back."""
    r.make(r.old)
    _, before, _ = r.state()
    run = r.redistribute("--from", r.old, "--to", r.new, env={"MHETA_REDISTRIBUTE_CORRUPT": "1"})
    check("rank 1 corrupted byte" in run.stderr, "rank 1 did not corrupt its new block")
    check(run.returncode == 1, "a redistribution with a corrupted block returned %d, expected 1" % run.returncode)
    check(re.search(r"rank 1: .*\w\.1\.h5: global rows \[\d+, \d+\) read back differ from the rows", run.stderr),
          "the failure does not name rank 1's block and the rows that differ")
    check("rolled back" in run.stderr, "the failure does not say it rolled back")
    dist, after, _ = r.state()
    check(dist == OLD and after == before, "after the corrupted block: %s, checksums %s vs %s" % (dist, after, before))


def fill(r, point):
    """The disk fills up (another program writes) at `point`: a clean failure
    with exit code 1 on every rank (no crash, no rank left in MPI_Finalize),
    or success; either way one whole distribution afterwards, the old one up
    to the commit and the new one from it."""
    mounted = mount_tmpfs(r.data, 16 * 1024 * 1024)
    if not mounted:
        print("cannot mount a tmpfs here (not root?): skipping the fill at %s" % point)
        return
    filler = os.path.join(r.data, "filler")
    try:
        r.make(r.old)
        _, before, _ = r.state()
        run = r.redistribute("--from", r.old, "--to", r.new,
                             env={"MHETA_REDISTRIBUTE_FILL": point, "MHETA_REDISTRIBUTE_FILL_FILE": filler})
        name = point.partition("@")[0]
        check("filled the disk at %s" % name in run.stderr, "the disk was not filled at %s" % point)
        check(run.returncode in (0, 1), "a disk filled at %s gave exit code %d, expected 0 or 1 (a clean failure)"
              % (point, run.returncode))
        check("rolling back failed" not in run.stderr, "the rollback failed at %s" % point)
        os.remove(filler)
        dist, after, _ = r.state()
        committed = name in ("after-commit", "mid-switch") or run.returncode == 0
        expected = NEW if committed else OLD
        check(dist == expected, "after the disk filled at %s the data is in %s, expected %s" % (point, dist, expected))
        check(after == before, "after the disk filled at %s the checksums changed: %s vs %s" % (point, after, before))
    finally:
        subprocess.run(["umount", r.data])


def wrong_from(r):
    r.make(r.old)
    run = r.redistribute("--from", r.new, "--to", r.dist_file("even.txt", [500, 500, 500, 500]))
    check(run.returncode == 3, "redistributing from the wrong distribution returned %d" % run.returncode)
    check("is in the distribution [700 0 500 800]" in run.stderr, "the error does not name the data's distribution")


def start_on_own_distribution(r):
    """A program started on its distribution after a redistribution moves the data back first."""
    r.make(r.old)
    _, before, _ = r.state()
    check(r.redistribute("--from", r.old, "--to", r.new).returncode == 0, "redistribution failed")
    run = r.mpirun(r.args.make, "--start", r.data, r.old)
    check(run.returncode == 0 and "to this run's distribution [700 0 500 800]" in run.stdout,
          "the start did not move the data back to the run's distribution")
    dist, after, _ = r.state()
    check(dist == OLD and after == before, "after the start: %s, checksums %s vs %s" % (dist, after, before))
    run = r.mpirun(r.args.make, "--start", r.data, r.old)
    check(run.returncode == 0 and "nothing to do" in run.stdout, "a second start moved something")


def main():
    parser = argparse.ArgumentParser()
    for option in ("--mheta", "--make", "--mpiexec", "--np-flag", "--scenario", "--work"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    r = Runner(args)
    try:
        if args.scenario.startswith("kill:"):
            kill(r, args.scenario.split(":", 1)[1])
        elif args.scenario.startswith("fill:"):
            fill(r, args.scenario.split(":", 1)[1])
        else:
            {"round_trip": round_trip, "disk_full": disk_full, "file_size_limit": file_size_limit, "corrupt": corrupt,
             "wrong_from": wrong_from, "start_on_own_distribution": start_on_own_distribution}[args.scenario](r)
    except Failure as failure:
        print("FAIL:", failure, file=sys.stderr)
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
