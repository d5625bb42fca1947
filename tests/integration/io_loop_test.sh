#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# io_loop_test: `ssdlab io` on loop devices over sparse files that this test creates in a temp
# dir on a disk-backed file system (never tmpfs: a loop device over tmpfs silently falls back to
# buffered I/O, which loop/dio = 0 would show). Checks: a job of each kind runs and the bytes
# that /sys/block/loopN/stat saw equal the bytes reported; a 512 B job on a 4Kn loop device is
# refused before starting; a mounted device and a write without (or with the wrong)
# --yes-destroy are refused with exit 3; an I/O error (a loop device over a sparse file on a
# tiny tmpfs that runs out of space) is reported with offset and errno and exit 1; --json is
# valid JSON.
#
# Everything attached or mounted here is released by the EXIT trap, also when a check fails;
# devices left behind by a killed earlier run are found by their backing files' directory
# name (ssdlab-ioloop-*) and detached at start.
set -uo pipefail

SSDLAB=${SSDLAB:-build/suite/ssdlab}
TAG=ssdlab-ioloop

skip() {
	echo "SKIP: $*"
	exit 77
}

[ "$(id -u)" -eq 0 ] || skip "needs root to attach loop devices"
command -v losetup >/dev/null || skip "losetup is missing (util-linux)"
command -v python3 >/dev/null || skip "python3 is missing (used to check the JSON)"
[ -x "$SSDLAB" ] || skip "ssdlab binary not found at $SSDLAB"
[ -e /dev/loop-control ] || skip "no /dev/loop-control (loop driver not available)"

# Leftovers of a killed earlier run: unmount and detach by backing-file path. A temp dir whose pid
# file names a live process belongs to an instance running now (another checkout's suite): its
# mounts and devices are left alone.
alive() { # alive PATH: PATH is under a $TAG- dir of a running instance
	local d
	d=$(printf '%s\n' "$1" | sed -n "s|^\(.*/$TAG-[^/]*\).*|\1|p")
	[ -n "$d" ] && [ -f "$d/pid" ] && kill -0 "$(cat "$d/pid")" 2>/dev/null
}
cleanup_leftovers() {
	local m dev back
	for m in $(awk -v t="$TAG" '$2 ~ t { print $2 }' /proc/mounts | sort -r); do
		alive "$m" || umount -l "$m" 2>/dev/null
	done
	losetup -l -n -O NAME,BACK-FILE 2>/dev/null | awk -v t="/$TAG-" 'index($0, t) { print $1, $2 }' |
		while read -r dev back; do
			alive "$back" || losetup -d "$dev" 2>/dev/null
		done
}
cleanup_leftovers

base=${TMPDIR:-/var/tmp}
if [ "$(stat -f -c %T "$base" 2>/dev/null)" = tmpfs ]; then
	base=/var/tmp
fi
[ "$(stat -f -c %T "$base" 2>/dev/null)" = tmpfs ] && skip "no disk-backed temp dir (both are tmpfs)"
dir=$(mktemp -d "$base/$TAG-XXXXXX") || skip "cannot create a temp dir in $base"
echo $$ >"$dir/pid"

devs=()
mounts=()
cleanup() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount "${mounts[$i]}" 2>/dev/null || umount -l "${mounts[$i]}" 2>/dev/null
	done
	for d in "${devs[@]}"; do
		losetup -d "$d" 2>/dev/null
	done
	# The tmpfs for the error path is mounted inside $dir; it is in mounts[] above.
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
ok() {
	echo "ok: $*"
}

attach() { # attach VAR FILE [losetup args...]: VAR=/dev/loopN (not in a subshell: devs[] must grow)
	local var=$1 f=$2 d
	shift 2
	d=$(losetup -f --show --direct-io=on "$@" "$f") || return 1
	devs+=("$d")
	printf -v "$var" '%s' "$d"
}

