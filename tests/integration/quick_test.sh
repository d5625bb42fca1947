#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# quick_test: `ssdlab quick` (issue 14, point 4) end to end, each figure checked against a source
# other than ssdlab's own code:
#   - the virtual SSD static-slc (a static 107 MiB SLC cache, its model file): a bound smaller
#     than the cache (64 MiB) is flagged "still in the SLC cache"; a larger one (400 MiB) is not,
#     and the drop is placed within 5 % of the model's 107 MiB;
#   - a loop device: refused with exit 3 without --yes-destroy (the device's write counter does
#     not move); confirmed, the region is 80 % of the capacity in whole MiB, and the device's
#     /sys/block/X/stat saw at least that much written;
#   - a file in an ext4 file system the test mounts on a loop device: the file's size is what
#     python's os.statvfs gives (80 % of the free space, at most leaving 15 % of the file system
#     free, in whole MiB) for a roomy and a nearly full file system; a full one is refused with
#     exit 3 and a message; the file is gone afterwards, also after SIGINT (exit 130);
#   - a tmpfs directory (no O_DIRECT reaches a device there) is refused with a page-cache note.
# Each part runs in a few seconds; the whole test in under 60 s.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"

t_start=$(date +%s)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-quick-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# --- the virtual SSD ---------------------------------------------------------------------
"$SSDLAB" quick sim:static-slc --write-max 64m --time 1s >"$tmp/small.out" 2>"$tmp/small.err" ||
	fail "sim 64m: exit $? $(cat "$tmp/small.err")"
grep -q '^  seq write: still in the SLC cache' "$tmp/small.out" || fail "sim 64m: not flagged"
grep -q '^Quick .*STILL IN THE SLC CACHE' "$tmp/small.out" || fail "sim 64m: headline not flagged"
"$SSDLAB" quick sim:static-slc --write-max 400m --time 1s >"$tmp/big.out" 2>"$tmp/big.err" ||
	fail "sim 400m: exit $? $(cat "$tmp/big.err")"
grep -q 'still in the SLC cache' "$tmp/big.out" && fail "sim 400m: flagged though it wrote past the cache"
cb=$(sed -n 's/^  seq write: dropped from .* after .* (\([0-9]*\) bytes).*/\1/p' "$tmp/big.out")
# profiles/models/static-slc.yaml: slc_cache.size 107m
python3 -c "import sys; c=$cb; t=107*2**20; sys.exit(0 if abs(c-t) <= 0.05*t else 1)" ||
	fail "sim 400m: drop after ${cb:-?} bytes, want 107 MiB +-5 %"
grep -Eq '^  rand read 4k qd1 .* latency p50 .*, p99 .*, p99.9 .*, max ' "$tmp/big.out" ||
	fail "sim: no latency percentiles"
for s in 'seq read 128k qd32' 'rand read 4k qd32' 'rand write 4k qd1' 'rand write 4k qd32'; do
	grep -q "^  $s " "$tmp/big.out" || fail "sim: no '$s' line"
done

# --json: the same figures as the text, one object. The virtual SSD is deterministic (virtual
# time, seed 1), so a second run with --json must give what the text printed: each text figure
# equals the JSON's number rounded as the text prints it (to its last printed digit).
"$SSDLAB" quick sim:static-slc --write-max 400m --time 1s --json >"$tmp/big.json" 2>"$tmp/json.err" ||
	fail "sim --json: exit $? $(cat "$tmp/json.err")"
python3 - "$tmp/big.out" "$tmp/big.json" <<'PY' || fail "sim --json: text and JSON differ"
import json, re, sys
text = open(sys.argv[1]).read().splitlines()
j = json.load(open(sys.argv[2]))
bad = []
def same(what, shown, exact, unit=1.0):
    # shown: the text's figure as printed; half its last digit is the rounding allowed
    d = shown.split(".")[1] if "." in shown else ""
    tol = 0.5 * 10 ** -len(d) * unit
    if abs(float(shown) * unit - exact) > tol * 1.0001:
        bad.append(f"{what}: text {shown} x{unit}, json {exact}")
U = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9, "B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}
m = re.match(r"quick: (\S+) \((\w+)\)", text[0])
if not m or m.group(1) != j["target"] or m.group(2) != j["kind"]:
    bad.append(f"target line {text[0]!r} vs {j['target']} {j['kind']}")
