#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""qemu_hpa_check: the host's checks of qemu_guest_hpa.sh, from the serial console log (argv[1]);
argv[2] is the SATA image's size in bytes as QEMU was given it.
  - `hpa /dev/sda --json`: QEMU 7.2's hw/ide/core.c ide_identify() sets word 82 = 0x4021 (no HPA
    bit 10), word 83 without bit 11 (no DCO), word 86 without bit 15 (no AMAC), no word 128
    (no security); cmd_read_native_max() answers nb_sectors - 1. So: method "none", native max =
    current max = bytes / 512 - 1, 0 bytes hidden, no DCO, not frozen, not locked, and a
    refusal naming the missing feature sets.
  - the text names the native max LBA and its byte count.
  - `--set 50%` (with and without --dry-run) exits 4 (EXIT_CAPABILITY) with the reason and "no
    change made"; the state read afterwards is the same.
  - `--set 50% --journal /tmp/hpa-j` is refused the same way, and `restore /tmp/hpa-j` exits 0
    with nothing to restore: a refused change leaves nothing pending.
  - `hpa /dev/nvme0n1` exits 4: not a SATA setting.
Prints what it saw; exits 1 on any failure."""
import json
import re
import sys

log = open(sys.argv[1], errors="replace").read().replace("\r", "")
SATA_BYTES = int(sys.argv[2])
blocks = {t: (out, int(rc)) for t, out, rc in
          re.findall(r"=== BEGIN (\S+) ===\n(.*?)\n=== END \1 rc=(\d+) ===", log, re.S)}
bad = 0


def fail(msg):
    global bad
    print("FAIL hpa: " + msg)
    bad += 1


def stderr(tag):
    return "\n".join(l for l in log.splitlines() if l.startswith("stderr %s: " % tag))


native = SATA_BYTES // 512 - 1
for tag in ("hpa-sata", "hpa-sata-text", "hpa-sata-set", "hpa-sata-set-dry", "hpa-sata-after",
            "hpa-sata-set-j", "hpa-sata-j-restore", "hpa-nvme"):
    if tag not in blocks:
        fail("no %s block in the console log" % tag)
    else:
        print("%s: rc=%d %s" % (tag, blocks[tag][1], stderr(tag)))
try:
    st = json.loads(blocks["hpa-sata"][0])
    print("hpa-sata: %r" % st)
    want = {"method": "none", "native_max_lba": native, "current_max_lba": native, "hidden_bytes": 0,
            "logical_sector": 512, "dco": {"supported": False, "known": False, "max_lba": None, "limits": False},
            "security": {"frozen": False, "locked": False}}
    for k, v in want.items():
        if st.get(k) != v:
            fail("hpa-sata %s %r, expected %r" % (k, st.get(k), v))
    if "advertises neither HPA" not in str(st.get("refusal")):
        fail("hpa-sata refusal %r" % st.get("refusal"))
    if blocks["hpa-sata-after"][1] != 0 or json.loads(blocks["hpa-sata-after"][0]) != st:
        fail("the state after the refused --set differs: %r" % blocks["hpa-sata-after"][0])
except (KeyError, ValueError, TypeError) as e:
    fail("hpa-sata JSON: %r" % e)
text = blocks.get("hpa-sata-text", ("", 1))
if text[1] != 0 or "native max    LBA %d (%d sectors, %d bytes)" % (native, native + 1, SATA_BYTES) not in text[0] \
        or "hidden        0 bytes" not in text[0]:
    fail("hpa-sata-text %r" % (text,))
for tag in ("hpa-sata-set", "hpa-sata-set-dry", "hpa-sata-set-j"):
    rc = blocks.get(tag, ("", None))[1]
    if rc != 4 or "advertises neither HPA" not in stderr(tag) or "no change made" not in stderr(tag):
        fail("%s: rc %r, stderr %r; expected 4 and the refusal" % (tag, rc, stderr(tag)))
jr = blocks.get("hpa-sata-j-restore", ("", None))
if jr[1] != 0 or "nothing to restore in /tmp/hpa-j (0 change(s)" not in jr[0]:
    fail("hpa-sata-j-restore: %r; expected rc 0 and nothing to restore" % (jr,))
if blocks.get("hpa-nvme", ("", None))[1] != 4 or "SATA settings" not in stderr("hpa-nvme"):
    fail("hpa-nvme: %r %r" % (blocks.get("hpa-nvme"), stderr("hpa-nvme")))
sys.exit(1 if bad else 0)