# stat fields 3 and 7 are sectors read and written, always 512-byte units.
sectors() { # sectors DEV FIELD
	awk -v f="$2" '{ print $f }' "/sys/block/$(basename "$1")/stat"
}

jget() { # jget FILE KEY
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

truncate -s 256M "$dir/disk.img"
attach dev "$dir/disk.img" || skip "losetup could not attach a loop device"
name=$(basename "$dev")
if [ "$(cat "/sys/block/$name/loop/dio" 2>/dev/null)" != 1 ]; then
	fail "$dev: loop/dio is not 1 (the backing file system refused direct I/O)"
fi

# Fill the device first so that reads have something to read (and to test plain writes).
out=$("$SSDLAB" io "$dev" --rw write --bs 1m --qd 8 --amount 1x --yes-destroy="$dev" --json 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "fill: exit $rc: $out"

# name | options
jobs=(
	"read|--rw read --bs 128k --qd 4 --amount 64MiB"
	"write|--rw write --bs 64k --qd 8 --amount 48MiB"
	"randread|--rw randread --bs 4k --qd 32 --amount 16MiB"
	"randwrite|--rw randwrite --bs 4k --qd 16 --amount 16MiB"
	"randrw|--rw randrw --rwmix-read 70 --bs 8k --qd 8 --amount 24MiB"
	"split bs|--rw randrw --bs 4k/70:64k/30 --qd 8 --amount 32MiB"
	"threads 2|--rw randread --bs 4k --qd 8 --threads 2 --amount 16MiB"
	"time-bound qd 32|--rw randrw --bs 16k --qd 32 --time 1s"
	"ramp|--rw randwrite --bs 4k --qd 8 --ramp 4MiB --amount 8MiB"
)
for j in "${jobs[@]}"; do
	label=${j%%|*}
	opts=${j#*|}
	r0=$(sectors "$dev" 3)
	w0=$(sectors "$dev" 7)
	# shellcheck disable=SC2086
	"$SSDLAB" io "$dev" $opts --yes-destroy="$dev" --json >"$dir/out.json" 2>"$dir/err.txt"
	rc=$?
	r1=$(sectors "$dev" 3)
	w1=$(sectors "$dev" 7)
	if [ $rc -ne 0 ]; then
		fail "$label: exit $rc: $(cat "$dir/err.txt")"
		continue
	fi
	if ! python3 -m json.tool "$dir/out.json" >/dev/null; then
		fail "$label: --json output is not valid JSON"
		continue
	fi
	br=$(jget "$dir/out.json" bytes_read_total)
	bw=$(jget "$dir/out.json" bytes_written_total)
	sr=$(((r1 - r0) * 512))
	sw=$(((w1 - w0) * 512))
	if [ "$br" -ne "$sr" ] || [ "$bw" -ne "$sw" ]; then
		fail "$label: reported read $br written $bw bytes, /sys/block/$name/stat saw $sr and $sw"
	elif [ $((br + bw)) -eq 0 ]; then
		fail "$label: no I/O reported"
	else
		ok "$label: $br bytes read, $bw written, as the device saw"
	fi
done

# The measured part excludes the ramp: bytes_written is the amount, the device saw both.
"$SSDLAB" io "$dev" --rw randwrite --bs 4k --qd 4 --ramp 2MiB --amount 4MiB --yes-destroy="$dev" \
	--json >"$dir/out.json" 2>/dev/null
if [ "$(jget "$dir/out.json" bytes_written)" -eq $((4 << 20)) ] &&
	[ "$(jget "$dir/out.json" bytes_written_total)" -eq $((6 << 20)) ]; then
	ok "ramp bytes excluded from the figures"
else
	fail "ramp: bytes_written $(jget "$dir/out.json" bytes_written), total $(jget "$dir/out.json" bytes_written_total)"
fi

# Another process's I/O during a job is detected from /sys/block/X/stat and reported.
"$SSDLAB" io "$dev" --rw randread --bs 4k --qd 1 --time 1500ms --json >"$dir/out.json" 2>/dev/null &
job=$!
sleep 0.3
dd if="$dev" of=/dev/null bs=1M count=32 iflag=direct status=none
wait $job
rc=$?
foreign=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["context"]["foreign_sectors_read"])' "$dir/out.json" 2>/dev/null)
if [ $rc -eq 0 ] && [ "${foreign:-0}" -ge $((32 * 2048)) ]; then
	ok "foreign I/O detected: $foreign sectors"
else
	fail "foreign I/O: exit $rc, foreign_sectors_read '${foreign:-}', want >= $((32 * 2048))"
fi

# SIGINT stops the job between batches: what ran is reported, exit 130.
"$SSDLAB" io "$dev" --rw randread --qd 4 --time 30s --json >"$dir/out.json" 2>/dev/null &
job=$!
sleep 0.5
kill -INT $job
wait $job
rc=$?
if [ $rc -eq 130 ] && python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["interrupted"] and j["read"]["ios"] > 0' "$dir/out.json"; then
	ok "SIGINT: exit 130 with the figures so far"
else
	fail "SIGINT: exit $rc, want 130 and a JSON object with interrupted=true"
fi

# Human-readable output names the figures.
out=$("$SSDLAB" io "$dev" --rw randread --qd 4 --time 300ms 2>&1)
if [ $? -eq 0 ] && grep -q "IOPS" <<<"$out" && grep -q "p99" <<<"$out"; then
	ok "text output"
else
	fail "text output: $out"
fi

# Files: one ssdlab creates needs no confirmation and is filled before it is read (a new file
# would read back zeros without touching the disk); an existing sparse file is not read.
"$SSDLAB" io "$dir/new.img" --size 8MiB --rw randread --time 200ms --json >"$dir/out.json" \
	2>"$dir/err.txt" </dev/null
rc=$?
alloc=$(($(stat -c %b "$dir/new.img" 2>/dev/null || echo 0) * $(stat -c %B "$dir/new.img" 2>/dev/null || echo 0)))
if [ $rc -eq 0 ] && [ "$alloc" -ge $((8 << 20)) ]; then
	ok "created file filled before reading ($alloc bytes allocated)"
else
	fail "created file: exit $rc, $alloc bytes allocated: $(cat "$dir/err.txt")"
fi
"$SSDLAB" io "$dir/new2.img" --size 4MiB --rw randwrite --time 200ms </dev/null >/dev/null 2>"$dir/err.txt" &&
	ok "a file ssdlab created is written without confirmation" ||
	fail "write to a created file: $(cat "$dir/err.txt")"
truncate -s 8M "$dir/sparse.img"
"$SSDLAB" io "$dir/sparse.img" --rw randread --time 200ms </dev/null >/dev/null 2>"$dir/err.txt"
rc=$?
[ $rc -eq 2 ] && grep -q "holes" "$dir/err.txt" && ok "sparse file not read: $(cat "$dir/err.txt")" ||
	fail "sparse file read: exit $rc, want 2: $(cat "$dir/err.txt")"

# Writes without confirmation, or with the wrong one, are refused with exit 3 (no terminal here).
"$SSDLAB" io "$dev" --rw write --time 1s </dev/null >/dev/null 2>"$dir/err.txt"
rc=$?
[ $rc -eq 3 ] && ok "write without --yes-destroy refused" ||
	fail "write without --yes-destroy: exit $rc, want 3: $(cat "$dir/err.txt")"
"$SSDLAB" io "$dev" --rw write --time 1s --yes-destroy=/dev/not-this-one </dev/null >/dev/null \
	2>"$dir/err.txt"
rc=$?
[ $rc -eq 3 ] && ok "write with the wrong --yes-destroy refused" ||
	fail "write with a wrong --yes-destroy: exit $rc, want 3: $(cat "$dir/err.txt")"

# A 4Kn device refuses 512-byte I/O before starting, with the reason.
truncate -s 64M "$dir/disk4k.img"
dev4k=
attach dev4k "$dir/disk4k.img" --sector-size 4096
if [ -n "$dev4k" ] && [ "$(cat "/sys/block/$(basename "$dev4k")/queue/logical_block_size")" = 4096 ]; then
	r0=$(sectors "$dev4k" 3)
	"$SSDLAB" io "$dev4k" --rw randread --bs 512 --time 1s >/dev/null 2>"$dir/err.txt"
	rc=$?
	r1=$(sectors "$dev4k" 3)
	if [ $rc -eq 2 ] && grep -q 4096 "$dir/err.txt" && [ "$r0" = "$r1" ]; then
		ok "512 B job on a 4Kn device refused: $(cat "$dir/err.txt")"
	else
		fail "512 B on 4Kn: exit $rc (want 2), $((r1 - r0)) sectors read: $(cat "$dir/err.txt")"
	fi
	"$SSDLAB" io "$dev4k" --rw randread --bs 4k --time 200ms >/dev/null 2>&1 ||
		fail "4 KiB job on the 4Kn device failed"
else
	fail "could not attach a 4Kn loop device"
fi

# A mounted device is refused with exit 3.
truncate -s 64M "$dir/fs.img"
devfs=
attach devfs "$dir/fs.img"
if command -v mkfs.ext4 >/dev/null && [ -n "$devfs" ] && mkfs.ext4 -q -F "$devfs" >/dev/null 2>&1; then
	mkdir -p "$dir/mnt"
	if mount "$devfs" "$dir/mnt"; then
		mounts+=("$dir/mnt")
		"$SSDLAB" io "$devfs" --rw write --time 1s --yes-destroy="$devfs" >/dev/null 2>"$dir/err.txt"
		rc=$?
		[ $rc -eq 3 ] && ok "mounted device refused: $(cat "$dir/err.txt")" ||
			fail "mounted device: exit $rc, want 3: $(cat "$dir/err.txt")"
	else
		fail "could not mount the ext4 loop device"
	fi
else
	echo "note: mkfs.ext4 unavailable; mounted-device check not run"
fi

# An I/O error: a sparse file on a 4 MiB tmpfs under a loop device runs out of space.
mkdir -p "$dir/tiny"
if mount -t tmpfs -o size=4m ssdlab-ioloop-tiny "$dir/tiny"; then
	mounts+=("$dir/tiny")
	truncate -s 64M "$dir/tiny/sparse.img"
	# No --direct-io here: tmpfs would refuse it; buffered is what hits ENOSPC.
	deverr=$(losetup -f --show "$dir/tiny/sparse.img") && devs+=("$deverr")
	if [ -n "${deverr:-}" ]; then
		"$SSDLAB" io "$deverr" --rw write --bs 64k --qd 4 --amount 32MiB --yes-destroy="$deverr" \
			>/dev/null 2>"$dir/err.txt"
		rc=$?
		if [ $rc -eq 1 ] && grep -q "offset" "$dir/err.txt" && grep -q "errno" "$dir/err.txt"; then
			ok "I/O error reported: $(cat "$dir/err.txt")"
		else
			fail "I/O error: exit $rc, want 1 with offset and errno: $(cat "$dir/err.txt")"
		fi
		"$SSDLAB" io "$deverr" --rw write --bs 64k --qd 4 --amount 32MiB --yes-destroy="$deverr" \
			--json >"$dir/out.json" 2>/dev/null
		python3 - "$dir/out.json" <<'EOF' && ok "I/O error in JSON" || fail "I/O error JSON lacks error.offset/errno"
import json, sys
e = json.load(open(sys.argv[1]))["error"]
assert e["errno"] > 0 and e["offset"] >= 0 and e["length"] == 65536
EOF
	fi
else
	fail "could not mount a tmpfs for the error path"
fi

if [ $fails -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "all io loop checks passed"
