# SPDX-License-Identifier: MIT
# qemu_guest_purge: sourced by qemu_guest.sh (run() comes from there). The purge phase on QEMU's
# NVMe (issue 13 point 4): `auto` skips sanitize (QEMU: SANICAP 0) and formats with user-data
# erase (Format NVM, SES 1, the current LBA format), then 2 MiB of writes, then a `discard`
# purge. Identify Namespace before and after (ssdlab info) shows the LBA format unchanged;
# qemu_purge_check.py reads the records.
cat >/tmp/purge.yaml <<'YAML'
name: qemu-purge
description: the purge methods on QEMU's NVMe (format by auto, then a discard)
destructive: true
phases:
  - purge: {method: auto}
  - precondition: {rw: write, bs: 128k, amount: 2MiB, queue: {threads: 1, depth: 4}}
  - purge: {method: discard, settle: 1s}
YAML
run purge-info-before ssdlab info /dev/nvme0n1 --json
run purge-run ssdlab run /tmp/purge.yaml --target /dev/nvme0n1 --yes-destroy=SSDLABTEST01 --out /tmp/purge --quiet
run purge-records cat /tmp/purge/records.jsonl
run purge-info-after ssdlab info /dev/nvme0n1 --json
# Namespace over-provisioning (the nvme_namespace kind): 256 MiB shrunk to 192 MiB and restored,
# the kernel's size read after each rescan (nvme_ns_probe.c).
[ -x /bin/nvme_ns_probe ] && run ns-resize nvme_ns_probe /dev/nvme0n1 201326592
# The safety gate sees the reach (issue 13 point 5): nvme0n2, another namespace of the same
# controller, is MOUNTED (ext2, made on the host); a profile whose purge is an NVMe sanitize
# (subsystem-wide) on nvme0n1 is refused before anything is sent (exit 3), naming nvme0n2's mount.
# QEMU's FNA is 0 (a format reaches only its namespace): cmocka purge_format_mounted covers FNA 1.
cat >/tmp/sanitize.yaml <<'YAML'
name: qemu-sanitize
description: a sanitize purge, which reaches every namespace of the subsystem
destructive: true
phases:
  - purge: {method: nvme-sanitize}
YAML
mkdir -p /mnt/ns2 && mount -t ext2 /dev/nvme0n2 /mnt/ns2
run reach-mounts cat /proc/mounts
run reach-refused ssdlab run /tmp/sanitize.yaml --target /dev/nvme0n1 --yes-destroy=SSDLABTEST01 --out /tmp/sanitize --quiet
umount /mnt/ns2
