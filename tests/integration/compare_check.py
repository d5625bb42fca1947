#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""compare_check.py: check `ssdlab compare`'s page and terminal text against the runs' summary.json.

Usage: compare_check.py PAGE.html TEXT.txt DIR...   (DIR in the order given to ssdlab compare)

The figures are taken from each summary.json here, in Python, by the rules docs/report.md
("Comparing runs") states, none of ssdlab's code. It fails unless
  - every table of the page has a column per run, its rows are exactly the shared figures of its
    group in the first run's order, and each run's cell (data-v) equals that run's figure;
  - the "not shared" table lists exactly the figures not every run has;
  - every plot has one series per run ("run K"); the IOPS plot's data are the runs' shared
    headline.results IOPS, each latency plot's x data the run's percentiles of its cell;
  - every figure row of the terminal text has the runs' figures, as summary.json has them.
Prints what it checked; exits 0 when all holds, 1 otherwise.
"""
import html.parser
import json
import math
import os
import sys

PCT = ["p50", "p90", "p95", "p99", "p99_9", "p99_99", "p99_999"]
RK = ["iops", "bw_bps", "lat_mean_ns", "lat_p99_ns", "lat_max_ns"]
GROUPS = ["headline", "results", "snia", "latency"]


def isnum(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def name_of(e):
    cell = e.get("cell") or ""
    n = cell if cell else (e.get("workload") or e.get("kind") or "-")
    rep = e.get("repeat")
    if isnum(rep) and rep > 0:
        n += " repeat %d" % rep
    return n


def figures(summary):
    """[(group, key, value)] in the order summary.json gives them."""
    out = []

    def add(g, k, v):
        if isnum(v):
            out.append((g, k, float(v)))

    h = summary.get("headline") or {}
    add("headline", "wa_run", h.get("wa_run"))
    for e in h.get("steady_state") or []:
        m = e.get("metric") or "-"
        add("headline", "steady state %s %s average" % (name_of(e), m), e.get("average"))
        add("headline", "steady state %s %s wa" % (name_of(e), m), e.get("wa"))
    for e in h.get("results") or []:
        for k in RK:
            add("results", "%s %s" % (name_of(e), k), e.get(k))

    def flat(o, path):
        if isinstance(o, dict):
            for k, v in o.items():
                if v is None or k == "header":
                    continue
                flat(v, path + "." + k)
        elif isinstance(o, list):
            for i, e in enumerate(o):
                if not isinstance(e, dict):
                    return
                flat(e, "%s[%d]" % (path, i))
        elif isnum(o):
            add("snia", path, o)

    for b in summary.get("snia") or []:
        name = b.get("test") or "-"
        if isnum(b.get("repeat")) and b["repeat"] > 0:
            name += "#%d" % b["repeat"]
        for k, v in b.items():
            if v is None or k in ("header", "phase", "repeat", "test"):
                continue
            flat(v, "%s %s" % (name, k))
    for e in summary.get("cells") or []:
        name = name_of(e) if e.get("cell") else (e.get("kind") or "-")
        for d in ("read", "write"):
            lat = (e.get(d) or {}).get("lat_ns")
            if not isinstance(lat, dict):
                continue
            add("latency", "%s %s mean" % (name, d), lat.get("mean"))
            for p in PCT:
                add("latency", "%s %s %s" % (name, d, p), lat.get(p))
            add("latency", "%s %s max" % (name, d), lat.get("max"))
    return out


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.plots = {}, []
        self.table = self.row = self.cell = None
        self.in_title = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.table = {"head": [], "rows": []}
            self.tables[a["id"]] = self.table
        elif tag == "tr" and self.table is not None:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = {"tag": tag, "v": a.get("data-v"), "text": ""}
        elif tag == "svg":
            self.plots.append({"id": a["id"], "series": [], "title": ""})
        elif tag == "g" and "data-series" in a:
            self.plots[-1]["series"].append(
                (a["data-series"], [float(x) for x in a["data-x"].split()],
                 [float(y) for y in a["data-y"].split()]))
        elif tag == "text" and a.get("class") == "ptitle":
            self.in_title = True

    def handle_endtag(self, tag):
        if tag == "table":
            self.table = None
        elif tag == "tr" and self.row is not None:
            if self.row and self.row[0]["tag"] == "th":
                self.table["head"] = [c["text"] for c in self.row]
            elif self.row:
                self.table["rows"].append(self.row)
            self.row = None
        elif tag in ("td", "th") and self.cell is not None:
            self.row.append(self.cell)
            self.cell = None
        elif tag == "text":
            self.in_title = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data
        if self.in_title:
            self.plots[-1]["title"] += data


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    page_path, text_path, dirs = argv[0], argv[1], argv[2:]
    errs = []
    runs = [figures(json.load(open(os.path.join(d, "summary.json")))) for d in dirs]
    n = len(runs)
    maps = []
    for f in runs:
        m = {}
        for g, k, v in f:
            m.setdefault(k, (g, v))
        maps.append(m)
    seen = set()
    shared = []  # (group, key) in run 1's order
    for g, k, _ in runs[0]:
        if k in seen:
            continue
        seen.add(k)
        if all(k in m for m in maps):
            shared.append((g, k))
    keys = set(k for _, k in shared)

    p = Page()
    p.feed(open(page_path, encoding="utf-8").read())
    labels = ["run %d" % (r + 1) for r in range(n)]
    checked = 0
    for g in GROUPS:
        want = [k for gg, k in shared if gg == g]
        t = p.tables.get("t-compare-" + g)
        if not want:
            if t:
                errs.append("table %s present without shared figures" % g)
            continue
        if t is None:
            errs.append("no table for group %s (%d shared figures)" % (g, len(want)))
            continue
        if t["head"][1:1 + n] != labels:
            errs.append("table %s: run columns %r" % (g, t["head"][1:1 + n]))
        got = [row[0]["text"] for row in t["rows"]]
        if got != want:
            errs.append("table %s: rows differ from the shared figures (%d vs %d)" % (g, len(got), len(want)))
            continue
        for row in t["rows"]:
            for r in range(n):
                v = row[1 + r]["v"]
                if v is None or float(v) != maps[r][row[0]["text"]][1]:
                    errs.append("table %s row %s run %d: %r != %r" % (g, row[0]["text"], r + 1, v,
                                                                      maps[r][row[0]["text"]][1]))
                checked += 1
    want_un = []
    for r in range(n):
        s = set()
        for g, k, v in runs[r]:
            if k in s:
                continue
            s.add(k)
            if k not in keys:
                want_un.append((labels[r], g, k, v))
    t = p.tables.get("t-compare-unshared")
    got_un = [(row[0]["text"], row[1]["text"], row[2]["text"], float(row[3]["v"]))
              for row in t["rows"]] if t else []
    if got_un != want_un:
        errs.append("not-shared table: %d rows, want %d" % (len(got_un), len(want_un)))

    if not p.plots:
        errs.append("no plot")
    for pl in p.plots:
        names = [s[0] for s in pl["series"]]
        if names != labels:
            errs.append("plot %s: series %r, want one per run" % (pl["id"], names))
            continue
        if pl["id"] == "compare-iops":
            cells = [k[:-5] for g, k in shared if g == "results" and k.endswith(" iops")]
            for r in range(n):
                want = [maps[r][c + " iops"][1] for c in cells]
                if pl["series"][r][2] != want:
                    errs.append("plot compare-iops run %d: %r != %r" % (r + 1, pl["series"][r][2], want))
        elif pl["id"].startswith("compare-latency-"):
            prefix = pl["title"][len("Latency exceedance: "):]
            pk = [prefix + " " + q for q in PCT if prefix + " " + q in keys]
            for r in range(n):
                want = [maps[r][k][1] for k in pk]
                if pl["series"][r][1] != want:
                    errs.append("plot %s run %d: x %r != %r" % (pl["id"], r + 1, pl["series"][r][1], want))
        else:
            errs.append("unexpected plot %s" % pl["id"])

    lines = 0
    for line in open(text_path, encoding="utf-8"):
        tok = line.split()
        if len(tok) < 2 * n or line.startswith(" "):
            continue
        vals = tok[-(2 * n - 1):-(n - 1)] if n > 1 else tok[-1:]
        key = " ".join(tok[:len(tok) - (2 * n - 1)])
        if key not in keys:
            continue
        for r in range(n):
            if float(vals[r]) != maps[r][key][1]:
                errs.append("terminal %s run %d: %s != %r" % (key, r + 1, vals[r], maps[r][key][1]))
        lines += 1
    if lines != len(shared):
        errs.append("terminal: %d figure rows, want %d" % (lines, len(shared)))
    for e in errs[:20]:
        print("FAIL " + e)
    print("%s: %d runs, %d shared figures (%d table cells), %d not shared, %d plots, %d terminal rows"
          % ("FAIL" if errs else "PASS", n, len(shared), checked, len(want_un), len(p.plots), lines))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
