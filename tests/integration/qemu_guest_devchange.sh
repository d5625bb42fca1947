# SPDX-License-Identifier: MIT
# qemu_guest_devchange: sourced by qemu_guest.sh (run() comes from there). The write cache a
# profile pins (issue 13 point 6) on the test's own NVMe drive: a short run with `write_cache:
# off` (the manifest records it read back off, the journal has change/done/restored, and the
# drive's cache is on again afterwards as `info` reads it through Get Features); then a run
# killed with kill -9 while its cache is off, which `ssdlab restore DIR` puts back, and one
# stopped with SIGTERM, whose own exit path puts it back.
# qemu_devchange_check.py reads the blocks on the host.
cat >/tmp/wc.yaml <<'YAML'
name: qemu-wc
description: two short writing phases with the drive's volatile write cache off
destructive: true
write_cache: off
phases:
  - precondition: {rw: write, bs: 128k, amount: 2MiB, queue: {threads: 1, depth: 4}}
  - write_until: {rw: randwrite, bs: 64k, amount: 1MiB, round_time: 10s, queue: {threads: 1, depth: 4}}
YAML
# An idle phase long enough to be killed in (nothing written: no confirmation needed).
cat >/tmp/wc-idle.yaml <<'YAML'
name: qemu-wc-idle
description: the write cache off, then a long idle to be killed in
write_cache: off
phases:
  - idle: {time: 60s}
YAML
run wc-info-before ssdlab info /dev/nvme0n1 --json
run wc-run ssdlab run /tmp/wc.yaml --target /dev/nvme0n1 --yes-destroy=SSDLABTEST01 --out /tmp/wc --quiet
run wc-manifest cat /tmp/wc/manifest.json
run wc-journal cat /tmp/wc/journal.jsonl
run wc-info-after ssdlab info /dev/nvme0n1 --json
# kill -9 once the change is journaled as done (the cache is off), well inside the idle.
ssdlab run /tmp/wc-idle.yaml --target /dev/nvme0n1 --out /tmp/wck --quiet >/dev/null 2>&1 &
wck_pid=$!
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	grep -q '"op":"done"' /tmp/wck/journal.jsonl 2>/dev/null && break
	sleep 1
done
sleep 1
kill -9 "$wck_pid"
wait "$wck_pid"
echo "wck: killed, exit $?"
run wck-info-killed ssdlab info /dev/nvme0n1 --json
run wck-restore-dry ssdlab restore /tmp/wck --dry-run
run wck-restore ssdlab restore /tmp/wck
run wck-info-restored ssdlab info /dev/nvme0n1 --json
run wck-journal cat /tmp/wck/journal.jsonl
run wck-restore-again ssdlab restore /tmp/wck
# SIGTERM mid-idle: the runner stops and the run's exit path restores (exit 130).
run wct sh -c 'ssdlab run /tmp/wc-idle.yaml --target /dev/nvme0n1 --out /tmp/wct --quiet 2>/tmp/wct.err &
p=$!
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	grep -q "\"op\":\"done\"" /tmp/wct/journal.jsonl 2>/dev/null && break
	sleep 1
done
kill -TERM $p
wait $p
echo "exit $?"
cat /tmp/wct.err'
run wct-journal cat /tmp/wct/journal.jsonl
run wct-info ssdlab info /dev/nvme0n1 --json
# Power states (issue 13 point 7): `power_states: off` pins SATA ALPM to max_performance for the
# run and puts the policy as found back; QEMU's NVMe controller has no APST, so the same profile
# on /dev/nvme0n1 is refused before anything runs.
cat >/tmp/ps.yaml <<'YAML'
name: qemu-ps
description: power states pinned off for a short idle
power_states: off
phases:
  - idle: {time: 1s}
YAML
run ps-nvme ssdlab run /tmp/ps.yaml --target /dev/nvme0n1 --out /tmp/ps-nvme --quiet
ps_host=$(readlink -f /sys/block/sda | sed -n 's|.*/\(host[0-9]*\)/.*|\1|p')
ps_policy=/sys/class/scsi_host/$ps_host/link_power_management_policy
run ps-sata-set sh -c "echo min_power >$ps_policy; cat $ps_policy"
run ps-sata ssdlab run /tmp/ps.yaml --target /dev/sda --out /tmp/ps-sata --quiet
run ps-sata-manifest cat /tmp/ps-sata/manifest.json
run ps-sata-journal cat /tmp/ps-sata/journal.jsonl
run ps-sata-after cat "$ps_policy"
