#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# fast_test (issue 19 point 3): the *-fast profiles end to end on the virtual SSD.
#   1. three models, snia-iops-fast against snia-iops: client-tlc shrunk to 1 GiB
#      (run_lib.sh small_client_tlc, --time-scale 52: 2 drains per 1 MiB cell, at 26 one; its
#      write cache on in both runs: with it off the fill is refused there, point 4), client-7op
#      shrunk to 1 GiB (spare 0.069, --time-scale 2, the smallest at which no cell is shorter
#      than its drain) and enterprise-28op shrunk to 2 GiB on 16 dies (spare 0.219, 27.3 blocks
#      a die; on its 32 the fill is refused at 13.7 a die, point 4; --time-scale 40: at 11 or 20
#      its one-minute cells are so short that cells of either run vary by up to 15 % round to
#      round). fast_check.py, from records.jsonl and the
#      snapshots: the fast run's one SNIA block (steady state of the tracking phase, matrix
#      recomputed over the matrix rounds after the first, header.fast); the tracked cell within
#      5 %; every matrix cell within 5 % of the full window's average or within its per-round
#      range widened by 5 % (the count that needed that is printed); host bytes written at
#      most half the full run's, from the sim counters (not timed); the fast block recomputed
#      whole by snia_blocks_check.py, with its check of its own matrix rounds (cells of at most
#      the fill's 4 KiB unit that are not steady by SNIA's rule over both rounds are named; none
#      carries the two-state caveat);
#   2. the fast run's headline (headline_check.py) and report (the fast sentence, and the matrix
#      rounds' check as summary.json says it);
#   3. `compare --fast FULL FAST` on the client-tlc pair, checked by compare_check.py --fast
#      (the whole run's drive time and bytes, to the figures, judged against 0.5);
#   4. refusals: on a fifo-GC model, on the static-slc model, on client-tlc with its write
#      cache off (PTS-E's setting: a dynamic SLC cache without PLP, the two-state class) and on
#      enterprise-28op at 2 GiB on its 32 dies (13.7 blocks a die) snia-iops-fast exits 1 before the first phase, naming docs/fast-steady-state.md, with no
#      record and no snapshot; with force: true on the fifo model (client-tlc's, cache off) it
#      runs, the manifest records forced and why, the block's method sentence (headline) and
#      the report name the refusal it was forced past, and its rounds check carries the
#      two-state caveat.
# The runs go two at a time (the machine has 2 cores). Measured 2026-12-02: see the last line.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the records"
: "${SSDLAB_SRCDIR:?SSDLAB_SRCDIR must point at the source tree (meson sets it)}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-fast-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t0=$EPOCHREALTIME
P="$SSDLAB_SRCDIR/profiles"
models="$SSDLAB_SRCDIR/profiles/models"
small_client_tlc "$SSDLAB_SRCDIR" "$tmp/tlc.yaml"
shrunk_7op_28op "$SSDLAB_SRCDIR" "$tmp"
sed 's/^  policy: greedy$/  policy: fifo/' "$tmp/tlc.yaml" >"$tmp/fifo.yaml"
grep -q '^  policy: fifo$' "$tmp/fifo.yaml" || fail "the fifo model was not made"
sed -e 's/^name: .*/name: enterprise-28op-2g-16d/' -e 's/^dies_per_channel: 4$/dies_per_channel: 2/' \
	"$tmp/e28.yaml" >"$tmp/e28d.yaml"
grep -q '^dies_per_channel: 2$' "$tmp/e28d.yaml" || fail "the 16-die enterprise-28op was not made"

