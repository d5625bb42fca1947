#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ecw_check DIR [--4kn]: the SNIA ECW blocks of DIR/summary.json against figures recomputed here
from DIR/records.jsonl and DIR/manifest.json with this script's own code (issue 16 point 4):

  - every key of every "ecw" block: the preconditioning rounds' IOPS and mean response times;
    per TC x QD point in the hand-written ECW run order its IOPS (the mean of its rounds'
    (read + write I/Os) / elapsed), the response times of its histograms merged over the rounds
    (nearest-rank percentiles, snia_blocks_check's), the merged bins; the series per TC; the
    highest IOPS and TC1/QD1;
  - the record order: purge, 25 preconditioning rounds of one cell, then 10 rounds of the 49
    points, TC outer, QD inner, both 32, 16, 8, 6, 4, 2, 1 (written out by hand below);
  - the measured mix (each record's io_mix: completions per block size and per hundredth of the
    LBA range, counted by the engine) against JESD219 within 1 percentage point, summed over
    each phase: block sizes against the weights (on --4kn the sub-4 KiB ones left out and the
    rest renormalised: 4k 67/90, 8k 10/90, 16k 7/90, 32k 3/90, 64k 3/90, worked by hand),
    zones 50% / 30% / 20% of the I/Os in the first 5% / next 15% / last 80% of the LBAs, reads
    40% of the measured phase's I/Os.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from snia_blocks_check import compare, merge, percentile  # noqa: E402

LEVELS = [32, 16, 8, 6, 4, 2, 1]
# The run order, written out: TC 32 with QD 32..1, then TC 16 with QD 32..1, ...
ORDER = ["threads=32,qd=32", "threads=32,qd=16", "threads=32,qd=8", "threads=32,qd=6",
         "threads=32,qd=4", "threads=32,qd=2", "threads=32,qd=1",
         "threads=16,qd=32", "threads=16,qd=16", "threads=16,qd=8", "threads=16,qd=6",
         "threads=16,qd=4", "threads=16,qd=2", "threads=16,qd=1",
         "threads=8,qd=32", "threads=8,qd=16", "threads=8,qd=8", "threads=8,qd=6",
         "threads=8,qd=4", "threads=8,qd=2", "threads=8,qd=1",
         "threads=6,qd=32", "threads=6,qd=16", "threads=6,qd=8", "threads=6,qd=6",
         "threads=6,qd=4", "threads=6,qd=2", "threads=6,qd=1",
         "threads=4,qd=32", "threads=4,qd=16", "threads=4,qd=8", "threads=4,qd=6",
         "threads=4,qd=4", "threads=4,qd=2", "threads=4,qd=1",
         "threads=2,qd=32", "threads=2,qd=16", "threads=2,qd=8", "threads=2,qd=6",
         "threads=2,qd=4", "threads=2,qd=2", "threads=2,qd=1",
         "threads=1,qd=32", "threads=1,qd=16", "threads=1,qd=8", "threads=1,qd=6",
         "threads=1,qd=4", "threads=1,qd=2", "threads=1,qd=1"]
JESD219 = [(512, 4), (1024, 1), (1536, 1), (2048, 1), (2560, 1), (3072, 1), (3584, 1),
           (4096, 67), (8192, 10), (16384, 7), (32768, 3), (65536, 3)]
# On a 4Kn device, worked by hand: 4+1+1+1+1+1+1 = 10 of 100 left out, 67+10+7+3+3 = 90 remain.
JESD219_4KN = {4096: 67 / 90, 8192: 10 / 90, 16384: 7 / 90, 32768: 3 / 90, 65536: 3 / 90}
ZONES = [(0, 5, 0.50), (5, 20, 0.30), (20, 100, 0.20)]  # hundredths of the range, share of I/O


def toio(cell):
    c = dict(p.split("=", 1) for p in (cell or "").split(",") if "=" in p)
    if "threads" in c and "qd" in c:
        return int(c["threads"]), int(c["qd"])
    return None


def iops(r):
    n = r["read"]["ios"] + r["write"]["ios"]
    return n * 1e9 / r["elapsed_ns"] if n and r.get("elapsed_ns") else None


def mean(h):
    return h["sum"] / h["count"] if h["count"] else None


def hist_json(m):
    return {"count": m["count"], "min": m["min"] if m["count"] else 0, "max": m["max"],
            "sum": m["sum"], "sub_bits": 7, "max_bits": 37,
            "bins": [[b, m["bins"][b]] for b in sorted(m["bins"])]}


def header(manifest):
    pts = manifest["pts"]
    h = {"profile": manifest["profile"]["name"]}
    for k in ("spec", "variant", "active_range", "write_cache", "data_pattern",
              "bs_not_applicable"):
        h[k] = pts.get(k)
    h["logical_block_size"] = manifest["target"].get("logical_block_size")
    return h


def lat(m):
    out = {"samples": m["count"], "lat_mean_ns": mean(m),
           "lat_max_ns": m["max"] if m["count"] else None}
    for p, k in ((99, "p99"), ("99.9", "p99_9"), ("99.99", "p99_99"), ("99.999", "p99_999")):
        out["lat_%s_ns" % k] = percentile(m, p)[0] if m["count"] else None
    return out


def toio_block(recs):
    pts = {}
    for r in recs:
        t = toio(r["cell"])
        if t is None:
            continue
        p = pts.setdefault(t, {"iops": [], "recs": []})
        if not r.get("not_applicable"):
            p["recs"].append(r)
            if iops(r) is not None:
                p["iops"].append(iops(r))
    keys = sorted(pts, key=lambda t: (LEVELS.index(t[0]), LEVELS.index(t[1])))
    rows = []
    for t in keys:
        p = pts[t]
        both = merge([r["read"]["hist"] for r in p["recs"]] + [r["write"]["hist"] for r in p["recs"]])
        rd = merge([r["read"]["hist"] for r in p["recs"]])
        wr = merge([r["write"]["hist"] for r in p["recs"]])
        row = {"threads": t[0], "qd": t[1], "toio": t[0] * t[1], "rounds": len(p["iops"]),
               "iops": sum(p["iops"]) / len(p["iops"]) if p["iops"] else None}
        row.update(lat(both))
        row["read_lat_mean_ns"] = mean(rd)
        row["write_lat_mean_ns"] = mean(wr)
        row["hist"] = hist_json(both)
        rows.append(row)
    by_tc = []
    for tc in LEVELS:
        sel = sorted([r for r in rows if r["threads"] == tc], key=lambda r: r["qd"])
        if sel:
            by_tc.append({"threads": tc, "toio": [r["toio"] for r in sel],
                          "iops": [r["iops"] for r in sel],
                          "lat_mean_ns": [r["lat_mean_ns"] for r in sel]})

    def ref(r):
        return {"threads": r["threads"], "qd": r["qd"], "toio": r["toio"], "iops": r["iops"],
                "lat_mean_ns": r["lat_mean_ns"]}
    have = [r for r in rows if r["iops"] is not None]
    best = max(have, key=lambda r: r["iops"]) if have else None
    if best is not None:  # the first of equals in run order
        best = next(r for r in have if r["iops"] == best["iops"])
    one = next((r for r in rows if r["threads"] == 1 and r["qd"] == 1), None)
    return {"stage": "toio", "rounds": max(r["round"] for r in recs), "points": rows,
            "by_tc": by_tc, "max_iops": ref(best) if best else None,
            "tc1_qd1": ref(one) if one else None}


def recompute(d):
    manifest = json.load(open(d + "/manifest.json"))
    recs = [json.loads(line) for line in open(d + "/records.jsonl") if line.strip()]
    if (manifest.get("pts") or {}).get("test") != "ecw":
        return []
    phases = []
    for r in recs:
        if r["kind"] == "cell" and (r["phase"], r["repeat"]) not in phases:
            phases.append((r["phase"], r["repeat"]))
    out = []
    for phase, repeat in phases:
        pr = [r for r in recs if r["kind"] == "cell" and r["phase"] == phase and r["repeat"] == repeat]
        b = {"test": "ecw", "phase": phase, "repeat": repeat, "header": header(manifest)}
        if any(toio(r["cell"]) for r in pr):
            b.update(toio_block(pr))
        else:
            b["stage"] = "precondition"
            b["rounds"] = [{"round": r["round"], "cell": r["cell"], "iops": iops(r),
                            "lat_mean_ns": mean(merge([r["read"]["hist"], r["write"]["hist"]]))}
                           for r in pr]
        out.append(b)
    return out


def check_order(recs, errors):
    want = [("purge", "")] + [("cell", "all")] * 25 + [("cell", c) for _ in range(10) for c in ORDER]
    got = [(r["kind"], r["cell"] or "") for r in recs if r["kind"] != "resume"]
    if got != want:
        i = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), min(len(got), len(want)))
        errors.append("record order differs at %d: %r, expected %r (%d records, expected %d)" %
                      (i, got[i] if i < len(got) else None, want[i] if i < len(want) else None,
                       len(got), len(want)))
    rounds = [r["round"] for r in recs if r["kind"] == "cell"]
    if rounds != list(range(1, 26)) + [k for k in range(1, 11) for _ in ORDER]:
        errors.append("record rounds are not 1..25, then 1..10 of 49 cells each")


