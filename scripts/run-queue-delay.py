#!/usr/bin/env python3
"""How much of a run the machine took: each rank's CPU time and run-queue delay.

Runs a command (an `mheta run ...` of an app) and, every 5 ms while it runs,
reads /proc/PID/task/*/schedstat of every process named NAME that the
command started (the app's ranks; not those of other runs on the machine): the CPU time and the run-queue delay, the time a thread was ready to
run and waited for a core. Prints per process both over its whole life and
over its last L seconds, L the slowest rank's iteration loop (the sum of its
`{"mheta":"rank"}` line's iteration times): about the loop, which ends just
before the process does.

On a machine with a core per rank the delay is near zero; under the wall
clock every millisecond of it that the emulation's sleeps do not absorb
lengthens the iteration, and shows in the measured waiting of the other rank.

Usage: scripts/run-queue-delay.py NAME -- CMD...
  e.g. scripts/run-queue-delay.py jacobi -- build/cli/mheta run -n 2 --clock wall \
         --emulate mix.json --capture off -- build/apps/jacobi --rows 2048 --cols 2048 --no-check
"""
import json
import os
import subprocess
import sys
import time


def schedstat(pid):
    """CPU time and run-queue delay of all the process's threads, in ms."""
    cpu = delay = 0
    for tid in os.listdir("/proc/%s/task" % pid):
        with open("/proc/%s/task/%s/schedstat" % (pid, tid)) as f:
            c, d, _ = f.read().split()
        cpu += int(c)
        delay += int(d)
    return cpu / 1e6, delay / 1e6


def named(pid, name):
    with open("/proc/%s/comm" % pid) as f:
        return f.read().strip() == name


def parent(pid):
    with open("/proc/%s/stat" % pid) as f:
        # The name, in parentheses, may hold spaces: the fields after its end.
        return f.read().rsplit(")", 1)[1].split()[1]


def descends(pid, root):
    while pid not in ("0", "1"):
        if pid == root:
            return True
        pid = parent(pid)
    return False


def main():
    if "--" not in sys.argv or sys.argv.index("--") != 2 or len(sys.argv) < 4:
        sys.exit(__doc__.split("\n\n")[-1])
    name, command = sys.argv[1], sys.argv[3:]
    samples = {}  # pid -> [(monotonic s, cpu ms, delay ms)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    while child.poll() is None:
        now = time.monotonic()
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                if named(pid, name) and descends(pid, str(child.pid)):
                    samples.setdefault(pid, []).append((now, *schedstat(pid)))
            except (OSError, ValueError):
                pass  # the process ended between the listing and the read
        time.sleep(0.005)
    output = child.stdout.read()
    loops = [sum(i["seconds"] for i in json.loads(line)["iterations"])
             for line in output.splitlines() if '"mheta":"rank"' in line]
    if child.returncode != 0 or not loops or not samples:
        sys.exit("run-queue-delay.py: the command failed (exit %d) or printed no rank lines, or no process "
                 "was named %s" % (child.returncode, name))
    loop = max(loops)
    print("iteration loop %.1f ms (slowest rank)" % (1e3 * loop))
    for pid, s in sorted(samples.items()):
        end, cpu_end, delay_end = s[-1]
        start, cpu_start, delay_start = ([x for x in s if x[0] <= end - loop] or [s[0]])[-1]
        print("pid %s: whole process cpu %.1f ms, run-queue delay %.1f ms; last %.1f ms: cpu %.1f ms, "
              "run-queue delay %.1f ms" % (pid, cpu_end, delay_end, 1e3 * (end - start), cpu_end - cpu_start,
                                           delay_end - delay_start))


if __name__ == "__main__":
    main()
