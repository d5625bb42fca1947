#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# wa_guard_test (issue 19, docs/fast-steady-state.md "The WA guard"): the tracking rounds of
# snia-iops-fast (purge, sprandom fill, RND 4 KiB rounds under the SNIA rule and the early
# verdict; its matrix left out) on two virtual SSDs:
#   - enterprise-28op shrunk to 2 GiB (--time-scale 11, as bench/fast_ss.py runs it): the fill
#     leaves it short of its random-write steady state and the rounds sit on a plateau above it
#     that the SNIA rule accepts from round 6; the WA guard must refuse every verdict on a round
#     whose WA is short and let the rounds go on. With 13.7 blocks a die the fill is refused
#     there (docs/fast-steady-state.md), so the profile says force: true: the guard is the
#     backstop where a fill falls short of the layout, here by construction;
#   - client-7op shrunk to 1 GiB (--time-scale 2; no SLC cache): the shortcut holds, the guard
#     must pass and delay nothing.
# wa_guard_check.py recomputes each round's WA from the snapshot files and the expected WA from
# the manifest's sprandom alpha, the SNIA rule from the records, and checks the summary and where
# the rounds stopped; the headline must say the guard's outcome in one line.
# Killed in tracking round 16 (among the refused verdicts) and resumed, the run stops at the same
# round with the same guard: the decisions before the kill come back from the records.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the records"
: "${SSDLAB_SRCDIR:?SSDLAB_SRCDIR must point at the source tree (meson sets it)}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-waguard-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t0=$EPOCHREALTIME
shrunk_7op_28op "$SSDLAB_SRCDIR" "$tmp"
# snia-iops-fast without its matrix phase (the last one): its pts block (write cache off,
# 4 threads x QD32), purge, sprandom fill and tracking rounds as they are
awk '/^  - rounds:/ { n++ } n < 2' "$SSDLAB_SRCDIR/profiles/snia-iops-fast.yaml" |
	sed -e 's/^name: .*/name: fast-tracking/' -e 's/{method: sprandom, /{method: sprandom, force: true, /' \
		>"$tmp/track.yaml"
[ "$(grep -c '^  - ' "$tmp/track.yaml")" = 3 ] && grep -q '^pts: ' "$tmp/track.yaml" &&
	grep -q 'method: sprandom, force: true' "$tmp/track.yaml" ||
	fail "the tracking profile was not made from snia-iops-fast.yaml"

one() {
	local n=$1 m=$2 s=$3
	"$SSDLAB" run "$tmp/track.yaml" --target "sim:$m" --out "$tmp/$n" --time-scale "$s" \
		--seed 7 >"$tmp/$n.out" 2>"$tmp/$n.err"
	echo $? >"$tmp/$n.rc"
}
export -f one
export tmp SSDLAB
printf '%s\n' "e28 $tmp/e28.yaml 11" "c7 $tmp/c7.yaml 2" | xargs -P 2 -L 1 bash -c 'one "$@"' one
for n in e28 c7; do
	if [ "$(cat "$tmp/$n.rc")" != 0 ]; then
		fail "$n: ssdlab run exit $(cat "$tmp/$n.rc")"
		sed 's/^/  /' "$tmp/$n.err" >&2
	fi
done
[ "$fails" = 0 ] || exit 1
python3 "$here/wa_guard_check.py" "$tmp/e28" --expect blocked || fail "e28: wa_guard_check.py"
python3 "$here/wa_guard_check.py" "$tmp/c7" --expect passed || fail "c7: wa_guard_check.py"
grep -q '^WA guard       delayed: [0-9]* verdict(s) refused from round [0-9]*' "$tmp/e28.out" ||
	{ fail "e28: no 'WA guard delayed' headline line"; grep '^WA guard' "$tmp/e28.out" >&2; }
grep -q 'but the WA guard says short' "$tmp/e28.err" "$tmp/e28.out" ||
	fail "e28: no note of a verdict the guard refused"
grep -q '^WA guard       passed: round [0-9]* WA ' "$tmp/c7.out" ||
	{ fail "c7: no 'WA guard passed' headline line"; grep '^WA guard' "$tmp/c7.out" >&2; }
# analyze recomputes the same guard from the records
for n in e28 c7; do
	cp "$tmp/$n/summary.json" "$tmp/$n.summary"
	"$SSDLAB" analyze "$tmp/$n" >/dev/null 2>&1 || fail "$n: analyze exit $?"
	python3 - "$tmp/$n.summary" "$tmp/$n/summary.json" <<'PY' || fail "$n: analyze gives another guard"
import json, sys
a, b = (json.load(open(p))["steady_state"][0]["wa_guard"] for p in sys.argv[1:])
assert a == b, (a, b)
PY
done
# killed during a tracking round among the refused ones (8 records before the end: round 15 of 23
# with seed 7) and resumed: the guard's decisions before the kill come back from the records'
# wa_guard_counters, so the resumed run stops at the same round with the same guard and records
nrec=$(wc -l <"$tmp/e28/records.jsonl")
SSDLAB_DEBUG_FAULT=cell:$((nrec - 8)) "$SSDLAB" run "$tmp/track.yaml" --target "sim:$tmp/e28.yaml" \
	--out "$tmp/e28k" --time-scale 11 --seed 7 >"$tmp/e28k.out" 2>&1
[ $? -ne 0 ] || fail "e28: the fault hook did not stop the run"
"$SSDLAB" resume "$tmp/e28k" >"$tmp/e28k.res" 2>&1 || { fail "e28: resume exit $?"; sed 's/^/  /' "$tmp/e28k.res" >&2; }
check_keys "$tmp/e28k" "$tmp/e28" "e28 killed and resumed"
python3 "$here/wa_guard_check.py" "$tmp/e28k" --expect blocked >/dev/null || fail "e28 resumed: wa_guard_check.py"
python3 - "$tmp/e28.summary" "$tmp/e28k/summary.json" <<'PY' || fail "e28: the resumed run's guard or stop differs"
import json, sys
a, b = (json.load(open(p))["steady_state"][0] for p in sys.argv[1:])
for k in ("wa_guard", "values", "verdict", "window"):
    assert a.get(k) == b.get(k), (k, a.get(k), b.get(k))
PY
t1=$EPOCHREALTIME
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "2 runs and checks in %.1f s\n", b - a }'
[ "$fails" = 0 ] || exit 1
echo "ok: the WA guard refuses the false plateau of enterprise-28op at 2 GiB and passes client-7op"
