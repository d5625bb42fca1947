# SPDX-License-Identifier: MIT
# qemu_guest_spare: sourced by qemu_guest.sh (run() comes from there). The sprandom fill with
# `spare: auto` on a drive, the spare taken from the drive database's raw NAND size: QEMU's second
# AHCI disk (model SSDLAB QEMU SPARE TEST DISK, serial SATATEST0002, 768 MiB) is found in the
# guest's copy of the database under a test-only entry that qemu_test.sh adds (1 GiB of NAND),
# so the fill's spare is 1 - 768 / 1024 = 0.25. The plan, the run's manifest and records, and the
# kernel's write counters of sdb around the run go to the host (qemu_spare_check.py).
cat >/tmp/spare.yaml <<'YAML'
name: qemu-spare
description: the sprandom fill, its spare from the drive database, on QEMU's second SATA disk
destructive: true
phases:
  - precondition: {method: sprandom, bs: 1m, slc_cache: 0, queue: {threads: 1, depth: 4}}
YAML
run spare-plan ssdlab plan /tmp/spare.yaml --target /dev/sdb
run spare-stat0 cat /sys/block/sdb/stat
# 1 GiB through QEMU's emulated AHCI: about 25 s here with the machine busy, so 150 s
T=150 run spare-run ssdlab run /tmp/spare.yaml --target /dev/sdb --yes-destroy=SATATEST0002 --out /tmp/spare --quiet
run spare-stat1 cat /sys/block/sdb/stat
run spare-manifest cat /tmp/spare/manifest.json
run spare-records cat /tmp/spare/records.jsonl
# without the entry's raw NAND row the same fill is refused before anything is written
run spare-nodb ssdlab run /tmp/spare.yaml --target /dev/sda --yes-destroy=SATATEST0001 --out /tmp/spare-sda --quiet
run spare-nodb-ls sh -c 'ls /tmp/spare-sda 2>&1; cat /tmp/spare-sda/records.jsonl 2>/dev/null | wc -l'
