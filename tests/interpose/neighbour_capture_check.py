#!/usr/bin/env python3
"""Neighbourhood collectives and split collective MPI-IO in the profile
(docs/interpose.md, "What is recorded"), with neighbour_exchange.c under
real mpiexec (ctest drives it; tests/interpose/CMakeLists.txt). Exits
non-zero with a message when a check fails.

The program's output is unchanged under the interposer, and on every rank
of the automatically captured iteration:
  - the messages of tag 2147483647 (the neighbourhood collectives') are,
    as (peer, bytes), exactly the blocks the program's topologies give the
    rank: none to or from MPI_PROC_NULL at the ends of the non-periodic
    line, each block of the periodic 2 x P/2 torus to a neighbour listed
    twice (blocks of 64 bytes in one dimension, 192 in the other), the
    distributed graph's unequal blocks, the persistent allgather's, and on
    the 1 x P grid none to the rank itself (both its neighbours in its
    periodic dimension of one rank);
  - every such send is non-blocking and completed in the iteration;
  - the k-th message of each channel has the bytes of the k-th receive of
    it on the other side (the model pairs them so);
  - the file's split collective write and read are one write and one read
    of the rank's block;
then `mheta predict` of the profile's own distribution accepts it (no
unmatched message, no deadlock).
"""
import argparse
import collections
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, exit_if_failed, run_interposed_unchanged, run_or_exit  # noqa: E402

NEIGHBOUR_TAG = 2147483647
INT, DOUBLE = 4, 8
LINE_BLOCK, GATHER_BLOCK, SELF_BLOCK, FILE_BLOCK = 100, 3, 2, 4096


