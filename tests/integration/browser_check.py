#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""browser_check.py: load HTML files offline in headless Chromium and fail on what a reader would see.

Usage: browser_check.py [--screenshots DIR [--name-by-dir]] [--settle MS] [--no-js] FILE.html...

Issue 17 asks that report.html open offline, self-contained, without console errors. This checker
drives Debian's `chromium --headless --no-sandbox --disable-gpu` over the DevTools protocol on
--remote-debugging-pipe (file descriptors 3 and 4, NUL-terminated JSON: no port to race for, no
websocket to write), python3's standard library only. For each file, in a fresh page, it fails on:
  - a console.error or console.assert call (Runtime.consoleAPICalled), an uncaught exception
    (Runtime.exceptionThrown), or a browser log entry at level error (Log.entryAdded: failed loads,
    blocked content, CSP violations);
  - any request for a URL other than the file itself, data: or blob: (Network.requestWillBeSent and
    Network.webSocketCreated): http, https, protocol-relative // (which resolves to file:// here)
    and other file:// paths alike. The network is also cut (a proxy at 127.0.0.1:9, every host name
    unresolvable) so that a request that got past the check still cannot reach anything.
and saves a full-page screenshot DIR/<file's base name>.png (with --name-by-dir, DIR/<the name of
the file's directory>.png: results directories each hold a report.html). --settle is how long to
wait after the load event for late errors and requests (500 ms). --no-js loads the pages with
JavaScript disabled (issue 17: the report must read without it), with the same checks.

It prints one line per file, "PASS FILE" or "FAIL FILE: reason; reason", and exits 0 when all pass,
1 when any fails, 2 on a usage or browser error, and 77 (meson's skip) when no Chromium is installed,
unless CI=true, where a missing Chromium is a failure (exit 1): CI must not skip the browser test.
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

# How long one page may take to load, and the whole browser to start (seconds). A report is one
# file without external resources, so a few seconds is plenty even on the shared 2-core machine.
LOAD_TIMEOUT = 30.0
# Screenshots are capped in height: a very long report would give a huge PNG for no benefit.
MAX_SHOT_HEIGHT = 16384


class BrowserError(Exception):
    pass


def find_chromium():
    env = os.environ.get("CHROMIUM")
    if env:
        return env if shutil.which(env) else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Cdp:
    """The DevTools protocol over Chromium's pipe: requests by id, events queued in arrival order."""

    def __init__(self, chromium, profile_dir):
        to_child_r, self.wfd = os.pipe()   # we write commands, Chromium reads fd 3
        self.rfd, from_child_w = os.pipe()  # Chromium writes fd 4, we read
        args = [
            chromium, "--headless", "--no-sandbox", "--disable-gpu",
            "--remote-debugging-pipe", "--user-data-dir=" + profile_dir,
            # No network: nothing listens on port 9 (discard) and no name resolves.
            "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            # Quiet the browser's own background traffic (not attached to our page anyway).
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-default-apps", "--no-first-run", "--no-default-browser-check",
            "--mute-audio", "--hide-scrollbars", "--window-size=1280,900",
            "about:blank",
        ]

        def fds():
            # Move both ends above 4 first (one may already be 3 or 4), then onto 3 and 4;
            # dup2 makes the copies inheritable, which the pipe's own fds are not (PEP 446).
            r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)
            w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
            os.dup2(r, 3)
            os.dup2(w, 4)

        # The child's fds 3 and 4 are set in preexec_fn; close_fds would close them again after.
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, preexec_fn=fds, close_fds=False)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def close(self):
        try:
            os.close(self.wfd)
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.rfd)

    def _read_one(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("timed out waiting for Chromium")
            r, _, _ = select.select([self.rfd], [], [], left)
            if not r:
                continue
            chunk = os.read(self.rfd, 1 << 20)
            if not chunk:
                err = self.proc.stderr.read().decode(errors="replace")[-2000:]
                raise BrowserError("Chromium closed the DevTools pipe: " + err.strip())
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None, timeout=LOAD_TIMEOUT):
        self.next_id += 1
        mid = self.next_id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.wfd, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            m = self._read_one(deadline)
            if m.get("id") == mid:
                if "error" in m:
                    raise BrowserError("%s: %s" % (method, m["error"].get("message")))
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def pump(self, until, session, timeout):
        """Reads events until until(event) is true for one of this session's (returns True) or the
        timeout passes (returns False). Events already queued count."""
        deadline = time.monotonic() + timeout
        i = 0
        while True:
            while i < len(self.events):
                e = self.events[i]
                i += 1
                if e.get("sessionId") == session and until(e):
                    return True
            if time.monotonic() >= deadline:
                return False
            try:
                m = self._read_one(deadline)
            except BrowserError as e:
                if "timed out" in str(e):
                    return False
                raise
            if "method" in m:
                self.events.append(m)


