#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""qemu_profile_check: the host's checks of the short profile qemu_guest_profile.sh ran on QEMU's
NVMe drive, from the serial console log (argv[1]):
  - every snapshot the runner took (run-start, each phase's start and end, run-end) is an
    nvme-smart one, settled (two reads agreed; QEMU updates its counters at once, so 2 reads),
    after the default 0.5 s settle wait; the ramp-end one, taken inside the job, is one read
    without a wait (during_io), and lies between its phase's start and end;
  - over every phase, the host_bytes_written delta (data units x 512,000) matches the bytes the
    records say ssdlab wrote in it (bytes_written_total summed), within one data unit: QEMU counts
    DIV_ROUND_UP(sectors, 1000) of a running total (hw/nvme/ctrl.c), so a delta is exact to one unit;
  - the 7 MiB the profile writes is what the records say (1 MiB ramp + 4 MiB + 2 MiB);
  - QEMU has no NAND counter: each summary wa entry has wa null, and the reason is "no
    NAND-write counter known for QEMU NVMe Ctrl" (wa_reason), and a host_check whose counter delta
    matches the bytes the records say ssdlab wrote within one data unit.
The same profile on QEMU's AHCI SATA disk (hw/ide/core.c: SMART attributes 1, 3, 4, 5, 9, 12 and
190 only, no Device Statistics as IDENTIFY has no GPL bit) gives "ata-smart" snapshots at the
same boundaries, settled the same way, mapped through the drive database's "ATA default" entry:
no host-write counter (241 is absent, Logical Sectors Written too), so every wa entry has wa
null, the reason "no NAND-write counter known for SSDLAB QEMU SATA TEST DISK", no host bytes and
host_check null; the records still say 7 MiB.
Prints what it saw; exits 1 on any failure."""
import json
import re
import sys

UNIT = 512000
REASON = "no NAND-write counter known for QEMU NVMe Ctrl"
SATA_MODEL = "SSDLAB QEMU SATA TEST DISK"
SATA_REASON = "no NAND-write counter known for " + SATA_MODEL
# the runner's snapshots of the short profile, in order
LABELS = ["run-start", "phase-0-precondition-start", "phase-0-precondition-ramp-end", "phase-0-precondition-end",
          "phase-1-write_until-start", "phase-1-write_until-end", "run-end"]
log = open(sys.argv[1], errors="replace").read().replace("\r", "")
bad = 0


def fail(msg):
    global bad
    print("FAIL profile: " + msg)
    bad += 1


def block(tag):
    m = re.search(r"=== BEGIN %s ===\n(.*?)\n=== END %s rc=(\d+) ===" % (re.escape(tag), re.escape(tag)), log, re.S)
    for line in log.splitlines():
        if line.startswith("stderr %s: " % tag):
            print(line)
    if not m:
        fail("no %s block in the console log" % tag)
        return None
    if m.group(2) != "0":
        fail("%s exited %s" % (tag, m.group(2)))
        return None
    return m.group(1)


def snapshots(prefix):
    snaps = []
    for m in re.finditer(r"=== BEGIN %s-snap:([^ ]+) ===\n(.*?)\n=== END %s-snap:\1 rc=0 ===" % (prefix, prefix),
                         log, re.S):
        snaps.append(json.loads(m.group(2)))
    snaps.sort(key=lambda s: s["seq"])
    return snaps


def main():
    if block("profile-run") is None:
        return
    snaps = snapshots("profile")
    labels = [s["label"] for s in snaps]
    print("profile: snapshots %s" % labels)
    if labels != LABELS:
        fail("snapshots %r, expected %r" % (labels, LABELS))
    for s in snaps:
        raw = s.get("raw") or {}
        if s["source"] != "nvme-smart":
            fail("%s: source %r (raw %r)" % (s["label"], s["source"], raw))
            continue
        settled_ok(s, raw)
        if raw.get("model") != "QEMU NVMe Ctrl" or raw.get("no_nand_reason") != REASON:
            fail("%s: model %r, no_nand_reason %r" % (s["label"], raw.get("model"), raw.get("no_nand_reason")))
        if (raw.get("drivedb") or {}).get("name") != "NVMe (OCP C0, then Endurance Group)":
            fail("%s: drive database entry %r" % (s["label"], raw.get("drivedb")))
        duw = raw.get("counters", {}).get("nvme:smart.data_units_written")
        if s["counters"]["host_bytes_written"]["value"] != duw * UNIT or \
                s["counters"]["host_bytes_written_resolution"]["value"] != UNIT:
            fail("%s: host_bytes_written %r vs %r data units" % (s["label"], s["counters"].get("host_bytes_written"), duw))
    recs = [json.loads(line) for line in (block("profile-records") or "").splitlines() if line.strip()]
    # the runner's reading after each job (between cells): QEMU's NVMe reports 323 K = 49.85 C
    # (hw/nvme/ctrl.c NVME_TEMPERATURE) through the controller's hwmon
    steps = [r for r in recs if "bytes_written_total" in r]
    temps = [r.get("temperature_c") for r in steps]
    print("profile: step records' temperature_c %r" % temps)
    if not steps or any(t != 49.85 for t in temps):
        fail("step records' temperature_c %r, QEMU reports 49.85 C" % temps)
    by = {s["label"]: s for s in snaps}
    total = 0
    for phase, kind in ((0, "precondition"), (1, "write_until")):
        wrote = sum(r.get("bytes_written_total", 0) for r in recs if r.get("phase") == phase)
        total += wrote
        a, b = by.get("phase-%d-%s-start" % (phase, kind)), by.get("phase-%d-%s-end" % (phase, kind))
        if not a or not b or a["source"] != "nvme-smart" or b["source"] != "nvme-smart":
            continue
        delta = b["counters"]["host_bytes_written"]["value"] - a["counters"]["host_bytes_written"]["value"]
        print("profile: phase %d (%s): data units written delta x 512000 = %d, records say %d" %
              (phase, kind, delta, wrote))
        if abs(delta - wrote) >= UNIT:
            fail("phase %d: delta %d vs written %d (allowed: under one data unit)" % (phase, delta, wrote))
    if total != 7 * 1024 * 1024:
        fail("the records say %d bytes written, the profile writes 7 MiB" % total)
    ramp = [by.get(k) for k in ("phase-0-precondition-start", "phase-0-precondition-ramp-end", "phase-0-precondition-end")]
    if all(x and x["source"] == "nvme-smart" for x in ramp):
        v = [x["counters"]["host_bytes_written"]["value"] for x in ramp]
        print("profile: phase 0 host_bytes_written start %d, ramp end %d, end %d" % tuple(v))
        if not v[0] <= v[1] <= v[2]:
            fail("the ramp-end snapshot %d is not between the phase's start %d and end %d" % tuple(v[1:2] + v[0:1] + v[2:]))
    text = block("profile-summary")
    if text is None:
        return
    wa = json.loads(text)["wa"]
    entries = wa["phases"] + ([wa["run"]] if wa.get("run") else [])
    if len(wa["phases"]) != 2:
        fail("summary wa has %d phase entries, expected 2" % len(wa["phases"]))
    for e in entries:
        print("profile: wa entry %s -> %s: host_bytes_written %r, wa %r, wa_reason %r, host_check %r" %
              (e.get("from_label"), e.get("to_label"), e.get("host_bytes_written"), e.get("wa"),
               e.get("wa_reason"), e.get("host_check")))
        if e.get("wa") is not None:
            fail("wa %r: QEMU has no NAND counter" % e.get("wa"))
        if e.get("host_bytes_written") is None:
            fail("%s: no host bytes written from the snapshots" % e.get("to_label"))
        if e.get("wa_reason") != REASON:
            fail("wa_reason %r, expected %r" % (e.get("wa_reason"), REASON))
        hc = e.get("host_check")
        if not isinstance(hc, dict) or hc.get("match") is not True:
            fail("host_check %r: the data units written should match the bytes the records say "
                 "ssdlab wrote, within one 512,000-byte unit" % hc)
        elif hc.get("resolution") != 512000:
            fail("host_check resolution %r, an NVMe data unit is 512000 bytes" % hc.get("resolution"))


def settled_ok(s, raw):
    """The settle rule both drives follow: inside a job one read without a wait, else 2 reads after
    the default 0.5 s (QEMU's counters do not move on their own)."""
    if s["label"].endswith("-ramp-end"):
        if raw.get("during_io") is not True or raw.get("reads") != 1 or raw.get("settle_ns") != 0:
            fail("%s: during_io %r, %r reads, settle %r ns (inside a job: one read, no wait)" %
                 (s["label"], raw.get("during_io"), raw.get("reads"), raw.get("settle_ns")))
    elif raw.get("settled") is not True or raw.get("reads") != 2 or raw.get("settle_ns") != 500000000:
        fail("%s: settled %r after %r reads, settle %r ns (QEMU: 2 reads agree)" %
             (s["label"], raw.get("settled"), raw.get("reads"), raw.get("settle_ns")))


def sata():
    """The same profile on /dev/sda: ata-smart snapshots, wa null with SATA_REASON, no host check."""
    if block("profile-sata-run") is None:
        return
    snaps = snapshots("profile-sata")
    labels = [s["label"] for s in snaps]
    print("profile-sata: snapshots %s" % labels)
    if labels != LABELS:
        fail("sata: snapshots %r, expected %r" % (labels, LABELS))
    for s in snaps:
        raw = s.get("raw") or {}
        # inside a job a SATA drive is not asked: its SMART commands are not queued and would
        # stall the measured I/O (target_uring.c)
        if s["label"].endswith("-ramp-end"):
            if s["source"] != "none" or "not queued" not in str(raw.get("no_counters_reason")):
                fail("sata %s: source %r, reason %r: a SATA drive is not read inside a job" %
                     (s["label"], s["source"], raw.get("no_counters_reason")))
            continue
        if s["source"] != "ata-smart":
            fail("sata %s: source %r (raw %r)" % (s["label"], s["source"], raw))
            continue
        settled_ok(s, raw)
        if raw.get("model") != SATA_MODEL or raw.get("no_nand_reason") != SATA_REASON or raw.get("transport") != "ata":
            fail("sata %s: model %r, transport %r, no_nand_reason %r" %
                 (s["label"], raw.get("model"), raw.get("transport"), raw.get("no_nand_reason")))
        if (raw.get("drivedb") or {}).get("name") != "ATA default":
            fail("sata %s: drive database entry %r" % (s["label"], raw.get("drivedb")))
        # QEMU's attribute 9 (power-on hours) raw is 1, 190 the airflow temperature (hw/ide/core.c)
        c = raw.get("counters", {})
        if c.get("ata:9") != 1 or c.get("ata:190") != 0x1f1f001f or "ata:241" in c or \
                any(k.startswith("ata:devstat.") for k in c):
            fail("sata %s: counters %r" % (s["label"], c))
        if "host_bytes_written" in s["counters"] or s["counters"].get("power_on_ns", {}).get("value") != 3600e9:
            fail("sata %s: counters %r (no host counter; 1 power-on hour)" % (s["label"], s["counters"]))
    recs = [json.loads(line) for line in (block("profile-sata-records") or "").splitlines() if line.strip()]
    if any("temperature_c" in r for r in recs):
        fail("sata: records carry a temperature %r: the guest has no drivetemp sensor" %
             [r.get("temperature_c") for r in recs])
    total = sum(r.get("bytes_written_total", 0) for r in recs)
    print("profile-sata: the records say %d bytes written" % total)
    if total != 7 * 1024 * 1024:
        fail("sata: the records say %d bytes written, the profile writes 7 MiB" % total)
    text = block("profile-sata-summary")
    if text is None:
        return
    wa = json.loads(text)["wa"]
    entries = wa["phases"] + ([wa["run"]] if wa.get("run") else [])
    if len(wa["phases"]) != 2:
        fail("sata: summary wa has %d phase entries, expected 2" % len(wa["phases"]))
    for e in entries:
        print("profile-sata: wa entry %s -> %s: wa %r, wa_reason %r, host_check %r" %
              (e.get("from_label"), e.get("to_label"), e.get("wa"), e.get("wa_reason"), e.get("host_check")))
        want = SATA_REASON
        if str(e.get("from_label")).endswith("-ramp-end"):
            want = "no counters (snapshot source none)"  # the measured part starts at the unread ramp end
        if e.get("wa") is not None or e.get("wa_reason") != want:
            fail("sata: wa %r, wa_reason %r, expected null and %r" % (e.get("wa"), e.get("wa_reason"), want))
        if e.get("host_check") is not None or e.get("host_bytes_written") is not None:
            fail("sata: host_check %r, host bytes %r: QEMU's SATA disk has no host-write counter" %
                 (e.get("host_check"), e.get("host_bytes_written")))


main()
sata()
sys.exit(1 if bad else 0)
