# SPDX-License-Identifier: MIT
"""snia_xsr_check: recomputes summary.json's SNIA XSR block from records.jsonl (issue 16 point 2).

Usage: snia_xsr_check.py RESULTS_DIR [recovered|not-recovered]

Independent of ssdlab's analysis: the groups, their throughput and response times, and the
recovery time by the rule as docs/results-format.md states it, written again here. Also checks
the record order against the one the profile must give (a purge, then the three access groups'
write_until records, rounds 1..n each, SEQ 1024 KiB, RND 8 KiB, SEQ 1024 KiB, each record's
bytes per I/O the group's block size), and that each group ran for its time bound. xsr_block()
is what snia_blocks_check.recompute() uses for an XSR run. Exit 0 when all holds, 1 with the
reasons on stderr.
"""
import json
import sys

import snia_blocks_check as sbc

BAND = 0.10     # within 10% of group 1's average ...
IN_ROW = 3      # ... for 3 samples in a row (analysis/recovery.h's rule)
RULE_TEXT = ("group 3 is back at group 1's average throughput (bytes over time of the whole "
             "group) at the first of 3 samples in a row within 10% of it; recovery time: group "
             "3's writing time before that sample; not recovered when no 3 samples in a row are")
# The profile's access groups, written out from the reference (snia_pts.md, XSR).
GROUPS = [("write", 1 << 20), ("randwrite", 8 << 10), ("write", 1 << 20)]


def nan_to_none(v):
    return None if v is None or v != v else v


def sample_of(r):
    hs = [r[d]["hist"] for d in ("read", "write")]
    m = sbc.merge(hs)
    return {"elapsed": r["elapsed_ns"], "ramp": r.get("ramp_ns") or 0,
            "bytes": r["total"]["bytes"], "ios": r["total"]["ios"],
            "bytes_total": r["bytes_written_total"],
            "mean": m["sum"] / m["count"] if m["count"] else None,
            "max": m["max"] if m["count"] else None}


def mb_s(bytes_, ns):
    return bytes_ * 1e3 / ns if ns else None


def recovery(ref, g3):
    """The first of IN_ROW samples in a row within BAND of ref: (sample, ns before, bytes before,
    first in band, samples judged), sample None when there is no such run."""
    run, first_in, w_ns, w_b, start = 0, None, 0, 0, None
    for i, s in enumerate(g3):
        v = mb_s(s["bytes"], s["elapsed"])
        if v is not None and abs(v - ref) <= BAND * ref:
            if first_in is None:
                first_in = i + 1
            if run == 0:
                start = (i + 1, w_ns, w_b)
            run += 1
            if run == IN_ROW:
                return start + (first_in, i + 1)
        else:
            run = 0
        w_ns += s["elapsed"] + s["ramp"]
        w_b += s["bytes_total"]
    return (None, None, None, first_in, len(g3))


def xsr_block(manifest, recs):
    """The keys pass_snia_xsr.c adds to the block: time_scale, groups, recovery."""
    phases = []
    for r in recs:
        if r["kind"] == "write_until" and (r["phase"], r["repeat"]) not in phases:
            phases.append((r["phase"], r["repeat"]))
    scale, t, groups, samples = None, 0, [], []
    for gi, (p, rep) in enumerate(phases):
        rs = [r for r in recs if r["kind"] == "write_until" and r["phase"] == p and
              r["repeat"] == rep]
        if scale is None and rs and rs[0].get("time_scale"):
            scale = rs[0]["time_scale"]
        sc = scale or 1
        ss = [sample_of(r) for r in rs]
        samples.append(ss)
        wl = manifest["plan"]["phases"][p]["settings"]["workload"]
        el = sum(s["elapsed"] for s in ss)
        by = sum(s["bytes"] for s in ss)
        lat = [s for s in ss if s["mean"] is not None and s["ios"]]
        g = {"group": gi + 1, "phase": p, "repeat": rep, "rw": wl["rw"],
             "bs": wl["bs"][0]["bs"] if len(wl["bs"]) == 1 else None,
             "threads": wl["threads"], "qd": wl["qd"], "samples": len(ss), "start_ns": t,
             "elapsed_ns": el, "elapsed_profile_ns": el / sc, "bytes": by,
             "ios": sum(s["ios"] for s in ss), "mb_s": mb_s(by, el),
             "end_mb_s": mb_s(ss[-1]["bytes"], ss[-1]["elapsed"]) if ss else None,
             "lat_mean_ns": (sum(s["mean"] * s["ios"] for s in lat) / sum(s["ios"] for s in lat)
                             if lat else None),
             "art_peak_ns": max((s["mean"] for s in lat), default=None),
             "mrt_ns": max((s["max"] for s in ss if s["max"] is not None), default=None)}
        ser = {"t_ns": [], "t_profile_ns": [], "mb_s": [], "lat_mean_ns": [], "lat_max_ns": []}
        for s in ss:
            t += s["elapsed"] + s["ramp"]
            ser["t_ns"].append(t)
            ser["t_profile_ns"].append(t / sc)
            ser["mb_s"].append(mb_s(s["bytes"], s["elapsed"]))
            ser["lat_mean_ns"].append(s["mean"])
            ser["lat_max_ns"].append(s["max"])
        g["series"] = ser
        groups.append(g)
    sc = scale or 1
    ref = groups[0]["mb_s"] if groups else None
    rec = {"reference_mb_s": ref, "rule": "first_of_consecutive_in_band", "band": BAND,
           "samples_in_row": IN_ROW, "rule_text": RULE_TEXT}
    judged = len(groups) >= 3 and bool(samples[2]) and ref is not None and ref > 0
    if judged:
        sample, ns, b, first_in, n = recovery(ref, samples[2])
    else:
        sample, ns, b, first_in, n = None, None, None, None, 0
    rec["status"] = "not judged" if not judged else "recovered" if sample else "not recovered"
    if not judged:
        rec["why"] = ("fewer than 3 access groups" if len(groups) < 3
                      else "group 1 or 3 has no throughput")
    rec.update({"recovered": bool(sample), "samples_judged": n, "sample": sample,
                "after_ns": ns, "after_profile_ns": ns / sc if sample else None,
                "after_bytes": b, "first_in_band_sample": first_in})
    return {"time_scale": float(sc), "groups": groups, "recovery": rec}


