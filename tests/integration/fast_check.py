#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fast_check.py FULL FAST NAME: a snia-iops-fast run against a snia-iops run of the same model
(issue 19 point 3, tests/integration/fast_test.sh). From records.jsonl and the snapshots, not
from ssdlab's figures:
  - the fast run's one SNIA block: its matrix (per cell the mean IOPS over the matrix phase's
    rounds after the first, which rebuilds the large-block layout the sprandom fill does not
    leave) and its steady state (the tracking phase's) recomputed from the records, and its
    header.fast text; summary.json's cells entries of the matrix phase over the same rounds;
  - the tracked cell (RND 4 KiB writes) within 5 % of the full run's window average;
  - every matrix cell within 5 % of the full run's window average, or within the full window's
    own per-round range (min .. max over its rounds) widened by 5 % (the full window can hold
    round 1, when the 2x sequential precondition's layout still doubles large-block reads, and
    cells vary by up to ~9 % from round to round: docs/fast-steady-state.md); the count of
    cells that needed the second clause is printed;
  - the fast run's host bytes written at most half the full run's, from the simulator's
    counters in the run-start and run-end snapshots.
Prints the figures; exits 1 on a failed check."""
import json
import os
import sys

TOL = 0.05


def snia_steady(vals):
    """SNIA's steady-state rule on a cell's own window series, with this script's arithmetic:
    data excursion (max - min) within 20 % of the average, and the least-squares line's
    excursion over the window within 10 % of it."""
    n, avg = len(vals), sum(vals) / len(vals)
    if n < 2:
        return False
    xm = (n - 1) / 2
    slope = sum((x - xm) * (y - avg) for x, y in enumerate(vals)) / \
        sum((x - xm) ** 2 for x in range(n))
    return max(vals) - min(vals) <= 0.2 * avg and abs(slope) * (n - 1) <= 0.1 * avg


def records(d):
    with open(os.path.join(d, "records.jsonl")) as f:
        return [json.loads(l) for l in f if l.strip()]


def host_written(d):
    snaps = sorted(os.listdir(os.path.join(d, "snapshots")))
    val = {}
    for s in snaps:
        for label in ("run-start", "run-end"):
            if s.endswith("-%s.json" % label):
                with open(os.path.join(d, "snapshots", s)) as f:
                    val[label] = json.load(f)["counters"]["host_bytes_written"]["value"]
    return val["run-end"] - val["run-start"]


def per_round(recs, phase):
    """{cell: {round: iops}} of the cell records of phase (repeat 0)."""
    out = {}
    for r in recs:
        # a cell the device cannot run (512 B on a 4Kn model) has a record without figures
        if (r.get("kind") == "cell" and r["phase"] == phase and r.get("repeat", 0) == 0
                and r["total"]["iops"] is not None and not r.get("not_applicable")):
            out.setdefault(r["cell"], {})[r["round"]] = r["total"]["iops"]
    return out


def main():
    full, fast, name = sys.argv[1:4]
    bad = []
    sf = json.load(open(os.path.join(full, "summary.json")))
    sq = json.load(open(os.path.join(fast, "summary.json")))
    mq = json.load(open(os.path.join(fast, "manifest.json")))
    rf, rq = records(full), records(fast)

    if mq["pts"].get("fast") is not True:
        bad.append("fast run: manifest pts.fast is not true")
    if len(sq["snia"]) != 1:
        bad.append("fast run: %d snia blocks, want 1" % len(sq["snia"]))
    bf, bq = sf["snia"][0], sq["snia"][-1]
    fh = bq["header"].get("fast") or {}
    # the phases: tracking = the rounds phase with the steady-state rule, matrix = the last
    cell_phases = sorted({r["phase"] for r in rq if r.get("kind") == "cell"})
    tphase, mphase = cell_phases[0], cell_phases[-1]
    ss = [e for e in sq["steady_state"] if e["phase"] == tphase]
    if not ss or bq["steady_state"] != ss[0]:
        bad.append("fast block: steady_state is not the tracking phase's entry")
    if bq["phase"] != mphase or fh.get("tracking_phase") != tphase or fh.get("matrix_phase") != mphase:
        bad.append("fast block: phases %r / header.fast %r, want tracking %d matrix %d"
                   % (bq["phase"], fh, tphase, mphase))
    trk = per_round(rq, tphase)
    mat = per_round(rq, mphase)
    rounds = sorted({k for v in mat.values() for k in v})
    used = rounds[1:] if len(rounds) > 1 else rounds
    w = bq["window"]
    if (w["first_round"], w["last_round"], w["over"]) != (used[0], used[-1], "fast_matrix_rounds"):
        bad.append("fast block: window %r, want %d-%d over fast_matrix_rounds" % (w, used[0], used[-1]))
    stopped = bool(ss and (ss[0].get("early") or {}).get("stopped_run"))
    ntrk = max(k for v in trk.values() for k in v)
    want = ("fast run, not a PTS run: sprandom precondition, %d tracking round%s of the tracked "
            "cell (phase %d), %d matrix round%s (phase %d), figures from matrix %s%s"
            % (ntrk, "" if ntrk == 1 else "s", tphase, len(rounds), "s" if len(rounds) > 1 else "",
               mphase, ("round %d" % used[0]) if len(used) == 1 else ("rounds %d-%d" % (used[0], used[-1])),
               "; SNIA window not completed" if stopped else ""))
    if fh.get("text") != want:
        bad.append("header.fast.text %r, want %r" % (fh.get("text"), want))
    # the fast matrix recomputed: mean over the matrix rounds
    fastv = {c: sum(v[k] for k in used) / len(used) for c, v in mat.items()}
    rows = [row for row in bq["matrix"] if not row.get("not_applicable")]
    for row in rows:
        c = row["cell"]
        if abs(row["iops"] - fastv[c]) > 1e-6 * fastv[c]:
            bad.append("fast matrix %s: summary %.3f, records %.3f" % (c, row["iops"], fastv[c]))
    if len(rows) != len(fastv):
        bad.append("fast matrix: %d rows, %d cells in the records" % (len(rows), len(fastv)))
    # summary.json's cells of the matrix phase: the same rounds as the block, their IOPS
    # time-weighted (all I/Os over all elapsed time of those rounds' records)
    for e in sq["cells"]:
        if e["phase"] != mphase or e["kind"] != "cell" or e.get("not_applicable"):
            continue
        rs = [r for r in rq if r.get("kind") == "cell" and r["phase"] == mphase
              and r["cell"] == e["cell"] and used[0] <= r["round"] <= used[-1]]
        iops = sum(r["total"]["ios"] for r in rs) / (sum(r["elapsed_ns"] for r in rs) / 1e9)
        if (e["over"], e["first_round"], e["last_round"], e["records"]) != \
                ("fast_matrix_rounds", used[0], used[-1], len(rs)) or \
                abs(e["total"]["iops"] - iops) > 1e-9 * iops:
            bad.append("cells entry %s: over %s rounds %d-%d (%d records), IOPS %.3f; want "
                       "fast_matrix_rounds %d-%d (%d), %.3f"
                       % (e["cell"], e["over"], e["first_round"], e["last_round"], e["records"],
                          e["total"]["iops"], used[0], used[-1], len(rs), iops))
    # the full window (its steady-state entry's rounds)
    lo, hi = bf["window"]["first_round"], bf["window"]["last_round"]
    fullr = per_round(rf, bf["phase"])
    second, worst, steady, steady_out = [], 0.0, 0, []
    for c, v in sorted(fullr.items()):
        vals = [v[k] for k in range(lo, hi + 1) if k in v]
        avg = sum(vals) / len(vals)
        d = fastv[c] / avg - 1
        worst = max(worst, abs(d))
        if snia_steady(vals):
            steady += 1
            if abs(d) > TOL:
                steady_out.append("%s %+.1f %%" % (c, 100 * d))
        if abs(d) <= TOL:
            continue
        if min(vals) * (1 - TOL) <= fastv[c] <= max(vals) * (1 + TOL):
            second.append("%s %+.1f %% (full rounds %.0f..%.0f, fast %.0f)"
                          % (c, 100 * d, min(vals), max(vals), fastv[c]))
            continue
        bad.append("cell %s: fast %.1f vs full window %.1f (%+.1f %%), outside the full rounds' "
                   "range %.1f..%.1f widened by 5 %%" % (c, fastv[c], avg, 100 * d, min(vals), max(vals)))
    tc = bf["tracked"]["cell"]
    tf = bf["tracked"]["iops"]
    tvals = [fullr[tc][k] for k in range(lo, hi + 1) if k in fullr[tc]]
    if abs(tf - sum(tvals) / len(tvals)) > 1e-6 * tf:
        bad.append("full tracked: summary %.3f, records %.3f" % (tf, sum(tvals) / len(tvals)))
    tq = fastv[tc]
    tss = ss[0]["average"] if ss else float("nan")
    if abs(tq / tf - 1) > TOL:
        bad.append("tracked %s: fast %.1f vs full %.1f (%+.1f %%)" % (tc, tq, tf, 100 * (tq / tf - 1)))
    if abs(bq["tracked"]["iops"] - tq) > 1e-6 * tq:
        bad.append("fast block tracked.iops %.3f, records %.3f" % (bq["tracked"]["iops"], tq))
    hf, hq = host_written(full), host_written(fast)
    if hq > 0.5 * hf:
        bad.append("host bytes written: fast %d > half the full run's %d" % (hq, hf))
    print("%s: tracked %s fast %.0f (matrix rounds; tracking phase %.0f, %s) vs full %.0f "
          "(%+.1f %%); %d cells, worst %+.1f %%, %d within the full window's range only; "
          "host bytes %.2f vs %.2f GiB (%.2f)"
          % (name, tc, tq, tss, ss[0]["verdict"] if ss else "?", tf, 100 * (tq / tf - 1),
             len(fastv), 100 * worst, len(second), hq / 2**30, hf / 2**30, hq / hf))
    print("  %s: %d cells steady in the full window by SNIA's rule, %d of them not within 5 %%%s"
          % (name, steady, len(steady_out), (": " + ", ".join(steady_out)) if steady_out else ""))
    for s in second:
        print("  %s: range only: %s" % (name, s))
    for b in bad:
        print("FAIL %s: %s" % (name, b))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
