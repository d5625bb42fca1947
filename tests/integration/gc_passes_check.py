#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gc_passes_check: checks a gc-passes run on the virtual SSD against the simulator's own
counters, never against ssdlab's analysis (gc_passes_test.sh).

usage: gc_passes_check.py RUN_DIR TWIN_DIR MODEL_YAML PIECE_BYTES

RUN_DIR: the bundled gc-passes profile. TWIN_DIR: the same profile with every pass written as
pieces of PIECE_BYTES (each its own phase, so each has start and end snapshots) up to a bound,
then the rest of the range in one piece. The simulator is deterministic and the twin writes the
same LBAs in the same order, so its FTL goes through the same states; the counters around each
piece say where, in each pass, garbage collection took over: the first piece in which GC wrote
at least as much to NAND as the host did (nand_bytes_written_gc >= nand_bytes_written_host over
the piece: at least half the NAND's program bandwidth spent on GC, so the host gets at most
half the fast speed, well past the fit's 20% drop). A trickle of GC (an erase-only victim, a few
relocated pages) does not slow the host and does not count.

The truth of a pass's fast region: the host bytes written in the twin's pass before that piece
(known to one piece), plus the model's write buffer: the runner drains the buffer at each
phase's end (the counters show host = NAND host bytes at every snapshot), so the twin's pieces
see GC start at the NAND's position, while in the continuous pass the host's writes are acked
from the buffer and run that far ahead of the NAND when the drop comes.

Checks:
  - 4 passes, each over the whole capacity, the rests between them 2 min (profile time);
  - pass 1 (straight after random-write steady state: GC from the first piece): no drop;
  - passes 2-4: a drop; the estimate within its own bounds and within 20 % of the truth; the
    reported bootstrap bounds [fast_bytes_lo, fast_bytes_hi] meet the truth's band [truth,
    truth + piece + 20 %] (the bounds are the fit's noise; where in the transition its edge sits
    is the 20 % below).
    Why 20 %: GC is paced, so the speed falls over a transition of several MB (9 MB in pass 2
    on idle-gc-aggressive: 60 to 69 MB of the pass, fast and slow samples alternating) and
    the fit's edge lies anywhere in it, while the truth is its start; the bounds, which are
    the fit's own statement, are checked against the truth more tightly;
  - the fast region grows pass by pass, in the truth and in the estimates (the experiment's
    finding, SNIA's article: each pass rewrites in order what the previous one left).
"""
import glob
import json
import os
import re
import sys

import yaml


def size(v):
    if isinstance(v, (int, float)):
        return float(v)
    m = re.fullmatch(r"([0-9.]+)([kmgt]?)", str(v).strip().lower())
    return float(m.group(1)) * 1024 ** "_kmgt".index(m.group(2) or "_")


def twin_truth(d):
    """Per pass of the twin: (bytes before the first GC-dominated piece, counters at the start)."""
    passes, cur = [], None
    for f in sorted(glob.glob(os.path.join(d, "snapshots", "*.json"))):
        j = json.load(open(f))
        m = re.fullmatch(r"phase-(\d+)-(\w+)-(start|end)", j.get("label", ""))
        if not m:
            continue
        c = {k: v["value"] for k, v in j["counters"].items()}
        if m.group(2) != "write_until":
            cur = None  # an idle or the rounds: the next piece starts a pass
            continue
        if cur is None:
            cur = []
            passes.append(cur)
        if m.group(3) == "start":
            cur.append([c, None])
        else:
            cur[-1][1] = c
    out = []
    for p in passes:
        base = p[0][0]
        t = None
        for a, b in p:
            host = b["nand_bytes_written_host"] - a["nand_bytes_written_host"]
            gc = b["nand_bytes_written_gc"] - a["nand_bytes_written_gc"]
            if b["host_bytes_written"] != b["nand_bytes_written_host"]:
                raise SystemExit("FAIL: the twin's buffer was not drained at a piece's end")
            if gc >= host:
                t = a["host_bytes_written"] - base["host_bytes_written"]
                break
        out.append((t, base))
    return out


def main():
    run, twin, model_file, piece = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    fails = []
    model = yaml.safe_load(open(model_file))
    buf = size(model.get("write_buffer", 0))
    cap = json.load(open(os.path.join(run, "manifest.json")))["target"]["capacity"]
    g = json.load(open(os.path.join(run, "summary.json"))).get("gc_passes")
    if not g:
        print("FAIL: no gc_passes in summary.json")
        return 1
    ps = g["passes"]
    truth = twin_truth(twin)
    if len(ps) != 4 or len(truth) != 4:
        fails.append(f"{len(ps)} passes reported, {len(truth)} in the twin, want 4")
    for i, p in enumerate(ps):
        if p["bytes_written"] != cap:
            fails.append(f"pass {i + 1} wrote {p['bytes_written']} B, not the capacity {cap}")
        want = 0 if i == 0 else 120e9
        if p["rest_profile_ns"] != want:
            fails.append(f"pass {i + 1}: rest {p['rest_profile_ns']} ns, want {want:.0f}")
    est_prev = truth_prev = 0
    for i, (p, (t, base)) in enumerate(zip(ps, truth)):
        if t is None:
            fails.append(f"pass {i + 1}: the twin's GC never took over")
            continue
        tb = t + buf
        print(f"pass {i + 1}: free blocks at the start {base['free_blocks']:.0f}, GC takes over "
              f"after {t / 1e6:.1f} MB (+ {buf / 1e6:.1f} MB buffer = {tb / 1e6:.1f}); reported "
              f"drop {p['drop']} fast {p['fast_bytes']} [{p['fast_bytes_lo']}, {p['fast_bytes_hi']}]")
        if i == 0:
            if p["drop"]:
                fails.append("pass 1 (GC from the start) reports a fast region")
            continue
        if not p["drop"]:
            fails.append(f"pass {i + 1}: no drop reported, the counters say {tb / 1e6:.1f} MB")
            continue
        est, lo, hi = p["fast_bytes"], p["fast_bytes_lo"], p["fast_bytes_hi"]
        if abs(est / tb - 1) > 0.20:
            fails.append(f"pass {i + 1}: fast region {est / 1e6:.1f} MB, counters {tb / 1e6:.1f} (20%)")
        # the bounds state the fit's noise, not where in the transition its edge sits: they must
        # meet the truth's band, from GC's start to the 20 % the transition may span (see above)
        band_hi = tb + piece + 0.20 * tb
        if est < lo or est > hi:
            fails.append(f"pass {i + 1}: estimate {est / 1e6:.1f} MB outside its bounds "
                         f"[{lo / 1e6:.1f}, {hi / 1e6:.1f}]")
        if hi < tb or lo > band_hi:
            fails.append(f"pass {i + 1}: bounds [{lo / 1e6:.1f}, {hi / 1e6:.1f}] MB miss the counters' "
                         f"[{tb / 1e6:.1f}, {band_hi / 1e6:.1f}]")
        if i >= 2 and not (est > est_prev and tb > truth_prev):
            fails.append(f"pass {i + 1}: the fast region did not grow ({est_prev} -> {est}, truth "
                         f"{truth_prev} -> {tb})")
        est_prev, truth_prev = est, tb
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
