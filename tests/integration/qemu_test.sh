#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# qemu_test: ssdlab through real kernel drivers. Boots the Debian kernel that scripts/qemu-setup.sh
# cached under QEMU (TCG, no KVM needed) with an emulated NVMe controller (serial SSDLABTEST01) and
# an AHCI SATA disk (model, serial, rotation_rate=1, discard=unmap) over sparse images in a temporary
# directory, with the ssdlab binary and the libraries ldd lists in a busybox initramfs; the guest
# (qemu_guest.sh) runs `ssdlab io DEV --rw randread --bs 4k --qd 8 --time 1s --json` on both disks.
# Checks on the host, from the serial console: each JSON's target object has the serial, model and
# capacity QEMU was given (NVMe model "QEMU NVMe Ctrl", QEMU's fixed Identify Controller mn; SATA:
# the full ATA model, which only vpd_pg89 holds, the SCSI INQUIRY product field keeps 16 characters)
# and that reads happened. NVMe SMART: `ssdlab smart /dev/nvme0n1 --json` before and after an 8 MiB
# write (`ssdlab io --rw write --bs 128k --amount 8MiB`): the data-units-written delta x 512,000 equals
# the bytes written within one data unit; `--dry-run` names Get Log Page 0x02 with cdw10 0x007f0002.
# NVMe Identify (`info`): serial, mn, LBA format 0 = 512 B + 0 metadata, VWC present, OACS 0x10a
# and SANICAP 0 as QEMU reports them; `info --dry-run` lists Identify CNS 1 and 0; `smart` reports
# OCP 0xC0 not supported (Invalid Field), no endurance groups and no Intel 0xCA.
# SATA through ATA PASS-THROUGH (SG_IO): `ssdlab smart /dev/sda --json` has QEMU's attributes 1, 3,
# 4, 5, 9, 12, 190 with the raw values, thresholds and "good" status hw/ide/core.c sets, its --save
# blob decodes offline to the same (ours and skdump --load); `ssdlab info /dev/sda --json` has the full IDENTIFY model and
# serial and HPA state "none" with native max LBA = 192 MiB / 512 - 1; --dry-run CDBs hand-worked.
# Identity (qemu_guest_ident.sh, qemu_ident_check.py): both runs' manifests carry target.drive
# (Identify serial/model, LBA format #0 / HPA none), a wrong --yes-destroy names the drive, and
# `io --dry-run` / `plan --target` list the commands without sending any (counters unchanged).
# The sprandom fill's spare: auto from the drive database (qemu_guest_spare.sh,
# qemu_spare_check.py): a second AHCI disk of 768 MiB, a test-only entry with 1 GiB of NAND in the
# guest's copy of the database, so spare 0.25; the inputs, the bytes and sdb's write counter.
# Skips (exit 77) when qemu or the cached kernel is absent; under CI=true, once the setup was run
# ($CACHE/ready exists), a skip is a failure. Cache: $SSDLAB_QEMU_CACHE (/var/cache/ssdlab-qemu).
#
# One boot per part, so that each stays well under a minute and the two run side by side:
#   qemu_test.sh drives    issue 11: identity, SMART, the short profiles, temperature, dry runs
#   qemu_test.sh changes   issue 13: settings changed, journaled and restored (write cache, power
#                          states, HPA, purges, namespaces)
# (no argument: both parts in one boot).
set -uo pipefail

PART=${1:-all}
case "$PART" in drives | changes | all) ;; *) echo "FAIL: unknown part $PART"; exit 1 ;; esac
SSDLAB=${SSDLAB:-build/suite/ssdlab}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${SSDLAB_QEMU_CACHE:-/var/cache/ssdlab-qemu}
NVME_SERIAL=SSDLABTEST01
SATA_SERIAL=SATATEST0001
# Longer than 16 characters on purpose: the SCSI product field would cut it.
SATA_MODEL="SSDLAB QEMU SATA TEST DISK"
NVME_BYTES=$((256 * 1024 * 1024))
SATA_BYTES=$((192 * 1024 * 1024))
# A second SATA disk for the sprandom fill's spare from the drive database (qemu_guest_spare.sh):
# the guest's copy of the database gets a test-only entry for this model with 1 GiB of NAND.
SPARE_MODEL="SSDLAB QEMU SPARE TEST DISK"
SPARE_SERIAL=SATATEST0002
SPARE_BYTES=$((768 * 1024 * 1024))
SPARE_NAND_GIB=1

skip() {
	if [ "${CI:-}" = true ] && [ -f "$CACHE/ready" ]; then
		echo "FAIL: would skip under CI after scripts/qemu-setup.sh ran: $*"
		exit 1
	fi
	echo "SKIP: $*"
	exit 77
}
fail() {
	echo "FAIL: $*"
	exit 1
}

