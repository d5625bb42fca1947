#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fast_ss: the proof of the fast steady state (issue 19, point 4; docs/fast-steady-state.md).

For every bundled virtual-SSD model (shrunk to 1 GiB, `represents` and the SLC cache shrunk by the
same factor so that a cell stays as long against the drive as on the bundled model) and for a grid
of client-tlc-like models (spare factor 0.07 / 0.12 / 0.28 x SLC cache 0 / 5 % / 15 % of the user
capacity), it runs on the virtual SSD:

  full   `ssdlab run snia-iops`       seeds 7 and 11 (the procedure's own reproducibility)
  fast   `ssdlab run snia-iops-fast`  seed 7 (and 11 unless --no-fast11)
  long   bench/fast_ss_longrun.yaml   seed 7: the drive's own random-write steady state (a 1x
                                      sequential fill, 5 capacities of RND 4 KiB, then 1 more)

all runs of a model at one --time-scale (the one the runner asks for when a cell is shorter than
its drain), at most --jobs models at a time, and reads the figures back from records.jsonl and
the snapshots with its own code (not ssdlab's reader or analysis): host bytes and target time to
the verdict and to the run's end, the tracked cell's steady-state IOPS (the SNIA rule recomputed
here), every matrix cell, p99 / p99.9 latency of the tracked cell (merged from the records'
histograms), WA from the counter snapshots. Where summary.json says the same thing, the two are
compared and a disagreement is listed under "checks" (and makes the exit status 1).

The virtual SSD's time is simulated and deterministic: every time here is target time; the
machine's wall time is neither measured nor reported.

Usage: bench/fast_ss.py [--build DIR] [--out DIR] [--quick] [--jobs 2] [--no-fast11]
                        [--only REGEX] [--min-gib 1|2|4] [--reuse] [--time-scale F]
Writes OUT/fast_ss.json (every figure) and OUT/fast_ss.md (the tables of the doc page).
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
GIB = 1 << 30
UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
TRACKED = "rwmix_read=0,bs=4k"
GOAL_TIME = 0.5   # drive time of the fast run at most this share of the full run's
GOAL_DIFF = 5.0   # every steady-state figure within this many percent
SNIA = {"window": 5, "data": 0.20, "slope": 0.10, "max_rounds": 25}  # snia-iops's steady_state block
GUARD_TOL = 0.07  # the WA guard's tolerance (analysis/wa_guard.h)
BUNDLED = ["client-tlc", "client-7op", "enterprise-28op", "idle-gc-aggressive", "no-idle-gc",
           "static-slc"]
GRID_SPARE = [0.07, 0.12, 0.28]
GRID_SLC = [0, 5, 15]  # percent of the user capacity
QUICK = ["client-tlc", "enterprise-28op", "grid-sf0.07-slc15"]


def size_bytes(text):
    m = re.fullmatch(r"([0-9.]+)([kmgt]?)", text.strip().lower())
    if not m:
        raise ValueError("not a size: %r" % text)
    return int(float(m.group(1)) * UNITS[m.group(2)])


def sub_line(text, key, value, indent=""):
    """Replace the value of `key:` at the given indent; the model must have the line."""
    pat = re.compile(r"^(%s%s:)[ \t]*[^#\n]*?([ \t]*#.*)?$" % (re.escape(indent), re.escape(key)),
                     re.M)
    if not pat.search(text):
        raise ValueError("model has no %s line" % key)
    return pat.sub(lambda m: "%s %s%s" % (m.group(1), value, m.group(2) or ""), text, count=1)


def get_line(text, key, indent=""):
    m = re.search(r"^%s%s:[ \t]*([^#\n]*)" % (re.escape(indent), re.escape(key)), text, re.M)
    return m.group(1).strip() if m else None


def drop_block(text, key):
    """Remove a top-level mapping `key:` and its indented lines."""
    out, skip = [], False
    for line in text.splitlines(keepends=True):
        if re.match(r"^%s:" % re.escape(key), line):
            skip = True
            continue
        if skip and (line.startswith(" ") or line.strip() == ""):
            continue
        skip = False
        out.append(line)
    return "".join(out)


def shrink(text, name, gib=1):
    """The model shrunk to `gib` GiB of user space: `represents` and the SLC cache by the same
    factor (run_lib.sh's shrink_model, for any model): the time scale, and so the share of the
    drive a cell writes, stays that of the bundled model."""
    cap = size_bytes(get_line(text, "user_capacity"))
    factor = gib * GIB / cap
    text = sub_line(text, "name", name)
    text = sub_line(text, "user_capacity", "%dg" % gib)
    text = sub_line(text, "represents", str(int(round(float(get_line(text, "represents")) * factor))))
    slc = get_line(text, "size", "  ")
    if slc is not None and re.search(r"^slc_cache:", text, re.M):
        mib = max(1, int(size_bytes(slc) * factor / (1 << 20)))  # 470m -> 117m as run_lib.sh
        text = sub_line(text, "size", "%dm" % mib, "  ")
    return text


def grid_model(base, name, spare, slc_pct, gib):
    """client-tlc shrunk to `gib` GiB, with another spare factor and SLC cache size."""
    text = shrink(base, name, gib)
    text = sub_line(text, "spare_factor", "%.2f" % spare)
    if slc_pct == 0:
        text = drop_block(text, "slc_cache")
    else:
        text = sub_line(text, "size", "%dm" % round(gib * GIB * slc_pct / 100 / (1 << 20)), "  ")
    return text


def models(quick):
    """(name, build) pairs: build(gib) is the model's text at that user capacity."""
    out = []
    for b in BUNDLED:
        with open(os.path.join(SRC, "profiles", "models", b + ".yaml")) as f:
            t = f.read()
        out.append((b, lambda g, t=t, b=b: shrink(t, "%s-%dg" % (b, g), g)))
    with open(os.path.join(SRC, "profiles", "models", "client-tlc.yaml")) as f:
        base = f.read()
    for sf in GRID_SPARE:
        for slc in GRID_SLC:
            n = "grid-sf%.2f-slc%d" % (sf, slc)
            out.append((n, lambda g, n=n, sf=sf, slc=slc: grid_model(base, n, sf, slc, g)))
    if quick:
        out = [m for m in out if m[0] in QUICK]
    return out


# --- running ---------------------------------------------------------------------------------

REFUSED = re.compile(r"refused: .*run with --time-scale ([0-9.e+]+) or more")
# The simulator refuses a model whose spare area cannot hold its GC reserve, open blocks and
# static SLC cache; at 1 GiB that happens to models with big blocks or many dies (the block
# count shrinks with the capacity, the reserve does not): they are run at 2 or 4 GiB instead.
TOO_SMALL = "the simulator cannot run this model"
SIZES_GIB = [1, 2, 4]


class ModelTooSmall(Exception):
    pass


def run_one(ssdlab, profile, model_path, out, seed, scale):
    """One run; returns None when done, the --time-scale the runner asks for when it refuses a
    cell as shorter than its drain; raises on any other failure."""
    subprocess.run(["rm", "-rf", out], check=True)
    cmd = [ssdlab, "run", profile, "--target", "sim:" + model_path, "--out", out, "--seed",
           str(seed), "--time-scale", repr(scale), "--quiet"]
    if profile.endswith("-fast"):
        # The benchmark measures the shortcut also where the profile refuses it (static SLC):
        # that is how the refusal was decided. The records say "forced".
        cmd += ["--set", "phases.1.precondition.force=true"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    with open(out + ".err", "w") as f:
        f.write(p.stderr)
    if p.returncode == 0:
        return None
    m = REFUSED.search(p.stderr)
    if m:
        return float(m.group(1))
    if TOO_SMALL in p.stderr:
        raise ModelTooSmall(p.stderr.strip())
    raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr[-500:]))