def check_mix(recs, four_kn, errors):
    weights = JESD219_4KN if four_kn else {b: w / 100 for b, w in JESD219}
    for phase in sorted({r["phase"] for r in recs if r["kind"] == "cell"}):
        pr = [r for r in recs if r["kind"] == "cell" and r["phase"] == phase]
        bs, lba = {}, [0] * 100
        for r in pr:
            m = r.get("io_mix")
            if m is None:
                errors.append("phase %d round %d %s: no io_mix" % (phase, r["round"], r["cell"]))
                return
            for e in m["bs"]:
                bs[e["bs"]] = bs.get(e["bs"], 0) + e["ios"]
            lba = [a + b for a, b in zip(lba, m["lba"]["buckets"])]
            dropped = {e["bs"]: e["weight"] for e in m["bs_dropped"]}
            want_dropped = {b: w for b, w in JESD219 if b < 4096} if four_kn else {}
            if dropped != want_dropped:
                errors.append("phase %d: bs_dropped %r, expected %r" % (phase, dropped, want_dropped))
                return
        n = sum(bs.values())
        if n != sum(lba) or n != sum(r["read"]["ios"] + r["write"]["ios"] for r in pr):
            errors.append("phase %d: io_mix counts %d / %d I/Os, the records %d" %
                          (phase, n, sum(lba), sum(r["read"]["ios"] + r["write"]["ios"] for r in pr)))
        if set(bs) != set(weights):
            errors.append("phase %d: sizes %r, expected %r" % (phase, sorted(bs), sorted(weights)))
            continue
        worst = 0.0
        for b, w in sorted(weights.items()):
            dev = 100 * (bs[b] / n - w)
            worst = max(worst, abs(dev))
            if abs(dev) > 1:
                errors.append("phase %d: %d B is %.2f%% of the I/Os, the mix %.2f%%" %
                              (phase, b, 100 * bs[b] / n, 100 * w))
        zs = []
        for lo, hi, share in ZONES:
            got = sum(lba[lo:hi]) / n
            zs.append(100 * got)
            worst = max(worst, abs(100 * (got - share)))
            if abs(100 * (got - share)) > 1:
                errors.append("phase %d: LBAs %d-%d%% got %.2f%% of the I/Os, the mix %.0f%%" %
                              (phase, lo, hi, 100 * got, 100 * share))
        reads = sum(r["read"]["ios"] for r in pr) / n
        want_reads = 0.0 if all(toio(r["cell"]) is None for r in pr) else 0.40
        worst = max(worst, abs(100 * (reads - want_reads)))
        if abs(100 * (reads - want_reads)) > 1:
            errors.append("phase %d: %.2f%% reads, the mix %.0f%%" % (phase, 100 * reads,
                                                                      100 * want_reads))
        print("phase %d: %d I/Os; zones %.2f/%.2f/%.2f%%, 4k %.2f%%, reads %.2f%%; worst "
              "deviation from the mix %.2f points" % (phase, n, zs[0], zs[1], zs[2],
                                                      100 * bs[4096] / n, 100 * reads, worst))


def main():
    d = sys.argv[1]
    four_kn = "--4kn" in sys.argv[2:]
    errors = []
    summary = json.load(open(d + "/summary.json"))
    recs = [json.loads(line) for line in open(d + "/records.jsonl") if line.strip()]
    want = recompute(d)
    if len(want) != 2:
        errors.append("%d ecw blocks recomputed, expected 2 (preconditioning, TOIO)" % len(want))
    compare(summary.get("snia"), want, "snia", errors)
    check_order(recs, errors)
    check_mix(recs, four_kn, errors)
    for e in errors[:30]:
        print("  %s: %s" % (d, e), file=sys.stderr)
    if not errors:
        print("%s: the ecw blocks equal records.jsonl, the order and the mix hold" % d)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