# one run: NAME PROFILE MODEL SCALE [ARGS...]; its exit code in NAME.rc
one() {
	local n=$1 p=$2 m=$3 s=$4
	shift 4
	"$SSDLAB" run "$P/$p.yaml" --target "sim:$m" --out "$tmp/$n" --time-scale "$s" "$@" \
		>"$tmp/$n.out" 2>"$tmp/$n.err"
	echo $? >"$tmp/$n.rc"
}
# longest first, two at a time (xargs takes the next as one ends)
runs=(
	"e28-full snia-iops $tmp/e28d.yaml 40"
	"c7-full snia-iops $tmp/c7.yaml 2"
	"e28-fast snia-iops-fast $tmp/e28d.yaml 40"
	"tlc-full snia-iops $tmp/tlc.yaml 52 --set write_cache=on"
	"c7-fast snia-iops-fast $tmp/c7.yaml 2"
	"tlc-fast snia-iops-fast $tmp/tlc.yaml 52 --set write_cache=on"
	"fifo-forced snia-iops-fast $tmp/fifo.yaml 26 --set phases.1.precondition.force=true"
)
export -f one
export tmp P SSDLAB
printf '%s\n' "${runs[@]}" | xargs -P 2 -L 1 bash -c 'one "$@"' one
t1=$EPOCHREALTIME
for r in "${runs[@]}"; do
	n=${r%% *}
	if [ "$(cat "$tmp/$n.rc")" != 0 ]; then
		fail "$n: ssdlab run exit $(cat "$tmp/$n.rc")"
		sed 's/^/  /' "$tmp/$n.err" >&2
	fi
done
[ "$fails" = 0 ] || exit 1

# 1. the three models; each fast run's SNIA block recomputed whole from its records (with its
#    check of its own matrix rounds, whose sentence is printed)
for m in tlc c7 e28; do
	python3 "$here/fast_check.py" "$tmp/$m-full" "$tmp/$m-fast" "$m" || fail "$m: fast_check.py"
	python3 "$here/snia_blocks_check.py" "$tmp/$m-fast" >/dev/null || fail "$m: snia_blocks_check.py"
	# no two-state caveat: client-tlc runs with its write cache on, client-7op has no SLC cache
	# and enterprise-28op has PLP (the forced run below has it)
	python3 - "$tmp/$m-fast/summary.json" "$m" <<'PY' || fail "$m: rounds_check"
import json, sys
rc = json.load(open(sys.argv[1]))["snia"][0]["header"]["fast"]["rounds_check"]
print("%s: matrix rounds: %s" % (sys.argv[2], rc["text"]))
assert rc["two_states"] is False, rc["two_states"]
PY
done

# 2. headline and report of a fast run
"$SSDLAB" analyze "$tmp/tlc-fast" 2>/dev/null | grep -v '^summary: ' >"$tmp/tlc-fast.block"
python3 "$here/headline_check.py" snia-iops-fast "$tmp/tlc-fast" "$tmp/tlc-fast.block" "$tmp/tlc-fast.out" ||
	fail "headline_check on the fast run"
grep -q '^SNIA fast      fast run, not a PTS run: sprandom precondition, ' "$tmp/tlc-fast.block" ||
	fail "headline: no SNIA fast line"
"$SSDLAB" report "$tmp/tlc-fast" >/dev/null 2>&1 || fail "report: exit $?"
grep -q 'A fast run, not a PTS run' "$tmp/tlc-fast/report.html" || fail "report.html: no fast sentence"
python3 - "$tmp/tlc-fast" <<'PY' || fail "report.html: the matrix rounds' check is not the summary's"
import html, json, sys
d = sys.argv[1]
t = json.load(open(d + "/summary.json"))["snia"][0]["header"]["fast"]["rounds_check"]["text"]
assert "Matrix rounds: %s." % t in html.unescape(open(d + "/report.html").read()), t
PY

# 3. compare --fast on the client-tlc pair: compare_fast NAME FULL FAST writes NAME.txt and
#    NAME/compare.html and checks them with compare_check.py
compare_fast() {
	(cd "$tmp" && "$SSDLAB" compare --fast --out "$1/compare.html" "$2" "$3") >"$tmp/$1.txt" 2>&1 ||
		fail "compare --fast $2 $3: exit $?"
	(cd "$tmp" && python3 "$here/compare_check.py" --fast "$1/compare.html" "$1.txt" "$2" "$3") ||
		fail "compare_check.py --fast $2 $3"
}
compare_fast cmp tlc-full tlc-fast
grep -q '^  drive time to the figures (s, whole run) .* pass$' "$tmp/cmp.txt" ||
	fail "compare --fast: the whole run's drive time is not judged a pass"

