#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# reads_unmapped_test: reads that say nothing about the flash are flagged (issue 9, point 9).
#
#   1. `readonly` on a fresh virtual SSD reads only never-written LBAs: every record's
#      reads_unmapped is 100% of the bytes it read (of_bytes = the record's own read bytes), the
#      summary's flags.reads_unmapped is the sum of the records' (recomputed here), and the
#      headline prints the FLAG.
#   2. The same reads after a sequential fill of the whole drive: 0% in every record, no FLAG.
#   3. After the fill, the first half trimmed, uniform random 4 KiB reads: the records' fraction is
#      the trimmed share, 0.5, within 5 binomial standard deviations (sqrt(0.25 / reads)).
#   4. `readonly` on a sparse file ssdlab did not create: warned (with the hole bytes, = the size)
#      and flags.reads_without_fill in the summary.
#   5. `readonly` on a loop device the test creates (and always detaches): warned, flagged.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the records"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-unmapped-XXXXXX")
loop=""
cleanup() {
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

require_sim readonly

# check_unmapped DIR WANT TOL: every record's reads_unmapped.fraction within TOL of WANT (TOL
# "binomial": 5 standard deviations of the record's own read count), of_bytes equal to its read
# bytes, and the summary's flags.reads_unmapped the sum of the records'.
check_unmapped() {
	python3 - "$@" <<'EOF'
import json, math, sys
d, want, tol = sys.argv[1], float(sys.argv[2]), sys.argv[3]
recs = [json.loads(l) for l in open(d + "/records.jsonl")]
cells = [r for r in recs if r["kind"] == "cell"]
bad = []
if not cells:
    bad.append("no cell records")
b = of = hit = 0
for r in cells:
    u = r.get("reads_unmapped")
    if u is None:
        bad.append("%s round %d: no reads_unmapped" % (r["cell"], r["round"]))
        continue
    if u["of_bytes"] != r["read"]["bytes"]:
        bad.append("%s: of_bytes %d, the record read %d" % (r["cell"], u["of_bytes"], r["read"]["bytes"]))
    f = u["bytes"] / u["of_bytes"]
    if abs(f - u["fraction"]) > 1e-12:
        bad.append("%s: fraction %r, bytes / of_bytes %r" % (r["cell"], u["fraction"], f))
    t = 5 * math.sqrt(0.25 / r["read"]["ios"]) if tol == "binomial" else float(tol)
    if abs(f - want) > t:
        bad.append("%s round %d: %.4f unmapped, expected %.4f +- %.4f" % (r["cell"], r["round"], f, want, t))
    b += u["bytes"]; of += u["of_bytes"]; hit += u["bytes"] > 0
s = json.load(open(d + "/summary.json"))["flags"]["reads_unmapped"]
got = (s["bytes"], s["of_bytes"], s["records"], s["records_with_unmapped"])
if got != (b, of, len(cells), hit) or abs(s["fraction"] - b / of) > 1e-12:
    bad.append("summary %r, records sum to %r" % (s, (b, of, len(cells), hit, b / of)))
for x in bad:
    print("FAIL: %s: %s" % (d, x))
sys.exit(1 if bad else 0)
EOF
}

# 1. Fresh: everything read is unmapped.
"$SSDLAB" run readonly --target sim:client-tlc --time-scale 0.25 --out "$tmp/fresh" \
	>"$tmp/fresh.out" 2>"$tmp/fresh.err" || fail "readonly on a fresh sim failed: $(cat "$tmp/fresh.err")"
check_unmapped "$tmp/fresh" 1 0 || fail "fresh: reads_unmapped"
grep -q "FLAG: 100.0% of the bytes read" "$tmp/fresh.out" ||
	fail "fresh: no FLAG in the headline: $(cat "$tmp/fresh.out")"

# 2. Filled first: nothing read is unmapped.
cat >"$tmp/filled.yaml" <<'EOF'
name: filled-reads
destructive: true
phases:
  - precondition: {rw: write, bs: 128k, amount: 1x, queue: {threads: 1, depth: 8}}
  - rounds:
      cells:
        rw: [randread, read]
        bs: [4k, 128k]
        order: [rw, bs]
      cell_time: 10s
      queue: {threads: 1, depth: 32}
      count: 3
EOF
"$SSDLAB" run "$tmp/filled.yaml" --target sim:client-tlc --time-scale 0.25 --out "$tmp/filled" \
	>"$tmp/filled.out" 2>"$tmp/filled.err" || fail "filled run failed: $(cat "$tmp/filled.err")"
check_unmapped "$tmp/filled" 0 0 || fail "filled: reads_unmapped"
grep -q "FLAG: .*never-written" "$tmp/filled.out" && fail "filled: flagged: $(cat "$tmp/filled.out")"

# 3. Filled, first half trimmed, uniform random reads: half of them unmapped.
cat >"$tmp/half.yaml" <<'EOF'
name: half-trimmed-reads
destructive: true
phases:
  - precondition: {rw: write, bs: 128k, amount: 1x, queue: {threads: 1, depth: 8}}
  - trim: {range: 0-50%}
  - rounds: {rw: randread, bs: 4k, cell_time: 10s, queue: {threads: 1, depth: 32}, count: 3}
EOF
"$SSDLAB" run "$tmp/half.yaml" --target sim:client-tlc --time-scale 0.25 --out "$tmp/half" \
	>"$tmp/half.out" 2>"$tmp/half.err" || fail "half-trimmed run failed: $(cat "$tmp/half.err")"
check_unmapped "$tmp/half" 0.5 binomial || fail "half trimmed: reads_unmapped"

# 4. A sparse file: all of it is holes.
truncate -s 16M "$tmp/sparse.img"
"$SSDLAB" run readonly --target "$tmp/sparse.img" --time-scale 0.001 --out "$tmp/file" \
	>"$tmp/file.out" 2>"$tmp/file.err" || fail "readonly on a file failed: $(cat "$tmp/file.err")"
grep -q "warning: 'readonly' only reads $tmp/sparse.img and nothing fills it first" "$tmp/file.err" ||
	fail "file: no warning: $(cat "$tmp/file.err")"
grep -q "16777216 bytes of $tmp/sparse.img are holes" "$tmp/file.err" || fail "file: holes not counted"
python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["flags"]; sys.exit(0 if f["reads_without_fill"] is True and f["reads_unmapped"] is None else 1)' \
	"$tmp/file/summary.json" || fail "file: flags.reads_without_fill not set"
grep -q "FLAG: a read-only run with no fill" "$tmp/file.out" || fail "file: no FLAG in the headline"

# 5. A loop device (a real block device this test creates and detaches).
[ "$fails" -eq 0 ] || exit 1
command -v losetup >/dev/null || skip "no losetup: the loop-device part did not run (the rest passed)"
truncate -s 64M "$tmp/loop.img"
loop=$(losetup -f --show "$tmp/loop.img" 2>/dev/null) ||
	{ loop=""; skip "cannot attach a loop device: the loop-device part did not run (the rest passed)"; }
"$SSDLAB" run readonly --target "$loop" --time-scale 0.01 --out "$tmp/loop" \
	>"$tmp/loop.out" 2>"$tmp/loop.err" || fail "readonly on $loop failed: $(cat "$tmp/loop.err")"
grep -q "warning: 'readonly' only reads $loop and nothing fills it first" "$tmp/loop.err" ||
	fail "loop: no warning: $(cat "$tmp/loop.err")"
python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["flags"]; sys.exit(0 if f["reads_without_fill"] is True else 1)' \
	"$tmp/loop/summary.json" || fail "loop: flags.reads_without_fill not set"
grep -q "FLAG: a read-only run with no fill" "$tmp/loop.out" || fail "loop: no FLAG in the headline"

[ "$fails" -eq 0 ] && echo "ok"
[ "$fails" -eq 0 ]
