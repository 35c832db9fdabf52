#!/usr/bin/env python3
"""`mheta trace` of a real capture, opened in the trace viewer Chromium
ships (the Performance panel of its DevTools, devtools://devtools/bundled/
trace_app.html, the one that reads trace-event JSON; the older
chrome://tracing viewer is gone from current Chromium).

jacobi runs on 4 ranks under `mheta run`; `mheta trace` turns the profile
into a trace; headless Chromium, driven over its DevTools protocol on a pipe
(--remote-debugging-pipe: no port, no network), loads the trace into the
panel as "Load profile..." does (tests/cli/trace_viewer_load.js) and reports
what it parsed. Checks: the panel parsed it, with no warning and no
exception on the page; it shows one track per rank, named as the trace names
it; every slice of the file is on its track; every message of the file is a
flow the panel drew from the send's rank and time to the receive's; the
visible range ends where the iteration ends."""
import argparse
import fcntl
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, exit_if_failed  # noqa: E402

VIEWER = "devtools://devtools/bundled/trace_app.html"


class Chromium:
    """Headless Chromium spoken to over --remote-debugging-pipe: it reads
    NUL-terminated JSON commands on fd 3 and writes replies and events on
    fd 4."""

    def __init__(self, executable, profile_dir):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def onto_3_and_4():
            # Above 10 first, so that placing one cannot overwrite the other.
            read_end = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            write_end = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            [executable, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", "--remote-debugging-pipe",
             "--user-data-dir=" + profile_dir, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, preexec_fn=onto_3_and_4, pass_fds=(3, 4),
            start_new_session=True)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.pending = b""
        self.last_id = 0
        self.events = []

    def call(self, method, params=None, session=None, timeout=90):
        self.last_id += 1
        message = {"id": self.last_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self.to_browser, data):]
        deadline = time.monotonic() + timeout
        while True:
            reply = self._next_message(deadline, method)
            if reply.get("id") == self.last_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply["result"]
            self.events.append(reply)

    def _next_message(self, deadline, method):
        while b"\0" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_browser], [], [], left)[0]:
                raise TimeoutError("chromium did not answer %s" % method)
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed its pipe during %s:\n%s" % (method, self.output()))
            self.pending += chunk
        message, self.pending = self.pending.split(b"\0", 1)
        return json.loads(message)

    def output(self):
        self.log.seek(0)
        return self.log.read()[-3000:]

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        # Its helper processes (crash handler, zygote) may outlive it and
        # go on writing to the profile directory while it is removed.
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.close(self.to_browser)
        os.close(self.from_browser)


def capture_trace(args, work):
    """jacobi's captured iteration on 4 ranks, as `mheta trace` writes it."""
    profile = os.path.join(work, "profile.json")
    run = subprocess.run([args.mheta, "run", "-n", "4", "--profile", profile, "--", args.jacobi, "--rows", "256",
                          "--cols", "64", "--iters", "4", "--data", os.path.join(work, "data")],
                         capture_output=True, text=True, timeout=240)
    if not check(run.returncode == 0 and os.path.isfile(profile),
                 "mheta run jacobi failed (%d):\n%s%s" % (run.returncode, run.stdout[-2000:], run.stderr[-2000:])):
        return None
    # The example cluster's first 4 nodes, one per rank.
    with open(args.cluster) as f:
        cluster = json.load(f)
    cluster["nodes"] = cluster["nodes"][:4]
    cluster_path = os.path.join(work, "cluster.json")
    with open(cluster_path, "w") as f:
        json.dump(cluster, f)
    trace_path = os.path.join(work, "trace.json")
    made = subprocess.run([args.mheta, "trace", profile, "--cluster", cluster_path, "-o", trace_path],
                          capture_output=True, text=True, timeout=120)
    if not check(made.returncode == 0, "mheta trace failed: " + made.stderr):
        return None
    with open(trace_path) as f:
        return f.read()


# What the viewer throws when a trace is given to it before its own locale
# data has loaded.
NOT_STARTED = "No locale data registered"