command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is missing (run scripts/qemu-setup.sh)"
[ -f "$CACHE/ready" ] && [ -f "$CACHE/vmlinuz" ] && [ -f "$CACHE/mods/list" ] ||
	skip "no kernel cached in $CACHE (run scripts/qemu-setup.sh as root)"
[ -x /bin/busybox ] || skip "/bin/busybox is missing (apt-get install busybox-static)"
command -v python3 >/dev/null || skip "python3 is missing (used to read the JSON)"
command -v cpio >/dev/null && CPIO=(cpio) || CPIO=(/bin/busybox cpio)
[ -x "$SSDLAB" ] || fail "ssdlab binary not found at $SSDLAB"

W=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-qemu.XXXXXX") || fail "mktemp"
# The images and the initramfs are removed on every exit, also when a check fails or qemu times out.
trap 'rm -rf "$W"' EXIT

R=$W/root
mkdir -p "$R"/{bin,proc,sys,dev,tmp,mods,etc} || fail "mkdir"
cp /bin/busybox "$R/bin/busybox" && cp "$CACHE"/mods/*.ko "$CACHE/mods/list" "$R/mods/" || fail "copy modules"
# The ext4 driver (it mounts ext2) and its dependencies in load order, from the cached kernel's
# tree (modules.dep: ext4 needs crc16, mbcache, jbd2; crc32c for checksummed filesystems), for
# the filesystem mounted on nvme0n2 in the changes part; without them that check fails.
KMOD=$CACHE/kern-$(cat "$CACHE/ready")/lib/modules/$(cat "$CACHE/ready")/kernel
for m in lib/crc16 fs/mbcache fs/jbd2/jbd2 crypto/crc32c_generic fs/ext4/ext4; do
	[ -f "$KMOD/$m.ko" ] && cp "$KMOD/$m.ko" "$R/mods/" && echo "${m##*/}.ko" >>"$R/mods/list" ||
		echo "qemu: no $KMOD/$m.ko: nvme0n2 cannot be mounted"
done
cp "$SSDLAB" "$R/bin/ssdlab" || fail "copy ssdlab"
# The loader and every library at the path ldd resolves it to, so the guest finds them unchanged.
# A sanitizer build's libasan is among them and works the same in the guest.
for lib in $(ldd "$SSDLAB" | awk '/=> \// {print $3} /^\t\/.*ld-linux/ {print $1}'); do
	mkdir -p "$R$(dirname "$lib")" && cp -L "$lib" "$R$lib" || fail "copy $lib"
done
cp "$HERE/qemu_guest.sh" "$R/tests.sh" && echo "$PART" >"$R/part" || fail "copy guest script"
# The short profile (qemu_guest_profile.sh) and the drive database its snapshots are mapped
# through, at the path this build looks for it (config.h's SSDLAB_PROFILES_SRCDIR).
cp "$HERE/qemu_guest_profile.sh" "$R/tests_profile.sh" || fail "copy guest profile script"
cp "$HERE/qemu_guest_ident.sh" "$R/tests_ident.sh" || fail "copy guest identity script"
cp "$HERE/qemu_guest_spare.sh" "$R/tests_spare.sh" || fail "copy guest spare script"
cp "$HERE/qemu_guest_devchange.sh" "$R/tests_devchange.sh" || fail "copy guest devchange script"
cp "$HERE/qemu_guest_hpa.sh" "$R/tests_hpa.sh" || fail "copy guest hpa script"
cp "$HERE/qemu_guest_purge.sh" "$R/tests_purge.sh" || fail "copy guest purge script"
cp "$HERE/qemu_guest_atapurge.sh" "$R/tests_atapurge.sh" || fail "copy guest ATA purge script"
cp "$HERE/qemu_guest_ns.sh" "$R/tests_ns.sh" || fail "copy guest namespace script"
# The namespace probe (nvme_ns_probe.c), built beside the tests; its libraries are ssdlab's.
PROBE=$(dirname "$SSDLAB")/../tests/integration/nvme_ns_probe
[ -x "$PROBE" ] && cp "$PROBE" "$R/bin/nvme_ns_probe" || echo "qemu: no $PROBE: the namespace resize is not run"
DB_DIR=$(sed -n 's/^#define SSDLAB_PROFILES_SRCDIR "\(.*\)"$/\1/p' "$(dirname "$SSDLAB")/../config.h")/drives
mkdir -p "$R$DB_DIR" && cp "$HERE/../../profiles/drives/drives.yaml" "$R$DB_DIR/" || fail "copy the drive database"
# The test-only entry, first in the guest's copy (entries are tried in file order): the project's
# database holds no value that no source states, so this one lives here and names the test.
python3 - "$R$DB_DIR/drives.yaml" "$SPARE_MODEL" "$SPARE_NAND_GIB" <<'PY' || fail "add the test entry"
import sys
path, model, gib = sys.argv[1:]
text = open(path).read()
entry = f"""drives:
  - name: ssdlab QEMU spare test disk (test only)
    match: '^{model}$'
    transport: ata
    host: {{counter: 'ata:241', unit: 512B, verified: false}}
    source: 'tests/integration/qemu_test.sh: a test-only entry in the QEMU guest copy'
    raw_nand:
      - match: '^{model}$'
        gib: {gib}
        source: 'tests/integration/qemu_test.sh: the test states {gib} GiB of NAND for its disk'
"""
assert text.count("\ndrives:\n") == 1
open(path, "w").write(text.replace("\ndrives:\n", "\n" + entry, 1))
PY
cat >"$R/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# /tmp stays the initramfs's own (writable) directory, not a tmpfs over it: the drive database
# sits at the build's source path, which is under /tmp when the tree was cloned there.
mkdir -p /tmp
# nvme-core without native multipath: the NVMe sits in an nvme-subsys (namespace management and
# attachment need one in QEMU) and would otherwise show as a multipath head without a controller.
for m in $(cat /mods/list); do
	case $m in nvme-core.ko) p=multipath=N ;; *) p= ;; esac
	insmod /mods/$m $p || echo "INIT: insmod $m failed"
