# SPDX-License-Identifier: MIT
"""qemu_purge_check: the purge phase on QEMU's NVMe (qemu_guest_purge.sh), from the serial log.

Checks, against what QEMU 7.2 emulates (../shared/reference/qemu-devices.md: Format NVM with a
secure-erase setting works, SANICAP 0, FNA 0):
  - the run exits 0; the first purge record says method "nvme-format (user data erase)",
    pts_purge true, settle_ns 0, all_namespaces false (FNA 0: the format reaches only nsid 1),
    and skipped "nvme-sanitize: the controller has no sanitize (SANICAP 0x0); ata-sanitize-block:
    not a SATA drive" (the ATA row sits between sanitize and format in auto's order);
  - the second (method discard) says "discard", pts_purge false, settle 1 s;
  - Identify Namespace before and after: the same LBA format in use (512 B data, 0 metadata)
    and the same size (NSZE).
  - the namespace resize (nvme_ns_probe): where QEMU implements Namespace Management create and
    delete, 256 MiB (524288 sectors) shrunk to 192 MiB (393216 sectors, the kernel's size after the
    rescan) and restored to 524288 with the original layout; where it does not (QEMU 7.2: OACS
    bit 3 set, but the Commands Supported and Effects log lists no 0x0D, and a delete answers
    Invalid Opcode), refused before any command, the size unchanged.
  - the gate sees the reach: with nvme0n2 (nsid 2 of the same controller) mounted on /mnt/ns2, a
    profile purging nvme0n1 by nvme-sanitize exits 3 (refused) naming /dev/nvme0n2 and the mount.
    (A format's reach, FNA bit 0, cannot be shown on QEMU, whose FNA is 0: cmocka
    purge_format_mounted does it.)
"""
import json
import re
import sys


def block(log, tag):
    m = re.search(r"=== BEGIN %s ===\n(.*?)\n=== END %s rc=(\d+) ===" % (re.escape(tag), re.escape(tag)), log, re.S)
    return (m.group(1), int(m.group(2))) if m else (None, None)


def main():
    log = open(sys.argv[1], errors="replace").read().replace("\r", "")
    bad = 0
    out, rc = block(log, "purge-run")
    if rc != 0:
        print("FAIL purge-run: exit %r" % rc)
        print("\n".join(l for l in log.splitlines() if l.startswith("stderr purge-run")))
        return 1
    recs, _ = block(log, "purge-records")
    purges = [json.loads(l) for l in (recs or "").splitlines() if l.strip().startswith("{")]
    purges = [r for r in purges if r.get("kind") == "purge"]
    print("purge records: %s" % json.dumps([{k: r.get(k) for k in ("method", "pts_purge", "settle_ns",
                                                                  "all_namespaces", "skipped")} for r in purges]))
    if len(purges) != 2:
        print("FAIL purge-records: %d purge records, want 2" % len(purges))
        return 1
    f, d = purges
    want = {"method": "nvme-format (user data erase)", "pts_purge": True, "settle_ns": 0, "all_namespaces": False,
            "discard_after": False, "skipped": "nvme-sanitize: the controller has no sanitize (SANICAP 0x0); "
                        "ata-sanitize-block: not a SATA drive"}
    for k, v in want.items():
        if f.get(k) != v:
            print("FAIL auto purge: %s = %r, want %r" % (k, f.get(k), v)); bad += 1
    if (d.get("method"), d.get("pts_purge"), d.get("settle_ns")) != ("discard", False, 1000000000):
        print("FAIL discard purge: %r" % d); bad += 1
    ids = {}
    for t in ("purge-info-before", "purge-info-after"):
        o, rc = block(log, t)
        try:
            ids[t] = json.loads(o)
        except (TypeError, ValueError):
            print("FAIL %s: no JSON (exit %r)" % (t, rc)); bad += 1
    if len(ids) == 2:
        b, a = (ids[t].get("nvme_identify") or {} for t in ("purge-info-before", "purge-info-after"))
        print("LBA format before %r, after %r" % (b.get("lba_format"), a.get("lba_format")))
        if not b.get("lba_format") or b.get("lba_format") != a.get("lba_format"):
            print("FAIL: the LBA format changed across the format purge"); bad += 1
        if (b.get("lba_format") or {}).get("data_bytes") != 512:
            print("FAIL: LBA format before %r, QEMU's default is 512 B" % b.get("lba_format")); bad += 1
        if not b.get("nsze") or b.get("nsze") != a.get("nsze"):
            print("FAIL: NSZE %r before, %r after" % (b.get("nsze"), a.get("nsze"))); bad += 1
    o, rc = block(log, "ns-resize")
    try:
        p = json.loads(o)
    except (TypeError, ValueError):
        p = None
        print("FAIL ns-resize: no JSON (exit %r)" % rc); bad += 1
    if p is not None:
        print("ns-resize: %s" % json.dumps(p))
        if isinstance(p.get("from"), str):
            if "does not list Namespace Management (0x0D)" not in p["from"]:
                print("FAIL ns-resize: refused for another reason: %s" % p["from"]); bad += 1
            elif p.get("size_end") != p.get("size_before") or p.get("size_before") != 524288:
                print("FAIL ns-resize: the size moved (%r -> %r)" % (p.get("size_before"), p.get("size_end"))); bad += 1
            else:
                print("ns-resize: this QEMU does not implement namespace create/delete: refused, nothing sent")
        else:
            got = (rc, p.get("set_rc"), p.get("size_after"), p.get("after_same"), p.get("restore_rc"),
                   p.get("size_restored"), p.get("restored_same"))
            if got != (0, 0, 393216, True, 0, 524288, True):
                print("FAIL ns-resize: %r" % (got,)); bad += 1
    mounts, _ = block(log, "reach-mounts")
    _, rc = block(log, "reach-refused")
    err = "\n".join(l for l in log.splitlines() if l.startswith("stderr reach-refused"))
    print("reach: /proc/mounts %r; exit %r; %s" % ((mounts or "").strip(), rc, err))
    if "/dev/nvme0n2 /mnt/ns2 ext2" not in (mounts or ""):
        print("FAIL reach: nvme0n2 is not mounted on /mnt/ns2 in the guest"); bad += 1
    elif rc != 3 or "/dev/nvme0n2 is mounted on /mnt/ns2" not in err or "nvme-subsys" not in err:
        print("FAIL reach: the sanitize was not refused for nvme0n2's mount (exit %r)" % rc); bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
