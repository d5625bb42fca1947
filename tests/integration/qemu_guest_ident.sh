# SPDX-License-Identifier: MIT
# qemu_guest_ident: sourced by qemu_guest.sh after qemu_guest_profile.sh (run() and /tmp/short come
# from there). The drive identity in a run's manifest (target.drive) on both drives, the refusal of a
# wrong --yes-destroy naming the drive, and the dry runs: `io --dry-run`, `plan --target DEV` and
# `run --dry-run` list the drive commands and send none: the SMART counters and the block layer's
# I/O counts of both drives are read before and after them (qemu_ident_check.py compares).
run ident-nvme-manifest cat /tmp/short/manifest.json
cat >/tmp/sata1.yaml <<'YAML'
name: qemu-sata-ident
description: 1 MiB of writes on QEMU's SATA disk, for its manifest
destructive: true
phases:
  - precondition: {rw: write, bs: 128k, amount: 1MiB, queue: {threads: 1, depth: 2}}
YAML
run ident-sata-run ssdlab run /tmp/sata1.yaml --target /dev/sda --yes-destroy=SATATEST0001 --out /tmp/sata1 --quiet
run ident-sata-manifest cat /tmp/sata1/manifest.json
run ident-nvme-refusal ssdlab io /dev/nvme0n1 --rw write --bs 4k --time 1s --yes-destroy=WRONG
run ident-sata-refusal ssdlab io /dev/sda --rw write --bs 4k --time 1s --yes-destroy=WRONG
run ident-nvme-smart0 ssdlab smart /dev/nvme0n1 --json
run ident-sata-smart0 ssdlab smart /dev/sda --json
run ident-nvme-stat0 cat /sys/block/nvme0n1/stat
run ident-sata-stat0 cat /sys/block/sda/stat
run ident-io-nvme-dry ssdlab io /dev/nvme0n1 --rw randread --bs 4k --qd 8 --time 1s --dry-run
run ident-io-sata-dry ssdlab io /dev/sda --rw randwrite --bs 4k --time 1s --dry-run
run ident-plan-nvme ssdlab plan /tmp/short.yaml --target /dev/nvme0n1
run ident-plan-sata ssdlab plan /tmp/sata1.yaml --target /dev/sda
run ident-run-nvme-dry ssdlab run /tmp/short.yaml --target /dev/nvme0n1 --dry-run
run ident-nvme-stat1 cat /sys/block/nvme0n1/stat
run ident-sata-stat1 cat /sys/block/sda/stat
run ident-nvme-smart1 ssdlab smart /dev/nvme0n1 --json
run ident-sata-smart1 ssdlab smart /dev/sda --json