done
# The disks appear asynchronously after the drivers probe: wait up to 10 s.
i=0
while [ $i -lt 100 ] && ! { [ -b /dev/nvme0n1 ] && [ -b /dev/sda ] && [ -b /dev/sdb ]; }; do sleep 0.1; i=$((i + 1)); done
echo "INIT: block devices: $(ls /sys/block | tr '\n' ' ')"
sh /tests.sh 2>&1
echo "=== GUEST DONE ==="
poweroff -f
INIT
chmod +x "$R/init"
(cd "$R" && find . | "${CPIO[@]}" -o -H newc 2>/dev/null | gzip -1) >"$W/initrd.gz" || fail "initramfs"

truncate -s "$NVME_BYTES" "$W/nvme.img" && truncate -s "$SATA_BYTES" "$W/sata.img" &&
	truncate -s "$SPARE_BYTES" "$W/spare.img" || fail "images"
# A second namespace of the same controller (16 MiB) holding an ext2 filesystem, which the guest
# mounts: the safety gate must refuse a sanitize of nvme0n1 because it reaches nvme0n2 too.
truncate -s $((16 * 1024 * 1024)) "$W/nvme2.img" || fail "images"
PATH=$PATH:/sbin:/usr/sbin mke2fs -q -F -t ext2 -L ssdlab-ns2 "$W/nvme2.img" ||
	fail "mke2fs on the nvme0n2 image (apt-get install e2fsprogs)"

start=$(date +%s.%N)
# Bounded: a guest that hangs (TCG stalls have been seen with deep large-block jobs) is killed.
timeout -k 5 "${SSDLAB_QEMU_TIMEOUT:-240}" qemu-system-x86_64 -cpu max -m 1024 -smp 1 \
	-display none -monitor none -serial "file:$W/serial.log" -no-reboot \
	-kernel "$CACHE/vmlinuz" -initrd "$W/initrd.gz" \
	-append "console=ttyS0 quiet panic=-1 loglevel=3" \
	-drive "file=$W/nvme.img,if=none,id=nv0,format=raw,cache=unsafe,discard=unmap" \
	-device "nvme-subsys,id=subsys0,nqn=ssdlab-test" \
	-device "nvme,serial=$NVME_SERIAL,id=nvme0,subsys=subsys0" \
	-device "nvme-ns,drive=nv0,bus=nvme0,nsid=1" \
	-drive "file=$W/nvme2.img,if=none,id=nv1,format=raw,cache=unsafe,discard=unmap" \
	-device "nvme-ns,drive=nv1,bus=nvme0,nsid=2" \
	-drive "file=$W/sata.img,if=none,id=sata0,format=raw,cache=unsafe,discard=unmap" \
	-device ahci,id=ahci0 \
	-device "ide-hd,drive=sata0,bus=ahci0.0,model=$SATA_MODEL,serial=$SATA_SERIAL,rotation_rate=1" \
	-drive "file=$W/spare.img,if=none,id=sata1,format=raw,cache=unsafe,discard=unmap" \
	-device "ide-hd,drive=sata1,bus=ahci0.1,model=$SPARE_MODEL,serial=$SPARE_SERIAL,rotation_rate=1"
qrc=$?
echo "qemu: exit $qrc after $(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo '?') s"
[ -f "$W/serial.log" ] || fail "no serial log"
if [ -n "${SSDLAB_QEMU_LOG:-}" ]; then cp "$W/serial.log" "$SSDLAB_QEMU_LOG"; fi
grep -q '=== GUEST DONE ===' "$W/serial.log" || {
	tail -40 "$W/serial.log"
	fail "the guest did not finish (qemu exit $qrc)"
}

