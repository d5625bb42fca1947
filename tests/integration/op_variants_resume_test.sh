#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# op_variants_resume_test: a run of a `variants` phase killed in the middle of a variant resumes
# by running that variant again from its first phase (its purge), keeping the records of the
# variants before it (run/runner.h, I7; issue 14). The resume-kill machinery of
# resume_kill_test.sh: the runner's crash hook SSDLAB_DEBUG_FAULT kills the process with SIGKILL
# at a named point, then `ssdlab resume` finishes the run. On the virtual SSD (greedy-ref, the
# test model) with two variants (100 %, 75 %) of purge, fill, 1x random writes and 4 fixed rounds:
# 13 records for variant 1 (purge, 4 fill chunks, 4 random chunks, 4 cells) and 11 for variant 2
# (purge, 3 + 3 chunks, 4 cells), counted by hand. Kill points: inside variant 2's fill, after
# its second cell, during its first cell, twice in a row (again during the redo), inside variant
# 1's random writes (variant 1 redone, variant 2 not begun), and right after variant 1's last
# record (nothing to redo, and variant 1's WA must survive: its end snapshot is stored again). Checked against an uninterrupted run and the
# simulator's counters, with python3's json module, not ssdlab's reader:
#   - the records of the killed run are kept byte for byte (the file only grows), the keys equal
#     the reference's, none twice, and `ssdlab analyze` reproduces summary.json;
#   - the interrupted variant ran again from its purge: the resume record has variant_rerun N,
#     and the simulator wrote exactly the bytes of the variant's records in K once more: its
#     run-end host_bytes_written is the sum of all records' bytes_written_total plus the sum of
#     variant N's records as they were before the last resume (0 and no variant_rerun when the
#     kill fell between the variants);
#   - the redo is exact on the virtual SSD: every record's bytes, I/Os and elapsed time, and
#     summary.json's op_variants (each fraction once, its WA and IOPS) equal the reference's;
#   - the simulator's capacity is the model's again at the end.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the records"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-opvres-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
target="sim:$here/greedy-ref.yaml"

cat >"$tmp/p.yaml" <<'EOF'
name: opv-resume
description: two variants (100%, 75%) of purge, fill, 1x random writes, 4 fixed rounds
destructive: true
defaults: {seed: 7}
phases:
  - variants:
      method: sim
      fractions: [100%, 75%]
      phases:
        - purge: {method: auto}
        - precondition: {rw: write, bs: 128k, amount: 1x, queue: {threads: 1, depth: 8}}
        - precondition: {rw: randwrite, bs: 4k, amount: 1x, queue: {threads: 1, depth: 8}}
        - rounds: {rw: randwrite, bs: 4k, cell_time: 200ms, queue: {threads: 1, depth: 8}, count: 4}
EOF

run() { # run NAME [ENV...]: a fresh run into $tmp/NAME; prints the exit code
	local name=$1
	shift
	env "$@" "$SSDLAB" run "$tmp/p.yaml" --target "$target" --out "$tmp/$name" --chunk 128m \
		--quiet >"$tmp/$name.out" 2>"$tmp/$name.err"
	echo $?
}

resume() { # resume NAME [ENV...]: prints the exit code; keeps records.jsonl as it was before
	local name=$1
	shift
	cp "$tmp/$name/records.jsonl" "$tmp/$name.before"
	env "$@" "$SSDLAB" resume "$tmp/$name" >>"$tmp/$name.out" 2>>"$tmp/$name.err"
	echo $?
}

