# SPDX-License-Identifier: MIT
"""snia_blocks_check: recomputes summary.json's "snia" blocks from records.jsonl and compares.

Usage: snia_blocks_check.py RESULTS_DIR [EXPECTED_TEST ...]

Independent of ssdlab's analysis: it merges histogram bins itself (the bin layout of
docs/results-format.md), takes nearest-rank percentiles itself, averages round windows itself,
applies the WSAT rule as docs/results-format.md states it, and writes the spec's loop orders out
by hand (SNIA PTS-E 1.1). Every number of every block is compared (to 1e-9 relative). Also used
by headline_check.py (recompute()) for the SNIA headline lines. Exit 0 when all holds, 1 with
the reasons on stderr.
"""
import json
import math
import os
import sys
from fractions import Fraction

# SNIA PTS-E 1.1 loops, outer R/W mix (% read), inner block size, written out from the spec.
IOPS_MIX = [100, 95, 65, 50, 35, 5, 0]
IOPS_BS = [1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512]
LAT_MIX = [100, 65, 0]
LAT_BS = [512, 4096, 8192]
WSAT_RULE = ("plateau: median IOPS of the chunks ending within the first 0.5x capacity; drop: "
             "the first chunk more than 10% below the plateau with the next 2 chunks also below; "
             "steady: I/Os over time of the chunks starting in the last 1x capacity written (the "
             "last chunk when none does)")
PCTS = [("p99", "99"), ("p99_9", "99.9"), ("p99_99", "99.99"), ("p99_999", "99.999")]
SIZES = {"k": 1024, "m": 1 << 20, "g": 1 << 30}


def test_of(manifest):
    pts = manifest.get("pts")
    if isinstance(pts, dict) and pts.get("test") in ("iops", "throughput", "latency", "wsat", "xsr"):
        return pts["test"], pts
    name = manifest["profile"]["name"]
    if name == "wsat":
        return "wsat", None
    for t in ("iops", "throughput", "latency", "wsat", "xsr"):
        if name == "snia-" + t or name.startswith("snia-" + t + "-"):
            return t, None
    return None, None


def coords(cell):
    c = {}
    for part in cell.split(",") if cell else []:
        k, v = part.split("=")
        if k == "rwmix_read":
            c[k] = int(v)
        elif k == "bs":
            c[k] = int(v[:-1]) * SIZES[v[-1]] if v[-1] in SIZES else int(v)
        elif k == "rw":
            c[k] = v
    return c


# ---- the histogram layout (base/hist.h: 7 sub-bits, exact below 128 ns) ----
def bin_low(b):
    if b < 128:
        return b
    j = b - 128
    k = 7 + j // 64
    return (j % 64 + 64) << (k - 6)


def bin_high(b):
    if b < 128:
        return b
    k = 7 + (b - 128) // 64
    return bin_low(b) + (1 << (k - 6)) - 1


def merge(hists):
    m = {"count": 0, "sum": 0.0, "min": None, "max": 0, "bins": {}}
    for h in hists:
        if not h["count"]:
            continue
        m["count"] += h["count"]
        m["sum"] += h["sum"]
        m["min"] = h["min"] if m["min"] is None else min(m["min"], h["min"])
        m["max"] = max(m["max"], h["max"])
        for b, n in h["bins"]:
            m["bins"][b] = m["bins"].get(b, 0) + n
    return m


def percentile(m, p):
    """Nearest rank: the ceil(p/100 * N)-th sample; the middle of its bin within [min, max]."""
    n = m["count"]
    rank = max(1, math.ceil(Fraction(p) * n / 100))
    seen = 0
    for b in sorted(m["bins"]):
        seen += m["bins"][b]
        if seen >= rank:
            lo, hi = bin_low(b), bin_high(b)
            v = lo + (hi - lo) // 2
            return min(max(v, m["min"]), m["max"]), rank
    raise ValueError("bins sum below count")