def open_in_viewer(args, trace_text, work):
    """What the Performance panel parsed, and the exceptions on its page."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "trace_viewer_load.js")) as f:
        load = f.read()
    browser = Chromium(args.chromium, os.path.join(work, "chromium-profile"))
    try:
        version = browser.call("Browser.getVersion")
        print("viewer: %s, %s" % (version["product"], VIEWER))
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        browser.call("Runtime.enable", session=session)
        browser.call("Page.enable", session=session)
        navigated = browser.call("Page.navigate", {"url": VIEWER}, session=session)
        if not check("errorText" not in navigated, "chromium cannot open %s: %r" % (VIEWER, navigated)):
            return None, []
        for _ in range(300):  # the viewer's modules load after the navigation
            ready = browser.call("Runtime.evaluate", {"expression": "document.readyState", "returnByValue": True},
                                 session=session)
            if ready["result"].get("value") == "complete":
                break
            time.sleep(0.1)
        for _ in range(40):
            first_event = len(browser.events)  # what the page throws from this attempt on
            shown = browser.call("Runtime.evaluate",
                                 {"expression": "%s\nloadTrace(%s)" % (load, json.dumps(trace_text)),
                                  "awaitPromise": True, "returnByValue": True}, session=session, timeout=120)
            # On a loaded machine the viewer's locale data can still be on
            # its way after the page says complete: its own start-up, not
            # the trace; wait for it and load the trace again.
            if NOT_STARTED not in json.dumps(shown.get("exceptionDetails", "")):
                break
            time.sleep(0.5)
        if not check("exceptionDetails" not in shown, "the viewer threw: %s" % shown.get("exceptionDetails")):
            return None, []
        thrown = [e["params"]["exceptionDetails"] for e in browser.events[first_event:]
                  if e.get("method") == "Runtime.exceptionThrown"]
        return shown["result"]["value"], thrown
    finally:
        browser.close()


def compare(trace, shown, thrown):
    events = trace["traceEvents"]
    check(shown["loaded"], "the Performance panel parsed nothing; its page says:\n%s" % shown.get("page"))
    if not shown["loaded"]:
        return
    check(not thrown, "exceptions on the viewer's page: %r" % thrown[:3])
    check(not shown["warnings"], "the viewer warns: %r" % shown["warnings"])

    names = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    check(sorted(names) == [0, 1, 2, 3], "the file's tracks for 4 ranks: %r" % names)
    tracks = {t["tid"]: t for t in shown["tracks"]}
    check(sorted(tracks) == sorted(names), "the viewer shows tracks %r, the file has %r" % (sorted(tracks), names))
    for tid, name in names.items():
        track = tracks.get(tid)
        if not check(track is not None and track["name"] == name, "rank %d's track: %r, not %r" % (tid, track, name)):
            continue
        slices = sum(1 for e in events if e["ph"] == "X" and e["tid"] == tid)
        check(track["slices"] == slices, "the viewer has %d slices on rank %d, the file %d" %
              (track["slices"], tid, slices))
        check(any(group.startswith(name) for group in shown["groups"]),
              "no track of the flame chart is named %r: %r" % (name, shown["groups"]))
    # The flame chart draws every slice at its time, except that the panel
    # folds away some receives that end a message's arrow (rank 1's receive
    # from rank 0 in this capture): receives are only counted, and the
    # arrows are checked below.
    chart = list(zip(shown["chartStarts"], shown["chartDurations"]))
    drawn_at = lambda e: any(abs(a - e["ts"] / 1000) < 1e-6 and abs(b - e["dur"] / 1000) < 1e-6 for a, b in chart)
    slices = [e for e in events if e["ph"] == "X"]
    missing = [e for e in slices if e["name"] != "receive" and not drawn_at(e)]
    check(not missing, "the flame chart lacks %d slices of the file: %r" % (len(missing), missing[:3]))
    receives = [e for e in slices if e["name"] == "receive"]
    check(shown["chartEntries"] >= len(slices) - len(receives) + (len(receives) + 1) // 2,
          "the flame chart has %d entries for %d slices, %d of them receives" %
          (shown["chartEntries"], len(slices), len(receives)))

    # Messages: the file's s/f pairs against the flows the panel drew.
    ends = {}
    for e in events:
        if e["ph"] in ("s", "f"):
            ends.setdefault(e["id"], {})[e["ph"]] = (e["tid"], e["ts"])
    expected = sorted((pair["s"], pair["f"]) for pair in ends.values())
    drawn = sorted(((f[0]["tid"], f[0]["ts"]), (f[-1]["tid"], f[-1]["ts"])) for f in shown["flows"] if len(f) == 2)
    check(len(expected) > 0, "the capture has no messages")
    check(len(shown["flows"]) == len(expected), "the viewer drew %d message flows, the file has %d" %
          (len(shown["flows"]), len(expected)))
    check(drawn == expected, "the flows drawn differ from the file's messages: %r against %r" %
          ([d for d in drawn if d not in expected][:4], [e for e in expected if e not in drawn][:4]))

    end = max(e["ts"] + e["dur"] for e in events if e["ph"] == "X")
    check(abs(shown["bounds"]["max"] - end) <= 1e-3 * max(end, 1),
          "the viewer's range ends at %g us, the iteration at %g us" % (shown["bounds"]["max"], end))
    print("viewer: %d tracks, %d slices, %d message flows" % (len(tracks), shown["chartEntries"], len(shown["flows"])))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("mheta", "jacobi", "cluster", "chromium"):
        parser.add_argument("--" + name, required=True)
    args = parser.parse_args()
    # A helper that chromium left behind may still write to its profile
    # directory: what it leaves there is no failure of the trace.
    with tempfile.TemporaryDirectory(prefix="mheta-trace-viewer-", ignore_cleanup_errors=True) as work:
        trace_text = capture_trace(args, work)
        shown, thrown = open_in_viewer(args, trace_text, work) if trace_text is not None else (None, [])
        if shown is not None:
            compare(json.loads(trace_text), shown, thrown)
    exit_if_failed()
    print("mheta trace loads in Chromium's trace viewer")


if __name__ == "__main__":
    main()