# 4. refusals, nothing written; force recorded
refused() {
	local n=$1 m=$2 why=$3 rc
	"$SSDLAB" run "$P/snia-iops-fast.yaml" --target "sim:$m" --out "$tmp/$n" >"$tmp/$n.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "$n: exit $rc, want 1"
	grep -q "refused before the first phase: phase 1 (precondition): sprandom: refused: $why.*docs/fast-steady-state.md.*force: true" "$tmp/$n.out" ||
		{ fail "$n: no refusal naming the reason and docs/fast-steady-state.md"; sed 's/^/  /' "$tmp/$n.out" >&2; }
	! grep -q "resume with" "$tmp/$n.out" || fail "$n: a resume is suggested after a refusal it would meet again"
	[ ! -s "$tmp/$n/records.jsonl" ] || fail "$n: records were written"
	[ -z "$(ls -A "$tmp/$n/snapshots" 2>/dev/null)" ] || fail "$n: snapshots were taken"
	echo "$n: refused ($(grep -o 'sprandom: refused: [^(]*' "$tmp/$n.out"))"
}
refused fifo "$tmp/fifo.yaml" "the model's GC policy is fifo, not greedy-like"
refused static "$models/static-slc.yaml" "the model's SLC cache is static"
refused e28-32dies "$tmp/e28.yaml" "the model has 13.7 blocks a die, fewer than 20: GC picks victims within a die"
refused twostate "$tmp/tlc.yaml" "the write cache is off on a dynamic SLC cache without power-loss protection: its cells run in two states"
python3 - "$tmp/fifo-forced" <<'PY' || fail "fifo-forced: force not recorded, or no two-state caveat"
import json, sys
m = json.load(open(sys.argv[1] + "/manifest.json"))
s = m["sprandom"][0]["inputs"]
assert s["forced"] is True and "fifo" in s["forced_past"], s
print("fifo-forced: ran, manifest sprandom inputs forced past: %s" % s["forced_past"])
hf = json.load(open(sys.argv[1] + "/summary.json"))["snia"][0]["header"]["fast"]
rc = hf["rounds_check"]
assert rc["two_states"] is True and "two states" in rc["text"], rc
print("fifo-forced: matrix rounds: %s" % rc["text"])
# the method's sentence (headline, report) names the refusal it was forced past
assert hf["forced_past"] == s["forced_past"], hf
assert hf["text"].endswith("; the fill was forced past its refusal: " + s["forced_past"]), hf["text"]
PY
"$SSDLAB" report "$tmp/fifo-forced" >/dev/null 2>&1 || fail "fifo-forced: report exit $?"
python3 - "$tmp/fifo-forced" <<'PY' || fail "fifo-forced: report.html does not say the fill was forced"
import html, json, sys
d = sys.argv[1]
why = json.load(open(d + "/summary.json"))["snia"][0]["header"]["fast"]["forced_past"]
assert "Forced: the sprandom fill ran where ssdlab refuses it (%s;" % why in \
    html.unescape(open(d + "/report.html").read()), why
PY
python3 "$here/snia_blocks_check.py" "$tmp/fifo-forced" >/dev/null || fail "fifo-forced: snia_blocks_check.py"
# compare --fast names the forced fill (against client-tlc's full run: the fifo model is client-tlc
# with another GC policy)
compare_fast cmpf tlc-full fifo-forced
grep -q "^  fill forced past its refusal .* no .* yes .*the model's GC policy is fifo" "$tmp/cmpf.txt" ||
	fail "compare --fast: no line naming the forced fill"
t2=$EPOCHREALTIME
awk -v a="$t0" -v b="$t1" -v c="$t2" \
	'BEGIN { printf "7 runs in %.1f s (two at a time), checks and refusals in %.1f s\n", b - a, c - b }'
[ "$fails" = 0 ] || exit 1
echo "ok: snia-iops-fast agrees with snia-iops on three models at under half the bytes; refusals hold"