# ---- the blocks ----
def window_of(summary, recs, phase, repeat):
    for s in summary["steady_state"]:
        if s["phase"] == phase and s["repeat"] == repeat:
            if s.get("verdict") in ("reached", "not_reached"):
                return s["first_round"], s["last_round"], "steady_state_window", s
            rounds = [r["round"] for r in recs if r["kind"] == "cell" and r["phase"] == phase
                      and r["repeat"] == repeat]
            w = s.get("params", {}).get("window", 5)
            return max(min(rounds), max(rounds) - w + 1), max(rounds), "last_rounds", s
    rounds = [r["round"] for r in recs if r["kind"] == "cell" and r["phase"] == phase and
              r["repeat"] == repeat]
    return max(min(rounds), max(rounds) - 4), max(rounds), "last_rounds", None


def header_of(manifest, recs, pts, phase):
    h = {"profile": manifest["profile"]["name"], "test_from": "manifest" if pts else "profile_name"}
    for k in ("spec", "variant", "active_range", "active_range_amount", "write_cache",
              "data_pattern", "toio"):
        h[k] = pts.get(k) if pts else "not recorded"
    purges = [r for r in recs if r["kind"] == "purge" and r["phase"] < phase]
    if purges:
        p = purges[-1]
        h["purge"] = {"phase": p["phase"], "method": p.get("method"),
                      "pts_purge": p["pts_purge"] if "pts_purge" in p else "not recorded"}
    else:
        h["purge"] = "none"
    t = manifest["target"]
    h["drive"] = {k: t.get(k) for k in ("kind", "model", "serial", "wwn", "firmware", "capacity",
                                        "logical_block_size", "physical_block_size", "rotational")}
    if t.get("drive") is not None:
        h["drive"]["identity"] = t["drive"]
    return h


def fast_header(manifest, recs, tphase, mphase, ss):
    """header.fast of a *-fast profile's block (pts.fast): the phases it joins and the method."""
    pre = [p for i, p in enumerate(manifest["plan"]["phases"])
           if i < tphase and p["kind"] == "precondition"]
    method = "not recorded"
    if pre:
        method = pre[-1].get("settings", {}).get("method") or "sequential"
    tr = max(r["round"] for r in recs if r["kind"] == "cell" and r["phase"] == tphase)
    mr = [r["round"] for r in recs if r["kind"] == "cell" and r["phase"] == mphase]
    mlo, mhi = min(mr), max(mr)
    flo = mlo + 1 if mhi > mlo else mlo
    stopped = bool(ss and isinstance(ss.get("early"), dict) and ss["early"].get("stopped_run") is True)
    # the last sprandom fill before the tracking phase, when forced past its refusal
    fills = [s["inputs"] for s in manifest.get("sprandom", [])
             if s["phase"] < tphase and isinstance(s.get("inputs"), dict)]
    forced = None
    if fills and fills[-1].get("forced") is True:
        forced = fills[-1].get("forced_past") or "reason not recorded"
    text = ("fast run, not a PTS run: %s precondition, %d tracking round%s of the tracked cell "
            "(phase %d), %d matrix round%s (phase %d), figures from matrix %s%s%s"
            % (method, tr, "" if tr == 1 else "s", tphase, mhi - mlo + 1, "s" if mhi > mlo else "",
               mphase, ("round %d" % mhi) if flo == mhi else ("rounds %d-%d" % (flo, mhi)),
               "; SNIA window not completed" if stopped else "",
               ("; the fill was forced past its refusal: " + forced) if forced else ""))
    h = {"text": text, "precondition": method, "tracking_phase": tphase, "tracking_rounds": tr,
         "matrix_phase": mphase, "matrix_rounds": mhi - mlo + 1,
         "snia_window_completed": not stopped}
    if forced:
        h["forced_past"] = forced
    return h


def two_states(d, mphase):
    """The virtual SSD's model as a snapshot of the matrix phase records it: write cache off,
    no power-loss protection, a dynamic SLC cache (pass_snia_fast.c's caveat); None where no
    snapshot of the phase records all three (not known: no key)."""
    sd = os.path.join(d, "snapshots")
    for name in sorted(os.listdir(sd)) if os.path.isdir(sd) else []:
        sn = json.load(open(os.path.join(sd, name)))
        raw = sn.get("raw") or {}
        if sn.get("phase") != mphase or not all(
                isinstance(raw.get(k), bool) for k in ("write_cache", "power_loss_protection", "slc_dynamic")):
            continue
        return not raw["write_cache"] and not raw["power_loss_protection"] and raw["slc_dynamic"]
    return None