if [ "$PART" != changes ]; then
python3 - "$W/serial.log" <<PY || fail "checks failed"
import base64, json, os, re, shutil, subprocess, sys
log = open(sys.argv[1], errors="replace").read().replace("\r", "")
want = {
    "nvme": ("/dev/nvme0n1", "QEMU NVMe Ctrl", "$NVME_SERIAL", $NVME_BYTES),
    "sata": ("/dev/sda", "$SATA_MODEL", "$SATA_SERIAL", $SATA_BYTES),
}
bad = 0
for tag, (path, model, serial, cap) in want.items():
    m = re.search(r"=== BEGIN %s ===\n(.*?)\n=== END %s rc=(\d+) ===" % (tag, tag), log, re.S)
    if not m:
        print("FAIL %s: no output block in the console log" % tag); bad += 1; continue
    for line in log.splitlines():
        if line.startswith("stderr %s: " % tag):
            print(line)
    if m.group(2) != "0":
        print("FAIL %s: ssdlab exited %s" % (tag, m.group(2))); bad += 1; continue
    try:
        d = json.loads(m.group(1))
    except ValueError as e:
        print("FAIL %s: JSON: %s" % (tag, e)); bad += 1; continue
    t = d["target"]
    got = (t["path"], t["model"], t["serial"], t["capacity"])
    print("%s: path=%s model=%r serial=%r capacity=%d; %d reads, %d bytes, %.0f IOPS" %
          ((tag,) + got + (d["read"]["ios"], d["bytes_read"], d["iops"])))
    if got != (path, model, serial, cap):
        print("FAIL %s: target %r, QEMU was given %r" % (tag, got, (path, model, serial, cap))); bad += 1
    if d["read"]["ios"] <= 0 or d["bytes_read"] != 4096 * d["read"]["ios"] or d["bytes_written"] != 0:
        print("FAIL %s: reads %d, bytes read %d, written %d" %
              (tag, d["read"]["ios"], d["bytes_read"], d["bytes_written"])); bad += 1
# ssdlab info: what the real NVMe and AHCI drivers expose, against what QEMU was given.
info_want = {
    "info-nvme": ("nvme", "QEMU NVMe Ctrl", "$NVME_SERIAL", $NVME_BYTES),
    "info-sata": ("sata", "$SATA_MODEL", "$SATA_SERIAL", $SATA_BYTES),
}
for tag, (transport, model, serial, cap) in info_want.items():
    m = re.search(r"=== BEGIN %s ===\n(.*?)\n=== END %s rc=(\d+) ===" % (tag, tag), log, re.S)
    if not m or m.group(2) != "0":
        print("FAIL %s: no output or a non-zero exit" % tag); bad += 1; continue
    try:
        d = json.loads(m.group(1))
    except ValueError as e:
        print("FAIL %s: JSON: %s" % (tag, e)); bad += 1; continue
    got = (d.get("transport"), d.get("model"), d.get("serial"), d.get("capacity"))
    print("%s: transport=%s model=%r serial=%r capacity=%s smart=%s rotational=%s" %
          ((tag,) + got + (d.get("offers", {}).get("smart"), d.get("rotational"))))
    if got != (transport, model, serial, cap):
        print("FAIL %s: %r, QEMU was given %r" % (tag, got, (transport, model, serial, cap))); bad += 1
    if d.get("offers", {}).get("smart") is not True:
        print("FAIL %s: a %s drive offers SMART" % (tag, transport)); bad += 1
    if d.get("rotational") is not False:
        print("FAIL %s: rotational %r (QEMU: rotation_rate=1 / NVMe)" % (tag, d.get("rotational"))); bad += 1
    if transport == "nvme" and (d.get("nvme") or {}).get("controller") != "nvme0":
        print("FAIL %s: NVMe placement %r" % (tag, d.get("nvme"))); bad += 1
# SATA through ATA PASS-THROUGH. Expected values from QEMU 7.2's hw/ide/core.c: ide_identify()
# (word 80 0x00f0 -> ATA/ATAPI-7; words 100-103 = the image's sectors; word 82 bits 0 and 5, word 83
# bit 10; word 76 = NCQ only, so no HIPM/DIPM/DEVSLP; no word 128 or 59 bits: no security, no
# sanitize), cmd_read_native_max() (nb_sectors - 1) and smart_attributes[] (id, flags, current,
# worst, raw[6], threshold): 1 raw 0 thr 6; 3 raw 0x10; 4 raw 0x64 thr 0x14; 5 raw 0 thr 0x24;
# 9 raw 1; 12 raw 0; 190 current 0x45, raw 1f 00 1f 1f 00 00 (31 C in the low byte) thr 0x32.
# SMART RETURN STATUS: smart_errors is 0, so "good".
# every guest block at once: tag -> (output, exit status)
blocks = {t: (out, rc) for t, out, rc in re.findall(r"=== BEGIN (\S+) ===\n(.*?)\n=== END \1 rc=(\d+) ===", log, re.S)}
sata_tags = ("info-sata", "smart-sata", "smart-sata-load", "smart-sata-dry", "info-sata-dry", "smart-sata-text",
             "info-sata-text")