def check_order(d, manifest, recs, errors):
    """The records in the order the profile gives them, each group for its time bound."""
    keys = [(r["kind"], r["phase"]) for r in recs if r["kind"] != "resume"]
    want_phases = [("purge", 0)] + [("write_until", p) for p in (1, 2, 3)]
    seen = []
    for k in keys:
        if not seen or seen[-1] != k:
            seen.append(k)
    if seen != want_phases:
        errors.append("record order %r, want %r" % (seen, want_phases))
        return
    for p, (rw, bs) in zip((1, 2, 3), GROUPS):
        rs = [r for r in recs if r["kind"] == "write_until" and r["phase"] == p]
        if [r["round"] for r in rs] != list(range(1, len(rs) + 1)):
            errors.append("phase %d: rounds %r are not 1..%d" % (p, [r["round"] for r in rs],
                                                                 len(rs)))
        wl = manifest["plan"]["phases"][p]["settings"]["workload"]
        if wl["rw"] != rw or [x["bs"] for x in wl["bs"]] != [bs] or (wl["threads"], wl["qd"]) != (1, 32):
            errors.append("phase %d: plan workload %r, want %s %d TC1/QD32" % (p, wl, rw, bs))
        for r in rs:
            if r["total"]["ios"] and r["total"]["bytes"] != bs * r["total"]["ios"]:
                errors.append("phase %d round %d: %d bytes in %d I/Os, not %d each" %
                              (p, r["round"], r["total"]["bytes"], r["total"]["ios"], bs))
                break
            if r["read"]["ios"]:
                errors.append("phase %d round %d: reads in a write group" % (p, r["round"]))
                break
        # The time bound: the group ran at least its amount (scaled) and stopped within the last
        # record (a record is at most a round of target time plus its drain).
        bound = wl["length"]["time_ns"] * rs[0]["time_scale"]
        el = sum(r["elapsed_ns"] for r in rs)
        if not (bound <= el <= bound + max(r["elapsed_ns"] for r in rs)):
            errors.append("phase %d: %d ns measured for a bound of %d ns" % (p, el, bound))


if __name__ == "__main__":
    d = sys.argv[1]
    errors = []
    manifest = json.load(open(d + "/manifest.json"))
    recs = [json.loads(line) for line in open(d + "/records.jsonl") if line.strip()]
    blocks = sbc.check(d, errors)
    if [b["test"] for b in blocks] != ["xsr"]:
        errors.append("blocks %r, want one xsr block" % [b["test"] for b in blocks])
    check_order(d, manifest, recs, errors)
    got = json.load(open(d + "/summary.json"))["snia"]
    if len(sys.argv) > 2 and got:
        st = got[0]["recovery"]["status"]
        if st != sys.argv[2].replace("-", " "):
            errors.append("recovery %r, the test expects %r" % (st, sys.argv[2]))
    for e in errors[:30]:
        print("  %s: %s" % (d, e), file=sys.stderr)
    if not errors:
        r = got[0]["recovery"]
        print("%s: xsr block equals the records (%s%s)" %
              (d, r["status"], ", sample %d" % r["sample"] if r["sample"] else ""))
    sys.exit(1 if errors else 0)