def fast_rounds_check(manifest, recs, tphase, mphase, mrep, ss, block, d):
    """A fast block's check of its matrix rounds (analysis/pass_snia_fast.c), by its own
    arithmetic: every row of at most the sprandom fill's unit gets fast_rounds (its IOPS in each
    matrix round; SNIA's data and slope excursions over all of them as fractions of their mean,
    against the tracking entry's limits), header.fast the rounds_check summary."""
    from ss_early_rule import linfit, within
    unit = 0
    for sp in manifest.get("sprandom") or []:
        if sp.get("phase", 1 << 30) < tphase and (sp.get("inputs") or {}).get("bs", 0) > 0:
            unit = sp["inputs"]["bs"]
    par = (ss or {}).get("params") or {}
    dlim, slim = par.get("max_data_excursion", 0.2), par.get("max_slope_excursion", 0.1)
    mr = sorted({r["round"] for r in recs if r["kind"] == "cell" and r["phase"] == mphase
                 and r["repeat"] == mrep})
    lo, hi = mr[0], mr[-1]
    n = hi - lo + 1
    rows = block.get("matrix", block.get("table", []))
    checked, bad, why = 0, [], None
    if n < 2:
        why = "one matrix round"
    elif not unit:
        why = "no sprandom fill recorded before the tracking phase"
    for row in rows if why is None else []:
        if "not_applicable" in row or not row.get("bs") or row["bs"] > unit:
            continue
        y = {r["round"]: (r["read"]["ios"] + r["write"]["ios"]) * 1e9 / r["elapsed_ns"]
             for r in recs if r["kind"] == "cell" and r["phase"] == mphase and
             r["repeat"] == mrep and r["cell"] == row["cell"]}
        if sorted(y) != list(range(lo, hi + 1)):
            continue
        ys = [y[k] for k in range(lo, hi + 1)]
        avg = sum(ys) / n
        slope = linfit(list(range(lo, hi + 1)), ys)[0]
        dx, sx = max(ys) - min(ys), abs(slope) * (n - 1)
        steady = within(dx, dlim * avg) and within(sx, slim * avg)
        row["fast_rounds"] = {"rounds": list(range(lo, hi + 1)), "values": ys,
                              "data_excursion": dx / avg, "slope_excursion": sx / avg,
                              "steady": steady}
        checked += 1
        if not steady:
            bad.append((row["cell"], ys))
    if why is None and not checked:
        why = "no cell of at most the fill's unit"
    u = "%d KiB" % (unit // 1024) if unit and unit % 1024 == 0 else "%d B" % unit
    if why:
        text = "not checked: " + why
    elif not bad:
        text = ("the %d cell%s of at most %s %s steady over matrix rounds %d-%d by SNIA's rule"
                % (checked, "" if checked == 1 else "s", u, "is" if checked == 1 else "are", lo, hi))
    else:
        named = "; ".join("%s IOPS %s" % (c, " / ".join("%.0f" % v for v in ys)) for c, ys in bad[:4])
        if len(bad) > 4:
            named += "; %d more" % (len(bad) - 4)
        text = ("%d of %d cells of at most %s not steady over matrix rounds %d-%d by SNIA's rule "
                "(%s): their figures are one round's, not a steady state"
                % (len(bad), checked, u, lo, hi, named))
    two = two_states(d, mphase)
    if two is True:
        text += ("; write cache off on a dynamic SLC cache without power-loss protection: a cell "
                 "can run in two states, and both rounds may hold the same one")
    rc = {"unit_bytes": unit or None, "max_data_excursion": dlim, "max_slope_excursion": slim,
          "checked": checked, "unsteady": [c for c, _ in bad], "text": text}
    if two is not None:
        rc["two_states"] = two
    block["header"]["fast"]["rounds_check"] = rc


def rounds_block(test, summary, recs, phase, repeat, fast_ss=None):
    if fast_ss is not None:
        # a *-fast block: the matrix phase's rounds after the first; the tracking phase's entry
        ss = fast_ss or None
        mr = [r["round"] for r in recs if r["kind"] == "cell" and r["phase"] == phase and
              r["repeat"] == repeat]
        lo, hi, over = min(mr) + (1 if max(mr) > min(mr) else 0), max(mr), "fast_matrix_rounds"
    else:
        lo, hi, over, ss = window_of(summary, recs, phase, repeat)
    b = {"window": {"first_round": lo, "last_round": hi, "over": over}}
    rs = [r for r in recs if r["kind"] == "cell" and r["phase"] == phase and r["repeat"] == repeat]
    cells = []
    for r in rs:
        if r["cell"] not in cells:
            cells.append(r["cell"])
    na = {c["cell"]: c["not_applicable"] for c in summary["cells"]
          if c["kind"] == "cell" and c["phase"] == phase and c["repeat"] == repeat and
          c.get("not_applicable")}
    # A cell the device cannot do may have no measurement: its row comes after the measured.
    cells += [c for c in na if c not in cells]
    mixes, sizes = (IOPS_MIX, IOPS_BS) if test == "iops" else (LAT_MIX, LAT_BS)

    def order(cell):
        c = coords(cell)
        if test in ("iops", "latency") and c.get("rwmix_read") in mixes and c.get("bs") in sizes:
            return mixes.index(c["rwmix_read"]) * len(sizes) + sizes.index(c["bs"])
        return 1 << 20
    seen = list(cells)
    cells.sort(key=lambda c: (order(c), seen.index(c)))
    rows, track = [], []
    for cell in cells:
        row = dict(coords(cell))
        row["cell"] = cell
        if cell in na:
            row["not_applicable"] = na[cell]
            rows.append(row)
            continue
        mine = [r for r in rs if r["cell"] == cell]
        win = [r for r in mine if lo <= r["round"] <= hi]
        if test == "latency":
            m = merge([r[d]["hist"] for r in win for d in ("read", "write")])
            row.update({"rounds": len(win), "samples": m["count"],
                        "mean_ns": m["sum"] / m["count"], "max_ns": m["max"], "percentiles": {}})
            for key, p in PCTS:
                v, rank = percentile(m, p)
                sup = m["count"] - rank + 1
                row["percentiles"][key] = {"ns": v, "rank": rank, "samples": sup,
                                           "few_samples": sup < 10}
        else:
            what = "ios" if test == "iops" else "bytes"
            key = "iops" if test == "iops" else "mb_s"
            scale = 1 if test == "iops" else 1e6
            per = [(r["read"][what] + r["write"][what]) * 1e9 / r["elapsed_ns"] / scale
                   for r in mine]
            inw = [v for r, v in zip(mine, per) if lo <= r["round"] <= hi]
            row[key] = sum(inw) / len(inw)
            row["rounds"] = len(inw)
            if test == "throughput":
                row["direction"] = "read" if row.get("rw") in ("read", "randread") else "write"
                ios = sum(r["read"]["ios"] + r["write"]["ios"] for r in mine)
                by = sum(r["read"]["bytes"] + r["write"]["bytes"] for r in mine)
                b["bs"] = by // ios  # one sequential block size: bytes per I/O
            t = dict(coords(cell))
            t.update({"cell": cell, "rounds": [r["round"] for r in mine], key: per})
            track.append(t)
        rows.append(row)
    if test == "iops":
        b["tracked"] = {"cell": ss["cell"] if ss else None}
        for row in rows:
            if ss and row["cell"] == ss["cell"] and "iops" in row:
                b["tracked"]["iops"] = row["iops"]
        b["matrix"] = rows
    else:
        b["table"] = rows
    if test != "latency":
        b["tracking"] = track
    return b


def wsat_levels(ch, cap):
    """The rule of docs/results-format.md (snia, wsat): chunks (ios, elapsed_ns, bytes)."""
    written = sum(c[2] for c in ch)
    ends, e = [], 0
    for c in ch:
        e += c[2]
        ends.append(e)
    iops = [c[0] * 1e9 / c[1] if c[1] else None for c in ch]
    first = [v for v, end in zip(iops, ends) if v is not None and end <= cap / 2]
    if not first:
        first = [v for v in iops if v is not None][:1]
    plateau = sorted(first)[len(first) // 2] if len(first) % 2 else \
        (sorted(first)[len(first) // 2 - 1] + sorted(first)[len(first) // 2]) / 2
    lim = 0.9 * plateau
    drop = None
    for i, v in enumerate(iops):
        if v is None or v >= lim:
            continue
        nxt = [x for x in iops[i:] if x is not None][:3]
        if all(x < lim for x in nxt):
            drop = i
            break
    starts = [end - c[2] for end, c in zip(ends, ch)]
    steady = [i for i in range(len(ch)) if starts[i] >= written - cap and ch[i][1]]
    if not steady:
        steady = [max(i for i in range(len(ch)) if ch[i][1])]
    sio = sum(ch[i][0] for i in steady)
    sns = sum(ch[i][1] for i in steady)
    return plateau, drop, (starts[drop] if drop is not None else None), steady, sio * 1e9 / sns, \
        starts[steady[0]], written


def wsat_block(manifest, recs, phase, repeat):
    cap = manifest["target"]["capacity"]
    rs = [r for r in recs if r["kind"] == "write_until" and r["phase"] == phase and
          r["repeat"] == repeat]
    ch = [(r["total"]["ios"], r["elapsed_ns"], r["bytes_written_total"]) for r in rs]
    scale = rs[0].get("time_scale", 1) if rs else 1
    ser = {k: [] for k in ("t_ns", "t_profile_ns", "bytes", "x", "iops", "lat_mean_ns")}
    t = w = 0
    for r, c in zip(rs, ch):
        t += c[1]
        w += c[2]
        h = merge([r["read"]["hist"], r["write"]["hist"]])
        ser["t_ns"].append(t)
        ser["t_profile_ns"].append(t / scale)
        ser["bytes"].append(w)
        ser["x"].append(w / cap)
        ser["iops"].append(c[0] * 1e9 / c[1])
        ser["lat_mean_ns"].append(h["sum"] / h["count"])
    plateau, drop, drop_bytes, steady, siops, sfrom, written = wsat_levels(ch, cap)
    return {"capacity": cap, "chunks": len(ch), "written_bytes": written,
            "written_x": written / cap, "series": ser,
            "plateau": {"iops": plateau, "chunks": drop if drop is not None else len(ch),
                        "end_bytes": drop_bytes if drop is not None else written,
                        "end_x": (drop_bytes if drop is not None else written) / cap},
            "drop": None if drop is None else {"chunk": drop, "bytes": drop_bytes,
                                               "x": drop_bytes / cap},
            "steady": {"iops": siops, "chunks": len(steady), "from_bytes": sfrom,
                       "from_x": sfrom / cap, "of_plateau": siops / plateau}}


def recompute(d):
    """The blocks ssdlab should have written for results directory d, from its raw files."""
    summary = json.load(open(d + "/summary.json"))
    manifest = json.load(open(d + "/manifest.json"))
    recs = [json.loads(line) for line in open(d + "/records.jsonl") if line.strip()]
    test, pts = test_of(manifest)
    if not test:
        return []
    if test == "xsr":  # one block for the access groups (snia_xsr_check.py, issue 16)
        import snia_xsr_check
        wu = [r for r in recs if r["kind"] == "write_until"]
        if not wu:
            return []
        p, rep = wu[0]["phase"], wu[0]["repeat"]
        b = {"test": test, "phase": p, "repeat": rep, "header": header_of(manifest, recs, pts, p),
             "steady_state": None}
        b.update(snia_xsr_check.xsr_block(manifest, recs))
        return [b]
    kind = "write_until" if test == "wsat" else "cell"
    phases = []
    for r in recs:
        if r["kind"] == kind and (r["phase"], r["repeat"]) not in phases:
            phases.append((r["phase"], r["repeat"]))
    out = []
    if pts and pts.get("fast") is True and len(phases) >= 2 and test in ("iops", "latency"):
        # one block: steady state from the tracking phase (the first), tables from the matrix
        # phase (the last)
        (tp, trep), (mp, mrep) = phases[0], phases[-1]
        ss = next((s for s in summary["steady_state"] if s["phase"] == tp and s["repeat"] == trep),
                  None)
        h = header_of(manifest, recs, pts, mp)
        h["fast"] = fast_header(manifest, recs, tp, mp, ss)
        b = {"test": test, "phase": mp, "repeat": mrep, "header": h, "steady_state": ss}
        b.update(rounds_block(test, summary, recs, mp, mrep, fast_ss=ss or {}))
        fast_rounds_check(manifest, recs, tp, mp, mrep, ss, b, d)
        return [b]
    for phase, repeat in phases:
        b = {"test": test, "phase": phase, "repeat": repeat,
             "header": header_of(manifest, recs, pts, phase),
             "steady_state": next((s for s in summary["steady_state"] if s["phase"] == phase
                                   and s["repeat"] == repeat), None)}
        if test == "wsat":
            b.update(wsat_block(manifest, recs, phase, repeat))
        else:
            b.update(rounds_block(test, summary, recs, phase, repeat))
        out.append(b)
    return out


def compare(got, want, at, errors):
    if isinstance(want, dict):
        if not isinstance(got, dict):
            errors.append("%s: %r is not an object" % (at, got))
            return
        # Every key of the block is recomputed here (the WSAT rule's text is checked apart).
        for k in got:
            if k not in want and k != "rule":
                errors.append("%s/%s: not recomputed by the checker" % (at, k))
        for k in want:
            if k not in got:
                errors.append("%s/%s: missing" % (at, k))
            else:
                compare(got[k], want[k], at + "/" + k, errors)
    elif isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            errors.append("%s: %d entries, records give %d" %
                          (at, len(got) if isinstance(got, list) else -1, len(want)))
            return
        for i, (g, w) in enumerate(zip(got, want)):
            compare(g, w, "%s/%d" % (at, i), errors)
    elif isinstance(want, float) and not isinstance(want, bool):
        if not isinstance(got, (int, float)) or abs(got - want) > 1e-9 * max(1.0, abs(want)):
            errors.append("%s: %r, records give %r" % (at, got, want))
    elif got != want:
        errors.append("%s: %r, records give %r" % (at, got, want))


def check(d, errors):
    summary = json.load(open(d + "/summary.json"))
    want = recompute(d)
    got = summary.get("snia")
    compare(got, want, "snia", errors)
    for b in got or []:
        if b["test"] == "wsat" and b.get("rule") != WSAT_RULE:
            errors.append("phase %d: WSAT rule %r is not the documented one" % (b["phase"],
                                                                                b.get("rule")))
    # The steady-state window the IOPS/throughput/latency tables average is the PTS's: when it
    # is reached, range and slope excursion within 20% and 10% of its average (SNIA PTS 2.0.1).
    for b in want:
        ss = b.get("steady_state")
        if b["test"] == "wsat" or not ss or ss.get("verdict") != "reached":
            continue
        recs = [json.loads(line) for line in open(d + "/records.jsonl") if line.strip()]
        # the entry's own phase (a *-fast block's steady state is its tracking phase's)
        y = [r for r in recs if r["kind"] == "cell" and r["phase"] == ss["phase"] and
             r["cell"] == ss["cell"] and ss["first_round"] <= r["round"] <= ss["last_round"]]
        if ss["metric"] in ("iops", "bw"):
            f = "ios" if ss["metric"] == "iops" else "bytes"
            y = [(r["read"][f] + r["write"][f]) * 1e9 / r["elapsed_ns"] for r in y]
        else:
            y = [merge([r["read"]["hist"], r["write"]["hist"]]) for r in y]
            y = [m["sum"] / m["count"] for m in y]
        n = len(y)
        avg = sum(y) / n
        xs = list(range(n))
        mx = sum(xs) / n
        slope = sum((x - mx) * (v - avg) for x, v in zip(xs, y)) / sum((x - mx) ** 2 for x in xs)
        if max(y) - min(y) > 0.2 * avg * (1 + 1e-9) or abs(slope) * (n - 1) > 0.1 * avg * (1 + 1e-9):
            errors.append("phase %d: steady state said reached, the window %r is not" %
                          (b["phase"], y))
    return want


if __name__ == "__main__":
    d = sys.argv[1]
    errors = []
    blocks = check(d, errors)
    tests = [b["test"] for b in blocks]
    for t in sys.argv[2:]:
        if t not in tests:
            errors.append("no %s block (blocks: %r)" % (t, tests))
    for e in errors[:30]:
        print("  %s: %s" % (d, e), file=sys.stderr)
    if not errors:
        print("%s: %d snia blocks (%s) equal the figures recomputed from records.jsonl" %
              (d, len(blocks), ", ".join(tests)))
    sys.exit(1 if errors else 0)
