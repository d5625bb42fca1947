#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# surface_test: the surface scan end to end (docs/surface.md).
#   - The virtual SSD (client-tlc, 4 GiB) with its first half written once, then the read scan
#     of the bundled surface profile (256 MiB chunks of 128 KiB reads at QD 1). The sim's own
#     read_unmapped counters, recorded per chunk, say the second half (and only it) was read from
#     no flash; those chunks read faster than every written one, at the model's link rate alone
#     (its interface figures, worked out in the check); summary.json's surface has 16 chunks and
#     no errors, the headline has its line, `ssdlab analyze` reproduces summary.json.
#   - A loop device (root; direct I/O over a file in /var/tmp): surface-write (write scan, then
#     read scan) in 4 MiB chunks: chunk count = capacity / chunk, the CSV series' bytes add up to
#     the capacity (blockdev --getsize64), one row per chunk, no errors.
#   - A file on ext4 that the test makes on its own loop device and mounts (root, mkfs.ext4),
#     written fully first (an unwritten extent reads as zeros without touching the device): the
#     read scan of the file (surface), then surface-write on it. The capacity is the file's size
#     (stat), chunks x chunk = that size, the CSV bytes add up to it; the loop device's own
#     /sys/block/X/stat saw at least the file's size read (and written) in each run, so the
#     scans went past the page cache to the device (O_DIRECT on the file).
#   - The progress line of a scan says "chunk n/n" at its end (the chunk counts worked out above).
# Each run must take under 60 s; the wall times are printed.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the results"

src=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-surface-XXXXXX")
loopdir=
dev=
cleanup() {
	loop_cleanup
	[ -n "$loopdir" ] && rm -rf "$loopdir"
	rm -rf "$tmp"
}
trap cleanup EXIT

# timed NAME CMD...: runs CMD with its output in $tmp/NAME.out, fails over 60 s
timed() {
	local name=$1 t0 t1
	shift
	t0=$(date +%s.%N)
	if ! "$@" >"$tmp/$name.out" 2>&1; then
		tail -20 "$tmp/$name.out" >&2
		fail "$name: $* failed"
		return 1
	fi
	t1=$(date +%s.%N)
	echo "$name: $(python3 -c "print('%.2f' % ($t1 - $t0))") s wall"
	python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 60 else 1)" || fail "$name: over 60 s"
}

# ---- the virtual SSD, half written -----------------------------------------------------------
cat >"$tmp/half.yaml" <<'Y'
name: surface-half
description: the first half written once, then the read scan
destructive: true
phases:
  - precondition: {rw: write, bs: 128k, range: 0-50%, amount: 0.5x, queue: {threads: 1, depth: 32}}
  - surface: {rw: read, chunk: 256m, bs: 128k, qd: 1}
Y
if timed sim "$SSDLAB" run "$tmp/half.yaml" --target sim:client-tlc --out "$tmp/sim"; then
	grep "^Surface" "$tmp/sim.out"
	grep -q "^Surface read .* no read errors" "$tmp/sim.out" || fail "sim: no surface headline line"
	# the progress line (stderr is no terminal: the phase's last state): 4 GiB / 256 MiB chunks
	grep -q '^\[2/2\] surface chunk 16/16 ' "$tmp/sim.out" || fail "sim: no 'chunk 16/16' progress line"
	model=$src/profiles/models/client-tlc.yaml
	python3 - "$tmp/sim" "$model" <<'PY' || fail "sim: the scan does not match the sim's counters"
import json, re, sys
d = sys.argv[1]
model = open(sys.argv[2]).read()
recs = [json.loads(l) for l in open(d + "/records.jsonl")]
s = [r for r in recs if r["kind"] == "surface"][0]["surface"]
cap, chunk = s["capacity"], s["chunk_bytes"]
assert cap == 4 * 2**30 and s["chunks"] == cap // chunk == 16, (cap, s["chunks"])
un, mbps = s["chunk_unmapped_bytes"], s["chunk_mbps"]
half = cap // 2
for i, u in enumerate(un):
    want = chunk if i * chunk >= half else 0
    assert u == want, f"chunk {i}: {u} unmapped bytes, the sim wrote {'nothing' if want else 'all'} there"
