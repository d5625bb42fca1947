#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# io_read_test (hardware suite): `ssdlab io` reads a real drive that the user names, and writes
# nothing. Run it with
#   SSDLAB_HW_DEV=/dev/sdX meson test -C build --suite hardware --print-errorlogs
# on a spare drive (the default `meson test` leaves the hardware suite out; see tests/meson.build).
# Checks: a 4 KiB random read at QD 8 and a 128 KiB sequential read at QD 4 each exit 0, report
# a block device target with the capacity and logical block size the kernel reports
# (blockdev --getsize64, /sys/block/X/queue/logical_block_size), move bytes (IOPS > 0) and write
# none (bytes_written and bytes_written_total 0). Only reads are issued: no --yes-destroy is given,
# and the jobs are read jobs.
set -uo pipefail

SSDLAB=${SSDLAB:-build/suite/ssdlab}

skip() {
	echo "SKIP: $*"
	exit 77
}

dev=${SSDLAB_HW_DEV:-}
[ -n "$dev" ] || skip "SSDLAB_HW_DEV is not set: name a spare drive (SSDLAB_HW_DEV=/dev/sdX) to run it"
[ -b "$dev" ] || { echo "FAIL: SSDLAB_HW_DEV=$dev is not a block device"; exit 1; }
[ -r "$dev" ] || skip "no read permission on $dev (run as root)"
command -v python3 >/dev/null || skip "python3 is missing (used to read the JSON)"
[ -x "$SSDLAB" ] || skip "ssdlab binary not found at $SSDLAB"

name=$(basename "$(readlink -f "$dev")")
lbs=$(cat "/sys/class/block/$name/queue/logical_block_size" 2>/dev/null ||
	cat "/sys/class/block/$name/../queue/logical_block_size" 2>/dev/null || echo 0)
size=$( (command -v blockdev >/dev/null && blockdev --getsize64 "$dev") 2>/dev/null ||
	echo $(($(cat "/sys/class/block/$name/size") * 512)))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

check() { # check NAME ARGS...: one read job, then its JSON against the kernel's figures
	local what=$1
	shift
	if ! "$SSDLAB" io "$dev" "$@" --json </dev/null >"$tmp/out" 2>"$tmp/err"; then
		echo "FAIL: $what: ssdlab io $dev $* exited $?: $(cat "$tmp/err")"
		fails=$((fails + 1))
		return
	fi
	python3 - "$tmp/out" "$what" "$size" "$lbs" <<'PY' || fails=$((fails + 1))
import json, sys
d = json.load(open(sys.argv[1]))
what, size, lbs = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
t, bad = d["target"], []
if t["kind"] != "blockdev":
    bad.append("target kind %r, not blockdev" % t["kind"])
if t["capacity"] != size:
    bad.append("capacity %d, the kernel says %d" % (t["capacity"], size))
if lbs and t["logical_block_size"] != lbs:
    bad.append("logical block size %d, the kernel says %d" % (t["logical_block_size"], lbs))
if not d["iops"] > 0:
    bad.append("no I/O done (iops %r)" % d["iops"])
for k in ("bytes_written", "bytes_written_total"):
    if d[k] != 0:
        bad.append("%s is %d on a read job" % (k, d[k]))
for b in bad:
    print("FAIL: %s: %s" % (what, b))
print("%s: %s %s, %.0f IOPS" % (what, t.get("model"), t.get("serial"), d["iops"]))
sys.exit(1 if bad else 0)
PY
}

check "4k random read QD8" --rw randread --bs 4k --qd 8 --time 3s
check "128k sequential read QD4" --rw read --bs 128k --qd 4 --time 2s
[ "$fails" -eq 0 ] || exit 1
echo "ok: $dev read, nothing written"