print("\n".join(l for l in log.splitlines() if l.split(":")[0] in ["stderr " + t for t in sata_tags]))
sata_out = {t: blocks[t][0] for t in sata_tags if blocks.get(t, ("", ""))[1] == "0"}
for t in sorted(set(sata_tags) - set(sata_out)):
    print("FAIL %s: no output or a non-zero exit %r" % (t, blocks.get(t, (None, None))[1])); bad += 1
native = $SATA_BYTES // 512 - 1
qemu_attrs = {1: (0, 100, 6), 3: (0x10, 100, 0), 4: (0x64, 100, 0x14), 5: (0, 100, 0x24), 9: (1, 100, 0),
              12: (0, 100, 0), 190: (0x1f1f001f, 0x45, 0x32)}
try:
    if "info-sata" in sata_out:
        a = json.loads(sata_out["info-sata"])["ata"]
        hpa = a["hpa"]
        print("info-sata ata: model=%r serial=%r %s lba48=%s sectors=%s hpa=%s native=%s current=%s hidden=%s" %
              (a["model"], a["serial"], a["major_version"], a["lba48"], a["user_sectors"], hpa["state"],
               hpa["native_max_lba"], hpa["current_max_lba"], hpa["hidden_bytes"]))
        want = {"read": True, "model": "$SATA_MODEL", "serial": "$SATA_SERIAL", "major_version": "ATA/ATAPI-7",
                "lba48": True, "logical_sector_size": 512, "user_sectors": native + 1}
        for k, v in want.items():
            if a.get(k) != v:
                print("FAIL info-sata: ata.%s %r, expected %r" % (k, a.get(k), v)); bad += 1
        if (hpa["state"], hpa["native_max_lba"], hpa["current_max_lba"], hpa["hidden_bytes"]) != ("none", native, native, 0):
            print("FAIL info-sata: hpa %r, expected none with native max %d" % (hpa, native)); bad += 1
        if a["smart"] != {"supported": True, "enabled": True} or a["write_cache"]["supported"] is not True:
            print("FAIL info-sata: smart %r, write cache %r" % (a["smart"], a["write_cache"])); bad += 1
        if a["security"]["supported"] or a["sanitize"]["supported"] or a["devslp"]["supported"] or \
           a["dipm"]["supported"] or a["hipm"]["supported"]:
            print("FAIL info-sata: QEMU has no security, sanitize, DEVSLP, DIPM or HIPM: %r" % a); bad += 1
    if "smart-sata" in sata_out and "smart-sata-load" in sata_out:
        live, load = json.loads(sata_out["smart-sata"]), json.loads(sata_out["smart-sata-load"])
        got = {x["id"]: (x["raw"], x["current"], x["threshold"]) for x in live["raw"]["attributes"]}
        print("smart-sata: source=%s status=%s attributes %r" % (live["source"], live["raw"]["smart_status"], got))
        if live["source"] != "ata-smart" or live["raw"]["smart_status"] != "good":
            print("FAIL smart-sata: source %r, status %r" % (live["source"], live["raw"]["smart_status"])); bad += 1
        if got != qemu_attrs:
            print("FAIL smart-sata: attributes %r, QEMU sets %r" % (got, qemu_attrs)); bad += 1
        if got.get(190, (0,))[0] & 0xff != 31:
            print("FAIL smart-sata: airflow temperature low byte, QEMU sets 31 C"); bad += 1
        if live["counters"].get("power_on_ns", {}).get("value") != 3600e9:
            print("FAIL smart-sata: power_on_ns %r, QEMU's attribute 9 raw is 1 hour" % live["counters"]); bad += 1
        if (live["raw"]["model"], live["raw"]["serial"]) != ("$SATA_MODEL", "$SATA_SERIAL"):
            print("FAIL smart-sata: identity %r" % ((live["raw"]["model"], live["raw"]["serial"]),)); bad += 1
        # the blob --save wrote decodes offline to the same attributes and identity
        if load["raw"]["attributes"] != live["raw"]["attributes"] or load["raw"]["model"] != live["raw"]["model"]:
            print("FAIL smart-sata-load: the saved blob decodes differently"); bad += 1
        # no Device Statistics in QEMU (IDENTIFY word 84 has no GPL bit): present but empty
        if live["raw"].get("device_statistics") != {} or "General Purpose Logging" not in live["raw"]["device_statistics_note"]:
            print("FAIL smart-sata: device_statistics %r" % live["raw"].get("device_statistics")); bad += 1
    if "smart-sata-text" in sata_out:
        t = re.search(r"^ *12 Power_Cycle_Count .* (\d+) +\d+ count$", sata_out["smart-sata-text"], re.M)
        if not t or t.group(1) != "0" or "SMART status good" not in sata_out["smart-sata-text"]:
            print("FAIL smart-sata-text: %r" % sata_out["smart-sata-text"]); bad += 1
    if "info-sata-text" in sata_out and "no HPA (native max LBA %d" % native not in sata_out["info-sata-text"]:
        print("FAIL info-sata-text: no 'no HPA' line: %r" % sata_out["info-sata-text"]); bad += 1
    # the CDBs, hand-worked from SAT-3 12.2.2: IDENTIFY PIO-in (85 08 0e ... ec), SMART READ DATA with
    # 4F/C2 in LBA 15:8/23:16 (cdb 10, 12), READ NATIVE MAX EXT non-data 48-bit CK_COND, device 0x40
    for tag, cdb in (("smart-sata-dry", "85 08 0e 00 00 00 01 00 00 00 00 00 00 00 ec 00"),
                     ("smart-sata-dry", "85 08 0e 00 d0 00 01 00 00 00 4f 00 c2 00 b0 00"),
                     ("smart-sata-dry", "85 06 20 00 da 00 00 00 00 00 4f 00 c2 00 b0 00"),
                     ("info-sata-dry", "85 07 20 00 00 00 00 00 00 00 00 00 00 40 27 00")):
        if "CDB " + cdb not in sata_out.get(tag, ""):
            print("FAIL %s: no CDB %s in %r" % (tag, cdb, sata_out.get(tag))); bad += 1
    # skdump (libatasmart-bin) reads the blob --save wrote, and prints the raw values QEMU set
    if blocks.get("sata-blob", ("", ""))[1] != "0":
        print("FAIL sata-blob: the guest did not print the saved blob"); bad += 1
    elif not shutil.which("skdump"):
        print("sata-blob: skdump is not installed (libatasmart-bin): blob not checked against it")
    else:
        blob = os.path.join(os.path.dirname(sys.argv[1]), "sata.blob")
        with open(blob, "wb") as f:
            f.write(base64.b64decode("".join(blocks["sata-blob"][0].split())))
        sk = subprocess.run(["skdump", "--load=" + blob], capture_output=True, text=True)
        theirs = {}
        for line in sk.stdout.splitlines():
            t = re.match(r"\s*(\d+)\s+\S+\s+(\d+|n/a)\s+(\d+|n/a)\s+(\d+|n/a)\s.*\s0x([0-9a-f]{12})\s", line)
            if t:
                theirs[int(t.group(1))] = (int.from_bytes(bytes.fromhex(t.group(5)), "little"), int(t.group(2)),
                                           int(t.group(4)))
        print("sata-blob: skdump rc=%d attributes %r" % (sk.returncode, theirs))
        if sk.returncode != 0 or theirs != qemu_attrs or "SSDLAB QEMU SATA TEST DISK" not in sk.stdout:
            print("FAIL sata-blob: skdump --load of the saved blob: %s" % (sk.stdout + sk.stderr)[:2000]); bad += 1
