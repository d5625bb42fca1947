#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""snia_hir_check DIR MODEL.yaml MODE [COUNT RECOVER_S]: the SNIA host idle recovery block of
summary.json, every number recomputed here from records.jsonl (and the manifest), the record
order against the order written out below by hand, and what MODE asks of the figures:

  aggressive  the bursts after a 50 s wait reach at least 1.2 x the IOPS of those after 5 s
  noidle      every wait state's mean burst IOPS lies within 10% of the steady-state IOPS
  floor       the waits as the runner applied them: max(wait as scaled, 2 x the model's idle-GC
              delay in target time), the delay from the model file (MODEL.yaml), and the reason
              recorded exactly where the floor raised a wait
  any         none (the block and the order only)

COUNT (bursts per wait state) and RECOVER_S (seconds of each return to baseline) are what the
test set with --set; without them the profile's 360 and 1800 s.

recompute(d) is also imported by headline_check.py for the headline's HIR lines.
"""
import json
import math
import re
import sys

# The profile's wait states, by the phase of their bursts, written out by hand from
# profiles/snia-hir.yaml: phase 2 waits 5 s, then its return to baseline is phase 3, ...
WAITS = {2: 5e9, 4: 10e9, 6: 15e9, 8: 25e9, 10: 50e9}
ROUNDS_PHASE = 1


def load(d):
    summary = json.load(open(d + "/summary.json"))
    manifest = json.load(open(d + "/manifest.json"))
    recs = [json.loads(line) for line in open(d + "/records.jsonl") if line.strip()]
    return summary, manifest, recs


def is_hir(manifest):
    pts = manifest.get("pts")
    if isinstance(pts, dict):
        return pts.get("test") == "hir"
    return manifest["profile"]["name"].startswith("snia-hir")


def iops(r):
    return r["total"]["ios"] * 1e9 / r["elapsed_ns"] if r["elapsed_ns"] else None


def recompute(d):
    """The hir block ssdlab should have written for results directory d, or None."""
    summary, manifest, recs = load(d)
    if not is_hir(manifest):
        return None
    pts = [r for r in recs if r["kind"] == "burst"]
    if not pts:
        return None
    first = recs.index(pts[0])
    pts = [r for r in recs[first:] if r["kind"] in ("burst", "write_until") and "elapsed_ns" in r]
    # the steady state: the window of the last rounds phase before the first burst, averaged
    # here over its cell records (one per round: the mean of the rounds' IOPS)
    ss = [s for s in summary["steady_state"] if s["phase"] < pts[0]["phase"]]
    ss = max(ss, key=lambda s: s["phase"]) if ss else None
    steady = None
    if ss:
        win = [iops(r) for r in recs if r["kind"] == "cell" and r["phase"] == ss["phase"] and
               r["repeat"] == ss["repeat"] and ss["first_round"] <= r["round"] <= ss["last_round"]]
        steady = sum(win) / len(win)
    states = []
    for r in pts:
        if r["kind"] != "burst":
            continue
        if not states or (states[-1]["phase"], states[-1]["repeat"]) != (r["phase"], r["repeat"]):
            states.append({"phase": r["phase"], "repeat": r["repeat"],
                           "wait_profile_ns": r["wait_profile_ns"], "wait_ns": r["wait_ns"],
                           "wait_floored": r["wait_floor_reason"] is not None,
                           "series": {"burst": [], "iops": [], "wait_ns": []}})
        s = states[-1]["series"]
        s["burst"].append(r["round"])
        s["iops"].append(iops(r))
        s["wait_ns"].append(r["wait_ns"])
    for s in states:
        v = s["series"]["iops"]
        s["bursts"] = len(v)
        s["mean_iops"] = sum(v) / len(v)
        s["of_steady"] = s["mean_iops"] / steady if steady else None
    t0 = pts[0]["start_ns"]
    ts = pts[0].get("time_scale", 1)
    return {"test": "hir", "steady_iops": steady, "steady_state": ss,
            "phase": ss["phase"] if ss else None,
            "power_states": manifest.get("drive_settings", {}).get("power_states"),
            "wait_states": states,
            "iops_vs_time": {"t_ns": [r["end_ns"] - t0 for r in pts],
                             "t_profile_ns": [(r["end_ns"] - t0) / ts for r in pts],
                             "iops": [iops(r) for r in pts], "phase": [r["phase"] for r in pts],
                             "kind": [r["kind"] for r in pts]}}


def close(a, b):
    if a is None or b is None:
        return a is b
    if isinstance(a, str) or isinstance(b, str) or isinstance(a, bool) or isinstance(b, bool):
        return a == b
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def compare(got, want, at, errors):
    if isinstance(want, dict):
        if not isinstance(got, dict):
            errors.append("%s: %r is not an object" % (at, got))
            return
        for k, v in want.items():
            if k not in got:
                errors.append("%s.%s: missing" % (at, k))
            else:
                compare(got[k], v, at + "." + k, errors)
    elif isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            errors.append("%s: %d entries, records give %d" % (at, len(got or []), len(want)))
            return
        for i, (g, w) in enumerate(zip(got, want)):
            compare(g, w, "%s[%d]" % (at, i), errors)
    elif not close(got, want):
        errors.append("%s: summary %r, records give %r" % (at, got, want))


def order_errors(recs, count, recover_ns, round_ns):
    """The records' order against the profile's, written out by hand: the purge, the rounds
    to steady state (5 .. 25 rounds of one cell), then per wait state its `count` bursts in
    order and its return to baseline in round_ns chunks (a chunk that overran its time by its
    drain makes the phase end a chunk or a few early: at least half of them; one at least)."""
    errors = []
    keys = [(r["kind"], r["phase"], r["round"]) for r in recs if r["kind"] != "resume"]
    want = [("purge", 0, 0)]
    n_rounds = sum(1 for k in keys if k[0] == "cell")
    if not 5 <= n_rounds <= 25:
        errors.append("%d steady-state rounds (5 .. 25 expected)" % n_rounds)
    want += [("cell", ROUNDS_PHASE, i) for i in range(1, n_rounds + 1)]
    full = int(round(recover_ns / round_ns))
    for p in sorted(WAITS):
        want += [("burst", p, i) for i in range(1, count + 1)]
        n = sum(1 for k in keys if k[:2] == ("write_until", p + 1))
        if not max(1, full // 2) <= n <= full:
            errors.append("phase %d: %d chunks of the return to baseline (%d .. %d expected)" %
                          (p + 1, n, full // 2, full))
        want += [("write_until", p + 1, i) for i in range(1, n + 1)]
    if keys != want:
        for i, (g, w) in enumerate(zip(keys + [None] * len(want), want + [None] * len(keys))):
            if g != w:
                errors.append("record %d is %r, the profile's order has %r" % (i + 1, g, w))
                break
    return errors


def model_delay_ns(path):
    """2 x the model's idle-GC delay in target time (0 when its idle GC is off), from the file:
    delay x user_capacity / represents, as the simulator scales it."""
    text = open(path).read()
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    dur = {"ms": 1e6, "us": 1e3, "ns": 1, "s": 1e9}

    def top(key):
        return re.search(r"^%s: *(\S+)" % key, text, re.M).group(1)
    cap = top("user_capacity")
    cap = float(cap[:-1]) * units[cap[-1].lower()] if cap[-1].lower() in units else float(cap)
    rep = float(top("represents"))
    block = re.search(r"^idle_gc:\n((?:  .*\n)+)", text, re.M).group(1)
    if re.search(r"enabled: *false", block):
        return 0
    m = re.search(r"delay: *([0-9.]+)(ms|us|ns|s)", block)
    return 2 * int(float(m.group(1)) * dur[m.group(2)] * (cap / rep))


def main():
    d, model, mode = sys.argv[1:4]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 360
    recover_ns = float(sys.argv[5]) * 1e9 if len(sys.argv) > 5 else 1800e9
    summary, manifest, recs = load(d)
    errors = []
    want = recompute(d)
    blocks = [b for b in summary.get("snia", []) if b.get("test") == "hir"]
    if want is None or len(blocks) != 1:
        print("snia_hir_check: %d hir blocks in summary.json, records give %s" %
              (len(blocks), "one" if want else "none"))
        return 1
    got = blocks[0]
    compare(got["steady_iops"], want["steady_iops"], "steady_iops", errors)
    compare(got["steady_state"], want["steady_state"], "steady_state", errors)
    compare(got["phase"], want["phase"], "phase", errors)
    compare(got["header"]["power_states"], want["power_states"], "header.power_states", errors)
    compare(got["wait_states"], want["wait_states"], "wait_states", errors)
    compare(got["iops_vs_time"], want["iops_vs_time"], "iops_vs_time", errors)
    # the waits as written, by hand, in the profile's order
    got_waits = [s["wait_profile_ns"] for s in want["wait_states"]]
    if got_waits != [WAITS[p] for p in sorted(WAITS)] or \
            [s["phase"] for s in want["wait_states"]] != sorted(WAITS):
        errors.append("wait states %r, the profile has %r" % (got_waits, WAITS))
    for s in want["wait_states"]:
        if s["bursts"] != count:
            errors.append("phase %d: %d bursts, %d set" % (s["phase"], s["bursts"], count))
    # the round time of the returns to baseline: 1 minute as the profile writes it
    errors += order_errors(recs, count, recover_ns, 60e9)
    # every burst's wait as applied: the scaled wait, raised to the floor
    floor = model_delay_ns(model)
    floored = 0
    for r in recs:
        if r["kind"] != "burst":
            continue
        scaled = int(r["wait_profile_ns"] * r["time_scale"])
        if abs(r["wait_scaled_ns"] - scaled) > 1 or r["wait_profile_ns"] != WAITS[r["phase"]]:
            errors.append("burst %d/%d: wait %r scaled %r, expected %r of %r" % (
                r["phase"], r["round"], r["wait_profile_ns"], r["wait_scaled_ns"], scaled,
                WAITS[r["phase"]]))
        applied = max(r["wait_scaled_ns"], floor)
        if r["wait_ns"] != applied or (r["wait_floor_reason"] is not None) != (floor > r["wait_scaled_ns"]):
            errors.append("burst %d/%d: wait applied %r (reason %r), expected %r" % (
                r["phase"], r["round"], r["wait_ns"], r["wait_floor_reason"], applied))
        floored += floor > r["wait_scaled_ns"]
        # the gap before the burst is the wait: the previous record's end + the wait
    for a, b in zip(recs, recs[1:]):
        if b["kind"] == "burst" and a["kind"] in ("burst", "write_until", "cell") and \
                b["start_ns"] - a["end_ns"] != b["wait_ns"]:
            errors.append("burst %d/%d starts %d ns after the record before it, not its wait %d" %
                          (b["phase"], b["round"], b["start_ns"] - a["end_ns"], b["wait_ns"]))
            break
    st = {s["wait_profile_ns"]: s for s in want["wait_states"]}
    if mode == "aggressive":
        if not st[50e9]["mean_iops"] >= 1.2 * st[5e9]["mean_iops"]:
            errors.append("after a 50 s wait %.0f IOPS, after 5 s %.0f: not 20%% more" %
                          (st[50e9]["mean_iops"], st[5e9]["mean_iops"]))
        print("aggressive: 5 s %.0f IOPS, 50 s %.0f IOPS (%.2fx)" % (
            st[5e9]["mean_iops"], st[50e9]["mean_iops"], st[50e9]["mean_iops"] / st[5e9]["mean_iops"]))
    elif mode == "noidle":
        for s in want["wait_states"]:
            if abs(s["mean_iops"] / want["steady_iops"] - 1) > 0.10:
                errors.append("wait %.0f s: %.0f IOPS, steady %.0f: beyond 10%%" % (
                    s["wait_profile_ns"] / 1e9, s["mean_iops"], want["steady_iops"]))
        print("noidle: steady %.0f IOPS, wait states %s" % (
            want["steady_iops"], ", ".join("%.3f" % (s["mean_iops"] / want["steady_iops"])
                                           for s in want["wait_states"])))
    elif mode == "floor":
        if not floor or not floored:
            errors.append("no wait was raised to the floor (%d ns): the test shows nothing" % floor)
        print("floor: %d ns, %d bursts raised to it" % (floor, floored))
    for e in errors[:20]:
        print("snia_hir_check: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
