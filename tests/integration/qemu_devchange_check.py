#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the write-cache and power-state blocks of qemu_guest_devchange.sh in the guest's console log.

Independent sources: QEMU's NVMe controller has a volatile write cache (VWC 0x7) whose state is
the block backend's (hw/nvme/ctrl.c: Get Features 0x06 answers blk_enable_write_cache(), Set
Features sets it), on with qemu_test.sh's cache=unsafe drive; `ssdlab info` reads it through its own
Get Features path (host/drive_ident), not through the devchange kind that set it.
"""
import json
import re
import sys


def main():
    log = open(sys.argv[1], errors="replace").read().replace("\r", "")
    blocks = {t: (out, rc) for t, out, rc in
              re.findall(r"=== BEGIN (\S+) ===\n(.*?)\n=== END \1 rc=(\d+) ===", log, re.S)}
    bad = 0

    def fail(msg):
        nonlocal bad
        print("FAIL " + msg)
        bad += 1

    def block(tag, rc="0"):
        out, got = blocks.get(tag, (None, None))
        for line in log.splitlines():
            if line.startswith("stderr %s: " % tag):
                print(line)
        if out is None:
            fail("%s: no output block" % tag)
            return None
        if got != rc:
            fail("%s: exit %s, expected %s" % (tag, got, rc))
        return out

    def vwc(tag):
        out = block(tag)
        try:
            return json.loads(out)["nvme_identify"]["volatile_write_cache"]["enabled"]
        except (TypeError, ValueError, KeyError) as e:
            fail("%s: %r" % (tag, e))
            return None

    def journal(tag):
        out = block(tag) or ""
        return [json.loads(l) for l in out.splitlines() if l.strip()]

    # the run with write_cache: off
    before = vwc("wc-info-before")
    block("wc-run")
    try:
        m = json.loads(block("wc-manifest") or "{}")
        ds = m.get("drive_settings") or {}
        wc = ds.get("write_cache") or {}
        print("wc: before %r, manifest drive_settings %r" % (before, ds))
        if before is not True:
            fail("wc-info-before: VWC enabled %r, QEMU powers on with it on" % before)
        if (wc.get("profile"), wc.get("as_found"), wc.get("readback")) != ("off", True, False):
            fail("wc-manifest: write_cache %r, expected profile off, as found on, read back off" % wc)
        if ds.get("journal") != "journal.jsonl":
            fail("wc-manifest: journal %r" % ds.get("journal"))
    except ValueError as e:
        fail("wc-manifest: %r" % e)
    lines = journal("wc-journal")
    ops = [(l["op"], l["id"]) for l in lines]
    print("wc journal: %r" % ops)
    if ops != [("change", "wc-1"), ("done", "wc-1"), ("restored", "wc-1")]:
        fail("wc-journal: %r, expected change, done, restored of wc-1" % ops)
    else:
        ch, dn, rs = lines
        if ch["kind"] != "write_cache" or ch["from"] != {"enabled": True} or ch["to"] != {"enabled": False}:
            fail("wc-journal: change %r" % ch)
        # Set Features (0x09), FID 6 with SV (bit 31) clear, WCE 0 in CDW11
        if "opcode 0x09" not in ch["command"] or "cdw10 0x00000006" not in ch["command"]:
            fail("wc-journal: command %r, expected Set Features cdw10 0x00000006" % ch["command"])
        if ch["device"].get("serial") != "SSDLABTEST01" or ch["device"].get("path") != "/dev/nvme0n1":
            fail("wc-journal: device %r" % ch["device"])
        if dn["ok"] is not True or dn["readback"] != {"enabled": False}:
            fail("wc-journal: done %r" % dn)
        if rs["ok"] is not True or rs["readback"] != {"enabled": True}:
            fail("wc-journal: restored %r" % rs)
    after = vwc("wc-info-after")
    print("wc: after the run VWC enabled %r" % after)
    if after is not True:
        fail("wc-info-after: VWC enabled %r, expected on again" % after)

    # killed with kill -9, then `ssdlab restore`
    killed = vwc("wck-info-killed")
    print("wck: after kill -9 VWC enabled %r" % killed)
    if killed is not False:
        fail("wck-info-killed: VWC enabled %r, expected off (nothing restored it)" % killed)
    dry = block("wck-restore-dry") or ""
    print("wck-restore-dry: %s" % dry.strip())
    if "would restore wc-1" not in dry or "opcode 0x09" not in dry:
        fail("wck-restore-dry: %r" % dry)
    out = block("wck-restore") or ""
    print("wck-restore: %s" % out.strip())
    if not out.startswith("restored wc-1 (write_cache) on /dev/nvme0n1: sent"):
        fail("wck-restore: %r" % out)
    restored = vwc("wck-info-restored")
    print("wck: after restore VWC enabled %r" % restored)
    if restored is not True:
        fail("wck-info-restored: VWC enabled %r, expected on" % restored)
    ops = [(l["op"], l["id"], l.get("ok")) for l in journal("wck-journal")]
    print("wck journal: %r" % ops)
    if ops != [("change", "wc-1", None), ("done", "wc-1", True), ("restored", "wc-1", True)]:
        fail("wck-journal: %r" % ops)
    again = block("wck-restore-again") or ""
    if "nothing to restore" not in again:
        fail("wck-restore-again: %r" % again)

    # SIGTERM: the run exits 130 and has restored the cache itself
    out = block("wct") or ""
    print("wct: %s" % out.strip().replace("\n", " | "))
    if "exit 130" not in out or "drive settings: restored wc-1" not in out:
        fail("wct: %r, expected exit 130 and the restore on stderr" % out)
    ops = [(l["op"], l["id"], l.get("ok")) for l in journal("wct-journal")]
    if ops != [("change", "wc-1", None), ("done", "wc-1", True), ("restored", "wc-1", True)]:
        fail("wct-journal: %r" % ops)
    if vwc("wct-info") is not True:
        fail("wct-info: VWC not on again after SIGTERM")

    # power states: QEMU's NVMe controller has no APST (Get Features 0x0C answers Invalid Field),
    # so `power_states: off` is refused there (exit 4) and the write-cache run's manifest has
    # it unknown; the AHCI host's ALPM policy, set to min_power by the guest (its value read back
    # with cat), is max_performance during the run and min_power again after it.
    try:
        ps = json.loads(blocks.get("wc-manifest", ("{}", ""))[0])["drive_settings"]["power_states"]
        if ps != {"profile": "as-found", "as_found": None, "readback": None}:
            fail("wc-manifest: power_states %r, QEMU's NVMe has no APST" % ps)
    except (ValueError, KeyError, TypeError) as e:
        fail("wc-manifest power_states: %r" % e)
    block("ps-nvme", rc="4")
    if "has no autonomous power state transitions" not in log:
        fail("ps-nvme: no reason given for the refusal")
    before = (block("ps-sata-set") or "").strip()
    block("ps-sata")
    try:
        ps = json.loads(block("ps-sata-manifest") or "{}")["drive_settings"]["power_states"]
        print("ps-sata: policy set to %r; manifest power_states %r" % (before, ps))
        want = {"profile": "off", "as_found": {"alpm": before, "devslp": None},
                "readback": {"alpm": "max_performance", "devslp": None}}
        if ps != want:
            fail("ps-sata-manifest: power_states %r, expected %r" % (ps, want))
    except (ValueError, KeyError, TypeError) as e:
        fail("ps-sata-manifest: %r" % e)
    lines = journal("ps-sata-journal")
    ops = [(l["op"], l["id"], l.get("ok")) for l in lines]
    print("ps-sata journal: %r" % ops)
    if ops != [("change", "ps-1", None), ("done", "ps-1", True), ("restored", "ps-1", True)]:
        fail("ps-sata-journal: %r" % ops)
    elif lines[0]["from"] != {"alpm": before, "devslp": None} or lines[0]["to"] != {"alpm": "max_performance"}:
        fail("ps-sata-journal: change %r" % lines[0])
    after = (block("ps-sata-after") or "").strip()
    print("ps-sata: policy after the run %r" % after)
    if before != "min_power" or after != before:
        fail("ps-sata-after: %r, expected the policy as found (min_power) back" % after)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
