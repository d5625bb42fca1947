# SPDX-License-Identifier: MIT
# qemu_guest: runs inside the QEMU guest of qemu_test.sh (from its /init, under busybox sh). Output
# goes to the serial console; each command's JSON sits between BEGIN/END marker lines with its exit
# status, so the host can cut it out of the kernel's console messages.
run() {
	tag=$1
	shift
	echo "=== BEGIN $tag ==="
	timeout "${T:-60}" "$@" >/tmp/out.json 2>/tmp/err.txt
	rc=$?
	cat /tmp/out.json
	echo
	echo "=== END $tag rc=$rc ==="
	sed "s/^/stderr $tag: /" /tmp/err.txt
}
# The part qemu_test.sh asked for (drives, changes or all): one boot each keeps each under a minute.
PART=$(cat /part 2>/dev/null || echo all)
if [ "$PART" != changes ]; then
# NVMe SMART/Health (log 0x02) around the I/O below: the host checks the data-units-written delta.
run smart-dry ssdlab smart /dev/nvme0n1 --dry-run
run smart-before ssdlab smart /dev/nvme0n1 --json
# The NVMe controller's hwmon sensor as the kernel shows it (empty when the guest kernel has no
# NVMe hwmon): the host checks the io series' temperature_c against it and against QEMU's value.
run hwmon-nvme sh -c 'cat /sys/class/nvme/nvme0/hwmon*/temp1_input /sys/class/nvme/nvme0/hwmon*/name'
# 1 s of 4k random reads at QD8: short because TCG emulates every instruction.
run nvme ssdlab io /dev/nvme0n1 --rw randread --bs 4k --qd 8 --time 1s --json
run sata ssdlab io /dev/sda --rw randread --bs 4k --qd 8 --time 1s --json
# Identity and transport through the real drivers' sysfs (ssdlab info reads only).
run info-nvme ssdlab info /dev/nvme0n1 --json
run info-sata ssdlab info /dev/sda --json
# NVMe Identify Controller/Namespace through the admin ioctl: the commands, the text and the JSON.
run info-nvme-dry ssdlab info /dev/nvme0n1 --dry-run
run info-nvme-text ssdlab info /dev/nvme0n1
# SATA through ATA PASS-THROUGH (SG_IO): SMART live, saved as a blob and decoded back offline,
# and the commands --dry-run names; `info` above also asked IDENTIFY and READ NATIVE MAX.
run smart-sata-dry ssdlab smart /dev/sda --dry-run
run smart-sata ssdlab smart /dev/sda --json --save /tmp/sata.blob
run smart-sata-load ssdlab smart --load /tmp/sata.blob --json
run sata-blob base64 /tmp/sata.blob
run smart-sata-text ssdlab smart /dev/sda
run info-sata-dry ssdlab info /dev/sda --dry-run
run info-sata-text ssdlab info /dev/sda
# 8 MiB of 128k sequential writes to the test's own NVMe image (serial SSDLABTEST01).
run write-nvme ssdlab io /dev/nvme0n1 --rw write --bs 128k --amount 8MiB --yes-destroy=SSDLABTEST01 --json
run smart-after ssdlab smart /dev/nvme0n1 --json
run smart-text ssdlab smart /dev/nvme0n1
# A short profile with the runner's counter snapshots (qemu_guest_profile.sh, copied beside).
. /tests_profile.sh
# The drive identity in the manifests and the confirmation, and the dry runs (qemu_guest_ident.sh).
. /tests_ident.sh
# The sprandom fill's spare: auto from the drive database on the second SATA disk.
. /tests_spare.sh
fi
if [ "$PART" != drives ]; then
# The write cache a profile pins, journaled and restored (qemu_guest_devchange.sh).
. /tests_devchange.sh
# `ssdlab hpa` on both disks (qemu_guest_hpa.sh).
. /tests_hpa.sh
# The purge phase's drive methods on the NVMe (qemu_guest_purge.sh).
. /tests_purge.sh
# The ATA purge methods on the SATA disk (qemu_guest_atapurge.sh).
. /tests_atapurge.sh
# trim-check on the NVMe (issue 14 point 2; qemu_trimcheck_check.py): NUSE around the discards,
# DLFEAT, the neighbours verified; the records and summary for the host.
# (the bundled profile's phases: the guest has no profiles directory)
cat >/tmp/trim-check.yaml <<'YAML'
name: trim-check
description: TRIM check (pattern, aligned and unaligned discards, neighbours verified)
destructive: true
phases:
  - trim_check: {}
YAML
run trim-run ssdlab run /tmp/trim-check.yaml --target /dev/nvme0n1 --yes-destroy=SSDLABTEST01 --out /tmp/trim
run trim-records cat /tmp/trim/records.jsonl
run trim-summary cat /tmp/trim/summary.json
# `ssdlab namespace` on the NVMe (qemu_guest_ns.sh).
. /tests_ns.sh
fi