except (ValueError, KeyError, IndexError, TypeError) as e:
    print("FAIL sata: %r" % e); bad += 1
# NVMe SMART/Health: the data-units-written delta against the bytes ssdlab wrote. A data unit is
# 1000 x 512 bytes, rounded up by the drive (QEMU: DIV_ROUND_UP(sectors, 1000)), so both agree
# within one unit (512,000 bytes).
snaps = {}
for tag in ("smart-before", "smart-after", "write-nvme", "smart-dry", "smart-text", "info-nvme", "info-nvme-dry",
            "info-nvme-text"):
    m = re.search(r"=== BEGIN %s ===\n(.*?)\n=== END %s rc=(\d+) ===" % (tag, tag), log, re.S)
    for line in log.splitlines():
        if line.startswith("stderr %s: " % tag):
            print(line)
    if not m or m.group(2) != "0":
        print("FAIL %s: no output or a non-zero exit" % tag); bad += 1; continue
    snaps[tag] = m.group(1)
if "smart-dry" in snaps:
    print("smart-dry: %s" % snaps["smart-dry"].strip())
    if "opcode 0x02" not in snaps["smart-dry"] or "cdw10 0x007f0002" not in snaps["smart-dry"]:
        print("FAIL smart-dry: expected Get Log Page 0x02 with cdw10 0x007f0002"); bad += 1
