# SPDX-License-Identifier: MIT
# qemu_guest_hpa: sourced by qemu_guest.sh (run() from there). `ssdlab hpa` on QEMU's disks (issue 13
# point 2): the SATA disk's state, a --set refused before anything is sent (QEMU advertises neither
# HPA nor AMAC), the state unchanged after it, no change pending in a journal named for it, and the NVMe namespace refused (not a SATA setting).
# qemu_hpa_check.py checks them on the host.
run hpa-sata ssdlab hpa /dev/sda --json
run hpa-sata-text ssdlab hpa /dev/sda
run hpa-sata-set ssdlab hpa /dev/sda --set 50%
run hpa-sata-set-dry ssdlab hpa /dev/sda --set 50% --dry-run
run hpa-sata-after ssdlab hpa /dev/sda --json
# the refused --set with a journal directory named: refused before anything is journaled, so
# `restore` finds nothing pending there
run hpa-sata-set-j ssdlab hpa /dev/sda --set 50% --journal /tmp/hpa-j
run hpa-sata-j-restore ssdlab restore /tmp/hpa-j
run hpa-nvme ssdlab hpa /dev/nvme0n1