mapped = [m for i, m in enumerate(mbps) if i * chunk < half]
unmapped = [m for i, m in enumerate(mbps) if i * chunk >= half]
print(f"sim: written half {min(mapped):.1f}-{max(mapped):.1f} MB/s, unwritten half from {min(unmapped):.1f} MB/s")
assert min(unmapped) > max(mapped)
# an unmapped read costs only the link: 128 KiB at the model's interface rate plus its command
# overhead (client-tlc: 550e6 B/s, 5 us: 131072 / 243.313 us = 538.70 MB/s)
rate = float(re.search(r"max_bytes_per_s:\s*([0-9.e]+)", model).group(1))
ovh = float(re.search(r"command_overhead:\s*([0-9.]+)us", model).group(1)) * 1e-6
want = 131072 / (131072 / rate + ovh) / 1e6
print(f"sim: unmapped chunks {min(unmapped):.2f}-{max(unmapped):.2f} MB/s, the link alone {want:.2f} MB/s")
assert all(abs(m - want) / want < 1e-3 for m in unmapped)
summ = json.load(open(d + "/summary.json"))["surface"][0]
assert summ["chunks"] == 16 and summ["errors_total"] == 0 and summ["error_lbas"] == []
assert summ["max_mbps"] == max(mbps) and summ["min_mbps"] == min(mbps)
rows = open(d + "/series/" + s["series"] + ".csv").read().splitlines()
assert rows[0] == "position_pct,offset_bytes,bytes,mbps,max_lat_us,errors" and len(rows) == 17
PY
	check_analyze "$tmp/sim" sim
fi

# ---- a loop device: write and read scans ----------------------------------------------------
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
	echo "SKIP part: the loop-device scans need root and losetup"
	exit $((fails > 0))
fi
loopdir=$(mktemp -d /var/tmp/ssdlab-surface.XXXXXX) || {
	echo "SKIP part: cannot create a dir in /var/tmp"
	exit $((fails > 0))
}
truncate -s 64M "$loopdir/disk.img"
loop_attach "$loopdir/disk.img" dev || {
	dev=
	echo "SKIP part: cannot attach a loop device"
	exit $((fails > 0))
}
cap=$(blockdev --getsize64 "$dev")
if timed loop "$SSDLAB" run surface-write --target "$dev" --yes-destroy="$dev" --out "$tmp/loop" \
	--set phases.0.surface.chunk=4m --set phases.1.surface.chunk=4m; then
	grep "^Surface" "$tmp/loop.out"
	python3 - "$tmp/loop" "$cap" <<'PY' || fail "loop: the scans do not cover the capacity"
import csv, json, sys
d, cap = sys.argv[1], int(sys.argv[2])
recs = [json.loads(l) for l in open(d + "/records.jsonl")]
scans = [r["surface"] for r in recs if r["kind"] == "surface"]
assert [s["rw"] for s in scans] == ["write", "read"], [s["rw"] for s in scans]
for s in scans:
    assert s["capacity"] == cap and s["chunk_bytes"] == 4 * 2**20
    assert s["chunks"] == cap // s["chunk_bytes"] == 16, s["chunks"]
    rows = list(csv.DictReader(open(d + "/series/" + s["series"] + ".csv")))
    assert len(rows) == s["chunks"]
    assert sum(int(r["bytes"]) for r in rows) == cap
    assert [int(r["offset_bytes"]) for r in rows] == [i * s["chunk_bytes"] for i in range(16)]
    assert all(float(r["mbps"]) > 0 and r["errors"] == "0" for r in rows)
    assert s["errors_total"] == 0
    print(f"loop {s['rw']}: {min(s['chunk_mbps']):.0f}-{max(s['chunk_mbps']):.0f} MB/s over {len(rows)} chunks")
PY
fi

# ---- a file on ext4 on its own loop device: read scan, then write scan ------------------------
if ! command -v mkfs.ext4 >/dev/null; then
	echo "SKIP part: the ext4 file scans need mkfs.ext4"
	exit $((fails > 0))