if all(t in snaps for t in ("smart-before", "smart-after", "write-nvme")):
    try:
        b, a, w = (json.loads(snaps[t]) for t in ("smart-before", "smart-after", "write-nvme"))
        def ctr(s, name):
            return s["counters"][name]["value"]
        if b.get("source") != "nvme-smart" or a.get("source") != "nvme-smart":
            print("FAIL smart: source %r/%r" % (b.get("source"), a.get("source"))); bad += 1
        delta = ctr(a, "host_bytes_written") - ctr(b, "host_bytes_written")
        wrote = w["bytes_written"]
        print("smart: host_bytes_written %d -> %d, delta %d; ssdlab wrote %d; temperature %s C, spare %s%%, used %s%%" %
              (ctr(b, "host_bytes_written"), ctr(a, "host_bytes_written"), delta, wrote,
               ctr(a, "temperature_c"), ctr(a, "available_spare"), ctr(a, "percentage_used")))
        # QEMU's composite temperature is fixed at 0x143 = 323 K (hw/nvme/ctrl.c NVME_TEMPERATURE)
        if abs(ctr(a, "temperature_c") - 49.85) > 1e-9:
            print("FAIL smart: temperature %r, QEMU reports 323 K = 49.85 C" % ctr(a, "temperature_c")); bad += 1
        if wrote != 8 * 1024 * 1024 or abs(delta - wrote) >= 512000:
            print("FAIL smart: delta %d vs written %d (allowed: under one data unit, 512000)" % (delta, wrote)); bad += 1
        # the text form says what the JSON says
        t = re.search(r"data units written +(\d+) \((\d+) bytes\)", snaps.get("smart-text", ""))
        duw = int(a["raw"]["data_units_written"])
        if not t or int(t.group(1)) != duw or int(t.group(2)) != duw * 512000:
            print("FAIL smart-text: %r vs %d data units" % (t and t.group(0), duw)); bad += 1
    except (ValueError, KeyError, IndexError, TypeError) as e:
        print("FAIL smart: %r" % e); bad += 1
# NVMe Identify (info) and the extra logs (smart): QEMU's controller answers Identify with the
# serial it was given and mn "QEMU NVMe Ctrl", its namespace uses LBA format 0 (512 B data, no
# metadata), VWC 0x7 (a volatile write cache present); log 0xC0 gets Invalid Field (not supported),
# and it has no endurance groups (CTRATT bit 4 clear) and is not Intel (no 0xCA).
try:
    i = json.loads(snaps.get("info-nvme", "{}")).get("nvme_identify") or {}
    lf = i.get("lba_format") or {}
    print("nvme identify: model=%r serial=%r firmware=%r vid=0x%04x lba_format=%r of %d, vwc=%r, apst=%r, caps=%r, wctemp=%s C, cctemp=%s C, endgid=%r" %
          (i.get("model"), i.get("serial"), i.get("firmware"), i.get("vendor_id") or 0, lf,
           len(i.get("lba_formats") or []), i.get("volatile_write_cache"), i.get("apst"),
           i.get("capabilities"), i.get("warning_temp_c"), i.get("critical_temp_c"), i.get("endgid")))
    if i.get("serial") != "$NVME_SERIAL" or i.get("model") != "QEMU NVMe Ctrl":
        print("FAIL info-nvme: Identify serial/model %r/%r" % (i.get("serial"), i.get("model"))); bad += 1
    if (lf.get("data_bytes"), lf.get("metadata_bytes")) != (512, 0):
        print("FAIL info-nvme: LBA format in use %r, QEMU's default is 512 B data, 0 metadata" % lf); bad += 1
    if (i.get("volatile_write_cache") or {}).get("present") is not True:
        print("FAIL info-nvme: VWC %r, QEMU says present (0x7)" % i.get("volatile_write_cache")); bad += 1
    # OACS 0x10a (bits 1 format, 3 namespace management, 8 doorbell config) and SANICAP 0, as
    # ../shared/reference/qemu-devices.md found with nvme-cli
    caps = i.get("capabilities") or {}
    if (caps.get("format"), caps.get("namespace_management"), caps.get("security_send_receive"),
            caps.get("sanitize")) != (True, True, False, []):
        print("FAIL info-nvme: capabilities %r, QEMU: OACS 0x10a, SANICAP 0" % caps); bad += 1
    if "LBA format    #0: 512 B data, 0 B metadata" not in snaps.get("info-nvme-text", ""):
        print("FAIL info-nvme-text: no 'LBA format    #0: 512 B data, 0 B metadata' line"); bad += 1
    dry = snaps.get("info-nvme-dry", "")
    print("info-nvme-dry:\n%s" % dry.strip())
    if "opcode 0x06 (Identify), nsid 0x00000000, cdw10 0x00000001" not in dry or \
       "opcode 0x06 (Identify), nsid 0x00000001, cdw10 0x00000000" not in dry:
        print("FAIL info-nvme-dry: expected Identify CNS 1 (nsid 0) and CNS 0 (nsid 1)"); bad += 1
    if "cdw10 0x007f00c0" not in snaps.get("smart-dry", ""):
        print("FAIL smart-dry: no Get Log Page 0xC0 (cdw10 0x007f00c0)"); bad += 1
    raw = json.loads(snaps.get("smart-after", "{}")).get("raw") or {}
    ocp, endu, intel = raw.get("ocp_c0") or {}, raw.get("endurance_group") or {}, raw.get("intel_ca") or {}
    print("smart logs: 0xC0 %r; 0x09 %r; 0xCA %r" % (ocp, endu, intel))
    if ocp.get("present") is not False or not str(ocp.get("reason")).startswith("not supported"):
        print("FAIL smart: OCP 0xC0 %r, QEMU answers Invalid Field (not supported)" % ocp); bad += 1
    if endu.get("present") is not False or "CTRATT" not in str(endu.get("reason")):
        print("FAIL smart: log 0x09 %r, QEMU has no endurance groups" % endu); bad += 1
    if intel.get("present") is not False:
        print("FAIL smart: log 0xCA %r on a non-Intel controller" % intel); bad += 1
    if "OCP SMART/Health Extended log (0xC0): absent: not supported" not in snaps.get("smart-text", ""):
        print("FAIL smart-text: no 'OCP ... (0xC0): absent: not supported' line"); bad += 1
