# SPDX-License-Identifier: MIT
"""report_check.py DIR: checks DIR/report.html, DIR/summary.md and DIR/report/*.csv against
DIR/summary.json and DIR/manifest.json with python3 alone (html.parser, csv, json), so that a bug
in ssdlab's report cannot hide itself:
  - the page parses, is titled "SNIA PTS-style", lists its deviations, and references nothing
    outside itself (no script, link, img, iframe, object, embed; no src; an href only to "#...";
    no url( or @import in the CSS);
  - every plot (<svg>) has an x and a y axis with a label and tick labels, a legend entry per
    series, data-csv naming a CSV whose rows equal the series' data-x/data-y values, and its
    drawn points where data-xmap/data-ymap put those values; on the virtual SSD every plot says
    "simulated";
  - every table's cells equal its CSV's, and the tables and plots equal summary.json's numbers
    (the IOPS matrix, throughput, latency, WSAT levels, XSR groups, DIRTH and ECW points and
    Demand Variation, HIR wait states, steady state, WA, latency percentiles).
Exit 0 when all holds, 1 with each finding on a line otherwise.
"""
import csv
import json
import math
import os
import re
import sys
from html.parser import HTMLParser

fails = []


def fail(msg):
    fails.append(msg)


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.svgs = []      # {attrs, texts: [(class, text)], series: [attrs], points: [str], axes}
        self.tables = []    # {attrs, head: [], rows: [[(data-v or text)]]}
        self.title = ""
        self.h1 = ""
        self.style = ""
        self.texts = []
        self.cur_text = None
        self.text_class = None
        self.cur_axis = None
        self.cur_series = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.stack.append(tag)
        for k, v in attrs:
            if k == "src":
                fail("external reference: <%s src=%r>" % (tag, v))
            if k == "href" and not (v or "").startswith("#"):
                fail("external reference: <%s href=%r>" % (tag, v))
        if tag in ("script", "link", "img", "iframe", "object", "embed", "base"):
            fail("forbidden element <%s>" % tag)
        if tag == "svg":
            self.svgs.append({"attrs": a, "texts": [], "series": [], "axes": {}, "legend": 0})
        elif self.svgs and "svg" in self.stack:
            s = self.svgs[-1]
            if tag == "g" and a.get("data-axis"):
                self.cur_axis = a["data-axis"]
                s["axes"][self.cur_axis] = {"scale": a.get("data-scale"), "ticks": [], "label": ""}
            if tag == "g" and a.get("class") == "legend":
                self.cur_axis = "legend"
            if tag == "g" and a.get("class") == "series":
                self.cur_series = dict(a, points=None, circles=[])
                s["series"].append(self.cur_series)
            if tag == "polyline" and self.cur_series is not None:
                self.cur_series["points"] = a.get("points", "")
            if tag == "circle" and self.cur_series is not None:
                self.cur_series["circles"].append((float(a["cx"]), float(a["cy"])))
            if tag == "text":
                self.text_class = a.get("class", "")
                self.cur_text = ""
        if tag == "table":
            self.tables.append({"attrs": a, "head": [], "rows": []})
        elif tag == "tr" and self.tables:
            self.row = []
        elif tag in ("td", "th") and self.tables:
            self.cell_v = a.get("data-v")
            self.cell_text = ""
        if tag == "title" and "svg" not in self.stack:
            self.cur_text = ""
            self.text_class = "doctitle"

    def handle_endtag(self, tag):
        if tag == "text" and self.svgs and self.cur_text is not None:
            s = self.svgs[-1]
            s["texts"].append((self.text_class, self.cur_text))
            if self.cur_axis in ("x", "y"):
                ax = s["axes"][self.cur_axis]
                if self.text_class == "tick":
                    ax["ticks"].append(self.cur_text)
                elif self.text_class == "label":
                    ax["label"] = self.cur_text
            elif self.cur_axis == "legend":
                s["legend"] += 1
            self.cur_text = None
        if tag == "title" and self.text_class == "doctitle":
            self.title = self.cur_text
            self.cur_text = None
            self.text_class = None
        if tag in ("td", "th") and self.tables:
            val = self.cell_v if self.cell_v is not None else self.cell_text
            if tag == "th":
                self.tables[-1]["head"].append(self.cell_text)
            else:
                self.row.append(val)
        if tag == "tr" and self.tables and self.row:
            self.tables[-1]["rows"].append(self.row)
            self.row = []
        if tag == "g":
            # groups do not nest in our plots: closing one ends the axis, legend or series
            self.cur_axis = None
            self.cur_series = None
        while self.stack:
            t = self.stack.pop()
            if t == tag:
                break

    def handle_data(self, data):
        if self.cur_text is not None:
            self.cur_text += data
        if self.stack and self.stack[-1] in ("td", "th"):
            self.cell_text += data
        if self.stack and self.stack[-1] == "style":
            self.style += data
        if self.stack and self.stack[-1] == "h1":
            self.h1 += data


