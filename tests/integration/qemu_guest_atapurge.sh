# SPDX-License-Identifier: MIT
# qemu_guest_atapurge: sourced by qemu_guest.sh (run() comes from there). The ATA purge methods on
# QEMU's SATA disk (issue 13 point 4), which has no SECURITY feature set and no SANITIZE
# (reference qemu-devices.md): a purge with method ata-security-erase must fail with the drive's
# answer and leave nothing set (the journal then holds no outstanding change), and `auto` must
# skip the ATA rows with their reasons (qemu_atapurge_check.py reads the log).
cat >/tmp/atapurge.yaml <<'YAML'
name: qemu-atapurge
description: an ATA security erase QEMU's SATA disk cannot do
destructive: true
phases:
  - purge: {method: ata-security-erase}
YAML
run atapurge-run ssdlab run /tmp/atapurge.yaml --target /dev/sda --yes-destroy=SATATEST0001 --out /tmp/atapurge --quiet
run atapurge-journal cat /tmp/atapurge/journal.jsonl
run atapurge-restore ssdlab restore /tmp/atapurge
cat >/tmp/atapurge-auto.yaml <<'YAML'
name: qemu-atapurge-auto
description: auto on QEMU's SATA disk (the ATA rows skipped with their reasons)
destructive: true
phases:
  - purge: {method: auto, settle: 1s}
YAML
run atapurge-auto ssdlab run /tmp/atapurge-auto.yaml --target /dev/sda --yes-destroy=SATATEST0001 --out /tmp/atapurge-auto --quiet
run atapurge-auto-records cat /tmp/atapurge-auto/records.jsonl