m = re.match(r"  region: .* \((\d+) bytes\) written sequentially, bound .* \((\d+) bytes\)", text[1])
if not m or int(m.group(1)) != j["region_bytes"] or int(m.group(2)) != j["bound_bytes"]:
    bad.append(f"region line {text[1]!r}")
steps = {s["name"]: s for s in j["steps"]}
n = 0
for line in text:
    m = re.match(r"  (.+?) +(\d+) IOPS +([\d.]+) MB/s  ([\d.]+) (\w+) in ([\d.]+) s; latency "
                 r"p50 ([\d.]+) (\w+), p99 ([\d.]+) (\w+), p99.9 ([\d.]+) (\w+), max ([\d.]+) (\w+)$", line)
    if not m:
        continue
    n += 1
    s = steps.pop(m.group(1), None)
    if s is None:
        bad.append(f"no JSON step {m.group(1)!r}")
        continue
    g = m.groups()
    same(g[0] + " iops", g[1], s["iops"])
    same(g[0] + " mbps", g[2], s["mbps"])
    same(g[0] + " bytes", g[3], s["bytes"], U[g[4]])
    same(g[0] + " seconds", g[5], s["elapsed_ns"], 1e9)
    for k, i in (("p50", 6), ("p99", 8), ("p99.9", 10), ("max", 12)):
        same(g[0] + " " + k, g[i], s["latency_ns"][k], U[g[i + 1]])
if n != 6 or steps:
    bad.append(f"{n} step lines in the text, JSON steps left over: {list(steps)}")
v = j["seq_write_verdict"]
m = [l for l in text if l.startswith("  seq write: ")]
if not m or m[0][len("  seq write: "):] != v["text"]:
    bad.append("verdict text differs")
else:
    c = re.search(r"dropped from (\d+) to (\d+) MB/s after .* \((\d+) bytes\)", v["text"])
    if not c or v["in_cache"] is not False:
        bad.append("verdict: no drop in the text or in_cache not false")
    else:
        same("in-cache MB/s", c.group(1), v["in_cache_mbps"])
        same("post-cache MB/s", c.group(2), v["post_cache_mbps"])
        same("cache bytes", c.group(3), v["cache_bytes"])
h = [l for l in text if l.startswith("Quick ")]
if not h or ("seq write " + j["headline"]) not in h[0]:
    bad.append(f"headline {h} vs {j['headline']!r}")
if j["note"] is not None or j["dir"] is not None:
    bad.append("note/dir not null on sim")
for b in bad:
    print("quick --json:", b)
sys.exit(1 if bad else 0)
PY

# --- loop devices (root) -----------------------------------------------------------------
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null; then
	echo "the loop-device and ext4 parts need root, losetup and mkfs.ext4: only the sim part ran"
	[ "$fails" = 0 ] || exit 1
	exit 0
fi
base=$(mktemp -d /var/tmp/ssdlab-quick.XXXXXX) || skip "no temp dir in /var/tmp"
devs=()
mnt=""
cleanup() {
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	for d in "${devs[@]}"; do losetup -d "$d" 2>/dev/null; done
	rm -rf "$base" "$tmp"
}
trap cleanup EXIT
attach() { # attach FILE: prints the device
	local d
	d=$(losetup --find --show --direct-io=on "$1") || return 1
	devs+=("$d")
	echo "$d"
}

