#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fast_loop_check FILL ZEROS S0 S1 FAST S2: fast_loop_test.sh's checks, from the results
directories (FILL: the sprandom fill alone; FAST: snia-iops-fast),
the count of 4 KiB blocks the test read back as zeros after the fill, and the loop device's
sectors-written counter before the fill (S0), after it (S1) and after the fast run (S2).
Prints what it checked; exits 1 on any failure."""
import json
import math
import sys

fill, zeros, s0, s1, fast, s2 = sys.argv[1:7]
zeros, s0, s1, s2 = int(zeros), int(s0), int(s1), int(s2)
bad = 0


def check(ok, msg):
    global bad
    print(("ok   " if ok else "FAIL ") + msg)
    bad += not ok


def records(d):
    return [json.loads(l) for l in open(d + "/records.jsonl") if l.strip()]


def solves(a, u_over_p):
    """a is the clean validity for u_over_p: (1 - a) / ln(1 / a) = u_over_p (the left side rises
    with a, so the root in (0, 1) is unique)."""
    return 0 < a < 1 and abs((1 - a) / math.log(1 / a) - u_over_p) < 1e-9


def snia(y):
    """The SNIA rule on the last 5 values: data excursion <= 20 % and least-squares slope
    excursion <= 10 % of their average."""
    n = len(y)
    xs = range(n)
    avg = sum(y) / n
    mx = sum(xs) / n
    slope = sum((x - mx) * (v - avg) for x, v in zip(xs, y)) / sum((x - mx) ** 2 for x in xs)
    return max(y) - min(y) <= 0.2 * avg * (1 + 1e-9) and abs(slope) * (n - 1) <= 0.1 * avg * (1 + 1e-9), avg


# 1. the fill alone
ins = json.load(open(fill + "/manifest.json"))["sprandom"][0]["inputs"]
cap = json.load(open(fill + "/manifest.json"))["target"]["capacity"]
check(ins["spare"] == 0.12 and ins["spare_from"] == "profile", "fill: spare %g from %s" % (ins["spare"], ins["spare_from"]))
check(solves(ins["alpha"], 1 - 0.12), "fill: alpha %.9f solves (1 - a) / ln(1 / a) = 0.88" % ins["alpha"])
check(ins["bs"] == 4096 and ins["units"] == cap // 4096 == 32768, "fill: %d units of %d B" % (ins["units"], ins["bs"]))
check(ins["bytes"] == ins["sequence_writes"] * 4096, "fill: %d bytes = %d writes x 4 KiB" % (ins["bytes"], ins["sequence_writes"]))
phys = cap / (1 - 0.12)
check(abs(ins["bytes"] / phys - 1) < 0.02, "fill: %.4f x the physical capacity U / (1 - spare)" % (ins["bytes"] / phys))
w = sum(r.get("bytes_written_total", 0) for r in records(fill))
check(w == ins["bytes"], "fill: records %d bytes written" % w)
check((s1 - s0) * 512 == ins["bytes"], "fill: the kernel counted %d bytes written" % ((s1 - s0) * 512))
check(zeros == 0, "fill: %d blocks of 4 KiB read back as zeros (every unit written)" % zeros)

# 2. snia-iops-fast
recs = records(fast)
summ = json.load(open(fast + "/summary.json"))
ss = [e for e in summ["steady_state"] if e["phase"] == 2]
check(len(ss) == 1, "fast: one steady-state entry for the tracking phase")
ss = ss[0]
track = sorted((r["round"], r["total"]["iops"]) for r in recs if r["kind"] == "cell" and r["phase"] == 2)
y = [v for _, v in track]
first = None
for end in range(5, len(y) + 1):
    ok, avg = snia(y[end - 5:end])
    if ok:
        first = (end - 4, end, avg)
        break
early = ss["early"]
if early["stopped_run"]:
    check(ss["verdict"] != "reached" and first is None and early["round"] == len(y),
          "fast: the early verdict stopped the rounds at %d, before the SNIA window passed" % len(y))
elif first is None:
    # a device this noisy never passes the rule: 25 rounds (max_rounds) and "not_reached"
    check(ss["verdict"] == "not_reached" and len(y) == 25,
          "fast: no SNIA window in %d rounds, verdict %s" % (len(y), ss["verdict"]))
else:
    check(ss["verdict"] == "reached" and (ss["first_round"], ss["last_round"]) == first[:2]
          and abs(ss["average"] - first[2]) <= 1e-9 * first[2] and first[1] == len(y),
          "fast: SNIA window %s of %d rounds, by hand %s" % (
              (ss["first_round"], ss["last_round"], round(ss["average"])), len(y),
              (first[0], first[1], round(first[2]))))
check(ss["wa_guard"]["outcome"] == "unavailable", "fast: WA guard %s (a loop device counts no NAND writes)" % ss["wa_guard"]["outcome"])
sn = summ["snia"][0]
fh = sn["header"]["fast"]
check((fh["tracking_phase"], fh["tracking_rounds"], fh["matrix_phase"], fh["matrix_rounds"]) == (2, len(y), 3, 2),
      "fast: header %d tracking rounds, %d matrix rounds" % (fh["tracking_rounds"], fh["matrix_rounds"]))
check(sn["window"] == {"first_round": 2, "last_round": 2, "over": "fast_matrix_rounds"}, "fast: window %s" % sn["window"])
mat = {(r["cell"], r["round"]): r["total"]["iops"] for r in recs if r["kind"] == "cell" and r["phase"] == 3}
check(sorted({c for c, _ in mat}) == sorted(m["cell"] for m in sn["matrix"]) and len(mat) == 12,
      "fast: %d matrix records, cells %s" % (len(mat), sorted({c for c, _ in mat})))
for m in sn["matrix"]:
    want = mat.get((m["cell"], 2))
    check(want is not None and abs(m["iops"] - want) <= 1e-9 * want, "fast: %s %.0f IOPS = round 2's record" % (m["cell"], m["iops"]))
for t in sn["tracking"]:
    check(t["rounds"] == [1, 2] and all(abs(v - mat[(t["cell"], r)]) <= 1e-9 * v for r, v in zip(t["rounds"], t["iops"])),
          "fast: tracking of %s = rounds 1, 2" % t["cell"])
check(sn["tracked"]["iops"] == [m["iops"] for m in sn["matrix"] if m["cell"] == "rwmix_read=0,bs=4k"][0],
      "fast: tracked RND 4 KiB write %.0f IOPS" % sn["tracked"]["iops"])
w = sum(r.get("bytes_written_total", 0) for r in recs)
check((s2 - s1) * 512 == w, "fast: records %d bytes written, the kernel %d" % (w, (s2 - s1) * 512))
sys.exit(1 if bad else 0)
