# SPDX-License-Identifier: MIT
# qemu_guest_profile: sourced by qemu_guest.sh (run() comes from there). A short profile on the
# test's own NVMe image: 4 MiB of 128k sequential writes after a 1 MiB ramp, then 2 MiB of 64k
# random writes, with the runner's counter snapshot at every phase boundary (flush, settle, reads
# until two agree) and one at the ramp's end, taken from inside the job (one read, no wait).
# The results directory comes back over the console: every snapshot, the records and summary.json
# (qemu_profile_check.py reads them on the host). Then the same profile on the AHCI SATA disk
# (serial SATATEST0001), whose snapshots come from SMART over ATA PASS-THROUGH.
cat >/tmp/short.yaml <<'YAML'
name: qemu-short
description: a few MiB of writes in two phases on QEMU's NVMe and SATA drives
destructive: true
phases:
  - precondition: {rw: write, bs: 128k, amount: 4MiB, ramp: 1MiB, queue: {threads: 1, depth: 4}}
  - write_until: {rw: randwrite, bs: 64k, amount: 2MiB, round_time: 10s, queue: {threads: 1, depth: 4}}
YAML
run profile-run ssdlab run /tmp/short.yaml --target /dev/nvme0n1 --yes-destroy=SSDLABTEST01 --out /tmp/short --quiet
for f in /tmp/short/snapshots/*.json; do
	run "profile-snap:$(basename "$f" .json)" cat "$f"
done
run profile-records cat /tmp/short/records.jsonl
run profile-summary cat /tmp/short/summary.json
run profile-sata-run ssdlab run /tmp/short.yaml --target /dev/sda --yes-destroy=SATATEST0001 --out /tmp/short-sata --quiet
for f in /tmp/short-sata/snapshots/*.json; do
	run "profile-sata-snap:$(basename "$f" .json)" cat "$f"
done
run profile-sata-records cat /tmp/short-sata/records.jsonl
run profile-sata-summary cat /tmp/short-sata/summary.json
