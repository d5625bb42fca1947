#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fio_analyze_check FIO_JSON SUMMARY: `ssdlab analyze --fio` (SUMMARY, its summary.json) against
fio's own JSON (json+):
  - every percentile of ours is fio's own clat_ns.percentile, and the percentile computed here
    from json+'s bins (first bin where the cumulative count reaches p% of the total, compared
    exactly with p the double it is, as Debian's fio binary decides: 99.95% of 2000 is
    1999 + 6e-14, so the 2000th sample answers, and 60% of 1665 is 999, so the 999th does);
  - each job's I/O count, bytes and IOPS are fio's;
  - the steady state of each export-fio cell series is the SNIA rule computed here over fio's
    per-round IOPS (last window of 5 rounds, or the first steady window: data excursion <= 20%
    and least-squares slope excursion <= 10% of the window average)."""
import json
import sys
from fractions import Fraction

fails = 0


def fail(msg):
    global fails
    print("FAIL: " + msg, file=sys.stderr)
    fails += 1


def pct_from_bins(bins, p):
    items = sorted((int(k), c) for k, c in bins.items())
    total = sum(c for _, c in items)
    s = 0
    for v, c in items:
        s += c
        if s >= Fraction(p) / 100 * total:
            return v
    return None


fio = json.load(open(sys.argv[1]))
ours = json.load(open(sys.argv[2]))
if ours.get("source") != "fio" or ours.get("histogram") is not True:
    fail("summary: source is not fio or no histogram was read")
jobs = {j["name"]: j for j in ours["jobs"]}
checked = 0
for fj in fio["jobs"]:
    oj = jobs.get(fj["jobname"])
    if oj is None:
        fail(f"summary has no job {fj['jobname']}")
        continue
    for d in ("read", "write"):
        fd, od = fj[d], oj[d]
        if (od["ios"], od["bytes"]) != (fd["total_ios"], fd["io_bytes"]) or abs(od["iops"] - fd["iops"]) > 1e-6 * max(1, fd["iops"]):
            fail(f"{fj['jobname']} {d}: ios/bytes/iops differ from fio's")
        if not fd["total_ios"]:
            continue
        fp = fd["clat_ns"]["percentile"]
        op = od["clat_ns_percentiles"]
        for k, fv in fp.items():
            p = float(k)
            ov = op.get("%g" % p)
            if ov is None:
                fail(f"{fj['jobname']} {d}: no percentile {p}")
                continue
            if ov != fv:
                fail(f"{fj['jobname']} {d} p{p}: ours {ov} ns, fio {fv} ns")
            here = pct_from_bins(fd["clat_ns"]["bins"], p)
            if here != ov:
                fail(f"{fj['jobname']} {d} p{p}: ours {ov} ns, from the bins {here} ns")
            checked += 1

# the SNIA steady-state rule over fio's per-round IOPS, by hand
series = {}
for fj in fio["jobs"]:
    parts = fj["jobname"].split(".", 3)
    if len(parts) == 4 and parts[2].startswith("r") and parts[2] != "r0":
        series.setdefault((parts[0], parts[1], parts[3]), []).append(
            fj["read"]["iops"] + fj["write"]["iops"])


def steady(w):
    n = len(w)
    xs = list(range(n))
    avg = sum(w) / n
    mx = sum(xs) / n
    slope = sum((x - mx) * (y - avg) for x, y in zip(xs, w)) / sum((x - mx) ** 2 for x in xs)
    return (max(w) - min(w) <= 0.2 * avg * (1 + 1e-9) and abs(slope) * (n - 1) <= 0.1 * avg * (1 + 1e-9)), avg


if len(ours["steady_state"]) != len(series):
    fail(f"{len(ours['steady_state'])} steady-state series, expected {len(series)}")
for e in ours["steady_state"]:
    y = series.get((f"p{e['phase']}", f"i{e['iteration']}", e["cell"]))
    if y is None:
        fail(f"steady state of an unknown series {e['cell']}")
        continue
    verdict, avg = "too_few" if len(y) < 5 else None, None
    if verdict is None:
        for end in range(5, len(y) + 1):
            ok, avg = steady(y[end - 5:end])
            if ok:
                verdict = "reached"
                break
        if verdict is None:
            avg = steady(y[-5:])[1]
            verdict = "not_reached" if len(y) >= 25 else "not_yet"
    r = e["result"]
    if r["verdict"] != verdict or (avg is not None and abs(r["average"] - avg) > 1e-6 * avg):
        fail(f"steady state {e['cell']}: ours {r['verdict']} avg {r['average']}, by hand {verdict} avg {avg}")
    print(f"steady state p{e['phase']} {e['cell']}: {len(y)} rounds, {verdict}")
if not checked:
    fail("no percentile was checked")
print(f"{checked} percentiles equal to fio's")
sys.exit(1 if fails else 0)