def read_csv(d, rel):
    path = os.path.join(d, rel)
    if not os.path.isfile(path):
        fail("missing CSV %s" % rel)
        return None
    with open(path, newline="") as f:
        return list(csv.reader(f))


def num(s):
    return float(s) if s not in ("", "nan") else float("nan")


def same(a, b):
    if isinstance(a, float) and math.isnan(a):
        return b is None or (isinstance(b, float) and math.isnan(b))
    return b is not None and float(a) == float(b)


def unmap(m, px):
    p0, p1, lo, hi, kind = m.split()
    p0, p1, lo, hi = float(p0), float(p1), float(lo), float(hi)
    return p0, p1, lo, hi, kind


def to_px(m, v):
    p0, p1, lo, hi, kind = unmap(m, 0)
    f = (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) if kind == "log" \
        else (v - lo) / (hi - lo)
    return p0 + f * (p1 - p0)


def check_svg(d, s, simulated):
    a = s["attrs"]
    pid = a.get("id", "?")
    for ax in ("x", "y"):
        axd = s["axes"].get(ax)
        if not axd:
            fail("%s: no %s axis" % (pid, ax))
            continue
        if not axd["label"].strip():
            fail("%s: %s axis without a label" % (pid, ax))
        if len(axd["ticks"]) < 2:
            fail("%s: %s axis with %d tick labels" % (pid, ax, len(axd["ticks"])))
    if not s["series"]:
        fail("%s: no data series" % pid)
    if s["legend"] != len(s["series"]):
        fail("%s: %d legend entries for %d series" % (pid, s["legend"], len(s["series"])))
    if simulated and (a.get("data-simulated") != "true" or
                      not any(t.startswith("simulated") for _, t in s["texts"])):
        fail("%s: a virtual-SSD plot not marked simulated" % pid)
    rows = read_csv(d, a.get("data-csv", ""))
    if rows is None:
        return {}
    if rows[0] != ["series", "x", "y"]:
        fail("%s: CSV header %r" % (pid, rows[0]))
    bycsv = {}
    for r in rows[1:]:
        bycsv.setdefault(r[0], ([], []))
        bycsv[r[0]][0].append(r[1])
        bycsv[r[0]][1].append(r[2])
    out = {}
    for se in s["series"]:
        name = se["data-series"]
        xs, ys = se["data-x"].split(), se["data-y"].split()
        if name not in bycsv or bycsv[name] != (xs, ys):
            fail("%s: series %r: plotted values differ from the CSV's" % (pid, name))
        out[name] = ([num(v) for v in xs], [num(v) for v in ys])
        # the drawn points are where the axis mapping puts the values
        pts = []
        for x, y in zip(out[name][0], out[name][1]):
            if math.isnan(x) or math.isnan(y):
                continue
            if (a["data-xmap"].endswith("log") and x <= 0) or (a["data-ymap"].endswith("log") and y <= 0):
                continue
            pts.append((to_px(a["data-xmap"], x), to_px(a["data-ymap"], y)))
        drawn = []
        if se.get("points") is not None:
            drawn = [tuple(float(c) for c in p.split(",")) for p in se["points"].split()]
        elif se["circles"]:
            drawn = se["circles"]
        if se.get("data-style") != "bars":
            if len(drawn) != len(pts) or any(abs(p[0] - q[0]) > 0.01 or abs(p[1] - q[1]) > 0.01
                                             for p, q in zip(pts, drawn)):
                fail("%s: series %r: drawn points are not where data-xmap/data-ymap put the values"
                     % (pid, name))
    return out


def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


