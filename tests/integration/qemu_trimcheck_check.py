#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""qemu_trimcheck_check: the trim-check profile on QEMU's NVMe (qemu_guest.sh's trim-* blocks).

Expected from QEMU's hw/nvme/ns.c (7.2 as today): nvme_ns_init_format() sets NSZE to the image's
blocks and NCAP = NUSE = NSZE ("no thin provisioning"), so NUSE does not fall after a discard and
proves nothing there; nvme_ns_init() sets DLFEAT = 0x1 (deallocated blocks read as zeroes).
Get LBA Status: QEMU 7.2's Identify Controller OACS is 0x10a (qemu_test.sh's drives part checks
it), bit 9 clear, so trim-check does not send it and says why, in the record, the summary and the
headline.
Usage: qemu_trimcheck_check.py SERIAL_LOG NVME_BYTES
"""
import json
import re
import sys

log = open(sys.argv[1], errors="replace").read().replace("\r", "")
nsze = int(sys.argv[2]) // 512  # LBA format 0: 512-byte blocks (qemu_test.sh checks it)
blocks = {t: (out, rc) for t, out, rc in
          re.findall(r"=== BEGIN (\S+) ===\n(.*?)\n=== END \1 rc=(\d+) ===", log, re.S)}
bad = 0


def fail(msg):
    global bad
    print("FAIL trim-check:", msg)
    bad += 1


for t in ("trim-run", "trim-records", "trim-summary"):
    for line in log.splitlines():
        if line.startswith("stderr %s: " % t):
            print(line)
    if blocks.get(t, ("", None))[1] != "0":
        fail("%s: no output or exit %r" % (t, blocks.get(t, (None, None))[1]))
if bad:
    sys.exit(1)
try:
    recs = [json.loads(ln) for ln in blocks["trim-records"][0].splitlines() if ln.strip()]
    tc = [r["trim_check"] for r in recs if r.get("kind") == "trim_check"][0]
    summ = json.loads(blocks["trim-summary"][0])["trim_check"][0]
except (ValueError, KeyError, IndexError) as e:
    print("FAIL trim-check: records or summary unreadable: %r" % e)
    sys.exit(1)
dv, nb, bl = tc["device"], tc["neighbours"], tc["block_layer"]
print("trim-check: supported=%s nsze=%s nuse %s -> %s dlfeat=%s (%s) neighbours %s/%s bad, read back %s, %s" %
      (bl["supported"], dv.get("nvme_nsze"), dv.get("nvme_nuse_before"), dv.get("nvme_nuse_after"),
       dv.get("nvme_dlfeat"), dv.get("nvme_read_after_deallocate"), nb["bad"], nb["blocks"],
       summ["device"]["read_back"], summ["device"]["read_after_trim"]))
if bl["supported"] is not True:
    fail("QEMU's NVMe (discard=unmap) rejected a discard: %r" % bl)
if nb["bad"] != 0 or nb["intact"] is not True or nb["blocks"] <= 0:
    fail("neighbours %r" % nb)
want = {"nvme_nsze": nsze, "nvme_nuse_before": nsze, "nvme_nuse_after": nsze, "nvme_dlfeat": 1,
        "nvme_read_after_deallocate": "zeroes"}
for k, v in want.items():
    if dv.get(k) != v:
        fail("device.%s %r, QEMU reports %r" % (k, dv.get(k), v))
if "nvme_error" in dv:
    fail("nvme_error %r" % dv["nvme_error"])
reason = "the controller does not support Get LBA Status (Identify Controller OACS 0x010a, bit 9 clear)"
if dv.get("nvme_get_lba_status") != {"supported": False, "reason": reason}:
    fail("device.nvme_get_lba_status %r, expected not supported: %r" % (dv.get("nvme_get_lba_status"), reason))
if summ["device"].get("nvme_get_lba_status") != {"supported": False, "reason": reason}:
    fail("summary device.nvme_get_lba_status %r" % summ["device"].get("nvme_get_lba_status"))
if "TRIM check: NVMe Get LBA Status not supported: " + reason not in blocks["trim-run"][0].splitlines():
    fail("no Get LBA Status line in:\n%s" % blocks["trim-run"][0])
sd = summ["device"]
if sd.get("nvme_nuse_fell") is not False or sd.get("read_after_trim") != "deterministic_zeroes":
    fail("summary device %r" % sd)
head = "TRIM check: NVMe utilisation %d -> %d of %d blocks (NUSE = NSZE: not reported, proves nothing); " \
       "deallocated blocks read as zeroes (DLFEAT)" % (nsze, nsze, nsze)
if head not in blocks["trim-run"][0].splitlines():
    fail("no headline line %r in:\n%s" % (head, blocks["trim-run"][0]))
sys.exit(1 if bad else 0)
