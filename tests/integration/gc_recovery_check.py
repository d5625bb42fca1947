#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gc_recovery_check: checks a gc-recovery run on the virtual SSD against the simulator's own
counters, never against ssdlab's analysis (gc_recovery_test.sh, gc_none_test.sh).

usage: gc_recovery_check.py RESULTS_DIR MODEL_YAML gc|none

Ground truth, per idle phase, from the sim's snapshots at the idle's start and end: the space idle
GC reclaimed is (victims taken while idle) x (block size) - (bytes it relocated), i.e.
delta(idle_gc_runs) * page_size * pages_per_block - delta(nand_bytes_written_gc); the block size
is the model file's. Rmax_true is the mean over the idles that reclaimed within 3% of the most
(GC ran out of victims); the true rate is the least-squares slope of reclaimed bytes against idle
time over the idles strictly on the slope (between 5% and 90% of Rmax_true). "gc": the reported
r and Rmax within 10% of those. "none": the counters show nothing reclaimed and the reported rate
is near zero (model "none" or the recovery told apart as a cache refill, and under 1 MB/s). Both: 16 points, each of 8 log-spaced idles twice,
in the order the idle records were written (the profile's shuffled order).
"""
import glob
import json
import math
import os
import re
import sys

import yaml


def size(v):
    if isinstance(v, (int, float)):
        return float(v)
    m = re.fullmatch(r"([0-9.]+)([kmgt]?)", str(v).strip().lower())
    return float(m.group(1)) * 1024 ** "_kmgt".index(m.group(2) or "_")


def main():
    d, model_file, mode = sys.argv[1:4]
    fails = []
    model = yaml.safe_load(open(model_file))
    block = size(model["page_size"]) * int(model["pages_per_block"])
    g = json.load(open(os.path.join(d, "summary.json"))).get("gc_recovery")
    if not g:
        print("FAIL: no gc_recovery in summary.json")
        return 1
    pts = g["points"]

    # the sweep: 16 points, 8 idles log-spaced twice each, in the records' order
    idles = []
    with open(os.path.join(d, "records.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            if r.get("kind") == "idle":
                idles.append(r["phase"])
    if [p["idle_phase"] for p in pts] != idles:
        fails.append(f"points {[p['idle_phase'] for p in pts]} are not the idles {idles} in order")
    prof = sorted({p["idle_profile_ns"] for p in pts})
    if len(pts) != 16 or len(prof) != 8:
        fails.append(f"{len(pts)} points over {len(prof)} idle lengths, want 16 over 8")
    if any(sum(1 for p in pts if p["idle_profile_ns"] == t) != 2 for t in prof):
        fails.append("an idle length does not appear exactly twice")
    ratios = [prof[i + 1] / prof[i] for i in range(len(prof) - 1)]
    if ratios and max(ratios) / min(ratios) > 1.01:
        fails.append(f"idles not log-spaced: ratios {ratios}")
    if prof and (abs(prof[0] / 5e9 - 1) > 1e-6 or abs(prof[-1] / 10800e9 - 1) > 1e-6):
        fails.append(f"idles from {prof[0]} to {prof[-1]} ns, want 5 s to 3 h")

    # the sim's counters around each idle
    snaps = {}
    for fn in glob.glob(os.path.join(d, "snapshots", "*.json")):
        s = json.load(open(fn))
        m = re.fullmatch(r"phase-(\d+)-idle-(start|end)", s.get("label", ""))
        if m:
            snaps.setdefault(int(m.group(1)), {})[m.group(2)] = s
    truth = []  # (idle seconds, reclaimed bytes)
    for ph in idles:
        a, b = snaps[ph]["start"], snaps[ph]["end"]
        ca, cb = a["counters"], b["counters"]
        runs = cb["idle_gc_runs"]["value"] - ca["idle_gc_runs"]["value"]
        moved = cb["nand_bytes_written_gc"]["value"] - ca["nand_bytes_written_gc"]["value"]
        truth.append(((b["target_ns"] - a["target_ns"]) / 1e9, runs * block - moved))
    for (t, rec), p in zip(truth, pts):
        print(f"idle {t:9.4f} s  reclaimed {rec / 1e6:8.2f} MB  excess {p['excess_bytes'] / 1e6:8.2f} MB"
              f"  recovered {p['recovered_bytes'] / 1e6:8.2f} MB")
    print(f"reported: model {g['model']} r {g['r']} B/s rmax {g['rmax']} B t0 {g['t0']} s")

    if mode != "none" and g["source"] != "free_blocks":
        fails.append(f"idle GC's recovery taken for {g['source']}")
    if mode == "none":
        if any(rec != 0 for _, rec in truth):
            fails.append("the model without idle GC reclaimed space while idle")
        if not (g["model"] == "none" or g["source"] == "cache_refill") or abs(g["r"]) >= 1e6:
            fails.append(f"rate {g['r']} B/s for a drive without idle GC, want about 0")
    else:
        rmax_true = max(rec for _, rec in truth)
        top = [rec for _, rec in truth if rec >= 0.97 * rmax_true]
        rmax_true = sum(top) / len(top)
        slope = [(t, rec) for t, rec in truth if 0.05 * rmax_true < rec < 0.9 * rmax_true]
        if len({t for t, _ in slope}) < 2:
            fails.append(f"fewer than two idle lengths on the slope: {slope}")
        else:
            n = len(slope)
            mt = sum(t for t, _ in slope) / n
            my = sum(y for _, y in slope) / n
            rate_true = sum((t - mt) * (y - my) for t, y in slope) / sum((t - mt) ** 2 for t, _ in slope)
            print(f"truth: rate {rate_true / 1e6:.2f} MB/s over {n} idles, Rmax {rmax_true / 1e6:.2f} MB")
            if g["model"] == "none" or g["r"] is None or abs(g["r"] / rate_true - 1) > 0.10:
                fails.append(f"rate {g['r']} B/s, the counters say {rate_true:.0f} (10%)")
            if g["rmax"] is None or abs(g["rmax"] / rmax_true - 1) > 0.10:
                fails.append(f"Rmax {g['rmax']} B, the counters say {rmax_true:.0f} (10%)")
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