fi
truncate -s 128M "$loopdir/fs.img"
fsdev=
loop_attach "$loopdir/fs.img" fsdev || fail "cannot attach the file-system image"
if [ -n "$fsdev" ] && ext4_mount "$fsdev" "$loopdir/mnt"; then
	file=$loopdir/mnt/scan.img
	# written fully, past the page cache: every extent is on the device, none unwritten
	dd if=/dev/urandom of="$file" bs=1M count=40 oflag=direct status=none || fail "dd the file"
	fsize=$(stat -c %s "$file")
	# sectors read and written by the loop device (fields 3 and 7 of its stat, 512-byte units)
	sect() { awk -v f="$1" '{print $f}' "/sys/block/${fsdev#/dev/}/stat"; }
	r0=$(sect 3)
	if timed ext4-read "$SSDLAB" run surface --target "$file" --out "$tmp/fr" \
		--set phases.0.surface.chunk=4m; then
		grep "^Surface" "$tmp/ext4-read.out"
		grep -q '^\[1/1\] surface chunk 10/10 ' "$tmp/ext4-read.out" ||
			fail "ext4 read: no 'chunk 10/10' progress line (40 MiB / 4 MiB)"
		r1=$(sect 3)
		[ $(((r1 - r0) * 512)) -ge "$fsize" ] ||
			fail "ext4 read: the device read $(((r1 - r0) * 512)) bytes, less than the file's $fsize"
	fi
	w0=$(sect 7)
	r0=$(sect 3)
	if timed ext4-write "$SSDLAB" run surface-write --target "$file" --yes-destroy="$file" \
		--out "$tmp/fw" --set phases.0.surface.chunk=4m --set phases.1.surface.chunk=4m; then
		grep "^Surface" "$tmp/ext4-write.out"
		for ph in 1 2; do
			grep -q "^\\[$ph/2\\] surface chunk 10/10 " "$tmp/ext4-write.out" ||
				fail "ext4 write: no 'chunk 10/10' progress line for phase $ph"
		done
		w1=$(sect 7)
		r1=$(sect 3)
		# the read scan after the write scan: buffered writes would have left it in the cache
		[ $(((w1 - w0) * 512)) -ge "$fsize" ] ||
			fail "ext4 write: the device saw $(((w1 - w0) * 512)) bytes written, less than $fsize"
		[ $(((r1 - r0) * 512)) -ge "$fsize" ] ||
			fail "ext4 write: the device read $(((r1 - r0) * 512)) bytes, less than $fsize"
	fi
	[ "$(stat -c %s "$file")" = "$fsize" ] || fail "ext4: the scans changed the file's size"
	python3 - "$tmp/fr" "$tmp/fw" "$fsize" <<'PY' || fail "ext4: the scans do not cover the file"
import csv, json, os, sys
fr, fw, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
chunk = 4 * 2**20
for d, rws in ((fr, ["read"]), (fw, ["write", "read"])):
    if not os.path.exists(d + "/records.jsonl"):
        continue  # that run failed, already reported
    recs = [json.loads(l) for l in open(d + "/records.jsonl")]
    scans = [r["surface"] for r in recs if r["kind"] == "surface"]
    assert [s["rw"] for s in scans] == rws, [s["rw"] for s in scans]
    for s in scans:
        assert s["capacity"] == size, (s["capacity"], size)
        assert s["chunk_bytes"] == chunk and s["chunks"] * chunk == size == 10 * chunk, s["chunks"]
        rows = list(csv.DictReader(open(d + "/series/" + s["series"] + ".csv")))
        assert len(rows) == s["chunks"]
        assert sum(int(r["bytes"]) for r in rows) == size
        assert [int(r["offset_bytes"]) for r in rows] == [i * chunk for i in range(10)]
        assert all(float(r["mbps"]) > 0 and r["errors"] == "0" for r in rows)
        assert s["errors_total"] == 0
        print(f"ext4 file {s['rw']}: {min(s['chunk_mbps']):.0f}-{max(s['chunk_mbps']):.0f} MB/s over {len(rows)} chunks")
PY
else
	fail "cannot make or mount ext4 on ${fsdev:-the image}"
fi
loop_cleanup
exit $((fails > 0))
