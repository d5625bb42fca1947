#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# op_variants_loop_test: the variants kind's trimmed-tail method on a real block device, a loop
# device (direct I/O, discard punches holes in its sparse backing file) over a 64 MiB file, with a
# small profile (discard purge, 4 KiB random writes over one capacity, at 100% and 75%):
#   - method auto resolves to trim-tail (a loop device cannot set its capacity) and runs;
#   - the user capacity of each variant is floor(64 MiB x f / 1 MiB) MiB and the spare added is
#     the rest (summary.json op_variants);
#   - the tail was never written after it was discarded: the backing file holds no data past
#     75% (SEEK_DATA, the file system's view, not ssdlab's) after the 75% variant ran last;
#   - it restores nothing it did not change: the device's size is the same after, and the run
#     wrote no journal (journal.jsonl) of device changes;
#   - under 60 s.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"

TAG=ssdlab-opv-loop
[ "$(id -u)" = 0 ] || skip "needs root to attach loop devices"
command -v losetup >/dev/null || skip "no losetup"
command -v python3 >/dev/null || skip "python3 is needed to read the results"

loop_scratch "$TAG" 64M
[ "$(cat "/sys/block/$name/queue/discard_max_bytes" 2>/dev/null || echo 0)" != 0 ] ||
	skip "$dev does not discard (backing file system without hole punching)"

cat >"$tmp/opv.yaml" <<'YAML'
name: opv-loop
description: trimmed-tail variants on a small device
destructive: true
phases:
  - variants:
      fractions: [100%, 75%]
      phases:
        - purge: {method: discard, settle: 0s}
        - write_until: {rw: randwrite, bs: 4k, amount: 1x, queue: {depth: 8}}
YAML

size0=$(blockdev --getsize64 "$dev")
t0=$(date +%s.%N)
if ! "$SSDLAB" run "$tmp/opv.yaml" --target "$dev" --yes-destroy="$dev" --out "$tmp/r" \
	</dev/null >"$tmp/r.out" 2>&1; then
	fail "ssdlab run failed:"
	tail -20 "$tmp/r.out" >&2
	exit 1
fi
t1=$(date +%s.%N)
echo "loop: run and analysis in $(python3 -c "print('%.2f' % ($t1 - $t0))") s"
python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 60 else 1)" || fail "over 60 s"
grep -q 'variant 2 of 2 (trim-tail)' "$tmp/r.out" || fail "the method is not trim-tail"
[ "$(blockdev --getsize64 "$dev")" = "$size0" ] || fail "the device's size changed"
[ ! -s "$tmp/r/journal.jsonl" ] || fail "the run journaled device changes: $(cat "$tmp/r/journal.jsonl")"
python3 - "$tmp/r" "$tmp/disk.img" "$size0" <<'PY' || fail "op_variants check"
import errno, json, os, sys

d, img, cap = sys.argv[1], sys.argv[2], int(sys.argv[3])
ok = True
ov = json.load(open(d + "/summary.json")).get("op_variants") or []
if len(ov) != 2:
    print("  FAIL: %d op_variants entries, want 2" % len(ov))
    sys.exit(1)
for v, f in zip(ov, (1.0, 0.75)):
    u = cap if f == 1 else int(cap * f) // (1 << 20) * (1 << 20)
    print("  variant %s: %s user %d spare %d, IOPS %.0f" % (v["variant"], v["method"], v["user_capacity"], v["spare_added_bytes"], v["iops"] or 0))
    if v["user_capacity"] != u or v["spare_added_bytes"] != cap - u:
        print("  FAIL: want user %d spare %d" % (u, cap - u))
        ok = False
    if not v["ios"]:
        print("  FAIL: no I/O measured")
        ok = False
tail = int(cap * 0.75) // (1 << 20) * (1 << 20)
fd = os.open(img, os.O_RDONLY)
try:
    data = os.lseek(fd, tail, os.SEEK_DATA)
except OSError as e:
    data = None if e.errno == errno.ENXIO else -1
os.close(fd)
if data is not None:
    print("  FAIL: the backing file holds data at %s past the tail's start %d" % (data, tail))
    ok = False
# the head was written: data before the tail
fd = os.open(img, os.O_RDONLY)
head = os.lseek(fd, 0, os.SEEK_DATA)
os.close(fd)
if head >= tail:
    print("  FAIL: no data before the tail either")
    ok = False
sys.exit(0 if ok else 1)
PY
[ "$fails" = 0 ] || exit 1
echo "op_variants_loop: all checks passed"