truncate -s 64M "$base/raw.img"
dev=$(attach "$base/raw.img") || skip "cannot attach a loop device"
devs+=("$dev") # attach ran in a subshell
name=${dev#/dev/}
wsect() { awk '{print $7}' "/sys/block/$name/stat"; }
w0=$(wsect)
"$SSDLAB" quick "$dev" --time 1s </dev/null >"$tmp/noconf.out" 2>&1
rc=$?
[ "$rc" = 3 ] || fail "loop without --yes-destroy: exit $rc, want 3"
[ "$(wsect)" = "$w0" ] || fail "loop without --yes-destroy wrote to $dev"
"$SSDLAB" quick "$dev" --yes-destroy="$dev" --write-time 5s --time 1s >"$tmp/loop.out" 2>&1 ||
	fail "loop: exit $? $(tail -3 "$tmp/loop.out")"
region=$(sed -n 's/^  region: .* (\([0-9]*\) bytes) written.*/\1/p' "$tmp/loop.out")
want=$(python3 -c "m=2**20; b=int(0.8*64*m); print(b - b % m)")
[ "$region" = "$want" ] || fail "loop: region ${region:-?}, want $want (80 % of 64 MiB in MiB)"
w1=$(wsect)
[ $(((w1 - w0) * 512)) -ge "${region:-0}" ] || fail "loop: the device saw $(((w1 - w0) * 512)) bytes written, less than the region"

# --- ext4 on a loop device ----------------------------------------------------------------
truncate -s 256M "$base/fs.img"
fdev=$(attach "$base/fs.img") || fail "cannot attach the fs image"
devs+=("$fdev")
mkfs.ext4 -q -F "$fdev" >/dev/null 2>&1 || fail "mkfs.ext4 failed"
mkdir "$base/mnt"
mount "$fdev" "$base/mnt" || skip "cannot mount ext4 on $fdev"
mnt=$base/mnt

# the size the file should get, from statvfs: min(80 % of free, free - 15 % of total), MiB
expect() {
	python3 -c "
import math, os, sys
s = os.statvfs(sys.argv[1]); m = 2**20
free = s.f_bavail * s.f_frsize; tot = s.f_blocks * s.f_frsize
b = min(int(0.8 * free), max(0, free - math.ceil(0.15 * tot)))
print(b - b % m)" "$mnt"
}
check_fs() { # check_fs WHAT
	local want got
	want=$(expect)
	"$SSDLAB" quick "$mnt" --write-time 5s --time 1s >"$tmp/$1.out" 2>&1 ||
		fail "$1: exit $? $(tail -3 "$tmp/$1.out")"
	got=$(sed -n 's/^  region: .* (\([0-9]*\) bytes) written.*/\1/p' "$tmp/$1.out")
	[ "$got" = "$want" ] || fail "$1: region ${got:-?}, want $want (statvfs)"
	ls "$mnt"/ssdlab-quick-* >/dev/null 2>&1 && fail "$1: the file was left behind"
	echo "$1: region $got bytes"
}
check_fs roomy
# nearly full: about 60 MiB free of ~230, so "keep 15 % free" is the binding bound
avail=$(python3 -c "import os; s=os.statvfs('$mnt'); print(s.f_bavail*s.f_frsize)")
fallocate -l $((avail - 60 * 1024 * 1024)) "$mnt/ballast" || fail "fallocate ballast"
check_fs nearly-full
# full: less than 15 % + 16 MiB free
rm -f "$mnt/ballast"
fallocate -l $((avail - 30 * 1024 * 1024)) "$mnt/ballast" || fail "fallocate ballast"
"$SSDLAB" quick "$mnt" --time 1s >"$tmp/full.out" 2>&1
rc=$?
[ "$rc" = 3 ] || fail "full: exit $rc, want 3"
grep -q 'refusing to write in .*15% of a file system free' "$tmp/full.out" || fail "full: no clear refusal: $(cat "$tmp/full.out")"
ls "$mnt"/ssdlab-quick-* >/dev/null 2>&1 && fail "full: a file was left behind"
rm -f "$mnt/ballast"
# SIGINT during the random tests: exit 130, the file removed
"$SSDLAB" quick "$mnt" --time 20s >"$tmp/int.out" 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q 'rand read 4k qd1' "$tmp/int.out" && break; sleep 0.1; done
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" = 130 ] || fail "SIGINT: exit $rc, want 130"
ls "$mnt"/ssdlab-quick-* >/dev/null 2>&1 && fail "SIGINT: the file was left behind"

# tmpfs: no O_DIRECT to a device, the page cache would have answered
mkdir "$base/tmpfs"
if mount -t tmpfs -o size=64m none "$base/tmpfs"; then
	"$SSDLAB" quick "$base/tmpfs" --time 1s >"$tmp/tmpfs.out" 2>&1
	rc=$?
	[ "$rc" != 0 ] || fail "tmpfs: exit 0"
	grep -q 'page cache' "$tmp/tmpfs.out" || fail "tmpfs: no page-cache note: $(cat "$tmp/tmpfs.out")"
	ls "$base/tmpfs"/ssdlab-quick-* >/dev/null 2>&1 && fail "tmpfs: the file was left behind"
	umount "$base/tmpfs"
fi

echo "quick_test: $(($(date +%s) - t_start)) s"
[ $(($(date +%s) - t_start)) -lt 60 ] || fail "over 60 s"
[ "$fails" = 0 ] || exit 1
