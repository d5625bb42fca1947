#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""wa_guard_check: the WA guard of a fast run (docs/fast-steady-state.md, "The WA guard"),
recomputed from the results directory with code of its own:

- each tracking round's WA: the NAND / host byte deltas of the snapshot files, round 1 from the
  tracking phase's start snapshot (`phase-P-rounds-start`) to `phase-P-rounds-round-1`, round R
  from `round-(R-1)` to `round-R` (the phase has one cell, so the job is the round);
- the expected WA: 1 / (1 - alpha), alpha the manifest's sprandom inputs;
- a round is short when its WA is more than TOL below the expected one;
- the SNIA rule on the tracked IOPS (5 rounds, 20 % data, 10 % slope excursion) recomputed here.

It fails unless: the summary's per-round verdicts and WA are these; the rounds ended at a round
that is not short (or at max_rounds); every earlier round where the SNIA rule passed is short
(the guard was the only reason to go on); and, with --expect blocked, the SNIA rule passed on at
least one short round before the stop (the false plateau the guard refused), with --expect
passed, nothing was refused and the run stopped where the SNIA rule or the early verdict first
allowed it.

Usage: wa_guard_check.py DIR --expect blocked|passed
"""
import argparse
import json
import os
import sys

TOL = 0.07  # analysis/wa_guard.h WA_GUARD_DEFAULT_TOLERANCE
WINDOW, DATA, SLOPE, MAX_ROUNDS = 5, 0.20, 0.10, 25


def snia_passes(y):
    if len(y) < WINDOW:
        return False
    w = y[-WINDOW:]
    avg = sum(w) / WINDOW
    xm = (WINDOW - 1) / 2.0
    slope = sum((i - xm) * (v - avg) for i, v in enumerate(w)) / sum(
        (i - xm) ** 2 for i in range(WINDOW))
    return max(w) - min(w) <= DATA * avg and abs(slope) * (WINDOW - 1) <= SLOPE * avg


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--expect", choices=["blocked", "passed"], required=True)
    a = ap.parse_args()
    d = a.dir
    bad = []
    man = json.load(open(os.path.join(d, "manifest.json")))
    summ = json.load(open(os.path.join(d, "summary.json")))
    recs = [json.loads(x) for x in open(os.path.join(d, "records.jsonl")) if x.strip()]
    spr = man["sprandom"][0]
    alpha = spr["inputs"]["alpha"]
    expected = 1.0 / (1.0 - alpha)
    phase = [t for t in man["steady_state"]][0]["phase"]
    snaps = {}
    for f in sorted(os.listdir(os.path.join(d, "snapshots"))):
        s = json.load(open(os.path.join(d, "snapshots", f)))
        c = s["counters"]
        snaps[s["label"]] = (c["host_bytes_written"]["value"], c["nand_bytes_written"]["value"])
    tr = sorted((r for r in recs if r["kind"] == "cell" and r["phase"] == phase),
                key=lambda r: r["round"])
    iops = [r["total"]["iops"] for r in tr]
    n = len(tr)
    prev = snaps["phase-%d-rounds-start" % phase]
    wa, short = [], []
    for k in range(1, n + 1):
        cur = snaps["phase-%d-rounds-round-%d" % (phase, k)]
        w = (cur[1] - prev[1]) / (cur[0] - prev[0])
        wa.append(w)
        short.append(w < (1 - TOL) * expected)
        prev = cur
    print("%s: alpha %.6f, expected WA %.3f, rounds %d" % (d, alpha, expected, n))
    for k in range(n):
        print("  round %2d  IOPS %9.1f  WA %.3f  shortfall %+6.1f %%  %s%s" % (
            k + 1, iops[k], wa[k], 100 * (1 - wa[k] / expected), "short" if short[k] else "ok",
            "  SNIA window passes" if snia_passes(iops[:k + 1]) else ""))
    ss = [t for t in summ["steady_state"] if t["phase"] == phase][0]
    g = ss["wa_guard"]
    if abs(g["expected_wa"] - expected) > 1e-9 * expected:
        bad.append("expected WA %r vs summary %r" % (expected, g["expected_wa"]))
    if abs(g["tolerance"] - TOL) > 1e-12:
        bad.append("tolerance %r vs summary %r" % (TOL, g["tolerance"]))
    sr = g["rounds"] or []
    if [x["verdict"] for x in sr] != ["short" if s else "ok" for s in short]:
        bad.append("per-round verdicts %r vs summary %r" % (short, [x["verdict"] for x in sr]))
    for k, x in enumerate(sr):
        if abs(x["wa"] - wa[k]) > 1e-9 * wa[k]:
            bad.append("round %d WA %r vs summary %r" % (k + 1, wa[k], x["wa"]))
    if short[-1] and n < MAX_ROUNDS:
        bad.append("the rounds stopped at round %d, whose WA is short" % n)
    refused = [k + 1 for k in range(n - 1) if snia_passes(iops[:k + 1])]
    for k in refused:
        if not short[k - 1]:
            bad.append("the SNIA window passed at round %d, not short, but the rounds went on" % k)
    early = ss["early"]
    if early.get("verdict") == "predicted" and early.get("round") and early["round"] < n and \
            not short[early["round"] - 1]:
        bad.append("early verdict at round %d, not short, but the rounds went on" % early["round"])
    if a.expect == "blocked":
        if not refused:
            bad.append("no SNIA window passed on a short round before the stop: no plateau refused")
        if g["outcome"] not in ("delayed", "short") or g["blocked"] < len(refused):
            bad.append("summary outcome %r, blocked %r; want delayed or short, >= %d" % (
                g["outcome"], g["blocked"], len(refused)))
        print("  the SNIA window passed at rounds %s on short WA: refused; stopped at round %d (%s)"
              % (refused, n, g["outcome"]))
    else:
        if refused or any(short) or g["outcome"] != "passed" or g["blocked"]:
            bad.append("want nothing refused: short rounds %r, SNIA passes before the stop %r, "
                       "outcome %r" % ([k + 1 for k in range(n) if short[k]], refused,
                                       g["outcome"]))
        print("  no round short; stopped at round %d (%s)" % (n, g["outcome"]))
    if ss["verdict"] == "reached" and ss["last_round"] != n:
        bad.append("summary SNIA window ends at %r, the rounds at %d" % (ss["last_round"], n))
    for b in bad:
        print("FAIL: " + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
