# SPDX-License-Identifier: MIT
# qemu_guest_ns: sourced by qemu_guest.sh (run() from there). `ssdlab namespace` on QEMU's NVMe
# (issue 13 point 3): the layout, and a --set refused before anything is sent (QEMU 7.2 advertises
# namespace management in OACS but implements no delete), the layout unchanged after it, and
# nothing pending in the journal directory named for it. qemu_ns_check.py checks them on the host.
run ns-nvme ssdlab namespace /dev/nvme0n1 --json
run ns-nvme-text ssdlab namespace /dev/nvme0n1
run ns-nvme-set-dry ssdlab namespace /dev/nvme0n1 --set 50% --dry-run
run ns-nvme-set ssdlab namespace /dev/nvme0n1 --set 50% --journal /tmp/ns-j
run ns-nvme-restore ssdlab restore /tmp/ns-j
run ns-nvme-after ssdlab namespace /dev/nvme0n1 --json
run ns-sata ssdlab namespace /dev/sda
