#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""qemu_ns_check: the host's checks of qemu_guest_ns.sh, from the serial console log (argv[1]);
argv[2] is the NVMe image's size in bytes as QEMU was given it.
  - `namespace /dev/nvme0n1 --json`: namespace 1 of nsze = ncap = bytes / 512 blocks (QEMU's
    nvme-ns defaults to LBA format 0, 512-byte blocks, no metadata: hw/nvme/ns.c), and namespace
    management refused with its reason: QEMU 7.2 sets OACS bit 3 but its Commands Supported and
    Effects log (0x05) does not list Namespace Management (0x0D).
  - the text names the size in blocks and bytes.
  - `--set 50%` (with and without --dry-run) exits 4 (EXIT_CAPABILITY), "no change made"; the
    layout read afterwards is the one before; `restore` of the journal directory named exits 0
    (nothing pending: the refusal came before the journal).
  - `namespace /dev/sda` exits 4: namespaces are NVMe's.
Prints what it saw; exits 1 on any failure."""
import json
import re
import sys

log = open(sys.argv[1], errors="replace").read().replace("\r", "")
NVME_BYTES = int(sys.argv[2])
blocks = {t: (out, int(rc)) for t, out, rc in
          re.findall(r"=== BEGIN (\S+) ===\n(.*?)\n=== END \1 rc=(\d+) ===", log, re.S)}
bad = 0


def fail(msg):
    global bad
    print("FAIL namespace: " + msg)
    bad += 1


def stderr(tag):
    return "\n".join(l for l in log.splitlines() if l.startswith("stderr %s: " % tag))


tags = ("ns-nvme", "ns-nvme-text", "ns-nvme-set-dry", "ns-nvme-set", "ns-nvme-restore",
        "ns-nvme-after", "ns-sata")
for tag in tags:
    if tag not in blocks:
        fail("no %s block in the console log" % tag)
    else:
        print("%s: rc=%d %s" % (tag, blocks[tag][1], stderr(tag)))
if bad:
    sys.exit(1)
n = NVME_BYTES // 512
try:
    st = json.loads(blocks["ns-nvme"][0])
    print("ns-nvme: %r" % st)
    want = {"nsid": 1, "nsze": n, "ncap": n, "lbaf": 0, "block_bytes": 512, "metadata_bytes": 0,
            "ns_management": False}
    for k, v in want.items():
        if st.get(k) != v:
            fail("ns-nvme %s %r, expected %r" % (k, st.get(k), v))
    if "Namespace Management (0x0D)" not in str(st.get("ns_management_refused")):
        fail("ns-nvme refusal %r" % st.get("ns_management_refused"))
    if blocks["ns-nvme-after"][1] != 0 or json.loads(blocks["ns-nvme-after"][0]) != st:
        fail("the layout after the refused --set differs: %r" % blocks["ns-nvme-after"][0])
except (KeyError, ValueError, TypeError) as e:
    fail("ns-nvme JSON: %r" % e)
text = blocks["ns-nvme-text"][0]
if "%d blocks (%d bytes)" % (n, NVME_BYTES) not in text:
    fail("ns-nvme-text does not name %d blocks (%d bytes): %r" % (n, NVME_BYTES, text))
for tag in ("ns-nvme-set-dry", "ns-nvme-set"):
    if blocks[tag][1] != 4 or "no change made" not in stderr(tag):
        fail("%s: rc %d, expected 4 with 'no change made'" % (tag, blocks[tag][1]))
    if "would send" in blocks[tag][0]:
        fail("%s printed commands although refused" % tag)
if blocks["ns-nvme-restore"][1] != 0:
    fail("restore of the refused change's journal directory: rc %d" % blocks["ns-nvme-restore"][1])
if blocks["ns-sata"][1] != 4:
    fail("namespace /dev/sda: rc %d, expected 4" % blocks["ns-sata"][1])
sys.exit(1 if bad else 0)
