# SPDX-License-Identifier: MIT
"""qemu_atapurge_check: the ATA purge methods on QEMU's SATA disk (qemu_guest_atapurge.sh).

QEMU 7.2's AHCI disk has no SECURITY feature set and no SANITIZE (reference qemu-devices.md:
SECURITY aborted). Checks, from the serial log:
  - `purge: {method: ata-security-erase}` fails (exit not 0) and says why: the drive's answer
    (no SECURITY feature set in IDENTIFY word 128, or the ATA error of SET PASSWORD);
  - nothing is journaled: the drive is refused from IDENTIFY before SET PASSWORD, so the journal
    holds no change, and `ssdlab restore` on the directory exits 0;
  - `auto` exits 0 and falls back to the discard (pts_purge false) with every earlier row's reason
    in "skipped": nvme-sanitize and nvme-format (not an NVMe drive), ata-sanitize-block (QEMU's
    IDENTIFY word 59 has no SANITIZE) and ata-security-erase (word 128: no SECURITY).
"""
import json
import re
import sys

# QEMU 7.2's ide_identify() leaves word 59 bit 12 (SANITIZE) and word 128 (SECURITY) clear.
NO_SANITIZE = "SANITIZE BLOCK ERASE EXT: the drive does not support it (IDENTIFY word 59)"
NO_SECURITY = "SECURITY ERASE UNIT: the drive has no SECURITY feature set (IDENTIFY word 128 bit 0)"


def block(log, tag):
    m = re.search(r"=== BEGIN %s ===\n(.*?)\n=== END %s rc=(\d+) ===" % (re.escape(tag), re.escape(tag)), log, re.S)
    return (m.group(1), int(m.group(2))) if m else (None, None)


def stderr(log, tag):
    return "\n".join(l for l in log.splitlines() if l.startswith("stderr %s:" % tag))


def main():
    log = open(sys.argv[1], errors="replace").read().replace("\r", "")
    bad = 0
    _, rc = block(log, "atapurge-run")
    err = stderr(log, "atapurge-run")
    print("ata-security-erase on QEMU's SATA: exit %r\n%s" % (rc, err))
    if rc in (None, 0):
        print("FAIL atapurge-run: exit %r, want a failure" % rc); bad += 1
    # QEMU's IDENTIFY word 128 is 0 (qemu-devices.md): refused from it, before any SECURITY command
    if "ata-security-erase" not in err or NO_SECURITY not in err:
        print("FAIL atapurge-run: the drive's answer is not in the error"); bad += 1
    journal, _ = block(log, "atapurge-journal")
    lines = [json.loads(l) for l in (journal or "").splitlines() if l.strip().startswith("{")]
    changes = [l for l in lines if l.get("op") == "change"]
    done = {l["id"]: l.get("ok") for l in lines if l.get("op") == "done"}
    print("journal: %d changes, done %r" % (len(changes), done))
    if changes:
        print("FAIL journal: %d change(s) journaled, want none: %r" % (len(changes), changes)); bad += 1
    _, rrc = block(log, "atapurge-restore")
    print("restore: exit %r\n%s" % (rrc, stderr(log, "atapurge-restore")))
    if rrc != 0:
        print("FAIL atapurge-restore: exit %r" % rrc); bad += 1
    out, arc = block(log, "atapurge-auto-records")
    recs = [json.loads(l) for l in (out or "").splitlines() if l.strip().startswith("{")]
    purges = [r for r in recs if r.get("kind") == "purge"]
    why = purges[0].get("skipped") if purges else stderr(log, "atapurge-auto")
    print("auto: exit %r, %s" % (block(log, "atapurge-auto")[1], json.dumps(purges[0] if purges else why)))
    if block(log, "atapurge-auto")[1] != 0:
        print("FAIL auto: exit %r, want 0" % block(log, "atapurge-auto")[1]); bad += 1
    if len(purges) != 1 or (purges[0].get("method"), purges[0].get("pts_purge")) != ("discard", False):
        print("FAIL auto: want one purge record, method discard, pts_purge false"); bad += 1
    rows = ["nvme-sanitize: not an NVMe drive", "ata-sanitize-block: " + NO_SANITIZE,
            "nvme-format: not an NVMe drive", "ata-security-erase: " + NO_SECURITY]
    at = [(why or "").find(r) for r in rows]
    if -1 in at or at != sorted(at):
        print("FAIL auto: skipped does not give every row's reason in auto's order: %r" % why); bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