def main():
    d = sys.argv[1]
    summary = json.load(open(os.path.join(d, "summary.json")))
    manifest = json.load(open(os.path.join(d, "manifest.json")))
    simulated = manifest.get("target", {}).get("kind") == "sim"
    html = open(os.path.join(d, "report.html"), encoding="utf-8").read()
    p = Page()
    p.feed(html)
    p.close()
    if "SNIA PTS-style" not in p.title or "SNIA PTS-style" not in p.h1:
        fail("title without 'SNIA PTS-style': %r" % p.title)
    if re.search(r"url\(|@import", p.style):
        fail("the CSS loads something: %r" % p.style[:200])
    if "@media print" not in p.style:
        fail("no print rules in the CSS")
    if "No reference test platform" not in html:
        fail("the deviations do not list the missing reference test platform")
    if simulated and "Virtual SSD: every figure" not in html:
        fail("a virtual-SSD report does not say so in its deviations")
    md = open(os.path.join(d, "summary.md"), encoding="utf-8").read()
    if not md.startswith("# SNIA PTS-style report") or "\n|---|" not in md:
        fail("summary.md has no title or no table")

    plots = {}
    for s in p.svgs:
        plots[s["attrs"].get("id")] = check_svg(d, s, simulated)
    tables = {}
    for t in p.tables:
        tid = t["attrs"].get("id", "")[2:]
        rows = read_csv(d, t["attrs"].get("data-csv", ""))
        if rows is None:
            continue
        if rows[0] != t["head"] or rows[1:] != t["rows"]:
            fail("table %s differs from its CSV" % tid)
        tables[tid] = rows
    ncheck = 0

    def col(rows, name):
        return rows[0].index(name)

    # steady state: table rows and window plots
    for i, e in enumerate(summary.get("steady_state", [])):
        rows = tables.get("steady_state")
        if not rows:
            fail("no steady_state table")
            break
        r = rows[1 + i]
        for k in ("average", "data_excursion", "allowed_data_excursion", "slope", "intercept",
                  "slope_excursion", "allowed_slope_excursion", "rounds"):
            if e.get(k) is not None and not same(num(r[col(rows, k)]), e[k]):
                fail("steady_state[%d].%s: table %s, summary %r" % (i, k, r[col(rows, k)], e[k]))
            ncheck += 1
        if e.get("values"):
            pl = plots.get("ss-window-%d" % i, {}).get("per-round value")
            if not pl or pl[1] != [float(v) for v in e["values"]] or \
                    pl[0] != [float(e["first_round"] + j) for j in range(len(e["values"]))]:
                fail("ss-window-%d: the per-round values differ from steady_state[%d].values" % (i, i))
            avg = plots.get("ss-window-%d" % i, {}).get("average")
            if not avg or not all(close(v, e["average"]) for v in avg[1]):
                fail("ss-window-%d: the average line is not steady_state[%d].average" % (i, i))
            ls = plots.get("ss-window-%d" % i, {}).get("least-squares line")
            if ls and not all(close(y, e["intercept"] + e["slope"] * x) for x, y in zip(*ls)):
                fail("ss-window-%d: the least-squares line is not intercept + slope x round" % i)
            ncheck += 3
    # snia blocks
    for k, b in enumerate(summary.get("snia", [])):
        if b["test"] == "iops":
            rows = tables.get("snia_iops_matrix_%d" % k)
            if not rows:
                fail("no IOPS matrix table for snia[%d]" % k)
                continue
            for e in b["matrix"]:
                if "not_applicable" in e:
                    continue
                r = [r for r in rows[1:] if num(r[0]) == e["bs"]]
                c = rows[0].index("rwmix_read=%g" % e["rwmix_read"])
                if not r or not same(num(r[0][c]), e["iops"]):
                    fail("IOPS matrix %s: table %r, summary %r" % (e["cell"], r and r[0][c], e["iops"]))
                pl = plots.get("snia-iops-bs-%d" % k, {}).get("rwmix_read=%g" % e["rwmix_read"])
                if not pl or (e["bs"] / 1024.0, e["iops"]) not in list(zip(*pl)):
                    fail("IOPS-vs-block-size plot: %s missing or different" % e["cell"])
                ncheck += 2
            # convergence: every tracked cell's rounds in some convergence plot
            conv = {}
            for pid, pl in plots.items():
                if pid.startswith("snia-iops-%d-convergence-" % k):
                    conv.update(pl)
            for e in b["tracking"]:
                if e["cell"] not in conv or conv[e["cell"]][1] != [float(v) for v in e["iops"]]:
                    fail("convergence of %s differs from snia tracking" % e["cell"])
                ncheck += 1
        elif b["test"] in ("throughput", "latency"):
            rows = tables.get("snia_%s_%d" % (b["test"], k))
            if not rows:
                fail("no %s table" % b["test"])
                continue
            for i, e in enumerate(b["table"]):
                r = rows[1 + i]
                if r[0] != e["cell"]:
                    fail("%s row %d: cell %r, summary %r" % (b["test"], i, r[0], e["cell"]))
                keys = ["mb_s", "rounds"] if b["test"] == "throughput" else ["mean_ns", "max_ns", "samples"]
                for key in keys:
                    if key in e and not same(num(r[col(rows, key)]), e[key]):
                        fail("%s %s.%s: table %s, summary %r" % (b["test"], e["cell"], key, r[col(rows, key)], e[key]))
                    ncheck += 1
                for pk, pv in (e.get("percentiles") or {}).items():
                    if pv and pv.get("ns") is not None and not same(num(r[col(rows, pk + "_ns")]), pv["ns"]):
                        fail("latency %s %s differs" % (e["cell"], pk))
                    ncheck += 1
        elif b["test"] == "wsat":
            rows = tables.get("snia_wsat_%d" % k)
            lv = {r[0]: r for r in rows[1:]} if rows else {}
            if not same(num(lv.get("plateau", ["", ""])[1]), b["plateau"]["iops"]) or \
                    not same(num(lv.get("steady", ["", ""])[1]), b["steady"]["iops"]):
                fail("WSAT levels differ from the summary")
            ncheck += 2
            t = plots.get("snia-wsat-time-%d" % k, {}).get("IOPS")
            w = plots.get("snia-wsat-written-%d" % k, {}).get("IOPS")
            ser = b["series"]
            if not t or t[1] != [float(v) for v in ser["iops"]] or \
                    not all(close(x, v / 60e9) for x, v in zip(t[0], ser["t_profile_ns"])):
                fail("WSAT IOPS-vs-time plot differs from the series")
            if not w or w[0] != [float(v) for v in ser["x"]] or w[1] != [float(v) for v in ser["iops"]]:
                fail("WSAT IOPS-vs-written plot differs from the series")
            ncheck += 2
        elif b["test"] == "xsr":
            rows = tables.get("snia_xsr_groups_%d" % k)
            for i, g in enumerate(b["groups"]):
                r = rows[1 + i] if rows and len(rows) > 1 + i else None
                for key in ("mb_s", "end_mb_s", "lat_mean_ns", "mrt_ns"):
                    if not r or not same(num(r[col(rows, key)]), g[key]):
                        fail("xsr group %d %s differs from the summary" % (g["group"], key))
                    ncheck += 1
                name = "group %d (%s)" % (g["group"], g["rw"])
                pl = plots.get("snia-xsr-throughput-%d" % k, {}).get(name)
                if not pl or pl[1] != [float(v) for v in g["series"]["mb_s"]] or \
                        not all(close(x, v / 60e9) for x, v in zip(pl[0], g["series"]["t_profile_ns"])):
                    fail("xsr throughput plot of %s differs from the series" % name)
                ncheck += 1
        elif b["test"] in ("dirth", "ecw"):
            var = plots.get("snia-%s-variation-%d" % (b["test"], k), {})
            for e in b.get("by_tc", []):
                name = "TC %d" % e["threads"]
                if b["test"] == "dirth":
                    want = ([float(p["toio"]) for p in e["points"]], [float(p["iops"]) for p in e["points"]])
                else:
                    want = ([float(v) for v in e["toio"]], [float(v) for v in e["iops"]])
                if var.get(name) != want:
                    fail("%s Demand Variation plot of %s differs from by_tc" % (b["test"], name))
                ncheck += 1
            if b["test"] == "dirth" and isinstance(b.get("points"), list):
                rows = tables.get("snia_dirth_points_%d" % k)
                for i, pt in enumerate(b["points"]):
                    r = rows[1 + i] if rows else None
                    run = pt["run"] if isinstance(pt["run"], dict) else {}
                    if not r or r[0] != pt["point"] or not same(num(r[col(rows, "rounds_iops")]), pt["rounds_iops"]) or \
                            ("iops" in run and not same(num(r[col(rows, "run_iops")]), run["iops"])):
                        fail("dirth point %s differs from the summary" % pt["point"])
                    ncheck += 1
            if b["test"] == "ecw" and b.get("stage") == "toio":
                rows = tables.get("snia_ecw_points_%d" % k)
                for i, pt in enumerate(b["points"]):
                    r = rows[1 + i] if rows else None
                    for key in ("iops", "lat_mean_ns", "lat_p99_ns"):
                        if not r or not same(num(r[col(rows, key)]), pt[key]):
                            fail("ecw point TC%d/QD%d %s differs" % (pt["threads"], pt["qd"], key))
                        ncheck += 1
            if b["test"] == "ecw" and b.get("stage") == "precondition":
                pl = plots.get("snia-ecw-precondition-%d" % k, {}).get("IOPS")
                if not pl or pl[1] != [float(r["iops"]) for r in b["rounds"]]:
                    fail("ecw precondition plot differs from its rounds")
                ncheck += 1
        elif b["test"] == "hir":
            rows = tables.get("snia_hir_%d" % k)
            for i, w in enumerate(b["wait_states"]):
                r = rows[1 + i] if rows else None
                if not r or not same(num(r[col(rows, "mean_iops")]), w["mean_iops"]):
                    fail("hir wait state %d mean_iops differs" % i)
                pl = plots.get("snia-hir-bursts-%d" % k, {}).get("wait %g s" % (w["wait_profile_ns"] / 1e9))
                if not pl or pl[1] != [float(v) for v in w["series"]["iops"]]:
                    fail("hir bursts plot of wait state %d differs" % i)
                ncheck += 2
            pl = plots.get("snia-hir-time-%d" % k, {}).get("IOPS")
            if not pl or pl[1] != [float(v) for v in b["iops_vs_time"]["iops"]]:
                fail("hir IOPS-vs-time plot differs from iops_vs_time")
            ncheck += 1
    # foreign I/O: the records' foreign_sectors_* summed, in the flags table when any
    fr = fw = nrec = 0
    with open(os.path.join(d, "records.jsonl")) as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            a, b = r.get("foreign_sectors_read") or 0, r.get("foreign_sectors_written") or 0
            fr, fw, nrec = fr + max(a, 0), fw + max(b, 0), nrec + (1 if a > 0 or b > 0 else 0)
    flags = {r[0]: r[1] for r in (tables.get("flags") or [[]])[1:]}
    if nrec:
        if [num(flags.get(k, "nan")) for k in ("foreign_io.sectors_read", "foreign_io.sectors_written",
                                                 "foreign_io.records")] != [fr, fw, nrec]:
            fail("flags: foreign I/O %r, records say %r" % (flags, (fr, fw, nrec)))
        ncheck += 3
    elif any(k.startswith("foreign_io") for k in flags):
        fail("flags: foreign I/O listed without any in the records")
    # probes: SLC levels, GC-recovery points and fit, OP variants
    for i, pr in enumerate(summary.get("slc_cache", [])):
        lv = plots.get("slc-curve-%d" % i, {}).get("detected levels")
        want = []
        for l in pr["levels"]:
            want += [(l["bytes_from"] / 1e9, l["mbps"]), (l["bytes_to"] / 1e9, l["mbps"])]
        if pr["levels"] and (not lv or len(lv[0]) != len(want) or
                             not all(close(a, b[0]) and close(c, b[1]) for a, c, b in zip(lv[0], lv[1], want))):
            fail("slc-curve-%d: the levels differ from slc_cache[%d].levels" % (i, i))
        ncheck += 1
    g = summary.get("gc_recovery")
    if g and g.get("points"):
        pl = plots.get("gc-recovery", {})
        pts = pl.get("recovered bytes per idle")
        if not pts or pts[1] != [float(p_["recovered_bytes"]) for p_ in g["points"]]:
            fail("gc-recovery: points differ from gc_recovery.points")
        fit = pl.get(g["model"])
        if g["model"] == "linear_capped" and fit:
            t0 = g["t0"] or 0
            for x, y in zip(*fit):
                want = 0 if x < t0 else min(g["r"] * (x - t0), g["rmax"])
                if not close(y, want) and abs(y - want) > 1e-6 * g["rmax"]:
                    fail("gc-recovery: the fitted curve at %g s is %g, the model gives %g" % (x, y, want))
                    break
        ncheck += 2
    for i, v in enumerate(summary.get("op_variants", [])):
        rows = tables.get("op_variants")
        r = rows[1 + i] if rows else None
        w = v.get("wa")
        w = w.get("wa") if isinstance(w, dict) else w
        if not r or not same(num(r[col(rows, "wa")]), w if w is not None else float("nan")):
            fail("op_variants[%d]: WA differs" % i)
        if v.get("greedy_model") and not same(num(r[col(rows, "model_wa")]), v["greedy_model"]["wa"]):
            fail("op_variants[%d]: model WA differs" % i)
        ncheck += 2
    # thermal phases
    th = (summary.get("thermal") or {}).get("phases") or []
    rows = tables.get("thermal")
    for i, e in enumerate(th):
        r = rows[1 + i] if rows and len(rows) > 1 + i else None
        if not r or not same(num(r[col(rows, "max_c")]), e["max_c"] if e.get("max_c") is not None else float("nan")) or \
                r[col(rows, "throttled")] != ("true" if e.get("throttled") else "false"):
            fail("thermal.phases[%d] differs from the thermal table" % i)
        ncheck += 2
    # WA per phase
    rows = tables.get("wa_phases")
    for i, e in enumerate(summary.get("wa", {}).get("phases", [])):
        if not rows:
            fail("no wa_phases table")
            break
        r = rows[1 + i]
        for key in ("host_bytes_written", "nand_bytes_written", "wa"):
            v = e.get(key)
            if (v is None and r[col(rows, key)] != "") or (v is not None and not same(num(r[col(rows, key)]), v)):
                fail("wa.phases[%d].%s: table %r, summary %r" % (i, key, r[col(rows, key)], v))
            ncheck += 1
    known = [e for e in summary.get("wa", {}).get("phases", []) if e.get("wa") is not None]
    if known:
        pl = plots.get("wa-phases", {})
        if pl.get("WA") != ([float(e["phase"]) for e in known], [float(e["wa"]) for e in known]):
            fail("wa-phases plot differs from wa.phases")
        lo = [float(e["interval"][0]) if e.get("interval") else float("nan") for e in known]
        if "interval low" not in pl or not all(same(a, b) for a, b in zip(lo, pl["interval low"][1])):
            fail("wa-phases: the interval's low ends differ from wa.phases[].interval")
        ncheck += 2
    # latency percentiles and their exceedance points
    rows = tables.get("latency_percentiles")
    exc = {}
    for pid, pl in plots.items():
        if pid.startswith("latency-exceedance-"):
            exc.update(pl)
    want = [("p50", .5), ("p90", .1), ("p95", .05), ("p99", .01), ("p99_9", 1e-3), ("p99_99", 1e-4), ("p99_999", 1e-5)]
    i = 0
    for e in summary.get("cells", []):
        for dname in ("read", "write"):
            lat = (e.get(dname) or {}).get("lat_ns")
            if not isinstance(lat, dict):
                continue
            r = rows[1 + i]
            i += 1
            for key in ("mean", "p50", "p99", "p99_999", "max"):
                if not same(num(r[col(rows, key + "_ns")]), lat[key]):
                    fail("cells %s %s %s: table %r, summary %r" % (e["phase"], e["cell"], key, r[col(rows, key + "_ns")], lat[key]))
                ncheck += 1
            name = "phase %d repeat %d %s %s" % (e["phase"], e["repeat"], e["cell"] or "-", dname)
            pts = [(float(lat[k]), q) for k, q in want if lat.get(k) is not None]
            if name not in exc or list(zip(*exc[name])) != pts:
                fail("exceedance points of %s differ from the percentiles" % name)
            ncheck += 1
    for f in fails:
        print("FAIL: %s: %s" % (d, f))
    print("%s: %d plots, %d tables, %d numbers checked against summary.json" % (d, len(p.svgs), len(p.tables), ncheck))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
