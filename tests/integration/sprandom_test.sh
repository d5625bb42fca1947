#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# sprandom_test: `precondition: {method: sprandom}` end to end on the virtual SSD (issue 19,
# point 1; docs/sprandom.md).
#
# On a bare greedy model (run_lib.sh's greedy_model: 2 GiB, spare 0.10, no SLC cache) a profile
# purges, fills with method sprandom (2 threads sharing the one sequence) and runs 2 rounds of
# random 4 KiB writes. Checked from the results with python3, not ssdlab's reader:
#   - the inputs in the manifest and in every precondition record: spare from the model,
#     recomputed here from the model's geometry (physical blocks - GC reserve - half the open
#     blocks, over the user capacity); SLC cache 0 from the model; 1024 regions assumed; alpha
#     solves (1 - alpha) / ln(1 / alpha) = 1 - spare; the sequence's writes are units / mean(v_r)
#     with v_r = alpha^(1 - r / 1023), to within a write per region;
#   - the precondition's chunks add up to the fill's bytes, and the sim's counters at the
#     precondition's end say the same host bytes and a full drive (valid_bytes = capacity);
#   - killed during a chunk and right after a chunk's record (SSDLAB_DEBUG_FAULT) and resumed,
#     the run ends with the reference's records, figure for figure (the sim replays exactly);
#   - the first round's WA (the sim's counters) is printed beside Desnoyers' greedy WA.
# And the refusal: on a file (no raw NAND size) spare: auto fails the run naming the key to set
# and the --set that states it, and that --set runs.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the results"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-sprandom-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
greedy_model "$tmp/greedy.yaml"

cat >"$tmp/p.yaml" <<'EOF'
name: sprandom-e2e
description: purge, the sprandom fill, 2 rounds of random 4 KiB writes
destructive: true
defaults: {seed: 11}
phases:
  - purge: {method: auto}
  - precondition: {method: sprandom, queue: {threads: 2, depth: 16}}
  - rounds: {rw: randwrite, bs: 4k, cell_time: 5s, queue: {threads: 1, depth: 32}, count: 2}
EOF

run() { # NAME [ENV...]: a fresh run; prints the exit code
	local name=$1
	shift
	env "$@" "$SSDLAB" run "$tmp/p.yaml" --target "sim:$tmp/greedy.yaml" --out "$tmp/$name" \
		--chunk 256m --quiet >"$tmp/$name.out" 2>"$tmp/$name.err"
	echo $?
}

figures() {
	python3 - "$1/records.jsonl" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["kind"] in ("cell", "precondition"):
        print(r["phase"], r["repeat"], r["round"], r["cell"], r["total"]["ios"], r["elapsed_ns"],
              r.get("seq_next"))
EOF
}

start=$(date +%s.%N)
rc=$(run ref)
[ "$rc" = 0 ] || {
	cat "$tmp/ref.err" >&2
	fail "the reference run exited $rc"
	exit 1
}

python3 - "$tmp/ref" <<'EOF' || fail "the sprandom inputs, bytes or final state are wrong"
import json, math, os, sys
d = sys.argv[1]
m = json.load(open(os.path.join(d, "manifest.json")))
recs = [json.loads(l) for l in open(os.path.join(d, "records.jsonl"))]
bad = []
spr = m["sprandom"]
assert len(spr) == 1 and spr[0]["phase"] == 1, spr
inp = spr[0]["inputs"]
# The model (run_lib.sh's greedy_model): 2 GiB, spare 0.10, 16 KiB pages x 64 = 1 MiB blocks,
# the sim's default 2 x 2 dies, GC reserve dies + 2 = 6 blocks.
cap, blk, dies, res = 2 << 30, 16384 * 64, 4, 6
pb = math.ceil(cap / (1 - 0.10) / blk)
gc_space = (pb - res) * blk - dies * blk // 2
spare = 1 - cap / gc_space
if abs(inp["spare"] - spare) > 1e-9 or inp["spare_from"] != "model":
    bad.append("spare %r from %s, expected %r from the model" % (inp["spare"], inp["spare_from"], spare))
if inp["slc_cache_bytes"] != 0 or inp["slc_cache_from"] != "model":
    bad.append("slc_cache %r from %s" % (inp["slc_cache_bytes"], inp["slc_cache_from"]))
if inp["regions"] != 1024 or inp["regions_from"] != "assumed":
    bad.append("regions %r from %s" % (inp["regions"], inp["regions_from"]))
a = inp["alpha"]
if abs((1 - a) / math.log(1 / a) - (1 - spare)) > 1e-9:
    bad.append("alpha %r does not solve Desnoyers' equation" % a)
units = cap // 4096
R = inp["regions"]
mean_v = sum(a ** (1 - r / (R - 1)) for r in range(R)) / R
if inp["units"] != units or abs(inp["sequence_writes"] - units / mean_v) > R:
    bad.append("sequence writes %r, expected about %r" % (inp["sequence_writes"], units / mean_v))
