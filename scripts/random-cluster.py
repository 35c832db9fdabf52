#!/usr/bin/env python3
"""Draws a random heterogeneous cluster as an emulation file (docs/emulation.md).

The presets are four clusters somebody chose; a model that is right on
them only may be fitted to them. This draws the others: per node a CPU
factor uniform in [1, 4], an I/O factor uniform in [1, 8], and memory from an
eighth of a Blk share to twice it (log-uniform, so that out of core and in
core are about as likely), on the presets' network (50 us, 117 MB/s) and
their disk (100 us, 500 MB/s read, 450 MB/s write, each node's I/O factor
times slower).

The same seed gives the same CPU and I/O factors and the same memory
fractions whatever the share, so one mix can be given to several programs,
each with memory relative to its own data.

Usage: scripts/random-cluster.py --seed S --ranks N --share-bytes B [-o FILE]
  --share-bytes: a Blk share of the program's distributed data per rank
  (its rows x bytes per row / ranks).
"""
import argparse
import json
import math
import random
import sys


def draw(seed, ranks, share_bytes):
    rng = random.Random(seed)
    nodes = []
    for _ in range(ranks):
        cpu = round(rng.uniform(1, 4), 2)
        io = round(rng.uniform(1, 8), 2)
        fraction = math.exp(rng.uniform(math.log(1 / 8), math.log(2)))
        nodes.append({"cpu_factor": cpu, "io_factor": io, "memory_bytes": max(1, int(fraction * share_bytes))})
    return {
        "format": "mheta-emulation/1",
        "name": "mix-%d" % seed,
        "ranks": nodes,
        "network": {"latency_us": 50, "bandwidth_MBps": 117},
        "disk": {"latency_us": 100, "read_MBps": 500, "write_MBps": 450},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--ranks", type=int, required=True)
    parser.add_argument("--share-bytes", type=int, required=True)
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args()
    if args.ranks < 1 or args.share_bytes < 1:
        parser.error("--ranks and --share-bytes must be positive")
    text = json.dumps(draw(args.seed, args.ranks, args.share_bytes), indent=2) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