def allowed_url(url, page_url):
    """The page may load itself (with a #fragment or ?query) and inline data:/blob: content, and
    about:blank (an empty iframe); anything else leaves the file."""
    scheme = urllib.parse.urlsplit(url).scheme
    if scheme in ("data", "blob") or url in ("about:blank", "about:srcdoc"):
        return True
    return urllib.parse.urldefrag(url)[0] == page_url


def describe_console(params):
    args = params.get("args", [])
    text = " ".join(str(a.get("value", a.get("description", a.get("type")))) for a in args)
    return "console.%s: %s" % (params.get("type"), text)


def check_page(cdp, path, shot_dir, shot_name, settle_ms, no_js):
    page_url = "file://" + urllib.parse.quote(os.path.abspath(path))
    problems = []
    target = cdp.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = cdp.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    try:
        for domain in ("Page", "Runtime", "Log", "Network"):
            cdp.send(domain + ".enable", session=session)
        if no_js:
            cdp.send("Emulation.setScriptExecutionDisabled", {"value": True}, session=session)
        first = len(cdp.events)
        nav = cdp.send("Page.navigate", {"url": page_url}, session=session)
        if nav.get("errorText"):
            problems.append("navigation failed: " + nav["errorText"])
        loaded = cdp.pump(lambda e: e["method"] == "Page.loadEventFired", session, LOAD_TIMEOUT)
        if not loaded:
            problems.append("no load event within %.0f s" % LOAD_TIMEOUT)
        # Late requests and errors (timers, onload handlers) show up within the settle time.
        cdp.pump(lambda e: False, session, settle_ms / 1000.0)

        seen_requests = set()
        for e in cdp.events[first:]:
            if e.get("sessionId") != session:
                continue
            m, p = e["method"], e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                problems.append(describe_console(p))
            elif m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                ex = d.get("exception", {})
                problems.append("uncaught exception: " + str(ex.get("description", d.get("text"))))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                ent = p["entry"]
                problems.append("browser error (%s): %s %s" % (
                    ent.get("source"), ent.get("text"), ent.get("url", "")))
            elif m in ("Network.requestWillBeSent", "Network.webSocketCreated"):
                url = p.get("request", {}).get("url") if m == "Network.requestWillBeSent" else p.get("url")
                if url and not allowed_url(url, page_url) and url not in seen_requests:
                    seen_requests.add(url)
                    problems.append("request leaves the file: " + url)

        if shot_dir:
            metrics = cdp.send("Page.getLayoutMetrics", session=session)
            size = metrics.get("cssContentSize") or metrics.get("contentSize")
            width = max(1, int(size["width"]))
            height = max(1, min(int(size["height"]), MAX_SHOT_HEIGHT))
            shot = cdp.send("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}},
                session=session)
            with open(os.path.join(shot_dir, shot_name + ".png"), "wb") as f:
                f.write(base64.b64decode(shot["data"]))
    finally:
        cdp.send("Target.closeTarget", {"targetId": target})
    return problems


def main(argv):
    shot_dir = None
    settle_ms = 500
    by_dir = False
    no_js = False
    files = []
    it = iter(argv)
    for a in it:
        if a == "--screenshots":
            shot_dir = next(it, None)
        elif a == "--no-js":
            no_js = True
        elif a == "--name-by-dir":
            by_dir = True
        elif a == "--settle":
            settle_ms = int(next(it, "500"))
        elif a.startswith("-"):
            print("unknown option " + a, file=sys.stderr)
            return 2
        else:
            files.append(a)
    if not files or (shot_dir is None and "--screenshots" in argv):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    for f in files:
        if not os.path.isfile(f):
            print("no such file: " + f, file=sys.stderr)
            return 2

    chromium = find_chromium()
    if not chromium:
        if os.environ.get("CI") == "true":
            print("FAIL: no Chromium found (chromium, chromium-browser, google-chrome or $CHROMIUM), "
                  "and CI=true: the browser test must run in CI (scripts/bootstrap.sh test installs "
                  "Debian's chromium)", file=sys.stderr)
            return 1
        print("SKIP: no Chromium found (install Debian's chromium, or set CHROMIUM)")
        return 77
    if shot_dir:
        os.makedirs(shot_dir, exist_ok=True)

    failed = 0
    with tempfile.TemporaryDirectory(prefix="ssdlab-chromium-") as profile:
        cdp = Cdp(chromium, profile)
        try:
            for f in files:
                if by_dir:
                    name = os.path.basename(os.path.dirname(os.path.abspath(f)))
                else:
                    name = os.path.splitext(os.path.basename(f))[0]
                problems = check_page(cdp, f, shot_dir, name, settle_ms, no_js)
                if problems:
                    failed += 1
                    print("FAIL %s: %s" % (f, "; ".join(" ".join(p.split()) for p in problems)))
                else:
                    print("PASS " + f)
                sys.stdout.flush()
        except BrowserError as e:
            print("browser error: %s" % e, file=sys.stderr)
            return 2
        finally:
            cdp.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
