#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# info_dev_test: `ssdlab info DEV --json` on a loop device and a zram device that this test
# creates (and removes in its EXIT trap), and on the machine's disk vda where there is one (info
# only reads). Each value is compared with what lsblk, blockdev and sysfs say, read here
# independently: size, block sizes, rotational, discard granularity and maximum, scheduler,
# write cache, transport, SMART offered (no for loop and zram), the loop's backing file; and
# `info` of a regular file exits 4 with the reason.
set -uo pipefail

SSDLAB=${SSDLAB:-build/suite/ssdlab}
TAG=ssdlab-info

skip() {
	echo "SKIP: $*"
	exit 77
}

[ "$(id -u)" -eq 0 ] || skip "needs root to create loop and zram devices"
command -v python3 >/dev/null || skip "python3 is missing (used to read the JSON)"
command -v losetup >/dev/null || skip "losetup is missing (util-linux)"
command -v lsblk >/dev/null || skip "lsblk is missing (util-linux)"
command -v blockdev >/dev/null || skip "blockdev is missing (util-linux)"
[ -x "$SSDLAB" ] || skip "ssdlab binary not found at $SSDLAB"

dir=$(mktemp -d "/var/tmp/$TAG-XXXXXX") || skip "cannot create a temp dir"
loop= zid=
cleanup() {
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	if [ -n "$zid" ]; then
		echo 1 2>/dev/null >"/sys/block/zram$zid/reset"
		echo "$zid" 2>/dev/null >/sys/class/zram-control/hot_remove
	fi
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

jget() { # jget FILE KEY: a member of ssdlab's JSON, printed as Python prints it (None for null)
	python3 -c 'import json,sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[k]
print(v)' "$1" "$2"
}

eq() { # eq DEV WHAT GOT WANT
	if [ "$3" = "$4" ]; then
		echo "ok: $1 $2 = $3"
	else
		fail "$1 $2: info says '$3', independent source says '$4'"
	fi
}

# size DEV BLOCKDEV-OPT LSBLK-COLUMN: from blockdev's ioctls, or from lsblk (sysfs) where the
# device cannot be opened (a VM's root disk may refuse it)
size() {
	blockdev "$2" "$1" 2>/dev/null || lsblk -dnbo "$3" "$1" | tr -d ' '
}

# check DEV TRANSPORT SMART: compare info --json with lsblk, blockdev and sysfs
check() {
	local dev=$1 name=${1#/dev/} j="$dir/${1#/dev/}.json" want sched
	"$SSDLAB" info "$dev" --json >"$j" || { fail "info $dev exited $?"; return; }
	"$SSDLAB" info "$dev" >"$dir/$name.txt" || fail "info $dev (text) exited $?"
	eq "$dev" schema "$(jget "$j" schema)" 1
	eq "$dev" capacity "$(jget "$j" capacity)" "$(size "$dev" --getsize64 SIZE)"
	eq "$dev" logical_block_size "$(jget "$j" logical_block_size)" "$(size "$dev" --getss LOG-SEC)"
	eq "$dev" physical_block_size "$(jget "$j" physical_block_size)" "$(size "$dev" --getpbsz PHY-SEC)"
	want=$(lsblk -dnbo ROTA "$dev" | tr -d ' ')
	[ "$want" = 1 ] && want=True || want=False
	eq "$dev" rotational "$(jget "$j" rotational)" "$want"
	eq "$dev" discard_granularity "$(jget "$j" discard_granularity)" \
		"$(lsblk -dnbo DISC-GRAN "$dev" | tr -d ' ')"
	eq "$dev" discard_max_bytes "$(jget "$j" discard_max_bytes)" \
		"$(lsblk -dnbo DISC-MAX "$dev" | tr -d ' ')"
	sched=$(lsblk -dno SCHED "$dev" | tr -d ' ')
	eq "$dev" scheduler "$(jget "$j" scheduler)" "${sched:-None}"
	eq "$dev" write_cache "$(jget "$j" write_cache)" "$(cat "/sys/block/$name/queue/write_cache")"
	eq "$dev" transport "$(jget "$j" transport)" "$2"
	eq "$dev" offers.smart "$(jget "$j" offers.smart)" "$3"
	eq "$dev" link_speed "$(jget "$j" link_speed)" None
	grep -q "transport     $2" "$dir/$name.txt" || fail "$dev: text output lacks the transport"
}

# loop: a 64 MiB file, direct I/O so that the queue is the loop driver's own
truncate -s 64M "$dir/disk.img" || skip "cannot create the backing file"
loop=$(losetup -f --show "$dir/disk.img" 2>/dev/null) || skip "cannot attach a loop device"
check "$loop" loop False
eq "$loop" numa_node "$(jget "$dir/${loop#/dev/}.json" numa_node)" None

# zram, created through zram-control
[ -e /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null
if [ -e /sys/class/zram-control/hot_add ]; then
	zid=$(cat /sys/class/zram-control/hot_add) || fail "zram hot_add failed"
	if [ -n "$zid" ] && echo 32M >"/sys/block/zram$zid/disksize"; then
		for ((i = 0; i < 50; i++)); do
			[ -b "/dev/zram$zid" ] && break
			sleep 0.1
		done
		check "/dev/zram$zid" zram False
	else
		fail "cannot size zram$zid"
	fi
else
	echo "note: no zram on this kernel; zram case not run"
fi

# the machine's disk, read only
if [ -b /dev/vda ] && [ -d /sys/block/vda ]; then
	check /dev/vda virtio False
fi

# a regular file: no sysfs entry, exit 4 with the reason
"$SSDLAB" info "$dir/disk.img" >/dev/null 2>"$dir/err"
rc=$?
eq file exit "$rc" 4
grep -q "not a block device" "$dir/err" || fail "file: no reason given: $(cat "$dir/err")"

# usage errors: exit 2
"$SSDLAB" info >/dev/null 2>&1
eq usage "no DEV exit" "$?" 2
"$SSDLAB" info --bogus "$loop" >/dev/null 2>&1
eq usage "bad option exit" "$?" 2

[ "$fails" -eq 0 ] || exit 1
echo "info_dev_test: all checks passed"