def run_model(ssdlab, outdir, name, build, fast11, scale0, reuse, min_gib):
    d = os.path.join(outdir, name)
    os.makedirs(d, exist_ok=True)
    mpath = os.path.join(d, "model.yaml")
    done = os.path.join(d, "done.json")
    if reuse and os.path.exists(done):
        # --reuse: the runs of an earlier invocation, read again (after a change of this script)
        with open(done) as f:
            res = json.load(f)
        res["runs"] = {t: analyze(os.path.join(d, t), t.rstrip("0123456789")) for t in res["tags"]}
        return res
    why = []
    for gib in [g for g in SIZES_GIB if g >= min_gib]:
        with open(mpath, "w") as f:
            f.write(build(gib))
        try:
            res = run_model_at(ssdlab, d, mpath, name, fast11, scale0)
        except ModelTooSmall as e:
            why.append("%d GiB: %s" % (gib, e))
            continue
        res["user_gib"] = gib
        res["smaller_refused"] = why
        with open(done, "w") as f:
            json.dump({k: v for k, v in res.items() if k != "runs"} | {"tags": list(res["runs"])}, f)
        return res
    raise RuntimeError("%s: the simulator refuses it at every size: %s" % (name, why))


def run_model_at(ssdlab, d, mpath, name, fast11, scale0):
    runs = [("full7", "snia-iops", 7), ("full11", "snia-iops", 11), ("fast7", "snia-iops-fast", 7)]
    if fast11:
        runs.append(("fast11", "snia-iops-fast", 11))
    runs.append(("long7", os.path.join(HERE, "fast_ss_longrun.yaml"), 7))
    scale = scale0
    while True:
        want = None
        for tag, prof, seed in runs:
            want = run_one(ssdlab, prof, mpath, os.path.join(d, tag), seed, scale)
            if want is not None:
                break
        if want is None:
            break
        if want <= scale:
            raise RuntimeError("%s: refused at --time-scale %g, asks for %g" % (name, scale, want))
        scale = want
    res = {"model": name, "time_scale": scale, "runs": {}}
    for tag, prof, _ in runs:
        kind = tag.rstrip("0123456789")
        res["runs"][tag] = analyze(os.path.join(d, tag), kind)
    return res


