#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# smart_blobs_test: `ssdlab smart --load FILE --json` against skdump (libatasmart-bin), the
# independent decoder, on EVERY real SMART dump in $SSDLAB_SHARED/fixtures/atasmart-blobs:
# the same attribute ids, and for each its raw 48-bit value, normalized current and worst value
# and threshold equal what `skdump --load=FILE` prints. skdump prints the raw bytes raw[0..5] in
# order ("0x340300000000"); read little-endian they are the raw48 value (reference C, "Rules").
# Then the exit codes: a regular file or a loop device as DEV exits 4 with the reason; a
# truncated blob exits 1.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"

dir=${SSDLAB_SHARED:-}/fixtures/atasmart-blobs
[ -n "${SSDLAB_SHARED:-}" ] && [ -d "$dir" ] || skip "no SMART dumps in \$SSDLAB_SHARED/fixtures/atasmart-blobs"
command -v skdump >/dev/null || skip "skdump (Debian package libatasmart-bin) is not installed"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"

tmp=$(mktemp -d) || skip "cannot create a temp dir"
trap 'rm -rf "$tmp"' EXIT

n=0
for f in "$dir"/*; do
	[ -f "$f" ] || continue
	b=$(basename "$f")
	if ! skdump --load="$f" >"$tmp/sk.txt" 2>&1; then
		fail "$b: skdump cannot read it"
		continue
	fi
	if ! "$SSDLAB" smart --load "$f" --json >"$tmp/ours.json" 2>"$tmp/err"; then
		fail "$b: ssdlab smart --load failed: $(cat "$tmp/err")"
		continue
	fi
	if ! python3 - "$tmp/sk.txt" "$tmp/ours.json" "$b" <<'PY'; then
import json, re, sys
sk, ours, name = sys.argv[1], sys.argv[2], sys.argv[3]
theirs = {}
with open(sk) as f:
    for line in f:
        # ID# Name Value Worst Thres Pretty... Raw Type Updates Good Good/Past
        m = re.match(r"\s*(\d+)\s+\S+\s+(\d+|n/a)\s+(\d+|n/a)\s+(\d+|n/a)\s.*\s0x([0-9a-f]{12})\s", line)
        if m:
            raw = bytes.fromhex(m.group(5))
            theirs[int(m.group(1))] = (int.from_bytes(raw, "little"), m.group(2), m.group(3), m.group(4))
snap = json.load(open(ours))
assert snap["source"] == "ata-smart", snap["source"]
mine = {a["id"]: a for a in snap["raw"]["attributes"]}
bad = 0
if not theirs:
    print(f"{name}: skdump printed no attributes"); sys.exit(1)
if sorted(mine) != sorted(theirs):
    print(f"{name}: ids differ: ours {sorted(mine)} skdump {sorted(theirs)}"); sys.exit(1)
for i, (raw, cur, worst, thr) in theirs.items():
    a = mine[i]
    if a["raw"] != raw:
        print(f"{name}: attribute {i}: raw {a['raw']} but skdump {raw}"); bad += 1
    for key, v in (("current", cur), ("worst", worst), ("threshold", thr)):
        if v != "n/a" and a[key] != int(v):
            print(f"{name}: attribute {i}: {key} {a[key]} but skdump {v}"); bad += 1
print(f"{name}: {len(theirs)} attributes agree with skdump" if not bad else "", end="")
print()
sys.exit(1 if bad else 0)
PY
		fail "$b: differs from skdump"
	fi
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no blob was compared"

# A regular file as DEV: no SMART, exit 4 with the reason.
out=$("$SSDLAB" smart "$f" 2>&1)
rc=$?
[ "$rc" -eq 4 ] || fail "smart FILE exited $rc, expected 4"
case "$out" in *"regular file"*"no SMART"*) ;; *) fail "smart FILE: no reason given: $out" ;; esac

# A loop device (stat and sysfs only: nothing is attached, no root needed): exit 4, "loop device".
if [ -b /dev/loop0 ]; then
	out=$("$SSDLAB" smart /dev/loop0 2>&1)
	rc=$?
	[ "$rc" -eq 4 ] || fail "smart /dev/loop0 exited $rc, expected 4"
	case "$out" in *"loop device"*"no SMART"*) ;; *) fail "smart /dev/loop0: no reason given: $out" ;; esac
else
	echo "note: no /dev/loop0 here; the loop-device case was not run"
fi

# A truncated blob: exit 1 with the block it stopped at.
head -c 600 "$f" >"$tmp/short"
out=$("$SSDLAB" smart --load "$tmp/short" 2>&1)
rc=$?
[ "$rc" -eq 1 ] || fail "truncated blob exited $rc, expected 1"
case "$out" in *"claims"*) ;; *) fail "truncated blob: unexpected message: $out" ;; esac

# The Intel 320 blob's host writes as the runner maps them (drive database, 225 in 32 MiB):
# raw 820 (skdump's 0x340300000000) x 33,554,432 = 27,514,634,240 bytes, good to one unit.
f="$dir/INTEL_SSDSA2CW120G3--4PC10302"
if [ -f "$f" ]; then
	"$SSDLAB" smart --load "$f" --json >"$tmp/intel.json" 2>&1 || fail "smart --load $f: $(cat "$tmp/intel.json")"
	python3 - "$tmp/intel.json" <<'PY' || fail "Intel 320 blob: host writes not 820 x 32 MiB"
import json, sys
c = json.load(open(sys.argv[1]))["counters"]
got = (c["host_bytes_written"]["value"], c["host_bytes_written_resolution"]["value"])
print("intel 320: host_bytes_written %d, resolution %d" % got)
sys.exit(got != (27514634240, 33554432))
PY
fi

echo "$n blobs compared"
[ "$fails" -eq 0 ] || exit 1
