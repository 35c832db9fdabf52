"""The one way the benchmark scripts of this folder run a program: with
variables added to the environment, its output and wall time returned, and
the script stopped with the program's output when it fails."""
import os
import subprocess
import sys
import time


def run(cmd, env):
    """Runs `cmd` with `env` over this process's environment: (stdout, seconds)."""
    merged = dict(os.environ)
    merged.update(env)
    start = time.monotonic()
    result = subprocess.run(cmd, env=merged, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if result.returncode != 0:
        sys.exit("%s failed:\n%s%s" % (" ".join(cmd), result.stdout, result.stderr))
    return result.stdout, elapsed