# check NAME WHAT REDO: the resumed run against the reference (REDO: the variant redone, 0 none).
check() {
	local name=$1 what=$2 redo=$3
	check_keys "$tmp/$name" "$tmp/ref" "$what"
	check_analyze "$tmp/$name" "$what"
	python3 - "$tmp/$name" "$tmp/ref" "$tmp/$name.before" "$redo" <<'PY' || fail "$what"
import glob, json, sys

d, ref, before, redo = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
ok = True


def bad(msg):
    global ok
    ok = False
    print("  FAIL:", msg)


def records(path):
    return [json.loads(l) for l in open(path)]


def key(r):
    return (r["phase"], r["repeat"], r["round"], r["cell"], r["kind"])


def end_snapshot(d):
    snaps = [json.load(open(f)) for f in sorted(glob.glob(d + "/snapshots/*.json"))]
    return [s for s in snaps if s["label"] == "run-end"][-1]


now, kept = open(d + "/records.jsonl").read(), open(before).read()
if not now.startswith(kept):
    bad("the records before the resume were not kept as they were")
recs, refs, k = records(d + "/records.jsonl"), records(ref + "/records.jsonl"), records(before)
# the resume record of the last resume
res = [r for r in recs if r["kind"] == "resume"][-1]
if redo and res.get("variant_rerun") != redo:
    bad("the last resume record says variant_rerun %r, want %d" % (res.get("variant_rerun"), redo))
if not redo and "variant_rerun" in res:
    bad("a variant was run again though the kill fell between the variants")
# the simulator wrote the bytes of the records once, and the redone variant's records in K
# (repeat = variant - 1) once more
again = sum(r.get("bytes_written_total", 0) for r in k if r["kind"] != "resume" and r["repeat"] == redo - 1)
host = end_snapshot(d)["counters"]["host_bytes_written"]["value"]
rec_bytes = sum(r.get("bytes_written_total", 0) for r in recs)
if host != rec_bytes + again:
    bad("the simulator wrote %d bytes: the records hold %d and the redone variant's %d recorded "
        "bytes once more make %d" % (host, rec_bytes, again, rec_bytes + again))
print("  host bytes %d = records %d + variant %d again %d" % (host, rec_bytes, redo, again))
# the redo is exact on the virtual SSD
byk = {key(r): r for r in refs}
for r in recs:
    if r["kind"] == "resume":
        continue
    a = byk.get(key(r))
    for f in ("bytes_written_total", "elapsed_ns"):
        if a is None or r.get(f) != a.get(f):
            bad("%s: %s %r, the reference %r" % (key(r), f, r.get(f), a and a.get(f)))
    if a is not None and (r.get("total") or {}).get("ios") != (a.get("total") or {}).get("ios"):
        bad("%s: I/Os differ from the reference's" % (key(r),))
ov = json.load(open(d + "/summary.json")).get("op_variants") or []
rov = json.load(open(ref + "/summary.json"))["op_variants"]
if [v["fraction"] for v in ov] != [1, 0.75]:
    bad("op_variants fractions %r, want [1, 0.75] once each" % [v["fraction"] for v in ov])
for v, w in zip(ov, rov):
    if v["wa"] != w["wa"] or v["iops"] != w["iops"]:
        bad("variant %d: WA %r IOPS %r, the reference %r %r" % (v["variant"], v["wa"], v["iops"], w["wa"], w["iops"]))
if end_snapshot(d)["raw"]["capacity"] != 512 << 20:
    bad("the simulator's capacity is not restored")
sys.exit(0 if ok else 1)
PY
}

t0=$(date +%s%N)
rc=$(run ref)
[ "$rc" = 0 ] || {
	fail "the uninterrupted run failed with exit $rc"
	cat "$tmp/ref.err" >&2
	exit 1
}
n=$(keys "$tmp/ref" | wc -l)
[ "$n" = 24 ] || fail "the reference has $n records, expected 13 + 11 = 24"

# name, kill point of the run, kill point of a first resume (- none), the variant redone (0 none);
# cell:N dies in the N-th job recorded (fill and random chunks count: variant 2's first cell is
# job 4 + 4 + 4 + 3 + 3 + 1 = 19), after-record:N after the N-th record
cases=(
	"fill after-record:16 - 2"
	"cells after-record:22 - 2"
	"incell cell:19 - 2"
	"incell1 cell:5 - 1"
	"twice after-record:19 after-record:2 2"
	"between after-record:13 - 0"
)
for c in "${cases[@]}"; do
	read -r name point again redo <<<"$c"
	rc=$(run "$name" SSDLAB_DEBUG_FAULT="$point")
	[ "$rc" = 137 ] || fail "$name: the run killed at $point exited $rc, expected 137 (SIGKILL)"
	if [ "$again" != - ]; then
		rc=$(resume "$name" SSDLAB_DEBUG_FAULT="$again")
		[ "$rc" = 137 ] || fail "$name: the first resume killed at $again exited $rc"
	fi
	rc=$(resume "$name")
	if [ "$rc" != 0 ]; then
		fail "$name: resume exit $rc"
		sed 's/^/  /' "$tmp/$name.err" >&2
		continue
	fi
	if [ "$redo" != 0 ] && ! grep -q "variant $redo of 2 was interrupted: running it again" "$tmp/$name.err"; then
		fail "$name: the resume does not say that it runs variant $redo again"
	fi
	echo "$name (killed at $point, then at $again):"
	check "$name" "$name" "$redo"
done
echo "op_variants_resume: $((($(date +%s%N) - t0) / 1000000)) ms"
[ "$fails" = 0 ] || exit 1
echo "op_variants_resume: all checks passed"
