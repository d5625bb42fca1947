# SPDX-License-Identifier: MIT
"""qemu_atapurge_check: the ATA purge methods on QEMU's SATA disk (qemu_guest_atapurge.sh).

QEMU 7.2's AHCI disk has no SECURITY feature set and no SANITIZE (reference qemu-devices.md:
SECURITY aborted). Checks, from the serial log:
  - `purge: {method: ata-security-erase}` fails (exit not 0) and says why: the drive's answer
    (no SECURITY feature set in IDENTIFY word 128, or the ATA error of SET PASSWORD);
  - nothing is left set: the journal has no change, or only changes whose command failed, and
    `ssdlab restore` on the directory exits 0;
  - `auto` skips ata-sanitize-block and ata-security-erase with their reasons (record "skipped"
    or, when nothing applies, the error).
"""
import json
import re
import sys


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
    if "ata-security-erase" not in err or not ("no SECURITY feature set" in err or "ATA error" in err):
        print("FAIL atapurge-run: the drive's answer is not in the error"); bad += 1
    journal, _ = block(log, "atapurge-journal")
    lines = [json.loads(l) for l in (journal or "").splitlines() if l.strip().startswith("{")]
    changes = [l for l in lines if l.get("op") == "change"]
    done = {l["id"]: l.get("ok") for l in lines if l.get("op") == "done"}
    print("journal: %d changes, done %r" % (len(changes), done))
    for c in changes:
        if c.get("kind") == "security" and done.get(c["id"]) is not False:
            print("FAIL journal: the password change %s did not fail" % c["id"]); bad += 1
    _, rrc = block(log, "atapurge-restore")
    print("restore: exit %r\n%s" % (rrc, stderr(log, "atapurge-restore")))
    if rrc != 0:
        print("FAIL atapurge-restore: exit %r" % rrc); bad += 1
    out, arc = block(log, "atapurge-auto-records")
    recs = [json.loads(l) for l in (out or "").splitlines() if l.strip().startswith("{")]
    purges = [r for r in recs if r.get("kind") == "purge"]
    why = purges[0].get("skipped") if purges else stderr(log, "atapurge-auto")
    print("auto: exit %r, %s" % (block(log, "atapurge-auto")[1], json.dumps(purges[0] if purges else why)))
    for row in ("ata-sanitize-block: ", "ata-security-erase: "):
        if row not in (why or ""):
            print("FAIL auto: no reason for %s" % row.rstrip(": ")); bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