# --- reading a results directory (independently of ssdlab's reader) ---------------------------

def hist_bin_mid(b):
    """Middle of bin b of base/hist.h's layout: exact below 128 ns, then 64 linear buckets per
    power of two."""
    if b < 128:
        return float(b)
    j = b - 128
    k = 7 + j // 64
    width = 1 << (k - 6)
    low = (j % 64 + 64) * width
    return float(low + (width - 1) // 2)


def percentile(hists, p):
    """Nearest-rank percentile p of the merged histograms (bin middles, clamped to min/max)."""
    bins, count, lo, hi = {}, 0, None, None
    for h in hists:
        if not h or not h["count"]:
            continue
        count += h["count"]
        lo = h["min"] if lo is None else min(lo, h["min"])
        hi = h["max"] if hi is None else max(hi, h["max"])
        for b, c in h["bins"]:
            bins[b] = bins.get(b, 0) + c
    if not count:
        return None
    rank = max(1, -(-int(round(p * 1e6)) * count // int(100e6)))
    seen = 0
    for b in sorted(bins):
        seen += bins[b]
        if seen >= rank:
            return min(max(hist_bin_mid(b), lo), hi)
    return float(hi)


def snia_rule(series, short=None):
    """The first n at which the last 5 rounds pass SNIA's rule (data excursion <= 20 % of the
    window's average, slope excursion of the least-squares line <= 10 %) and the WA guard does not
    call round n short (short: a list of booleans, or None): (n, average) or None."""
    w = SNIA["window"]
    for n in range(w, len(series) + 1):
        if short and n <= len(short) and short[n - 1] and n < SNIA["max_rounds"]:
            continue
        y = series[n - w:n]
        avg = sum(y) / w
        xm = (w - 1) / 2.0
        slope = sum((i - xm) * (v - avg) for i, v in enumerate(y)) / sum((i - xm) ** 2 for i in range(w))
        if max(y) - min(y) <= SNIA["data"] * avg and abs(slope) * (w - 1) <= SNIA["slope"] * avg:
            return n, avg
    return None


def guard_rounds(d, phase, n):
    """The WA guard recomputed here: each tracking round's WA from the round snapshots (round 1
    from the phase's start snapshot) against 1 / (1 - alpha) of the manifest's sprandom fill;
    (expected, [(wa, short)]) or (None, []) when the run has no sprandom fill."""
    with open(os.path.join(d, "manifest.json")) as f:
        man = json.load(f)
    spr = [e for e in man.get("sprandom", []) if e["phase"] < phase and "inputs" in e]
    if not spr:
        return None, []
    expected = 1.0 / (1.0 - spr[-1]["inputs"]["alpha"])
    snaps = snapshots(d)
    prev = snaps.get("phase-%d-rounds-start" % phase)
    out = []
    for r in range(1, n + 1):
        cur = snaps.get("phase-%d-rounds-round-%d" % (phase, r))
        wa = None
        if prev and cur and cur[0] > prev[0]:
            wa = (cur[1] - prev[1]) / (cur[0] - prev[0])
        out.append((wa, wa is not None and wa < (1 - GUARD_TOL) * expected))
        prev = cur
    return expected, out


def snapshots(d):
    out = {}
    for f in sorted(os.listdir(os.path.join(d, "snapshots"))):
        with open(os.path.join(d, "snapshots", f)) as fh:
            s = json.load(fh)
        c = s["counters"]
        out[s["label"]] = (c["host_bytes_written"]["value"], c["nand_bytes_written"]["value"])
    return out


def phase_wa(snaps, phase, kind):
    a = snaps.get("phase-%d-%s-start" % (phase, kind))
    b = snaps.get("phase-%d-%s-end" % (phase, kind))
    if not a or not b or b[0] == a[0]:
        return None
    return (b[1] - a[1]) / (b[0] - a[0])


def close(a, b, rel=1e-6):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def analyze(d, kind):
    with open(os.path.join(d, "records.jsonl")) as f:
        recs = [json.loads(line) for line in f if line.strip()]
    recs = [r for r in recs if r["kind"] != "resume"]
    with open(os.path.join(d, "summary.json")) as f:
        summ = json.load(f)
    snaps = snapshots(d)
    checks = []
    out = {"dir": d, "checks": checks}
    out["end_ns"] = max(r["end_ns"] for r in recs)
    out["host_bytes"] = sum(r.get("bytes_written_total", 0) for r in recs)
    if out["host_bytes"] != summ["wa"]["run"]["host_bytes_written"]:
        checks.append("host bytes %d vs summary %d" % (out["host_bytes"],
                                                       summ["wa"]["run"]["host_bytes_written"]))
    rounds_phases = sorted({r["phase"] for r in recs if r["phase_kind"] == "rounds"})
    wu_phases = sorted({r["phase"] for r in recs if r["phase_kind"] == "write_until"})
    if kind == "long":
        last = wu_phases[-1]
        rs = [r for r in recs if r["phase"] == last]
        ios = sum(r["total"]["ios"] for r in rs)
        ns = sum(r["elapsed_ns"] for r in rs)
        out["iops"] = ios / (ns / 1e9)
        out["wa"] = phase_wa(snaps, last, "write_until")
        prev = [r for r in recs if r["phase"] == wu_phases[0]]
        out["iops_by_round"] = [r["total"]["iops"] for r in prev + rs]
        sw = [p for p in summ["wa"]["phases"] if p["phase"] == last]
        if not sw or not close(sw[0]["wa"], out["wa"]):
            checks.append("long-run WA %r vs summary %r" % (out["wa"], sw and sw[0]["wa"]))
        return out
    track_phase = rounds_phases[0]
    # The fast profile's tracking phase runs the tracked cell alone, under the same key.
    track_cell = TRACKED
    matrix_phase = rounds_phases[-1]
    tr = sorted((r for r in recs if r["phase"] == track_phase and r["cell"] == track_cell),
                key=lambda r: r["round"])
    series = [r["total"]["iops"] for r in tr]
    out["tracked_series"] = series
    expected, guard = guard_rounds(d, track_phase, len(series)) if kind == "fast" else (None, [])
    out["guard"] = {"expected": expected, "wa": [g[0] for g in guard],
                    "short": [g[1] for g in guard]}
    rule = snia_rule(series, [g[1] for g in guard])
    out["snia_unguarded"] = snia_rule(series)
    sg = [t for t in summ["steady_state"] if t["phase"] == track_phase]
    sg = (sg[0].get("wa_guard") or {}) if sg else {}
    out["guard"]["summary_outcome"] = sg.get("outcome")
    if guard:
        mine = ["short" if g[1] else ("ok" if g[0] is not None else "unavailable") for g in guard]
        theirs = [x["verdict"] for x in sg.get("rounds") or []]
        if mine != theirs:
            checks.append("WA guard here %r vs summary %r" % (mine, theirs))
        for g, x in zip(guard, sg.get("rounds") or []):
            if g[0] is not None and not close(g[0], x.get("wa"), 1e-9):
                checks.append("WA guard round WA %r vs summary %r" % (g[0], x.get("wa")))
                break
    ss = [s for s in summ["steady_state"] if s["phase"] == track_phase]
    ss = ss[0] if ss else {}
    early = {}
    for h in summ.get("headline", {}).get("steady_state", []):
        if h.get("phase") == track_phase:
            early = h.get("early") or {}
    out["snia"] = {"reached": rule is not None, "round": rule[0] if rule else None,
                   "summary_verdict": ss.get("verdict")}
    out["early"] = {"verdict": early.get("verdict"), "round": early.get("round"),
                    "stopped_run": early.get("stopped_run")}
    if (rule is not None) != bool(ss.get("reached")) or (rule and rule[0] != ss.get("last_round")):
        checks.append("SNIA rule here %r vs summary %r/%r" % (rule, ss.get("verdict"),
                                                             ss.get("last_round")))
    # The window the figures are taken over: the SNIA window; after an early stop the rounds run
    # of the window the early verdict predicted (its bounds from summary.json, the average
    # recomputed here); else the last rounds.
    last = rule[0] if rule else len(series)
    first = max(1, last - SNIA["window"] + 1)
    if not rule and early.get("verdict") == "predicted" and early.get("window_first_round"):
        first = early["window_first_round"]
        last = min(early["window_last_round"], len(series))
    out["window"] = [first, last]
    win = [r for r in tr if first <= r["round"] <= last]
    out["tracked_iops"] = sum(r["total"]["iops"] for r in win) / len(win)
    if rule and not close(rule[1], ss.get("average"), 1e-9):
        checks.append("tracked average %r vs summary %r" % (rule[1], ss.get("average")))
    if not rule and early.get("observed_average") is not None and \
            not close(out["tracked_iops"], early["observed_average"], 1e-9):
        checks.append("early window average %r vs summary %r" % (out["tracked_iops"],
                                                                early["observed_average"]))
    hists = [r["write"]["hist"] for r in win]
    out["p99_ns"] = percentile(hists, 99.0)
    out["p99_9_ns"] = percentile(hists, 99.9)
    cellsum = [c for c in summ["cells"] if c["phase"] == track_phase and c["cell"] == track_cell]
    if cellsum and cellsum[0].get("first_round") == first and cellsum[0].get("last_round") == last:
        lat = cellsum[0]["write"]["lat_ns"]
        if not close(lat["p99"], out["p99_ns"], 1e-9) or not close(lat["p99_9"], out["p99_9_ns"], 1e-9):
            checks.append("tracked p99/p99.9 %r/%r vs summary %r/%r" % (
                out["p99_ns"], out["p99_9_ns"], lat["p99"], lat["p99_9"]))
    # Drive time and host bytes to the verdict: the tracking phase ends at the verdict (the SNIA
    # window or the early verdict stops it; in snia-iops the matrix rounds are the tracking).
    out["verdict_ns"] = max(r["end_ns"] for r in recs if r["phase"] == track_phase)
    out["verdict_bytes"] = sum(r.get("bytes_written_total", 0) for r in recs
                               if r["end_ns"] <= out["verdict_ns"])
    mrecs = [r for r in recs if r["phase"] == matrix_phase and r["cell"] != "all"]
    if kind == "full":
        mrecs = [r for r in mrecs if first <= r["round"] <= last]
    else:
        # The fast run's figures: the matrix rounds after the first (its first round rebuilds
        # the layout the fill left at 4 KiB); the bounds from summary.json's fast block, the
        # figures recomputed here.
        fb = [b for b in summ.get("snia", []) if b.get("window", {}).get("over") == "fast_matrix_rounds"]
        if not fb:
            checks.append("no fast block (window over fast_matrix_rounds) in summary.json")
        else:
            lo, hi = fb[0]["window"]["first_round"], fb[0]["window"]["last_round"]
            out["matrix_window"] = [lo, hi]
            mrecs = [r for r in mrecs if lo <= r["round"] <= hi]
    cells = {}
    for r in mrecs:
        # A cell the target cannot run (512 B on a 4Kn drive) has no IOPS: left out.
        if r["total"].get("iops") is not None:
            cells.setdefault(r["cell"], {})[r["round"]] = r["total"]["iops"]
    out["matrix"] = {c: sum(v.values()) / len(v) for c, v in cells.items()}
    out["matrix_by_round"] = {c: [v[k] for k in sorted(v)] for c, v in cells.items()}
    if kind == "full" and first == 1 and last > 1:
        # The same window without round 1 (the read-layout artifact of the 2x SEQ fill).
        out["matrix_no_r1"] = {c: sum(x for k, x in v.items() if k > 1) / (len(v) - 1)
                               for c, v in cells.items()}
    for blk in summ.get("snia", []):
        if blk.get("phase") != matrix_phase and \
                blk.get("window", {}).get("over") != "fast_matrix_rounds":
            continue
        for c in blk.get("matrix", []):
            if c["cell"] in out["matrix"] and c.get("iops") is not None and \
                    not close(c["iops"], out["matrix"][c["cell"]], 1e-9):
                checks.append("cell %s %r vs summary %r" % (c["cell"], out["matrix"][c["cell"]],
                                                           c["iops"]))
    out["wa_track"] = phase_wa(snaps, track_phase, "rounds")
    out["wa_matrix"] = phase_wa(snaps, matrix_phase, "rounds")
    for p in summ["wa"]["phases"]:
        if p["phase"] in (track_phase, matrix_phase):
            mine = out["wa_track"] if p["phase"] == track_phase else out["wa_matrix"]
            if not close(p["wa"], mine):
                checks.append("phase %d WA %r vs summary %r" % (p["phase"], mine, p["wa"]))
    return out


# --- comparing -------------------------------------------------------------------------------

def pct(a, b):
    if a is None or b is None or b == 0:
        return None
    return (a - b) / b * 100.0


def compare(res):
    R = res["runs"]
    full, full2, fast = R["full7"], R["full11"], R["fast7"]
    fast2, long_ = R.get("fast11"), R["long7"]
    c = {}
    c["time_ratio_end"] = fast["end_ns"] / full["end_ns"]
    c["time_ratio_verdict"] = fast["verdict_ns"] / full["verdict_ns"]
    c["bytes_ratio_end"] = fast["host_bytes"] / full["host_bytes"]
    c["bytes_ratio_verdict"] = fast["verdict_bytes"] / full["verdict_bytes"]
    c["tracked_fast"] = pct(fast["tracked_iops"], full["tracked_iops"])
    c["tracked_full11"] = pct(full2["tracked_iops"], full["tracked_iops"])
    c["tracked_fast11"] = pct(fast2["tracked_iops"], full["tracked_iops"]) if fast2 else None
    c["tracked_fast_vs_long"] = pct(fast["tracked_iops"], long_["iops"])
    c["tracked_full_vs_long"] = pct(full["tracked_iops"], long_["iops"])
    both = [k for k in full["matrix"] if k in fast["matrix"]]
    cd = {k: pct(fast["matrix"][k], full["matrix"][k]) for k in both}
    cf = {k: pct(full2["matrix"].get(k), full["matrix"][k]) for k in both}
    c["cells_compared"] = len(both)
    c["cells"] = {k: {"fast": cd[k], "full11": cf[k]} for k in cd}
    c["cells_over5_fast"] = sum(1 for v in cd.values() if abs(v) > GOAL_DIFF)
    c["cells_over5_full11"] = sum(1 for v in cf.values() if v is not None and abs(v) > GOAL_DIFF)
    c["cells_over5_fast_beyond_noise"] = sum(
        1 for k in cd if abs(cd[k]) > GOAL_DIFF and abs(cd[k]) > abs(cf[k] or 0))
    c["worst_cell_fast"] = max(cd, key=lambda k: abs(cd[k]))
    c["worst_cell_fast_diff"] = cd[c["worst_cell_fast"]]
    c["worst_cell_full11_diff"] = max((abs(v) for v in cf.values() if v is not None), default=None)
    if "matrix_no_r1" in full:
        cr = {k: pct(fast["matrix"][k], full["matrix_no_r1"][k]) for k in cd}
        c["cells_over5_fast_vs_r2on"] = sum(1 for v in cr.values() if abs(v) > GOAL_DIFF)
        c["worst_cell_fast_vs_r2on"] = max(cr.values(), key=abs)
    c["p99_fast"] = pct(fast["p99_ns"], full["p99_ns"])
    c["p99_full11"] = pct(full2["p99_ns"], full["p99_ns"])
    c["p99_9_fast"] = pct(fast["p99_9_ns"], full["p99_9_ns"])
    c["p99_9_full11"] = pct(full2["p99_9_ns"], full["p99_9_ns"])
    # WA: the fast run's tracking phase is pure RND 4 KiB writes, the full run's is the matrix;
    # the like-for-like figure is the matrix phase of both.
    c["wa_matrix_fast"] = pct(fast["wa_matrix"], full["wa_matrix"])
    c["wa_matrix_full11"] = pct(full2["wa_matrix"], full["wa_matrix"])
    c["wa_track_fast_vs_long"] = pct(fast["wa_track"], long_["wa"])
    c["matrix4k_fast"] = pct(fast["matrix"].get(TRACKED), full["matrix"].get(TRACKED))
    fast_ss = fast["snia"]["reached"] or fast["early"]["verdict"] == "predicted"
    c["false_ss"] = fast_ss and not full["snia"]["reached"]
    # A steady state the drive does not hold: the fast verdict's level is more than 5 % from the
    # long run's while the full run's is within 5 % of it (the full procedure got it right).
    c["false_level"] = fast_ss and abs(c["tracked_fast_vs_long"]) > GOAL_DIFF and \
        abs(c["tracked_full_vs_long"]) <= GOAL_DIFF
    c["goal"] = {
        "time": c["time_ratio_end"] <= GOAL_TIME,
        "tracked": abs(c["tracked_fast"]) <= GOAL_DIFF,
        "cells": c["cells_over5_fast"] == 0,
        "latency": abs(c["p99_fast"]) <= GOAL_DIFF and abs(c["p99_9_fast"]) <= GOAL_DIFF,
        "wa": abs(c["wa_matrix_fast"]) <= GOAL_DIFF,
        "verdict": not c["false_ss"] and not c["false_level"],
    }
    c["goal_pass"] = all(c["goal"].values())
    return c


def f(v, fmt="%+.1f"):
    return "-" if v is None else fmt % v


def markdown(results, head):
    L = [head, ""]
    L.append("Table 1: drive time (target clock) and host bytes, fast / full (seed 7). `end`: the "
             "whole run (the fast one with its 2 matrix rounds); `verdict`: the end of the "
             "tracking phase.")
    L.append("")
    L.append("| model | GiB | scale | full end | fast end | time end | time verdict | bytes end | "
             "bytes verdict | SNIA full 7/11 | fast SNIA / early |")
    L.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in results:
        R, c = r["runs"], r["cmp"]
        fv = R["fast7"]
        L.append("| %s | %d | %g | %.0f s | %.0f s | %.2f | %.2f | %.2f | %.2f | %s / %s | %s / %s |" % (
            r["model"], r["user_gib"], r["time_scale"], R["full7"]["end_ns"] / 1e9, fv["end_ns"] / 1e9,
            c["time_ratio_end"], c["time_ratio_verdict"], c["bytes_ratio_end"],
            c["bytes_ratio_verdict"],
            "r%s" % R["full7"]["snia"]["round"] if R["full7"]["snia"]["reached"] else "no",
            "r%s" % R["full11"]["snia"]["round"] if R["full11"]["snia"]["reached"] else "no",
            "r%s" % fv["snia"]["round"] if fv["snia"]["reached"] else "no",
            (fv["early"]["verdict"] or "-") + (" r%s" % fv["early"]["round"] if fv["early"]["round"] else "")))
    L.append("")
    L.append("Table 2: steady-state figures. IOPS of the tracked cell (RND 4 KiB writes) and the "
             "long run's last capacity; differences in % against full seed 7, the fast run's "
             "next to the second full run's (the procedure's own spread).")
    L.append("")
    L.append("| model | full7 IOPS | long IOPS | fast vs full | full11 vs full | fast11 vs full | "
             "fast vs long | full vs long | fast matrix 4k write vs full | cells >5%: fast / "
             "full11 / fast beyond spread (of n) | worst cell fast (worst full11) | fast vs full "
             "r2+: >5% / worst |")
    L.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in results:
        R, c = r["runs"], r["cmp"]
        L.append("| %s | %.0f | %.0f | %s | %s | %s | %s | %s | %s | %d / %d / %d (%d) | %s %s (%s) "
                 "| %s / %s |" % (
            r["model"], R["full7"]["tracked_iops"], R["long7"]["iops"], f(c["tracked_fast"]),
            f(c["tracked_full11"]), f(c["tracked_fast11"]), f(c["tracked_fast_vs_long"]),
            f(c["tracked_full_vs_long"]), f(c["matrix4k_fast"]), c["cells_over5_fast"],
            c["cells_over5_full11"], c["cells_over5_fast_beyond_noise"], c["cells_compared"],
            c["worst_cell_fast"].replace("rwmix_read=", "r").replace(",bs=", "/"),
            f(c["worst_cell_fast_diff"]),
            f(c["worst_cell_full11_diff"], "%.1f"), c.get("cells_over5_fast_vs_r2on", "-"),
            f(c.get("worst_cell_fast_vs_r2on"))))
    L.append("")
    L.append("Table 3: latency of the tracked cell (p99, p99.9, ms, full seed 7; differences in %) "
             "and WA (the matrix phase of each run; the fast tracking phase against the long "
             "run's last capacity).")
    L.append("")
    L.append("| model | p99 full | p99 fast / full11 | p99.9 full | p99.9 fast / full11 | WA matrix "
             "full | fast / full11 | WA 4k fast track | WA long | goal |")
    L.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in results:
        R, c = r["runs"], r["cmp"]
        bad = [k for k, v in c["goal"].items() if not v]
        L.append("| %s | %.1f | %s / %s | %.1f | %s / %s | %.2f | %s / %s | %.2f | %.2f | %s |" % (
            r["model"], R["full7"]["p99_ns"] / 1e6, f(c["p99_fast"]), f(c["p99_full11"]),
            R["full7"]["p99_9_ns"] / 1e6, f(c["p99_9_fast"]), f(c["p99_9_full11"]),
            R["full7"]["wa_matrix"], f(c["wa_matrix_fast"]), f(c["wa_matrix_full11"]),
            R["fast7"]["wa_track"], R["long7"]["wa"],
            "pass" if not bad else "fail: " + ", ".join(bad)))
    L.append("")
    L.append("Table 4: the WA guard (analysis/wa_guard.h) in the fast runs, recomputed here from the "
             "round snapshots: expected WA 1 / (1 - alpha) of the sprandom fill, the tracking rounds' "
             "WA shortfall (1 - WA / expected, %%; > %g %% is short), the SNIA round without and with "
             "the guard, the fast run's stop and its tracked level against the long run." % (100 * GUARD_TOL))
    L.append("")
    L.append("| model | run | expected WA | WA long vs expected | shortfall r1 / r2 / last | "
             "SNIA round unguarded / guarded | stop (summary) | fast vs long | fast vs full |")
    L.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in results:
        R, c = r["runs"], r["cmp"]
        for tag in ("fast7", "fast11"):
            fv = R.get(tag)
            if not fv or not fv["guard"]["expected"]:
                continue
            g, e = fv["guard"], fv["guard"]["expected"]
            sf = [None if w is None else 100 * (1 - w / e) for w in g["wa"]]
            un = fv["snia_unguarded"]
            L.append("| %s | %s | %.2f | %s | %s / %s / %s | %s / %s | %s | %s | %s |" % (
                r["model"], tag, e, f(pct(R["long7"]["wa"], e)),
                f(sf[0] if sf else None), f(sf[1] if len(sf) > 1 else None),
                f(sf[-1] if sf else None),
                "r%d" % un[0] if un else "no",
                "r%d" % fv["snia"]["round"] if fv["snia"]["reached"] else "no",
                "%s r%d, %s" % ("early" if fv["early"]["stopped_run"] else "snia" if fv["snia"]["reached"] else "none",
                                len(fv["tracked_series"]), g["summary_outcome"]),
                f(pct(fv["tracked_iops"], R["long7"]["iops"])),
                f(pct(fv["tracked_iops"], R["full7"]["tracked_iops"]))))
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(SRC, "build"))
    ap.add_argument("--out", help="results and tables (default: BUILD/fast_ss.out, out of the tree)")
    ap.add_argument("--quick", action="store_true", help="3 models: " + ", ".join(QUICK))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-fast11", action="store_true", help="skip the fast run with seed 11")
    ap.add_argument("--only", help="a regular expression on the model names")
    ap.add_argument("--min-gib", type=int, default=1, choices=SIZES_GIB,
                    help="the smallest user capacity tried (a shrink check: the bundled 4 GiB)")
    ap.add_argument("--reuse", action="store_true",
                    help="read the runs an earlier invocation left in --out again instead of running")
    ap.add_argument("--time-scale", type=float, default=1.0,
                    help="first --time-scale tried (raised per model when the runner asks)")
    a = ap.parse_args()
    ssdlab = os.environ.get("SSDLAB", os.path.join(a.build, "suite", "ssdlab"))
    a.out = a.out or os.path.join(a.build, "fast_ss.out")
    os.makedirs(a.out, exist_ok=True)
    ms = models(a.quick)
    if a.only:
        ms = [m for m in ms if re.search(a.only, m[0])]
    results, failed = [], []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = {ex.submit(run_model, ssdlab, os.path.abspath(a.out), n, b, not a.no_fast11,
                          a.time_scale, a.reuse, a.min_gib): n for n, b in ms}
        for fu in concurrent.futures.as_completed(futs):
            try:
                r = fu.result()
            except Exception as e:  # one model's failure is reported, the others still run
                failed.append({"model": futs[fu], "error": str(e)})
                print("%-22s FAILED: %s" % (futs[fu], e), file=sys.stderr, flush=True)
                continue
            r["cmp"] = compare(r)
            results.append(r)
            print("%-22s %d GiB scale %-5g time %.2f tracked %+.1f%% cells>5%% %d goal %s" % (
                r["model"], r["user_gib"], r["time_scale"], r["cmp"]["time_ratio_end"],
                r["cmp"]["tracked_fast"], r["cmp"]["cells_over5_fast"],
                "pass" if r["cmp"]["goal_pass"] else "fail"), flush=True)
    order = [n for n, _ in ms]
    results.sort(key=lambda r: order.index(r["model"]))
    checks = [(r["model"], t, x) for r in results for t, run in r["runs"].items()
              for x in run["checks"]]
    commit = subprocess.run(["git", "-C", SRC, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    head = "Made by `bench/fast_ss.py%s` at commit %s." % (
        " --quick" if a.quick else "", commit or "?")
    with open(os.path.join(a.out, "fast_ss.json"), "w") as fh:
        json.dump({"schema": 1, "commit": commit, "quick": a.quick, "goal_time": GOAL_TIME,
                   "goal_diff_pct": GOAL_DIFF, "models": results, "failed": failed,
                   "checks": checks}, fh, indent=1)
    with open(os.path.join(a.out, "fast_ss.md"), "w") as fh:
        fh.write(markdown(results, head))
    for m, t, x in checks:
        print("check %s %s: %s" % (m, t, x), file=sys.stderr)
    print("wrote %s/fast_ss.json and fast_ss.md" % a.out)
    return 1 if checks or failed else 0


if __name__ == "__main__":
    sys.exit(main())