def expected_blocks(rank, size):
    """(sends, receives) of the rank's iteration: Counters of (peer, bytes)."""
    sends, receives = collections.Counter(), collections.Counter()

    def both(peer, sent, received):
        sends[(peer, sent)] += 1
        receives[(peer, received)] += 1

    for peer in (rank - 1, rank + 1):  # the line, the allgather on it, the 1 x P grid's line
        if 0 <= peer < size:
            both(peer, LINE_BLOCK * INT, LINE_BLOCK * INT)
            both(peer, GATHER_BLOCK * DOUBLE, GATHER_BLOCK * DOUBLE)
            both(peer, SELF_BLOCK * INT, SELF_BLOCK * INT)
    columns = size // 2
    row, column = divmod(rank, columns)
    torus = [((row - 1) % 2) * columns + column, ((row + 1) % 2) * columns + column,
             row * columns + (column - 1) % columns, row * columns + (column + 1) % columns]
    for j, peer in enumerate(torus):
        both(peer, 8 * (j // 2 * 2 + 1) * DOUBLE, 8 * (j // 2 * 2 + 1) * DOUBLE)
    for k, step in enumerate((1, 2)):  # the graph
        sends[((rank + step) % size, 10 * (k + 1) * (rank + 1) * INT)] += 1
        source = (rank - step) % size
        receives[(source, 10 * (k + 1) * (source + 1) * INT)] += 1
    return sends, receives


def neighbour_ops(rank_profile, kind):
    return [op for section in rank_profile["sections"] for op in section["comm"]
            if op["op"] == kind and op.get("tag") == NEIGHBOUR_TAG]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--lib", required=True)
    parser.add_argument("--mheta", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--cluster", required=True, help="a cluster description of at least --np nodes")
    parser.add_argument("--np", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--emulate", help="MHETA_EMULATE for the interposed run (the virtual clock's path)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        program = [args.program, os.path.join(tmp, "exchange.dat"), str(args.iterations)]
        path = os.path.join(tmp, "profile.json")
        env = dict(os.environ, MHETA_PROFILE=path, MHETA_ROWS=str(64 * args.np))
        if args.emulate:
            env["MHETA_EMULATE"] = args.emulate
        interposed = run_interposed_unchanged(args.mpiexec, args.np, args.lib, program, env)
        check("different iterations" not in interposed.stderr,
              "the ranks' periods do not pair up:\n" + interposed.stderr)
        if not os.path.exists(path):
            sys.exit("FAIL: no profile written:\n" + interposed.stderr)
        with open(path) as f:
            profile = json.load(f)
        ranks = profile["ranks"]
        if len(ranks) != args.np:
            sys.exit("FAIL: the profile has %d ranks, expected %d" % (len(ranks), args.np))
        for r, rank in enumerate(ranks):
            sends, receives = neighbour_ops(rank, "send"), neighbour_ops(rank, "recv")
            want_sends, want_receives = expected_blocks(r, args.np)
            got_sends = collections.Counter((op["peer"], op["bytes"]) for op in sends)
            got_receives = collections.Counter((op["peer"], op["bytes"]) for op in receives)
            check(got_sends == want_sends, "rank %d: neighbourhood sends (peer, bytes) %s, expected %s" %
                  (r, sorted(got_sends.elements()), sorted(want_sends.elements())))
            check(got_receives == want_receives, "rank %d: neighbourhood receives (peer, bytes) %s, expected %s" %
                  (r, sorted(got_receives.elements()), sorted(want_receives.elements())))
            for op in sends:
                check(op.get("nonblocking") is True and "completed_at" in op,
                      "rank %d: a neighbourhood send is not a non-blocking send completed in the iteration: %s"
                      % (r, op))
            others = [op for section in rank["sections"] for op in section["comm"]
                      if op["op"] != "collective" and op.get("tag") != NEIGHBOUR_TAG]
            check(not others, "rank %d: messages the program does not send: %s" % (r, others))
            io = [io for section in rank["sections"] for stage in section["stages"] for io in stage.get("io", [])]
            writes = sum(entry.get("writes", {}).get("count", 0) for entry in io)
            reads = sum(entry.get("reads", {}).get("count", 0) for entry in io)
            written = sum(entry.get("writes", {}).get("bytes", 0) for entry in io)
            read = sum(entry.get("reads", {}).get("bytes", 0) for entry in io)
            check((writes, reads, written, read) == (1, 1, FILE_BLOCK * DOUBLE, FILE_BLOCK * DOUBLE),
                  "rank %d: %d writes of %d bytes and %d reads of %d in the iteration, expected one of %d each" %
                  (r, writes, written, reads, read, FILE_BLOCK * DOUBLE))
        # The model pairs the k-th message of a channel with its k-th receive.
        for src, rank in enumerate(ranks):
            for dst in range(args.np):
                sent = [op["bytes"] for op in neighbour_ops(rank, "send") if op["peer"] == dst]
                received = [op["bytes"] for op in neighbour_ops(ranks[dst], "recv") if op["peer"] == src]
                check(sent == received, "blocks from rank %d to rank %d: sent %s, received in that order %s" %
                      (src, dst, sent, received))
        dist = os.path.join(tmp, "dist.txt")
        with open(dist, "w") as f:
            f.write("\n".join(str(rows) for rows in profile["distribution"]) + "\n")
        # The given cluster's first nodes, one a rank (its network has no
        # per-pair links).
        with open(args.cluster) as f:
            cluster = json.load(f)
        cluster["nodes"] = cluster["nodes"][:args.np]
        cluster_path = os.path.join(tmp, "cluster.json")
        with open(cluster_path, "w") as f:
            json.dump(cluster, f)
        predicted = run_or_exit([args.mheta, "predict", dist, "--profile", path, "--cluster", cluster_path, "--json"])
        iteration_s = json.loads(predicted.stdout)["iteration_s"]
        check(iteration_s > 0, "mheta predict gives %s s an iteration" % iteration_s)
    exit_if_failed()
    print("ok: %d ranks, every neighbourhood block and split collective access recorded; predicted %.3f ms an "
          "iteration" % (args.np, 1e3 * iteration_s))


if __name__ == "__main__":
    main()
