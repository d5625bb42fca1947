#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""guide_shot.py: a PNG of one section of a report.html, for the profile guides (docs/profiles/).

Usage: guide_shot.py OUT.png REPORT.html [SECTION_ID]

Loads REPORT.html in headless Chromium (browser_check.py's DevTools-pipe driver, imported, not
copied) at a fixed viewport width and device scale 1, finds the profile's main section and saves
Page.captureScreenshot clipped to it. A section of the report is a heading (`<h2 id="sec-...">` or
`<h3 id="sec-snia-N">`) and the elements after it up to the next heading of the same or a higher
rank: the page is flat (report_page writes headings, tables and figures as siblings), so the
clip is the union of their bounding boxes. Without SECTION_ID the first of SECTIONS the page has
is taken: the SNIA block, then the probes, then steady state, then the headline.

Reruns on the same input give the same picture: the report is deterministic (docs/report.md,
"Same bytes"), the viewport is fixed, and the height is capped at MAX_HEIGHT (a long SNIA block
ends after the last whole table or plot that fits, which keeps each PNG under 150 KB).

Exit codes: 0 written, 1 the section is missing or the capture failed, 2 usage or browser error,
77 no Chromium (as browser_check.py, including CI=true making that a failure).
"""
import base64
import os
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check  # noqa: E402  (the driver lives beside us)

# The order in which a profile's "main" section is looked for: what the profile is about first.
SECTIONS = ["sec-snia-0", "sec-slc", "sec-gc-recovery", "sec-op-variants", "sec-surface",
            "sec-steady-state", "sec-headline"]
WIDTH = 960        # CSS pixels; device scale 1, so PNG pixels too
MAX_HEIGHT = 1200  # a taller section ends at its last whole table or plot that fits

# Runs in the page: the clip of the section that starts at the heading with id `sid`, or null.
CLIP_JS = r"""
(function (ids, MAXH) {
  let h = null;
  for (const id of ids) { h = document.getElementById(id); if (h) break; }
  if (!h) return null;
  const rank = Number(h.tagName.substring(1));
  let r = h.getBoundingClientRect();
  let top = r.top, left = r.left, right = r.right, bottom = r.bottom;
  for (let e = h.nextElementSibling; e; e = e.nextElementSibling) {
    const m = /^H([1-6])$/.exec(e.tagName);
    if (m && Number(m[1]) <= rank) break;
    const b = e.getBoundingClientRect();
    if (b.width === 0 && b.height === 0) continue;
    // Whole elements only: one that would take the picture past the cap ends it (a first
    // element taller than the cap is kept and cut, so a section is never empty).
    if (bottom > r.bottom && Math.max(bottom, b.bottom) - top > MAXH) break;
    top = Math.min(top, b.top); left = Math.min(left, b.left);
    right = Math.max(right, b.right); bottom = Math.max(bottom, b.bottom);
  }
  return JSON.stringify({id: h.id, x: left + window.scrollX, y: top + window.scrollY,
                         width: right - left, height: bottom - top});
})(IDS, MAXH)
"""


def shoot(cdp, html, out, ids):
    import json
    page_url = "file://" + urllib.parse.quote(os.path.abspath(html))
    target = cdp.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = cdp.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    try:
        cdp.send("Page.enable", session=session)
        cdp.send("Emulation.setDeviceMetricsOverride", {
            "width": WIDTH, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=session)
        cdp.send("Page.navigate", {"url": page_url}, session=session)
        if not cdp.pump(lambda e: e["method"] == "Page.loadEventFired", session,
                        browser_check.LOAD_TIMEOUT):
            raise browser_check.BrowserError("no load event for " + html)
        res = cdp.send("Runtime.evaluate", {
            "expression": CLIP_JS.replace("IDS, MAXH", "%s, %d" % (json.dumps(ids), MAX_HEIGHT - 16)), "returnByValue": True},
            session=session)
        val = res.get("result", {}).get("value")
        if not val:
            return None
        c = json.loads(val)
        # Whole pixels, so that the PNG's size does not depend on sub-pixel layout; a margin of
        # 8 px keeps the heading's first letters and the plots' frames inside the picture.
        x = max(0, int(c["x"]) - 8)
        y = max(0, int(c["y"]) - 8)
        w = min(WIDTH - x, int(c["width"]) + 16)
        h = min(MAX_HEIGHT, int(c["height"]) + 16)
        shot = cdp.send("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": x, "y": y, "width": w, "height": h, "scale": 1}}, session=session)
        with open(out, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        return c["id"]
    finally:
        cdp.send("Target.closeTarget", {"targetId": target})


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    out, html = argv[0], argv[1]
    ids = [argv[2]] if len(argv) == 3 else SECTIONS
    if not os.path.isfile(html):
        print("no such file: " + html, file=sys.stderr)
        return 2
    chromium = browser_check.find_chromium()
    if not chromium:
        if os.environ.get("CI") == "true":
            print("FAIL: no Chromium found, and CI=true", file=sys.stderr)
            return 1
        print("SKIP: no Chromium found (install Debian's chromium, or set CHROMIUM)")
        return 77
    with tempfile.TemporaryDirectory(prefix="ssdlab-chromium-") as profile:
        cdp = browser_check.Cdp(chromium, profile)
        try:
            sid = shoot(cdp, html, out, ids)
        except browser_check.BrowserError as e:
            print("browser error: %s" % e, file=sys.stderr)
            return 2
        finally:
            cdp.close()
    if not sid:
        print("%s: none of the sections %s" % (html, " ".join(ids)), file=sys.stderr)
        return 1
    print("%s: section %s" % (out, sid))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
