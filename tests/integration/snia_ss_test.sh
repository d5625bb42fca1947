#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# snia_ss_test (issue 15, point 3b): steady state of snia-iops on a 7%-spare model that stands for
# a large drive (client-7op: 1024 GB, 32 GiB simulated), where one round writes well under one
# drive fill, as on the real drive.
#   1. The profile as shipped reaches steady state within 25 rounds: the summary says "reached",
#      python3 recomputes SNIA's two rules (data excursion <= 20%, slope excursion of the
#      least-squares line <= 10% of the window's average) from the tracked cell's records and
#      agrees, and every round wrote less than half the drive (bytes of its cell records /
#      the capacity in the manifest).
#   2. A shortened round (only the 4 KiB column, 8 s cells, at most 6 rounds) is not enough: the
#      fresh plateau and the fall after it are both in the last window, the "not achieved" path is
#      taken and reported (summary verdict and flags, the headline's NOT and FLAG lines), python3
#      recomputes a failed rule, and the exit code is 0.
# On this simulator a shortened round with the full 25 rounds finds a steady state anyway (the
# greedy FTL settles within a few rounds once the spare is used; with rounds shorter still the
# window can even sit on the fresh plateau, PTS's known blind spot): the cap of 6 rounds is what
# makes the round "not enough" here. Measured 2026-12-02: 7.6 s and 2.7 s wall.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the records"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-ss-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
model="$SSDLAB_SRCDIR/profiles/models/client-7op.yaml"
[ -r "$model" ] || skip "no $model in the source tree"

# judge DIR WANT: SNIA's rules over the last window of the tracked cell, from the records
judge() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d, want = sys.argv[1], sys.argv[2]
recs = [json.loads(l) for l in open(d + "/records.jsonl")]
cap = json.load(open(d + "/manifest.json"))["target"]["capacity"]
y = [r["write"]["iops"] for r in recs if r["kind"] == "cell" and r["cell"] == "rwmix_read=0,bs=4k"]
rounds = sorted({r["round"] for r in recs if r["kind"] == "cell"})
bad = []
for rnd in rounds:
    w = sum(r["bytes_written_total"] for r in recs if r["kind"] == "cell" and r["round"] == rnd)
    print("  round %d: %.3f drive fills, tracked 4 KiB write IOPS %.0f" % (rnd, w / cap, y[rnd - 1]))
    if w >= cap / 2:
        bad.append("round %d wrote %.2f of the drive" % (rnd, w / cap))
win = y[-5:]
n = len(win)
avg = sum(win) / n
xs = list(range(n))
mx = sum(xs) / n
slope = sum((x - mx) * (v - avg) for x, v in zip(xs, win)) / sum((x - mx) ** 2 for x in xs)
ok = max(win) - min(win) <= 0.2 * avg and abs(slope) * (n - 1) <= 0.1 * avg
s = json.load(open(d + "/summary.json"))
e = [x for x in s["steady_state"] if x["cell"] == "rwmix_read=0,bs=4k"][0]
if (want == "reached") != ok:
    bad.append("recomputed rules say %s over rounds %d-%d" % (ok, rounds[-1] - n + 1, rounds[-1]))
if e["verdict"] != want or e["last_round"] != rounds[-1] or e["last_round"] > 25:
    bad.append("summary steady_state: %s rounds %s-%s" % (e["verdict"], e["first_round"], e["last_round"]))
nr = s["flags"]["steady_state_not_reached"]
if (want == "not_reached") != bool(nr):
    bad.append("flags.steady_state_not_reached: %s" % nr)
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

start=$(date +%s%N)
"$SSDLAB" run snia-iops --target "sim:$model" --out "$tmp/full" >"$tmp/full.out" 2>&1
rc=$?
echo "snia-iops on client-7op: exit $rc, $((($(date +%s%N) - start) / 1000000)) ms wall"
[ $rc -eq 0 ] || sed 's/^/  /' "$tmp/full.out" >&2
[ $rc -eq 0 ] || fail "full rounds: exit $rc"
judge "$tmp/full" reached || fail "full rounds: steady state (above)"
grep -q "^steady state .*(reached in rounds" "$tmp/full.out" || fail "full rounds: headline"

start=$(date +%s%N)
"$SSDLAB" run snia-iops --target "sim:$model" --set 'phases.2.rounds.cells.bs=[4k]' \
	--set phases.2.rounds.cell_time=8s --set phases.2.rounds.steady_state.max_rounds=6 \
	--out "$tmp/short" >"$tmp/short.out" 2>&1
rc=$?
echo "snia-iops on client-7op, shortened round: exit $rc, $((($(date +%s%N) - start) / 1000000)) ms wall"
[ $rc -eq 0 ] || fail "shortened round: exit $rc (not achieved is a result, not an error)"
judge "$tmp/short" not_reached || fail "shortened round: steady state (above)"
grep -q "^steady state .*(NOT reached" "$tmp/short.out" || fail "shortened round: headline has no NOT reached"
grep -q "^FLAG: steady state not reached in 1 tracked series" "$tmp/short.out" ||
	fail "shortened round: headline has no FLAG line"
[ "$fails" -eq 0 ] || {
	sed 's/^/  /' "$tmp/short.out" >&2
	exit 1
}
echo "ok: steady state within 25 rounds on client-7op; a shortened round takes the not-achieved path, exit 0"
