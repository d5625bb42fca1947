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
# Skips (exit 77) when qemu or the cached kernel is absent; under CI=true, once the setup was run
# ($CACHE/ready exists), a skip is a failure. Cache: $SSDLAB_QEMU_CACHE (/var/cache/ssdlab-qemu).
set -uo pipefail

SSDLAB=${SSDLAB:-build/suite/ssdlab}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${SSDLAB_QEMU_CACHE:-/var/cache/ssdlab-qemu}
NVME_SERIAL=SSDLABTEST01
SATA_SERIAL=SATATEST0001
# Longer than 16 characters on purpose: the SCSI product field would cut it.
SATA_MODEL="SSDLAB QEMU SATA TEST DISK"
NVME_BYTES=$((256 * 1024 * 1024))
SATA_BYTES=$((192 * 1024 * 1024))

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
cp "$SSDLAB" "$R/bin/ssdlab" || fail "copy ssdlab"
# The loader and every library at the path ldd resolves it to, so the guest finds them unchanged.
# A sanitizer build's libasan is among them and works the same in the guest.
for lib in $(ldd "$SSDLAB" | awk '/=> \// {print $3} /^\t\/.*ld-linux/ {print $1}'); do
	mkdir -p "$R$(dirname "$lib")" && cp -L "$lib" "$R$lib" || fail "copy $lib"
done
cp "$HERE/qemu_guest.sh" "$R/tests.sh" || fail "copy guest script"
cat >"$R/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
for m in $(cat /mods/list); do insmod /mods/$m || echo "INIT: insmod $m failed"; done
# The disks appear asynchronously after the drivers probe: wait up to 10 s.
i=0
while [ $i -lt 100 ] && ! { [ -b /dev/nvme0n1 ] && [ -b /dev/sda ]; }; do sleep 0.1; i=$((i + 1)); done
echo "INIT: block devices: $(ls /sys/block | tr '\n' ' ')"
sh /tests.sh 2>&1
echo "=== GUEST DONE ==="
poweroff -f
INIT
chmod +x "$R/init"
(cd "$R" && find . | "${CPIO[@]}" -o -H newc 2>/dev/null | gzip -1) >"$W/initrd.gz" || fail "initramfs"

truncate -s "$NVME_BYTES" "$W/nvme.img" && truncate -s "$SATA_BYTES" "$W/sata.img" || fail "images"

start=$(date +%s.%N)
# Bounded: a guest that hangs (TCG stalls have been seen with deep large-block jobs) is killed.
timeout -k 5 100 qemu-system-x86_64 -cpu max -m 1024 -smp 1 \
	-display none -monitor none -serial "file:$W/serial.log" -no-reboot \
	-kernel "$CACHE/vmlinuz" -initrd "$W/initrd.gz" \
	-append "console=ttyS0 quiet panic=-1 loglevel=3" \
	-drive "file=$W/nvme.img,if=none,id=nv0,format=raw,cache=unsafe,discard=unmap" \
	-device "nvme,serial=$NVME_SERIAL,drive=nv0" \
	-drive "file=$W/sata.img,if=none,id=sata0,format=raw,cache=unsafe,discard=unmap" \
	-device ahci,id=ahci0 \
	-device "ide-hd,drive=sata0,bus=ahci0.0,model=$SATA_MODEL,serial=$SATA_SERIAL,rotation_rate=1"
qrc=$?
echo "qemu: exit $qrc after $(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo '?') s"
[ -f "$W/serial.log" ] || fail "no serial log"
if [ -n "${SSDLAB_QEMU_LOG:-}" ]; then cp "$W/serial.log" "$SSDLAB_QEMU_LOG"; fi
grep -q '=== GUEST DONE ===' "$W/serial.log" || {
	tail -40 "$W/serial.log"
	fail "the guest did not finish (qemu exit $qrc)"
}

python3 - "$W/serial.log" <<PY || fail "checks failed"
import json, re, sys
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
# NVMe SMART/Health: the data-units-written delta against the bytes ssdlab wrote. A data unit is
# 1000 x 512 bytes, rounded up by the drive (QEMU: DIV_ROUND_UP(sectors, 1000)), so both agree
# within one unit (512,000 bytes).
snaps = {}
for tag in ("smart-before", "smart-after", "write-nvme", "smart-dry", "smart-text"):
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
echo "PASS"
