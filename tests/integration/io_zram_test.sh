#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# io_zram_test: `ssdlab io` on a zram device that this test creates (hot_add) and removes.
# zram has no non-blocking submission, so io_uring hands every I/O to its io-wq workers, and the
# uring target submits such I/O with IOSQE_ASYNC so that several workers run it at once (see
# suite/targets/target_uring.c). Checks: reads, writes and a mix at queue depth 16 move exactly the
# bytes that /sys/block/zramN/stat saw (the probe for non-blocking support reads nothing); a
# read at QD16 runs on more than one io-wq worker but no more than there are CPUs when the
# machine has 2 or more CPUs (with one worker every punted I/O would be serialized); a queue
# depth 1 job completes.
#
# The device is reset and removed by the EXIT trap, also when a check fails. A run killed before
# its trap ran leaves its zram id in $base/ssdlab-iozram-PID/id: leftovers of dead runs are
# removed at start; devices this test did not create are never touched.
set -uo pipefail

SSDLAB=${SSDLAB:-build/suite/ssdlab}
TAG=ssdlab-iozram

skip() {
	echo "SKIP: $*"
	exit 77
}

[ "$(id -u)" -eq 0 ] || skip "needs root to create a zram device"
command -v python3 >/dev/null || skip "python3 is missing (used to read the JSON)"
[ -x "$SSDLAB" ] || skip "ssdlab binary not found at $SSDLAB"
[ -e /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null
[ -e /sys/class/zram-control/hot_add ] || skip "no /sys/class/zram-control (zram not available)"

base=/var/tmp

remove_zram() { # remove_zram ID: reset and remove, retried while a closing ring still holds it
	local id=$1 i
	for ((i = 0; i < 50; i++)); do
		echo 1 2>/dev/null >"/sys/block/zram$id/reset" && break
		sleep 0.1
	done
	for ((i = 0; i < 50; i++)); do
		echo "$id" 2>/dev/null >/sys/class/zram-control/hot_remove && break
		sleep 0.1
	done
}

for d in "$base"/$TAG-*; do
	[ -d "$d" ] || continue
	pid=${d##*-}
	kill -0 "$pid" 2>/dev/null && continue # a concurrent run's device
	[ -f "$d/id" ] && [ -e "/sys/block/zram$(cat "$d/id")" ] && remove_zram "$(cat "$d/id")"
	rm -rf "$d"
done

dir="$base/$TAG-$$"
mkdir -p "$dir" || skip "cannot create $dir"
id=
cleanup() {
	[ -n "$id" ] && remove_zram "$id"
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

id=$(cat /sys/class/zram-control/hot_add) || skip "zram hot_add failed"
echo "$id" >"$dir/id"
dev=/dev/zram$id
echo 64M >"/sys/block/zram$id/disksize" || { echo "FAIL: cannot size $dev"; exit 1; }
for ((i = 0; i < 50; i++)); do
	[ -b "$dev" ] && break
	sleep 0.1
done

fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
ok() {
	echo "ok: $*"
}

sectors() { # sectors FIELD: read (3) or written (7) sectors of the zram device
	awk -v f="$1" '{ print $f }' "/sys/block/zram$id/stat"
}

jget() { # jget FILE KEY: a top-level or nested ("read.bytes") number from ssdlab's JSON
	python3 -c 'import json,sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v.get(k, 0) if isinstance(v, dict) else 0
print(int(v))' "$1" "$2"
}

# The device is filled first so that reads are real reads.
"$SSDLAB" io "$dev" --rw write --bs 1m --qd 4 --amount 1x --yes-destroy="$dev" >/dev/null ||
	fail "fill failed"

# name | arguments
cases=(
	"randread QD16|--rw randread --bs 4k --qd 16 --amount 16MiB"
	"randwrite QD16|--rw randwrite --bs 4k --qd 16 --amount 16MiB"
	"randrw QD16|--rw randrw --rwmix-read 70 --bs 4k/50:16k/50 --qd 16 --amount 16MiB"
	"read QD1|--rw read --bs 4k --qd 1 --amount 4MiB"
)
for c in "${cases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	r0=$(sectors 3)
	w0=$(sectors 7)
	# shellcheck disable=SC2086
	"$SSDLAB" io "$dev" $args --yes-destroy="$dev" --json >"$dir/out.json"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name: exit status $rc"
		continue
	fi
	rd=$(($(sectors 3) - r0))
	wr=$(($(sectors 7) - w0))
	want_r=$(jget "$dir/out.json" bytes_read_total)
	want_w=$(jget "$dir/out.json" bytes_written_total)
	if [ $((rd * 512)) -eq "$want_r" ] && [ $((wr * 512)) -eq "$want_w" ] &&
		[ $((want_r + want_w)) -gt 0 ]; then
		ok "$name: $want_r bytes read, $want_w written, as the device counted"
	else
		fail "$name: reported read $want_r written $want_w bytes, /sys/block/zram$id/stat saw $((rd * 512)) and $((wr * 512))"
	fi
done

# Workers: sample the io-wq threads of a running QD16 read.
if [ "$(nproc)" -ge 2 ]; then
	"$SSDLAB" io "$dev" --rw randread --bs 4k --qd 16 --time 2s >/dev/null &
	pid=$!
	most=0
	for ((i = 0; i < 30; i++)); do
		sleep 0.05
		n=$(cat /proc/$pid/task/*/comm 2>/dev/null | grep -c '^iou-wrk')
		[ "$n" -gt "$most" ] && most=$n
	done
	wait "$pid" || fail "the timed read failed"
	if [ "$most" -ge 2 ] && [ "$most" -le "$(nproc)" ]; then
		ok "QD16 reads ran on $most io-wq workers (at most one per CPU)"
	else
		fail "QD16 reads ran on $most io-wq worker(s); want 2 to $(nproc) (IOSQE_ASYNC on a device without non-blocking I/O, workers capped at the CPUs)"
	fi
else
	echo "note: one CPU; the io-wq worker count check needs 2"
fi

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all checks passed"