except (ValueError, KeyError, TypeError) as e:
    print("FAIL nvme identify/logs: %r" % e); bad += 1
# Temperature in the series: the io job's rows carry the NVMe controller's hwmon reading, which
# the kernel takes from QEMU's SMART/Health log: 323 K (hw/nvme/ctrl.c NVME_TEMPERATURE), i.e.
# 323000 - 273150 = 49850 millidegrees. The SATA disk's rows carry none (a SATA reading would
# drain the queue, and QEMU's AHCI disk has no drivetemp sensor in the guest anyway).
m = re.search(r"=== BEGIN hwmon-nvme ===\n(.*?)\n=== END hwmon-nvme rc=(\d+) ===", log, re.S)
hw = m.group(1).split() if m and m.group(2) == "0" else []
try:
    rows = {t: json.loads(re.search(r"=== BEGIN %s ===\n(.*?)\n=== END %s rc=0 ===" % (t, t), log,
                                    re.S).group(1))["series"] for t in ("nvme", "sata")}
    if len(hw) >= 2 and hw[1] == "nvme":
        temps = [r.get("temperature_c") for r in rows["nvme"]]
        print("temperature: hwmon %s (name %s), nvme series %r" % (hw[0], hw[1], temps))
        if int(hw[0]) != 49850:
            print("FAIL hwmon: temp1_input %s, QEMU reports 323 K = 49850 m°C" % hw[0]); bad += 1
        if not temps or any(t is None or abs(t - 49.85) > 1e-9 for t in temps):
            print("FAIL series: temperature_c %r, QEMU reports 49.85 C" % temps); bad += 1
    else:
        print("temperature: the guest kernel shows no NVMe hwmon (%r): series temperature not checked" % hw)
    if any(r.get("temperature_c") is not None for r in rows["sata"]):
        print("FAIL series: the SATA rows carry a temperature %r" % rows["sata"]); bad += 1
except (AttributeError, ValueError, KeyError, TypeError) as e:
    print("FAIL series temperature: %r" % e); bad += 1
sys.exit(1 if bad else 0)
PY
# The short profile's snapshots, records and summary (qemu_profile_check.py says what it checks).
python3 "$HERE/qemu_profile_check.py" "$W/serial.log" || fail "short profile checks failed"
# The sprandom fill's spare from the drive database on the second SATA disk (qemu_spare_check.py).
python3 "$HERE/qemu_spare_check.py" "$W/serial.log" "$SPARE_BYTES" "$SPARE_NAND_GIB" ||
	fail "sprandom spare checks failed"
# The drive identity in both manifests and the refusal, and the dry runs (qemu_ident_check.py).
python3 "$HERE/qemu_ident_check.py" "$W/serial.log" "$NVME_SERIAL" "$NVME_BYTES" "$SATA_MODEL" "$SATA_SERIAL" \
	"$SATA_BYTES" || fail "identity and dry-run checks failed"
fi
if [ "$PART" != drives ]; then
# The write cache off for a run, restored at its end and by `ssdlab restore` after kill -9.
python3 "$HERE/qemu_devchange_check.py" "$W/serial.log" || fail "write cache checks failed"
# `ssdlab hpa`: QEMU's SATA disk state and the refused change (qemu_hpa_check.py).
python3 "$HERE/qemu_hpa_check.py" "$W/serial.log" "$SATA_BYTES" || fail "hpa checks failed"
# The purge methods on the NVMe: auto's format, the discard, the LBA format kept (qemu_purge_check.py).
python3 "$HERE/qemu_purge_check.py" "$W/serial.log" || fail "purge checks failed"
# The ATA purge methods on the SATA disk: refused with the drive's answer, nothing left set.
python3 "$HERE/qemu_atapurge_check.py" "$W/serial.log" || fail "ATA purge checks failed"
# trim-check on QEMU's NVMe: NUSE (= NSZE: QEMU is not thin), DLFEAT 1, neighbours intact.
python3 "$HERE/qemu_trimcheck_check.py" "$W/serial.log" "$NVME_BYTES" || fail "trim-check checks failed"
# `ssdlab namespace` on QEMU's NVMe: the layout, the refused --set (qemu_ns_check.py).
python3 "$HERE/qemu_ns_check.py" "$W/serial.log" "$NVME_BYTES" || fail "namespace checks failed"
fi
echo "PASS ($PART)"
