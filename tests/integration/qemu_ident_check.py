#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""qemu_ident_check: the host's checks of qemu_guest_ident.sh, from the serial console log
(argv[1]); argv[2..] are what QEMU was given: NVMe serial, NVMe bytes, SATA model, SATA serial,
SATA bytes.
  - The manifest of a run on /dev/nvme0n1 has target.drive from NVMe Identify: serial as given,
    model "QEMU NVMe Ctrl" (QEMU's fixed mn), nsid 1, LBA format #0 = 512 B data, 0 B metadata
    (QEMU's default), capacity as given; on /dev/sda from ATA IDENTIFY: model and serial as given,
    HPA state none with native max LBA = bytes / 512 - 1 (QEMU's cmd_read_native_max: nb_sectors
    - 1); each firmware equals what sysfs says (info's top-level firmware, another source).
  - A wrong --yes-destroy is refused (exit 3) with the drive's model, serial, firmware and the
    namespace and LBA format / HPA state in the message.
  - `io --dry-run`, `plan --target` and `run --dry-run` name the commands (NVMe Identify CNS 1 and CNS 0, Get Log
    Page 0x02; ATA IDENTIFY and READ NATIVE MAX EXT by their CDBs, hand-worked in qemu_test.sh) and
    send none: NVMe data units read/written and host read/write commands, the SATA attributes and
    both drives' /sys/block/X/stat are the same before and after them.
Prints what it saw; exits 1 on any failure."""
import json
import re
import sys

log = open(sys.argv[1], errors="replace").read().replace("\r", "")
NVME_SERIAL, NVME_BYTES, SATA_MODEL, SATA_SERIAL, SATA_BYTES = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6])
blocks = {t: (out, int(rc)) for t, out, rc in
          re.findall(r"=== BEGIN (\S+) ===\n(.*?)\n=== END \1 rc=(\d+) ===", log, re.S)}
bad = 0


def fail(msg):
    global bad
    print("FAIL ident: " + msg)
    bad += 1


def out(tag, rc=0):
    for line in log.splitlines():
        if line.startswith("stderr %s: " % tag):
            print(line)
    if tag not in blocks:
        fail("no %s block in the console log" % tag)
        return None
    if blocks[tag][1] != rc:
        fail("%s exited %d, expected %d" % (tag, blocks[tag][1], rc))
        return None
    return blocks[tag][0]


def stderr(tag):
    return "\n".join(l[len("stderr %s: " % tag):] for l in log.splitlines() if l.startswith("stderr %s: " % tag))


def js(tag):
    o = out(tag)
    return json.loads(o) if o is not None else None


def sysfs_firmware(tag):
    o = js(tag)
    return o.get("firmware") if o else None


NVME_ID = "opcode 0x06 (Identify), nsid 0x00000000, cdw10 0x00000001"
NVME_NS = "opcode 0x06 (Identify), nsid 0x00000001, cdw10 0x00000000"
NVME_SMART = "cdw10 0x007f0002"
ATA_IDENTIFY = "CDB 85 08 0e 00 00 00 01 00 00 00 00 00 00 00 ec 00"
ATA_NATIVE_MAX = "CDB 85 07 20 00 00 00 00 00 00 00 00 00 00 40 27 00"
native = SATA_BYTES // 512 - 1


def main():
    try:
        m = js("ident-nvme-manifest")
        if m:
            d = m["target"]["drive"]
            lf = d["nvme_identify"]["lba_format"]
            print("nvme manifest drive: %s %s model=%r serial=%r firmware=%r nsid=%s lba_format=%r capacity=%s" %
                  (d["transport"], d["source"], d["model"], d["serial"], d["firmware"], d["nsid"], lf, d["capacity"]))
            got = (d["transport"], d["source"], d["read"], d["model"], d["serial"], d["nsid"], d["capacity"],
                   lf["index"], lf["data_bytes"], lf["metadata_bytes"])
            want = ("nvme", "nvme-identify", True, "QEMU NVMe Ctrl", NVME_SERIAL, 1, NVME_BYTES, 0, 512, 0)
            if got != want:
                fail("nvme manifest drive %r, expected %r" % (got, want))
            fw = sysfs_firmware("info-nvme")
            if not fw or d["firmware"] != fw:
                fail("nvme manifest firmware %r, sysfs says %r" % (d["firmware"], fw))
        out("ident-sata-run")
        m = js("ident-sata-manifest")
        if m:
            d = m["target"]["drive"]
            hpa = d["ata"]["hpa"]
            print("sata manifest drive: %s %s model=%r serial=%r firmware=%r hpa=%r capacity=%s" %
                  (d["transport"], d["source"], d["model"], d["serial"], d["firmware"], hpa, d["capacity"]))
            got = (d["transport"], d["source"], d["read"], d["model"], d["serial"], d["capacity"], hpa["state"],
                   hpa["native_max_lba"], hpa["current_max_lba"], hpa["hidden_bytes"])
            want = ("sata", "ata-identify", True, SATA_MODEL, SATA_SERIAL, SATA_BYTES, "none", native, native, 0)
            if got != want:
                fail("sata manifest drive %r, expected %r" % (got, want))
            fw = sysfs_firmware("info-sata")
            if not fw or d["firmware"] != fw:
                fail("sata manifest firmware %r, sysfs says %r" % (d["firmware"], fw))
        # the refusal names the drive from the same identity
        fw_n, fw_s = sysfs_firmware("info-nvme"), sysfs_firmware("info-sata")
        for tag, parts in (("ident-nvme-refusal", ["QEMU NVMe Ctrl, serial %s, firmware %s" % (NVME_SERIAL, fw_n),
                                                   "transport nvme, namespace 1, LBA format #0 (512 B data, 0 B metadata)"]),
                           ("ident-sata-refusal", ["%s, serial %s, firmware %s" % (SATA_MODEL, SATA_SERIAL, fw_s),
                                                   "transport sata, HPA none (native max LBA %d = current)" % native])):
            out(tag, 3)
            msg = stderr(tag)
            print("%s: %s" % (tag, msg))
            for p in parts:
                if p not in msg:
                    fail("%s: no %r in the refusal" % (tag, p))
        # the dry runs list the commands ...
        for tag, need in (("ident-io-nvme-dry", [NVME_ID, NVME_NS, NVME_SMART, "nothing was sent"]),
                          ("ident-plan-nvme", ["drive commands of a run:", NVME_ID, NVME_NS, NVME_SMART,
                                               "at each phase's start and end"]),
                          ("ident-io-sata-dry", [ATA_IDENTIFY, ATA_NATIVE_MAX, "counter snapshots"]),
                          ("ident-plan-sata", ["drive commands of a run:", ATA_IDENTIFY, ATA_NATIVE_MAX]),
                          ("ident-run-nvme-dry", [NVME_ID, NVME_NS, NVME_SMART, "nothing was sent"])):
            o = out(tag)
            if o is None:
                continue
            print("%s:\n%s" % (tag, o.strip()))
            for n in need:
                if n not in o:
                    fail("%s: no %r" % (tag, n))
        # ... and send none: no counter moved across them
        a, b = js("ident-nvme-smart0"), js("ident-nvme-smart1")
        if a and b:
            keys = ("data_units_read", "data_units_written", "host_read_commands", "host_write_commands")
            ra, rb = [tuple(x["raw"][k] for k in keys) for x in (a, b)]
            print("nvme counters before/after the dry runs: %r / %r" % (ra, rb))
            if ra != rb:
                fail("NVMe counters moved across the dry runs: %r -> %r" % (ra, rb))
        a, b = js("ident-sata-smart0"), js("ident-sata-smart1")
        if a and b and a["raw"]["attributes"] != b["raw"]["attributes"]:
            fail("SATA attributes changed across the dry runs")
        for dev in ("nvme", "sata"):
            s0, s1 = out("ident-%s-stat0" % dev), out("ident-%s-stat1" % dev)
            if s0 is not None and s1 is not None:
                # fields 1 and 5: reads and writes completed (Documentation/block/stat.rst)
                f0, f1 = s0.split(), s1.split()
                print("%s /sys/block stat reads/writes before/after: %s/%s -> %s/%s" % (dev, f0[0], f0[4], f1[0], f1[4]))
                if (f0[0], f0[4]) != (f1[0], f1[4]):
                    fail("%s: block I/O across the dry runs: %r -> %r" % (dev, s0, s1))
    except (ValueError, KeyError, IndexError, TypeError) as e:
        fail("%r" % e)


main()
sys.exit(1 if bad else 0)
