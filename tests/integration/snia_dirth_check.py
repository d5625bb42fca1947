#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""snia_dirth_check (issue 16 point 3): the DIRTH block of summary.json recomputed from
records.jsonl with this script's own code, the record order against a hand-written one, and
(--knee MODEL) the demand-intensity knee against the model's parallelism.

Usage: snia_dirth_check.py DIR [--knee MODEL.yaml]

Independent of ssdlab's reader and of analysis/snia_dirth.c: the window (the last 5 rounds of the
TOIO rounds, or the dirth_points phase's window in the manifest's plan), the per-cell averages
over the rounds, the Max/Mid/Min rule (written out again below), the histograms merged bin by
bin and the nearest-rank percentiles (snia_blocks_check.py's, the same convention the latency
block follows).
"""
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from snia_blocks_check import merge, percentile, compare, PCTS  # noqa: E402

# The DIRTH TOIO loop, high to low, threads outer and qd inner (the reference, AD [I]).
TC = [32, 16, 8, 6, 4, 2, 1]
QD = [32, 16, 8, 6, 4, 2, 1]
ORDER = ["threads=%d,qd=%d" % (t, q) for t in TC for q in QD]


def load(d):
    recs = [json.loads(line) for line in open(os.path.join(d, "records.jsonl"))]
    return (recs, json.load(open(os.path.join(d, "summary.json"))),
            json.load(open(os.path.join(d, "manifest.json"))))


def check_order(recs, errors):
    """purge; preconditioning rounds 1..R of one cell; TOIO rounds 1..R' of the 49 cells in
    ORDER; the points max, mid, min."""
    keys = [(r["phase"], r["round"], r["cell"], r["kind"]) for r in recs if r["kind"] != "resume"]
    pre = [k for k in keys if k[0] == 1]
    toio = [k for k in keys if k[0] == 2]
    n1 = len(pre)
    n2 = len(toio) // len(ORDER)
    want = [(0, 0, "", "purge")]
    want += [(1, i, "all", "cell") for i in range(1, n1 + 1)]
    want += [(2, i, c, "cell") for i in range(1, n2 + 1) for c in ORDER]
    want += [(3, 1, p, "dirth_point") for p in ("max", "mid", "min")]
    if keys != want:
        errors.append("record order differs from the hand-written one (first difference at %r)"
                      % next(((i, a, b) for i, (a, b) in enumerate(zip(keys, want)) if a != b),
                             (len(keys), len(want))))
    if not (5 <= n1 <= 25 and 5 <= n2 <= 25):
        errors.append("rounds %d and %d, expected 5..25 each" % (n1, n2))
    return n2


def rec_mean(r):
    c = r["read"]["hist"]["count"] + r["write"]["hist"]["count"]
    return (r["read"]["hist"]["sum"] + r["write"]["hist"]["sum"]) / c if c else None


def mean(v):
    return sum(v) / len(v)


def choose(cells):
    """Max the highest (first on a tie), Min TC1/QD1, Mid of the others nearest (Max+Min)/2."""
    imin = next(i for i, c in enumerate(cells) if c["threads"] == 1 and c["qd"] == 1)
    others = [i for i in range(len(cells)) if i != imin]
    imax = max(others if cells[imin]["iops"] >= max(c["iops"] for c in cells)
               else range(len(cells)), key=lambda i: (cells[i]["iops"], -i))
    target = (cells[imax]["iops"] + cells[imin]["iops"]) / 2
    imid = min((i for i in range(len(cells)) if i not in (imax, imin)),
               key=lambda i: (abs(cells[i]["iops"] - target), i))
    return imax, imid, imin, target


def recompute(recs, summary, manifest, errors):
    window = 5
    for ph in manifest["plan"]["phases"]:
        if ph["kind"] == "dirth_points":
            window = ph["settings"]["window"]
    toio = [r for r in recs if r["phase"] == 2 and r["kind"] == "cell"]
    last = max(r["round"] for r in toio)
    lo = max(1, last - window + 1)
    cells = []
    for key in ORDER:
        rs = [r for r in toio if r["cell"] == key and lo <= r["round"] <= last]
        t, q = (int(x.split("=")[1]) for x in key.split(","))
        cells.append({"threads": t, "qd": q, "toio": t * q, "rounds": len(rs),
                      "iops": mean([r["total"]["iops"] for r in rs]),
                      "mean_ns": mean([rec_mean(r) for r in rs])})
    by_tc = [{"threads": t, "points": [{k: c[k] for k in ("qd", "toio", "rounds", "iops",
                                                          "mean_ns")}
                                       for c in cells if c["threads"] == t]} for t in TC]
    imax, imid, imin, target = choose(cells)
    points = []
    for name, i in (("max", imax), ("mid", imid), ("min", imin)):
        c = cells[i]
        rec = next(r for r in recs if r["kind"] == "dirth_point" and r["cell"] == name)
        d = rec["dirth"]
        # The runner recorded the same choice, from the same rounds.
        if (d["point"], d["threads"], d["qd"], d["first_round"], d["last_round"]) != \
                (name, c["threads"], c["qd"], lo, last) or \
                abs(d["rounds_iops"] - c["iops"]) > 1e-9 * c["iops"]:
            errors.append("%s: the runner's choice %r differs from the rounds' %r" %
                          (name, d, c))
        m = merge([rec["read"]["hist"], rec["write"]["hist"]])
        pct = {}
        for key, p in PCTS:
            pct[key] = percentile(m, p)[0]
        hist = {"count": m["count"], "min": m["min"], "max": m["max"], "sum": m["sum"],
                "sub_bits": rec["write"]["hist"]["sub_bits"],
                "max_bits": rec["write"]["hist"]["max_bits"],
                "bins": [[b, m["bins"][b]] for b in sorted(m["bins"])]}
        points.append({"point": name, "threads": c["threads"], "qd": c["qd"],
                       "toio": c["toio"], "rounds_iops": c["iops"],
                       "why": d["why"],
                       "run": {"phase": rec["phase"], "iops": rec["total"]["iops"],
                               "samples": m["count"], "mean_ns": m["sum"] / m["count"],
                               "max_ns": m["max"], "percentiles": pct, "histogram": hist}})
    ss = next(s for s in summary["steady_state"] if s["phase"] == 2)
    target_kind = manifest["target"]["kind"]
    return {"test": "dirth", "phase": 2, "repeat": 0,
            "header": {k: manifest["pts"][k] for k in ("spec", "variant", "active_range",
                                                      "write_cache", "data_pattern", "toio")},
            "steady_state": ss,
            "outstanding_io": ("total: on the virtual SSD the threads share its one queue "
                               "model, so TC x QD is the total outstanding I/O"
                               if target_kind == "sim" else
                               "TC threads each with its own queue of depth QD: TC x QD "
                               "outstanding I/O"),
            "window": {"first_round": lo, "last_round": last, "rounds": window},
            "by_tc": by_tc, "mid_target_iops": target, "points": points}


def knee(block, model, errors):
    """IOPS rise with the outstanding I/O up to a knee at the model's parallelism. The knee is
    the asymptotic-bound one of operational analysis (Denning & Buzen; Jain, "The Art of
    Computer Systems Performance Analysis", ch. 33): N* = Xmax / X(1), where the line of
    no queueing, N x X(1), meets the saturation level Xmax; on a drive of P independent dies it
    lies near P. It must fall within one TOIO step of channels x dies_per_channel."""
    text = open(model).read()
    par = (int(re.search(r"^channels:\s*(\d+)", text, re.M).group(1)) *
           int(re.search(r"^dies_per_channel:\s*(\d+)", text, re.M).group(1)))
    pts = [(p["toio"], p["iops"]) for s in block["by_tc"] for p in s["points"]]
    xmax = max(x for _, x in pts)
    x1 = next(x for n, x in pts if n == 1)
    nstar = xmax / x1
    grid = sorted({n for n, _ in pts})
    k = next(i for i, n in enumerate(grid) if n >= nstar)
    p = min(range(len(grid)), key=lambda i: (abs(grid[i] - par), i))
    print("knee: Xmax %.0f IOPS, X(1) %.0f, N* = %.2f -> TOIO %d; channels x dies = %d" %
          (xmax, x1, nstar, grid[k], par))
    if abs(k - p) > 1:
        errors.append("knee at TOIO %d (N* %.2f), parallelism %d: more than one TOIO step apart"
                      % (grid[k], nstar, par))
    # Below the knee every step up in outstanding I/O gains (within a TC series); well past it
    # (8 N*) the IOPS are within 10% of the maximum: saturated.
    for s in block["by_tc"]:
        ser = sorted((p["toio"], p["iops"]) for p in s["points"])
        for (n0, a), (n1, b) in zip(ser, ser[1:]):
            if n1 <= grid[k] and not b > a * 1.01:
                errors.append("TC%d: IOPS %.0f at TOIO %d do not rise over %.0f at %d" %
                              (s["threads"], b, n1, a, n0))
    # TC32/QD32 runs first in each round, right after the pre-write, and carries its backlog
    # (a model with a write buffer flushes it then, and reads wait behind it): it is the
    # tracking cell, not a point of the saturation level.
    for n, x in pts[1:]:
        if n >= 8 * nstar and x < 0.90 * xmax:
            errors.append("TOIO %d: %.0f IOPS, not saturated (max %.0f)" % (n, x, xmax))


def main():
    d = sys.argv[1]
    errors = []
    recs, summary, manifest = load(d)
    check_order(recs, errors)
    blocks = [b for b in summary["snia"] if b["test"] == "dirth"]
    if len(blocks) != 1:
        errors.append("%d dirth blocks, expected 1" % len(blocks))
    else:
        compare(blocks[0], recompute(recs, summary, manifest, errors), "snia/dirth", errors)
        if "--knee" in sys.argv:
            knee(blocks[0], sys.argv[sys.argv.index("--knee") + 1], errors)
    for e in errors[:30]:
        print("  %s: %s" % (d, e), file=sys.stderr)
    if not errors:
        print("%s: the dirth block equals the figures recomputed from records.jsonl" % d)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
