#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""compare_check.py: check `ssdlab compare`'s page and terminal text against the runs' summary.json.

Usage: compare_check.py PAGE.html TEXT.txt DIR...   (DIR in the order given to ssdlab compare)
       compare_check.py --fast PAGE.html TEXT.txt FULL FAST   (ssdlab compare --fast FULL FAST)

The figures are taken from each summary.json here, in Python, by the rules docs/report.md
("Comparing runs") states, none of ssdlab's code. It fails unless
  - every table of the page has a column per run, its rows are exactly the shared figures of its
    group in the first run's order, and each run's cell (data-v) equals that run's figure;
  - the "not shared" table lists exactly the figures not every run has;
  - every plot has one series per run ("run K"); the IOPS plot's data are the runs' shared
    headline.results IOPS, each latency plot's x data the run's percentiles of its cell;
  - every figure row of the terminal text has the runs' figures, as summary.json has them;
  - curves (the overlays, "compare-curve-N"): every plot has a series for two or more runs, in
    the runs' order, and names the others under it ("not in: run K"); the curves recomputed here
    from each summary.json (the SNIA IOPS test's IOPS against block size per mix and the
    convergence per tracked cell, the throughput test's convergence, WSAT against time and bytes
    written, each steady-state window's values, the GC recovery points, the OP variants' WA, XSR's
    groups against time, HIR against time and per burst) are each overlaid exactly when two or
    more runs have it, with each run's x and y; one that only one run has is in the
    "compare-curves-unshared" table; and a run with an SLC-cache probe or a surface scan has its
    curve overlaid when another run has one too.
