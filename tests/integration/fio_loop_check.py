#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fio_loop_check RECORDS FIO_JSON: ssdlab's records of the fio-x profile (fio_loop_test.sh) and
fio's JSON of its export-fio file describe the same I/O. Each side is read here, independently
of ssdlab's reader: the records' per-direction ios/bytes, fio's total_ios/io_bytes per job (the
4 KiB share of a 4k/64k split solved from fio's I/O count and bytes:
n4 + n64 = ios, 4096 n4 + 65536 n64 = bytes). Shares are compared with the profile's 70% within
4 standard deviations of a binomial share (random draws on both sides, randrepeat=0)."""
import json
import math
import sys

KIB4, KIB64 = 4096, 65536
fails = 0


def fail(msg):
    global fails
    print("FAIL: " + msg, file=sys.stderr)
    fails += 1


def share_ok(what, k, n, p=0.70):
    if n <= 0:
        fail(f"{what}: no I/O")
        return
    sd = math.sqrt(p * (1 - p) / n)
    if abs(k / n - p) > 4 * sd:
        fail(f"{what}: share {k}/{n} = {k / n:.3f}, expected {p} +- {4 * sd:.3f}")


def split4k(ios, nbytes):
    """The 4 KiB I/Os of a 4k/64k job from its count and bytes (exact when every I/O is whole)."""
    n64 = (nbytes - KIB4 * ios) / (KIB64 - KIB4)
    if n64 != int(n64):
        fail(f"fio: {ios} I/Os of {nbytes} bytes are not whole 4k/64k I/Os")
    return ios - int(n64)


recs = [json.loads(l) for l in open(sys.argv[1])]
recs = [r for r in recs if r["kind"] in ("precondition", "cell")]
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[2]))["jobs"]}


def rec(phase, rnd):
    m = [r for r in recs if r["phase"] == phase and r["round"] == rnd]
    if len(m) != 1:
        fail(f"records: {len(m)} records for phase {phase} round {rnd}")
        return None
    return m[0]


def fio_job(name):
    if name not in jobs:
        fail(f"fio: no job {name} (jobs: {sorted(jobs)})")
    return jobs.get(name)


# Phase 0: 4 KiB random writes, 4 MiB: exactly 1024 writes on both sides.
r, j = rec(0, 1), fio_job("p0.i0.r0.precondition")
if r and j:
    for who, ios, b, rd in (("ssdlab", r["write"]["ios"], r["write"]["bytes"], r["read"]["ios"]),
                            ("fio", j["write"]["total_ios"], j["write"]["io_bytes"],
                             j["read"]["total_ios"])):
        if (ios, b, rd) != (1024, 4 << 20, 0):
            fail(f"phase 0 {who}: {ios} writes, {b} bytes, {rd} reads; expected 1024, 4 MiB, 0")

# Phase 1: the 4k/70:64k/30 split, 16 MiB: bytes within one 64 KiB I/O, 4k share ~70%.
r, j = rec(1, 1), fio_job("p1.i0.r0.precondition")
if r and j:
    for who, b in (("ssdlab", r["write"]["bytes"]), ("fio", j["write"]["io_bytes"])):
        if not (16 << 20) <= b < (16 << 20) + KIB64 * 4:  # the queue's last I/Os may pass it
            fail(f"phase 1 {who}: {b} bytes written, expected 16 MiB + less than 4 x 64 KiB")
    bs = {x["bs"]: x["ios"] for x in r["io_mix"]["bs"]}
    if sum(bs.values()) != r["write"]["ios"] or set(bs) != {KIB4, KIB64}:
        fail(f"phase 1 ssdlab: io_mix {bs} does not add up to {r['write']['ios']} writes")
    if bs.get(KIB4, 0) * KIB4 + bs.get(KIB64, 0) * KIB64 != r["write"]["bytes"]:
        fail("phase 1 ssdlab: io_mix sizes do not add up to the bytes written")
    share_ok("phase 1 ssdlab 4k share", bs.get(KIB4, 0), r["write"]["ios"])
    f4 = split4k(j["write"]["total_ios"], j["write"]["io_bytes"])
    share_ok("phase 1 fio 4k share", f4, j["write"]["total_ios"])
    print(f"phase 1: ssdlab {r['write']['ios']} writes ({bs.get(KIB4)} 4k), "
          f"fio {j['write']['total_ios']} ({f4} 4k)")

# Phase 2: 5 rounds of one randrw cell: one fio job per round; read share ~70%, split ~70% 4k.
for rnd in range(1, 6):
    r, j = rec(2, rnd), fio_job(f"p2.i0.r{rnd}.all")
    if not (r and j):
        continue
    share_ok(f"round {rnd} ssdlab read share", r["read"]["ios"], r["read"]["ios"] + r["write"]["ios"])
    fr, fw = j["read"]["total_ios"], j["write"]["total_ios"]
    share_ok(f"round {rnd} fio read share", fr, fr + fw)
    f4 = split4k(fr + fw, j["read"]["io_bytes"] + j["write"]["io_bytes"])
    share_ok(f"round {rnd} fio 4k share", f4, fr + fw)
    share_ok(f"round {rnd} ssdlab 4k share", r["io_mix"]["bs"][0]["ios"], r["total"]["ios"])
    print(f"round {rnd}: ssdlab {r['read']['ios']} reads / {r['write']['ios']} writes, "
          f"fio {fr} / {fw}")
if len(jobs) != 7:
    fail(f"fio ran {len(jobs)} jobs, expected 7 (2 preconditions, 5 rounds of 1 cell)")
sys.exit(1 if fails else 0)
