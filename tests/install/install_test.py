#!/usr/bin/env python3
"""Installs mheta to a fresh prefix and uses it as a user would, away from
the build tree: the installed `mheta run` captures a 2-rank MPI program
built out of tree against the installed CMake package (find_package(mheta))
and against the pkg-config file, the installed mheta finds its interposer
and mheta-microbench relative to itself, and the headers are in place."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile


def check(condition, message):
    if not condition:
        print("FAIL: " + message, file=sys.stderr)
        sys.exit(1)


def run(argv, **kwargs):
    print("+ " + " ".join(argv), file=sys.stderr)
    return subprocess.run(argv, capture_output=True, text=True, **kwargs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--consumer", required=True)
    parser.add_argument("--mpiexec", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="mheta-install-")
    try:
        prefix = os.path.join(work, "prefix")
        done = run(["cmake", "--install", args.build, "--prefix", prefix])
        check(done.returncode == 0, "cmake --install failed:\n" + done.stdout + done.stderr)
        mheta = os.path.join(prefix, "bin", "mheta")
        for path in ("bin/mheta", "bin/mheta-microbench", "lib/libmheta-interpose.so", "include/mheta/marks.h",
                     "include/mheta/hints.h", "include/mheta/io/local_array.hpp",
                     "include/mheta/model/gen_block.hpp", "lib/cmake/mheta/mhetaConfig.cmake",
                     "lib/pkgconfig/mheta.pc"):
            check(os.path.exists(os.path.join(prefix, path)), path + " is not installed")

        # The out-of-tree program, through the CMake package.
        consumer_build = os.path.join(work, "consumer")
        configured = run(["cmake", "-S", args.consumer, "-B", consumer_build, "-DCMAKE_PREFIX_PATH=" + prefix])
        check(configured.returncode == 0, "find_package(mheta) failed:\n" + configured.stdout + configured.stderr)
        built = run(["cmake", "--build", consumer_build])
        check(built.returncode == 0, "the consumer does not build:\n" + built.stdout + built.stderr)
        program = os.path.join(consumer_build, "ring_checksum")

        # ... and through pkg-config.
        env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
        flags = run(["pkg-config", "--cflags", "--libs", "mheta"], env=env)
        check(flags.returncode == 0, "pkg-config mheta failed: " + flags.stderr)
        by_pc = os.path.join(work, "ring_checksum_pc")
        compiled = run(["mpicxx", "-std=c++20", os.path.join(args.consumer, "ring_checksum.cpp"), "-o", by_pc]
                       + flags.stdout.split())
        check(compiled.returncode == 0, "the consumer does not build with pkg-config:\n" + compiled.stderr)

        # The installed mheta runs it with 2 ranks and captures a profile;
        # started from elsewhere, with MHETA_INTERPOSE_LIB unset.
        env = {k: v for k, v in os.environ.items() if not k.startswith("MHETA_")}
        profile = os.path.join(work, "profile.json")
        captured = run([mheta, "run", "-n", "2", "--launcher", "mpich", "--profile", profile, program], cwd=work,
                       env=dict(env, MHETA_MPIEXEC=args.mpiexec))
        check(captured.returncode == 0, "the installed mheta run failed:\n" + captured.stdout + captured.stderr)
        check("ranks 2 checksum " in captured.stdout and "advisor 1" in captured.stdout,
              "the program's output is wrong: " + captured.stdout)
        with open(profile) as f:
            data = json.load(f)
        check(len(data["ranks"]) == 2, "the profile has %d ranks, not 2" % len(data["ranks"]))
        sends = sum(op.get("op") in ("send", "recv") for rank in data["ranks"] for section in rank["sections"]
                    for op in section.get("comm", []))
        check(sends > 0, "the profile captured no messages")
        again = run([args.mpiexec, "-n", "2", by_pc], env=env)
        check(again.returncode == 0 and again.stdout == captured.stdout,
              "the pkg-config build prints %r, the CMake build %r" % (again.stdout, captured.stdout))

        # mheta-microbench is found beside the installed mheta: a launcher
        # that only prints what it would start shows which program.
        shown = run([mheta, "microbench", "-n", "2", "-o", os.path.join(work, "c.json"),
                     "--launcher", "echo {n} {program}"], env=env)
        check(shown.returncode == 0, "mheta microbench with an echo launcher failed: " + shown.stderr)
        words = shown.stdout.split()
        check(words[:2] == ["2", os.path.join(prefix, "bin", "mheta-microbench")],
              "the installed mheta starts %r, not the installed mheta-microbench" % words[:2])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("install test passed")


if __name__ == "__main__":
    main()