With --fast it also checks the fast table ("t-compare-fast") by its own reading of each run's
records.jsonl and summary.json (docs/report.md, "Fast against full"): the verdict round (the
early verdict's round when it says "predicted", else the SNIA window's last round), the drive time
(sum of elapsed_ns) and host bytes (sum of write.bytes) of the records up to it and of the whole
run (to the figures: a *-fast run's come after its verdict), their fast/full ratios, and
pass/fail against 0.5 for the whole run only; the precondition method and the early verdicts (or "absent");
and for every steady-state figure of the table its difference in % and pass/fail against 5 %.
Prints what it checked; exits 0 when all holds, 1 otherwise.
"""
import html.parser
import json
import math
import os
import re
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


def nums(a, scale=1.0):
    return [None if v is None else float(v) * scale for v in (a or [])]


def curves(summary):
    """{title: (x, y)}: the report's curves this script can recompute from summary.json, titled
    as the compare page titles them (docs/report.md, "Comparing runs"); a repeated title gets
    " #K" as ssdlab does."""
    out = {}

    def add(title, x, y):
        if not x or len(x) != len(y):
            return
        t, k = title, 1
        while t in out:
            k += 1
            t = "%s #%d" % (title, k)
        out[t] = (x, y)

    for b in summary.get("snia") or []:
        test = b.get("test")
        if test == "iops":
            mixes = []
            for e in b.get("matrix") or []:
                if isnum(e.get("rwmix_read")) and isnum(e.get("bs")) and e["rwmix_read"] not in mixes:
                    mixes.append(e["rwmix_read"])
            for m in mixes:
                pts = [(e["bs"] / 1024.0, float(e["iops"])) for e in b["matrix"]
                       if e.get("rwmix_read") == m and isnum(e.get("iops"))]
                add("IOPS against block size, per R/W mix: rwmix_read=%g" % m,
                    [p[0] for p in pts], [p[1] for p in pts])
        if test in ("iops", "throughput"):
            key = "iops" if test == "iops" else "mb_s"
            for e in b.get("tracking") or []:
                add("Steady-state convergence: %s per round: %s" % (key, e.get("cell")),
                    nums(e.get("rounds")), nums(e.get(key)))
        if test == "wsat":
            s = b.get("series") or {}
            add("WSAT: IOPS against time", nums(s.get("t_profile_ns"), 1 / 60e9), nums(s.get("iops")))
            add("WSAT: IOPS against bytes written", nums(s.get("x")), nums(s.get("iops")))
        if test == "xsr":
            for pas, (key, title) in enumerate((("mb_s", "XSR: throughput against time"),
                                                ("lat_mean_ns", "XSR: mean response time against time"))):
                for e in b.get("groups") or []:
                    s = e.get("series") or {}
                    add("%s: group %d (%s)" % (title, e.get("group"), e.get("rw") or "?"),
                        nums(s.get("t_profile_ns"), 1 / 60e9), nums(s.get(key)))
        if test == "hir":
            ivt = b.get("iops_vs_time") or {}
            add("HIR: IOPS against time from the first burst", nums(ivt.get("t_profile_ns"), 1e-9),
                nums(ivt.get("iops")))
            for e in b.get("wait_states") or []:
                s = e.get("series") or {}
                add("HIR: IOPS per burst, per wait state: wait %g s" % (e["wait_profile_ns"] / 1e9),
                    nums(s.get("burst")), nums(s.get("iops")))
    for e in summary.get("steady_state") or []:
        vals = e.get("values")
        if isinstance(vals, list) and vals and isnum(e.get("first_round")):
            add("Steady-state window: %s, %s" % (e.get("cell") or "-", e.get("metric") or "?"),
                [e["first_round"] + i for i in range(len(vals))], nums(vals))
    g = summary.get("gc_recovery") or {}
    pts = g.get("points") or []
    add("GC recovery: bytes recovered against idle time, with the fitted model",
        [p["idle_ns"] / 1e9 for p in pts], [float(p["recovered_bytes"]) for p in pts])
    ov = summary.get("op_variants") or []

    def vwa(e):
        w = e.get("wa")
        return float(w["wa"]) if isinstance(w, dict) else float(w)
    add("OP variants: write amplification against user capacity",
        [float(e["fraction"]) for e in ov], [vwa(e) for e in ov])
    return out


def same(a, b):
    if len(a) != len(b):
        return False
    for u, v in zip(a, b):
        if u is None or (isinstance(u, float) and math.isnan(u)):
            continue  # a null is drawn as no point; its CSV says nan
        if not math.isclose(u, v, rel_tol=1e-12, abs_tol=1e-300):
            return False
    return True


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.plots = {}, []
        self.table = self.row = self.cell = None
        self.in_title = False
        self.notin = {}
        self.in_notin = None

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
        elif tag == "p" and a.get("class") == "not-in":
            self.in_notin = a["data-plot"]
            self.notin[self.in_notin] = ""

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
        elif tag == "p":
            self.in_notin = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data
        if self.in_title:
            self.plots[-1]["title"] += data
        if self.in_notin:
            self.notin[self.in_notin] += data


def verdict_sums(d):
    """(round, drive_ns, host_bytes, early) of run d's first steady-state result."""
    s = json.load(open(os.path.join(d, "summary.json")))
    ss = (s.get("steady_state") or [None])[0]
    if ss is None:
        ss = next((b["steady_state"] for b in s.get("snia") or [] if isinstance(b.get("steady_state"), dict)), None)
    early = ss.get("early") if isinstance(ss.get("early"), dict) else None
    recs = [json.loads(line) for line in open(os.path.join(d, "records.jsonl"))]
    ph, rep = ss["phase"], ss.get("repeat") or 0
    if early and early.get("verdict") == "predicted":
        rnd = early["round"]
    elif ss.get("reached"):
        rnd = ss["last_round"]
    else:
        rnd = max(r.get("round", 0) for r in recs if r.get("phase") == ph and (r.get("repeat") or 0) == rep)
    ns = b = 0
    for r in recs:
        p, q, k = r.get("phase", -1), r.get("repeat") or 0, r.get("round") or 0
        if p < 0 or p > ph or (p == ph and (q > rep or (q == rep and k > rnd))):
            continue
        ns += r.get("elapsed_ns") or 0
        b += (r.get("write") or {}).get("bytes") or 0
    wns = sum(r.get("elapsed_ns") or 0 for r in recs if r.get("phase", -1) >= 0)
    wb = sum((r.get("write") or {}).get("bytes") or 0 for r in recs if r.get("phase", -1) >= 0)
    return rnd, ns, b, early, wns, wb


def method(d):
    for line in open(os.path.join(d, "records.jsonl")):
        r = json.loads(line)
        if r.get("kind") == "precondition" and isinstance(r.get("precondition"), dict) \
                and r["precondition"].get("method"):
            return r["precondition"]["method"]
    return None


def forced(d):
    """Why the run's sprandom fill was forced past its refusal (the manifest's inputs), or None."""
    m = json.load(open(os.path.join(d, "manifest.json")))
    for s in m.get("sprandom", []):
        i = s.get("inputs") or {}
        if i.get("forced") is True:
            return i.get("forced_past") or "reason not recorded"
    return None


def round_range(full, name):
    """The full run's own round range of a SNIA matrix cell's IOPS for figure `name` ("TEST[#REP]
    matrix[I].iops"): that block's matrix[I] cell, its tracking IOPS over the window's rounds;
    None for any other figure (docs/report.md, "Fast against full")."""
    m = re.fullmatch(r"([^ #]+)(?:#(\d+))? matrix\[(\d+)\]\.iops", name)
    if not m:
        return None
    s = json.load(open(os.path.join(full, "summary.json")))
    for b in s.get("snia", []):
        if b.get("test") != m.group(1) or b.get("repeat", 0) != int(m.group(2) or 0):
            continue
        w, i = b["window"], int(m.group(3))
        cell = b["matrix"][i]["cell"]
        for t in b["tracking"]:
            if t["cell"] == cell:
                v = [x for r, x in zip(t["rounds"], t["iops"]) if w["first_round"] <= r <= w["last_round"]]
                return (min(v), max(v)) if v else None
        return None
    return None


def fast_unsteady(fast):
    """The names ("TEST[#REP] matrix[I].iops") of the fast run's matrix rows whose own check over
    its matrix rounds fails, as snia_blocks_check recomputes the block from the records."""
    import snia_blocks_check
    out = set()
    for b in snia_blocks_check.recompute(fast):
        for i, row in enumerate(b.get("matrix", [])):
            if row.get("fast_rounds", {}).get("steady") is False:
                rep = "#%d" % b["repeat"] if b.get("repeat") else ""
                out.add("%s%s matrix[%d].iops" % (b["test"], rep, i))
    return out


def check_fast(p, full, fast, maps, errs):
    t = p.tables.get("t-compare-fast")
    if t is None:
        errs.append("fast: no fast table")
        return 0
    rows = {row[0]["text"]: row for row in t["rows"]}
    f, q = verdict_sums(full), verdict_sums(fast)
    n = 0

    def cell(name, j):
        r = rows.get(name)
        return None if r is None else (r[j]["v"] if r[j]["v"] is not None else r[j]["text"])
    # to the verdict: stated, not judged; to the figures (the whole run): judged against 0.5
    for name, a, b, judged in (("drive time to the verdict (s, target time)", f[1], q[1], False),
                               ("host bytes written to the verdict", f[2], q[2], False),
                               ("drive time to the figures (s, whole run)", f[4], q[4], True),
                               ("host bytes written to the figures (whole run)", f[5], q[5], True)):
        ratio = b / a
        got = cell(name, 3)
        if got is None or not math.isclose(float(got), ratio, rel_tol=1e-12):
            errs.append("fast: %s ratio %r, want %r (records.jsonl)" % (name, got, ratio))
        scale = 1e9 if name.startswith("drive") else 1
        for j, want in ((1, a / scale), (2, b / scale)):
            if not math.isclose(float(cell(name, j)), want, rel_tol=1e-12):
                errs.append("fast: %s column %d %r, want %r" % (name, j, cell(name, j), want))
        if cell(name, 5) != (("pass" if ratio <= 0.5 else "fail") if judged else "-"):
            errs.append("fast: %s marked %r at ratio %g" % (name, cell(name, 5), ratio))
        n += 1
    for j, (d, v) in ((1, (full, f)), (2, (fast, q))):
        rr = cell("verdict round", j) or ""
        if not rr.startswith("round %d " % v[0]):
            errs.append("fast: verdict round of %s %r, want %d" % (d, rr, v[0]))
        e = cell("early verdict", j) or ""
        if v[3] is None and not e.startswith("absent"):
            errs.append("fast: %s has no early key, page says %r" % (d, e))
        if v[3] is not None:
            want = v[3]["verdict"] if v[3].get("round") is None else \
                "%s, round %d" % (v[3]["verdict"], v[3]["round"])
            if not e.startswith(want):
                errs.append("fast: %s early verdict %r, want %r" % (d, e, want))
        m = method(d)
        got = cell("precondition method", j) or ""
        if (m and got != m) or (not m and not got.startswith(("sequential", "sprandom"))):
            errs.append("fast: %s precondition method %r, want %r" % (d, got, m))
    # a fill forced past its refusal: a row saying which run and why (the fast run's reason)
    fw = [forced(full), forced(fast)]
    if any(fw):
        want = ["yes" if w else "no" for w in fw] + [fw[1] or fw[0]]
        got = [cell("fill forced past its refusal", j) for j in (1, 2, 5)]
        if got != want:
            errs.append("fast: forced row %r, want %r" % (got, want))
    elif "fill forced past its refusal" in rows:
        errs.append("fast: a forced row where neither run was forced")
    figs = ranged = 0
    unsteady = fast_unsteady(fast)
    for name, row in rows.items():
        if name not in maps[0] or name not in maps[1]:
            continue
        a, b = maps[0][name][1], maps[1][name][1]
        if a == 0:
            continue
        diff = (b - a) / a * 100
        got = row[3]["v"]
        if got is None or not math.isclose(float(got), diff, rel_tol=1e-9, abs_tol=1e-12):
            errs.append("fast: %s difference %r, want %r" % (name, got, diff))
        want = "pass" if abs(diff) <= 5 else "fail"
        rng = round_range(full, name) if want == "fail" else None
        if rng:
            within = rng[0] * 0.95 <= b <= rng[1] * 1.05
            want = "fail; %s the full run's rounds %.1f..%.1f" % ("within" if within else "outside", rng[0], rng[1])
            ranged += 1
        if name in unsteady:
            want += "; not steady over the fast run's matrix rounds"
        if row[5]["text"] != want:
            errs.append("fast: %s marked %r at %g %%, want %r" % (name, row[5]["text"], diff, want))
        figs += 1
    if not figs:
        errs.append("fast: no steady-state figure in the fast table")
    print("fast: %d figures over the goal checked against the full run's round range, %d not "
          "steady over the fast run's matrix rounds" % (ranged, len(unsteady)))
    return n + figs


def main(argv):
    fast = bool(argv) and argv[0] == "--fast"
    if fast:
        argv = argv[1:]
    if len(argv) < 3 or (fast and len(argv) != 4):
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
    sums = [json.load(open(os.path.join(d, "summary.json"))) for d in dirs]
    cv = [curves(s) for s in sums]
    overlays = {pl["title"]: pl for pl in p.plots if pl["id"].startswith("compare-curve-")}
    if len(overlays) != sum(1 for pl in p.plots if pl["id"].startswith("compare-curve-")):
        errs.append("two overlays with one title")
    ncurves = 0
    for pl in overlays.values():
        names = [s[0] for s in pl["series"]]
        if len(names) < 2 or names != [l for l in labels if l in names]:
            errs.append("overlay %s (%s): series %r" % (pl["id"], pl["title"], names))
        miss = [l for l in labels if l not in names]
        want_note = "not in: " + ", ".join(miss) if miss else None
        if p.notin.get(pl["id"]) != want_note:
            errs.append("overlay %s: note %r, want %r" % (pl["id"], p.notin.get(pl["id"]), want_note))
    titles = []
    for c in cv:
        titles += [t for t in c if t not in titles]
    un = p.tables.get("t-compare-curves-unshared")
    unrows = set((row[0]["text"], row[1]["text"]) for row in un["rows"]) if un else set()
    for t in titles:
        have = [r for r in range(n) if t in cv[r]]
        if len(have) < 2:
            if (labels[have[0]], t) not in unrows:
                errs.append("curve %r of %s only: not in the unshared-curves table" % (t, labels[have[0]]))
            if t in overlays:
                errs.append("curve %r overlaid though only %s has it" % (t, labels[have[0]]))
            continue
        pl = overlays.get(t)
        if pl is None:
            errs.append("curve %r of %s not overlaid" % (t, [labels[r] for r in have]))
            continue
        got = {s[0]: s for s in pl["series"]}
        for r in have:
            s = got.get(labels[r])
            if s is None:
                errs.append("curve %r: no series for %s" % (t, labels[r]))
            elif not same(cv[r][t][0], s[1]) or not same(cv[r][t][1], s[2]):
                errs.append("curve %r %s: data differ from summary.json" % (t, labels[r]))
        ncurves += 1
    for key, title in (("slc_cache", "SLC cache: write speed"), ("surface", "Surface ")):
        have = [r for r in range(n) if sums[r].get(key)]
        if len(have) >= 2 and not any(t.startswith(title) for t in overlays):
            errs.append("%s: in %d runs, no overlay" % (key, len(have)))
    for pl in p.plots:
        if pl["id"].startswith("compare-curve-"):
            continue
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

    nfast = check_fast(p, dirs[0], dirs[1], maps, errs) if fast else 0

    lines = 0
    for line in open(text_path, encoding="utf-8"):
        tok = line.split()
        if len(tok) < 2 * n or line.startswith(" ") or line.startswith("fast against"):
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
    print("%s: %d runs, %d shared figures (%d table cells), %d not shared, %d plots (%d overlays, "
          "%d recomputed here), %d terminal rows%s"
          % ("FAIL" if errs else "PASS", n, len(shared), checked, len(want_un), len(p.plots),
             len(overlays), ncurves, lines, ", %d fast rows" % nfast if fast else ""))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
