#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""guides_check.py: the profile guides (docs/profiles/<name>.md, issue 18 point 4) against the
bundled profiles as `ssdlab profiles` lists them now.

Usage: guides_check.py SSDLAB SRCDIR

For every profile `ssdlab profiles` prints:
  - docs/profiles/<name>.md exists, its title is "# <name>", and it has the headings REQUIRED in
    that order (the parts issue 18 asks for);
  - the duration it states on the line "1 TB drive ...: **D**" equals the profile's "1 TB drive"
    column of `ssdlab profiles` (printed now, so a profile change that makes the guide stale fails
    here), and its "Destructive: **yes|no**" agrees with the column beside it;
  - a profile made with `extends:` links its parent's guide;
  - it shows img/<name>.png, which exists, is a PNG (signature and IHDR), 400..1600 px wide,
    60..1600 px high, under 200 KB, and the screenshot part says it is of the virtual SSD;
and docs/profiles.md and README.md link every guide, and no guide is left for a profile that is
gone. Exits 0 when all hold, 1 with a line per problem.
"""
import os
import re
import struct
import subprocess
import sys

REQUIRED = ["What it measures", "Phases", "How long it takes", "What it writes",
            "How to read the result", "Screenshot"]
# `ssdlab profiles`: name, kind, the 1 TB duration (may hold spaces: "5h47m .. 1d00h",
# "20.00 s"), then at least two spaces and the description.
ROW = re.compile(r"^  (\S+)\s+(destructive|read-only)\s+(\S.*?)\s{2,}\S")


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(33)
    if len(head) < 33 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    ssdlab, src = argv
    out = subprocess.run([ssdlab, "profiles"], capture_output=True, text=True, check=True).stdout
    rows = {}
    for line in out.splitlines()[1:]:
        m = ROW.match(line)
        if m:
            rows[m.group(1)] = (m.group(2), m.group(3))
    problems = []
    yamls = {f[:-5] for f in os.listdir(os.path.join(src, "profiles")) if f.endswith(".yaml")}
    if set(rows) != yamls:
        problems.append("`ssdlab profiles` lists %s, profiles/*.yaml holds %s" % (
            sorted(rows), sorted(yamls)))
    gdir = os.path.join(src, "docs", "profiles")
    index = open(os.path.join(src, "docs", "profiles.md"), encoding="utf-8").read()
    readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()

    for name, (kind, dur) in sorted(rows.items()):
        page = os.path.join(gdir, name + ".md")
        if not os.path.isfile(page):
            problems.append("%s: no guide docs/profiles/%s.md" % (name, name))
            continue
        text = open(page, encoding="utf-8").read()
        if not text.startswith("# %s\n" % name) and "\n# %s\n" % name not in text:
            problems.append("%s: the guide's title is not '# %s'" % (name, name))
        heads = re.findall(r"^## (.+?)\s*$", text, re.M)
        pos = -1
        for h in REQUIRED:
            if h not in heads:
                problems.append("%s: no heading '## %s'" % (name, h))
            elif heads.index(h) < pos:
                problems.append("%s: '## %s' out of order" % (name, h))
            else:
                pos = heads.index(h)
        stated = re.findall(r"^.*1 TB drive.*: \*\*(.+?)\*\*", text, re.M)
        if len(stated) != 1:
            problems.append("%s: %d '1 TB drive ...: **D**' lines, want 1" % (name, len(stated)))
        elif stated[0] != dur:
            problems.append("%s: the guide says %s on a 1 TB drive, `ssdlab profiles` now %s" % (
                name, stated[0], dur))
        if "ssdlab plan %s --target" % name not in text:
            problems.append("%s: the guide does not give `ssdlab plan %s --target ...`" % (name, name))
        d = re.findall(r"Destructive: \*\*(yes|no)\*\*", text)
        want = "yes" if kind == "destructive" else "no"
        if d != [want]:
            problems.append("%s: 'Destructive: **%s**' wanted once (the profile is %s), found %s" % (
                name, want, kind, d))
        ytext = open(os.path.join(src, "profiles", name + ".yaml"), encoding="utf-8").read()
        parent = re.search(r"^extends:\s*(\S+)", ytext, re.M)
        if parent and "(%s.md)" % parent.group(1) not in text:
            problems.append("%s: extends %s but does not link %s.md" % (
                name, parent.group(1), parent.group(1)))
        if "](img/%s.png)" % name not in text:
            problems.append("%s: the guide does not show img/%s.png" % (name, name))
        shot = text.split("## Screenshot", 1)[-1]
        if "virtual SSD" not in shot:
            problems.append("%s: the screenshot part does not say it is of the virtual SSD" % name)
        img = os.path.join(gdir, "img", name + ".png")
        if not os.path.isfile(img):
            problems.append("%s: no image docs/profiles/img/%s.png" % (name, name))
        else:
            wh = png_size(img)
            size = os.path.getsize(img)
            if wh is None:
                problems.append("%s: %s is not a PNG" % (name, img))
            elif not (400 <= wh[0] <= 1600 and 60 <= wh[1] <= 1600):
                problems.append("%s: %s is %dx%d px" % (name, img, wh[0], wh[1]))
            if size > 200 * 1024:
                problems.append("%s: %s is %d bytes (> 200 KB)" % (name, img, size))
        if "(profiles/%s.md)" % name not in index:
            problems.append("%s: docs/profiles.md does not link profiles/%s.md" % (name, name))
        if "(docs/profiles/%s.md)" % name not in readme:
            problems.append("%s: README.md does not link docs/profiles/%s.md" % (name, name))

    for f in os.listdir(gdir):
        if f.endswith(".md") and f[:-3] not in rows:
            problems.append("docs/profiles/%s: no such bundled profile" % f)
    for p in problems:
        print("FAIL " + p)
    if problems:
        return 1
    print("ok: %d guides, each with its parts, its 1 TB duration as `ssdlab profiles` prints it, "
          "its screenshot, and linked from docs/profiles.md and README.md" % len(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