if inp["bytes"] != inp["sequence_writes"] * 4096:
    bad.append("bytes %r != the sequence's %r" % (inp["bytes"], inp["sequence_writes"] * 4096))
pre = [r for r in recs if r["kind"] == "precondition"]
if sum(r["bytes_written_total"] for r in pre) != inp["bytes"]:
    bad.append("the chunks wrote %r, not %r" % (sum(r["bytes_written_total"] for r in pre), inp["bytes"]))
if any(r.get("sprandom") != inp for r in pre):
    bad.append("a precondition record lacks the inputs")
snap = lambda label: json.load(open(os.path.join(d, "snapshots", next(
    f for f in sorted(os.listdir(os.path.join(d, "snapshots"))) if f.endswith(label + ".json")))))["counters"]
s0, s1 = snap("phase-1-precondition-start"), snap("phase-1-precondition-end")
if s1["host_bytes_written"]["value"] - s0["host_bytes_written"]["value"] != inp["bytes"]:
    bad.append("the sim counted other host bytes")
if s1["valid_bytes"]["value"] != cap:
    bad.append("the drive is not full after the fill: %r valid bytes" % s1["valid_bytes"]["value"])
# first round's WA vs Desnoyers (Eq. 12, k = 1 + 1/(2 np); W0 by Halley's iteration)
r0, r1 = snap("phase-2-rounds-start"), snap("phase-2-rounds-end")
wa = (r1["nand_bytes_written"]["value"] - r0["nand_bytes_written"]["value"]) / \
     (r1["host_bytes_written"]["value"] - r0["host_bytes_written"]["value"])
def w0(x):
    w = -0.5
    for _ in range(100):
        e = math.exp(w); f = w * e - x
        w -= f / (e * (w + 1) - (w + 2) * f / (2 * w + 2))
    return w
al = gc_space / cap
k = 1 + 1 / (2 * (blk // 4096))
theory = al / (k * al + w0(-k * al * math.exp(-k * al)))
print("rounds after the fill: WA %.4f, Desnoyers %.4f (%+.2f%%); fill %.3fx the capacity"
      % (wa, theory, 100 * (wa / theory - 1), inp["bytes"] / cap))
for b in bad:
    print("FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

# killed during the 3rd chunk's job, and right after the 5th record, then resumed
for fault in cell:3 after-record:5; do
	name=kill-${fault//:/-}
	rc=$(run "$name" SSDLAB_DEBUG_FAULT=$fault)
	[ "$rc" = 137 ] || fail "$fault: the run exited $rc, not killed (137)"
	"$SSDLAB" resume "$tmp/$name" --quiet >>"$tmp/$name.out" 2>>"$tmp/$name.err" ||
		fail "$fault: resume failed: $(cat "$tmp/$name.err")"
	check_keys "$tmp/$name" "$tmp/ref" "$fault"
	diff <(figures "$tmp/ref") <(figures "$tmp/$name") >/dev/null ||
		fail "$fault: the resumed run's figures differ from the reference's"
done

# spare: auto on a file: refused with what to set; an explicit spare runs
truncate -s 64M "$tmp/f.img"
sed -e 's/method: sprandom,/method: sprandom, spare: auto,/' -e '/^  - purge/d' -e 's/count: 2/count: 1/' \
	"$tmp/p.yaml" >"$tmp/f.yaml"
"$SSDLAB" run "$tmp/f.yaml" --target "$tmp/f.img" --yes-destroy="$tmp/f.img" --out "$tmp/f-run" \
	--quiet >/dev/null 2>"$tmp/f.err" && fail "spare: auto ran on a file"
grep -q "set the precondition's spare" "$tmp/f.err" || fail "the refusal does not say what to set: $(cat "$tmp/f.err")"
grep -q -- "on the command line: --set phases.0.precondition.spare=N% (the drive's spare)" "$tmp/f.err" ||
	fail "the refusal does not give the --set for phase 0: $(cat "$tmp/f.err")"
grep -q "nothing was recorded; the manifest is in $tmp/f-run" "$tmp/f.err" && [ ! -s "$tmp/f-run/records.jsonl" ] ||
	fail "the refusal does not say that nothing was recorded: $(cat "$tmp/f.err")"
# the hint, as given, runs
"$SSDLAB" run "$tmp/f.yaml" --target "$tmp/f.img" --yes-destroy="$tmp/f.img" --out "$tmp/f-run2" \
	--set phases.0.precondition.spare=7% --quiet >/dev/null 2>"$tmp/f2.err" ||
	fail "spare 7% (--set) on a file failed: $(cat "$tmp/f2.err")"
python3 - "$tmp/f-run2" <<'EOF' || fail "the file run's inputs are wrong"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1] + "/records.jsonl")]
p = [x for x in r if x["kind"] == "precondition"][0]["sprandom"]
assert p["spare"] == 0.07 and p["spare_from"] == "profile", p
assert p["slc_cache_bytes"] == 0 and p["slc_cache_from"] == "assumed", p
EOF

echo "sprandom_test: $(python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$start" "$(date +%s.%N)") s"
[ "$fails" = 0 ] || exit 1
echo "PASS"
