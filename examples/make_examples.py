#!/usr/bin/env python3
"""Writes the bundled example profiles and clusters.

They are hand-made, not captured: each number below is chosen to resemble
the paper's emulated clusters (MHETA Table 1) and programs, so that `mheta
predict` and `mheta search` have something realistic to work on before any
capture. Timings in the profiles are computed from the cluster's own costs,
as an instrumented iteration on that cluster would measure them.
Run from anywhere: python3 examples/make_examples.py
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(path, document):
    with open(os.path.join(HERE, path), "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")


def write_dist(path, rows, note):
    with open(os.path.join(HERE, path), "w") as f:
        f.write("# %s\n# GEN_BLOCK: %d ranks, %d rows; one rank per line\n" % (note, len(rows), sum(rows)))
        f.write("".join("%d\n" % r for r in rows))


def node(name, memory, cpu, o_r, o_w, o_a, r, w):
    return {"name": name, "memory_bytes": memory, "cpu_power": cpu,
            "disk": {"read_overhead_s": o_r, "write_overhead_s": o_w, "async_read_overhead_s": o_a,
                     "read_s_per_byte": r, "write_s_per_byte": w}}


def network():
    return {"send_overhead_s": 5e-6, "recv_overhead_s": 5e-6, "latency_s": 5e-5, "s_per_byte": 1e-8,
            "pairs": [],
            "collectives": {
                "allreduce": {"c0": 2e-5, "c_log2p": 3e-5, "c_bytes": 1e-8},
                "allgather": {"c0": 2e-5, "c_p": 2e-5, "c_bytes": 1.2e-8},
                "bcast": {"c0": 1e-5, "c_log2p": 2e-5, "c_bytes": 1e-8},
                "barrier": {"c0": 1e-5, "c_log2p": 2e-5}}}


def forced_sweep(rows, row_bytes, budget, variables, disk, read=True):
    """I/O of one forced-out-of-core sweep, as io/ sizes it (icla_policy)."""
    icla = max(1, budget // (row_bytes * variables))
    chunks = math.ceil(rows / min(rows, icla))
    nbytes = rows * row_bytes
    if read:
        return {"count": chunks, "bytes": nbytes, "seconds": chunks * disk["read_overhead_s"] + nbytes * disk["read_s_per_byte"]}
    return {"count": chunks, "bytes": nbytes, "seconds": chunks * disk["write_overhead_s"] + nbytes * disk["write_s_per_byte"]}


def jacobi_hy1():
    """8-rank out-of-core Jacobi on an HY1-like cluster: ranks 0-3 differ in
    CPU power and have large memories; ranks 4-7 have fast disks and small
    memories, so their Blk blocks are out of core."""
    ranks, rows, cols = 8, 8192, 4096
    row_bytes = cols * 8
    per_row_s = 400e-6  # compute per row at CPU power 1
    gib, mib = 1 << 30, 1 << 20
    nodes = [node("n%d" % i, gib, p, 5e-3, 5e-3, 2e-4, 1e-8, 1.5e-8) for i, p in enumerate([1.0, 0.5, 2.0, 1.5])]
    nodes += [node("n%d" % i, 16 * mib, 1.0, 1e-3, 1e-3, 1e-4, 4e-9, 6e-9) for i in range(4, 8)]
    blk = [rows // ranks] * ranks
    profile_ranks = []
    for r in range(ranks):
        n = nodes[r]
        io = [{"variable": "A", "reads": forced_sweep(blk[r], row_bytes, n["memory_bytes"], 2, n["disk"])},
              {"variable": "B", "writes": forced_sweep(blk[r], row_bytes, n["memory_bytes"], 2, n["disk"], read=False)}]
        halo = []
        for peer in (r - 1, r + 1):
            if 0 <= peer < ranks:
                halo.append({"op": "send", "peer": peer, "bytes": row_bytes, "tag": 1})
        for peer in (r - 1, r + 1):
            if 0 <= peer < ranks:
                halo.append({"op": "recv", "peer": peer, "bytes": row_bytes, "tag": 1})
        profile_ranks.append({
            "rank": r, "host": n["name"], "memory_budget_bytes": n["memory_bytes"],
            "sections": [
                {"stages": [{"compute_s": blk[r] * per_row_s / n["cpu_power"], "io": io}], "comm": halo},
                {"stages": [{"compute_s": blk[r] * 2e-6 / n["cpu_power"]}], "comm": [{"op": "allreduce", "bytes": 8}]}]})
    write("jacobi-hy1/cluster.json", {"format": "mheta-cluster/1", "nodes": nodes, "network": network()})
    write("jacobi-hy1/profile.json", {
        "format": "mheta-profile/1", "program": "jacobi --rows 8192 --cols 4096 (hand-made example)",
        "iterations": 100, "prefetch": False, "forced_out_of_core": True, "global_rows": rows,
        "distribution": blk,
        "variables": [{"name": "A", "bytes_per_row": row_bytes, "access": "read_write"},
                      {"name": "B", "bytes_per_row": row_bytes, "access": "read_write"}],
        "ranks": profile_ranks})
    write_dist("jacobi-hy1/blk.txt", blk, "Blk: equal blocks")
    # Small-memory ranks keep 256 rows in core; the rest goes by CPU power.
    rest = rows - 4 * 256
    powers = [1.0, 0.5, 2.0, 1.5]
    better = [int(rest * p / sum(powers)) for p in powers]
    better[2] += rest - sum(better)
    write_dist("jacobi-hy1/better.txt", better + [256] * 4, "I-C/Bal by hand: small-memory ranks in core, the rest by CPU power")


def rna_pipeline():
    """4-rank pipelined wavefront (tiles along columns): receive a tile edge
    from rank-1, compute the tile, send the edge to rank+1."""
    ranks, rows, cols, tiles = 4, 2048, 2048, 16
    row_bytes = cols * 4
    tile_cols = cols // tiles
    per_cell_s = 50e-9
    mib = 1 << 20
    powers = [1.0, 1.0, 0.5, 2.0]
    memories = [64 * mib, 64 * mib, 64 * mib, 2 * mib]
    nodes = [node("n%d" % i, memories[i], powers[i], 2e-3, 2e-3, 1e-4, 8e-9, 1e-8) for i in range(ranks)]
    blk = [rows // ranks] * ranks
    profile_ranks = []
    for r in range(ranks):
        n = nodes[r]
        sections = []
        for t in range(tiles):
            if r > 0:
                sections.append({"stages": [], "comm": [{"op": "recv", "peer": r - 1, "bytes": tile_cols * 4, "tag": 7}]})
            stage = {"compute_s": blk[r] * tile_cols * per_cell_s / n["cpu_power"]}
            if t == 0:
                stage["io"] = [{"variable": "S", "reads": forced_sweep(blk[r], row_bytes, n["memory_bytes"], 1, n["disk"])}]
            if t == tiles - 1:
                stage["io"] = [{"variable": "S", "writes": forced_sweep(blk[r], row_bytes, n["memory_bytes"], 1, n["disk"], read=False)}]
            comm = [{"op": "send", "peer": r + 1, "bytes": tile_cols * 4, "tag": 7}] if r + 1 < ranks else []
            sections.append({"stages": [stage], "comm": comm})
        profile_ranks.append({"rank": r, "host": n["name"], "memory_budget_bytes": n["memory_bytes"], "sections": sections})
    write("rna-pipeline/cluster.json", {"format": "mheta-cluster/1", "nodes": nodes, "network": network()})
    write("rna-pipeline/profile.json", {
        "format": "mheta-profile/1", "program": "rna --rows 2048 --cols 2048 (hand-made example)",
        "iterations": 10, "prefetch": False, "forced_out_of_core": True, "global_rows": rows, "distribution": blk,
        "variables": [{"name": "S", "bytes_per_row": row_bytes, "access": "read_write"}],
        "ranks": profile_ranks})
    write_dist("rna-pipeline/blk.txt", blk, "Blk: equal blocks")


if __name__ == "__main__":
    os.makedirs(os.path.join(HERE, "jacobi-hy1"), exist_ok=True)
    os.makedirs(os.path.join(HERE, "rna-pipeline"), exist_ok=True)
    jacobi_hy1()
    rna_pipeline()
