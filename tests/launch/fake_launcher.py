#!/usr/bin/env python3
"""Stands in for Slurm's srun (installed as `srun`) or Open MPI's mpirun
(as `mpirun`): records exactly the command line and environment it was
given in $FAKE_LAUNCHER_LOG (JSON), refuses a command line that launcher
would not take, then starts the program with MPICH's mpiexec
($FAKE_MPIEXEC), passing on the variables it was asked to set."""
import json
import os
import sys


def refuse(message):
    print("fake %s: %s" % (os.path.basename(sys.argv[0]), message), file=sys.stderr)
    sys.exit(97)


def main():
    style = os.path.basename(sys.argv[0])
    args = sys.argv[1:]
    with open(os.environ["FAKE_LAUNCHER_LOG"], "a") as log:
        log.write(json.dumps({"launcher": style, "argv": args,
                              "ld_preload_in_launcher": "LD_PRELOAD" in os.environ}) + "\n")
    ranks = None
    env = []
    i = 0
    while i < len(args) and args[i].startswith("-"):
        if args[i] == "-n" and i + 1 < len(args):
            ranks = args[i + 1]
            i += 2
        elif style == "srun" and args[i].startswith("--export="):
            items = args[i][len("--export="):].split(",")
            if items[0] != "ALL":
                refuse("--export must start with ALL, got " + args[i])
            env += [item.split("=", 1) for item in items[1:]]
            i += 1
        elif style == "mpirun" and args[i] == "-x" and i + 1 < len(args):
            if "=" not in args[i + 1]:
                refuse("-x takes NAME=VALUE here, got " + args[i + 1])
            env.append(args[i + 1].split("=", 1))
            i += 2
        else:
            refuse("unexpected option " + args[i])
    if ranks is None or not ranks.isdigit():
        refuse("no -n N")
    if i == len(args):
        refuse("no program")
    command = [os.environ["FAKE_MPIEXEC"], "-n", ranks]
    for name, value in env:
        command += ["-genv", name, value]
    os.execv(command[0], command + args[i:])


if __name__ == "__main__":
    main()
