#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""qemu_spare_check LOG CAPACITY NAND_GIB: the host's checks of qemu_guest_spare.sh, from the
serial console log. QEMU's second AHCI disk (CAPACITY bytes) is, in the guest's copy of the drive
database, a test-only entry whose raw_nand row states NAND_GIB GiB; the sprandom fill with
`spare: auto` on it must take its spare from there:
  - the manifest's sprandom inputs: spare = 1 - CAPACITY / (NAND_GIB x 2^30) (computed here),
    spare_from "drive database: <the entry's name>", raw_nand_bytes = NAND_GIB x 2^30, the clean
    validity alpha the root of (1 - a) / ln(1 / a) = 1 - spare (checked here), and the
    fill's bytes the sequence's writes x bs (no SLC cache: the profile says 0);
  - `plan` on the disk, before the run, showed the same spare, source and alpha;
  - the records of the fill sum to those bytes, and the kernel's sectors-written counter of sdb
    (/sys/block/sdb/stat field 7) grew by exactly as much over the run;
  - the same fill on the first SATA disk (the database's generic "ATA default" entry, no raw NAND)
    is refused before anything is written: exit 1, the reason names the raw NAND size, no record.
Prints what it saw; exits 1 on any failure."""
import json
import math
import re
import sys

ENTRY = "ssdlab QEMU spare test disk (test only)"
log = open(sys.argv[1], errors="replace").read().replace("\r", "")
cap = int(sys.argv[2])
nand = round(float(sys.argv[3]) * 2**30)
bad = 0


def check(ok, msg):
    global bad
    print(("ok   spare: " if ok else "FAIL spare: ") + msg)
    bad += not ok


def block(tag, want_rc=0):
    m = re.search(r"=== BEGIN %s ===\n(.*?)\n=== END %s rc=(\d+) ===" % (re.escape(tag), re.escape(tag)), log, re.S)
    for line in log.splitlines():
        if line.startswith("stderr %s: " % tag):
            print(line)
    if not m:
        check(False, "no %s block in the console log" % tag)
        return None
    if int(m.group(2)) != want_rc:
        check(False, "%s exited %s, expected %d" % (tag, m.group(2), want_rc))
        return None
    return m.group(1)


def solves(a, u_over_p):
    """a is the clean validity for u_over_p: (1 - a) / ln(1 / a) = u_over_p (the left side rises
    with a, so the root in (0, 1) is unique)."""
    return 0 < a < 1 and abs((1 - a) / math.log(1 / a) - u_over_p) < 1e-9


def sectors_written(stat):
    return int(stat.split()[6])


def main():
    spare = 1 - cap / nand
    print("spare: by hand 1 - %d / %d = %.6f" % (cap, nand, spare))
    plan = block("spare-plan")
    run = block("spare-run")
    man = block("spare-manifest")
    recs = block("spare-records")
    s0, s1 = block("spare-stat0"), block("spare-stat1")
    if None in (plan, run, man, recs, s0, s1):
        return
    ins = json.loads(man)["sprandom"][0]["inputs"]
    check(abs(ins["spare"] - spare) < 1e-12, "manifest spare %.6f" % ins["spare"])
    check(ins["spare_from"] == "drive database: " + ENTRY, "manifest spare_from %r" % ins["spare_from"])
    check(ins.get("raw_nand_bytes") == nand, "manifest raw_nand_bytes %s" % ins.get("raw_nand_bytes"))
    alpha = ins["alpha"]
    check(solves(alpha, 1 - spare), "manifest alpha %.9f solves (1 - a) / ln(1 / a) = %g" % (alpha, 1 - spare))
    check(ins["slc_cache_bytes"] == 0 and ins["bytes"] == ins["sequence_writes"] * ins["bs"],
          "fill bytes %d = %d writes x %d B" % (ins["bytes"], ins["sequence_writes"], ins["bs"]))
    check(ins["units"] == cap // ins["bs"], "units %d = capacity / bs" % ins["units"])
    note = "sprandom here: spare %.2f %% (drive database: %s), clean validity %.4f" % (spare * 100, ENTRY, alpha)
    check(note in plan and "refused" not in plan, "plan: %s" % note)
    written = sum(json.loads(l)["bytes_written_total"] for l in recs.splitlines()
                  if l.strip() and json.loads(l).get("kind") == "precondition")
    check(written == ins["bytes"], "records: %d bytes written" % written)
    d = (sectors_written(s1) - sectors_written(s0)) * 512
    check(d == ins["bytes"], "kernel: sdb sectors written grew by %d bytes" % d)
    # physical capacity about once: the sequence writes U / mean validity (docs/sprandom.md)
    check(0.9 * nand <= ins["bytes"] <= 1.1 * nand, "fill %.3f x the raw NAND" % (ins["bytes"] / nand))
    nodb = block("spare-nodb", want_rc=1)
    ls = block("spare-nodb-ls")
    err = "\n".join(l for l in log.splitlines() if l.startswith("stderr spare-nodb: "))
    check(nodb is not None and "raw NAND size" in err, "first disk refused: %s" % err[-160:])
    check(ls is not None and ls.strip().splitlines()[-1] == "0", "no record on the first disk (%r)" %
          (ls.strip().splitlines()[-1] if ls and ls.strip() else ls))


main()
sys.exit(1 if bad else 0)
