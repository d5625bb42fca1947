#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# plan_snia_test (issue 15, point 3): what `ssdlab plan` and `ssdlab profiles` say of the SNIA
# profiles, against figures worked out by hand here.
#   - `ssdlab plan` of every profiles/snia-*.yaml on a 1 GiB file (a real-device target: nothing
#     is written, speeds are the stated assumptions): each rounds phase gives its 5 .. 25 rounds
#     ("steady state decides") and the bytes one round writes; the preconditioning of 2 GiB at
#     the assumed 100 MB/s takes 2 x 2^30 / 10^8 = 21.47 s.
#   - Bytes per round at 100 MB/s, at most 20000 IOPS for random I/O, times each cell's write
#     share: snia-iops: the write shares of the 7 mixes add up to (0+5+35+50+65+95+100)% = 3.5 per
#     block size; 1m..8k move 100 MB/s, 4k 20000 x 4096 = 81.92 MB/s, 0.5k 10.24 MB/s:
#     3.5 x 60 s x (6 x 10^8 + 8.192 x 10^7 + 1.024 x 10^7) B/s = 1.453536 x 10^11 B = 135.37 GiB;
#     snia-latency: shares 0 + 0.35 + 1 = 1.35 per block size, 0.5k, 4k, 8k at 10.24, 81.92 and
#     100 MB/s: 1.35 x 60 x 1.9216 x 10^8 = 1.556496 x 10^10 B = 14.50 GiB.
#   - `ssdlab profiles`: the "1 TB drive" column; snia-iops 4000 s of preconditioning (2 x 10^12 B
#     at 500 MB/s) + 5 .. 25 rounds of 56 x 60 s: 20800 .. 88000 s, printed 5h47m .. 1d00h;
#     WSAT (wsat or snia-wsat) min(4 x 10^12 B at 81.92 MB/s = 48828 s, 24 h), printed 13h34m.
#   - snia-ecw (issue 16): its rounds have fixed counts, 25 of one 1-minute cell and 10 of a
#     5-minute pre-write + 49 one-minute cells = 54m00s each, 9h00m.
# Well under a second (plan probes nothing on a file).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-plansnia-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
truncate -s 1G "$tmp/dev" || skip "cannot make a sparse file"

n=0
for f in "$SSDLAB_SRCDIR"/profiles/snia-*.yaml; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	p=$(basename "$f" .yaml)
	if ! "$SSDLAB" plan "$f" --target "$tmp/dev" >"$tmp/$p" 2>&1; then
		fail "$p: plan failed"
		sed 's/^/  /' "$tmp/$p" >&2
		continue
	fi
	# the phase lines ("  2 rounds  time-bound ..."), not a fixed count's ("25 rounds of ...")
	r=$(grep -Ec '^ *[0-9]+ rounds {2,}' "$tmp/$p")
	# A fixed count (snia-ecw, issue 16: 25 preconditioning rounds, 10 TOIO rounds) states it.
	# A *-fast profile's tracking rounds may stop at 3 (the early verdict's min_rounds).
	[ "$(grep -Ec '[35] \.\. 25 rounds of .* each: steady state decides|^ +[0-9]+ rounds of [^:]* each$' \
		"$tmp/$p")" = "$r" ] ||
		fail "$p: not every rounds phase states its 5 .. 25 rounds (or its fixed count)"
	[ "$(grep -c 'writes about .* per round (each cell' "$tmp/$p")" = "$r" ] ||
		fail "$p: not every rounds phase states its bytes per round"
	if grep -q '^ *[0-9]* *precondition .*2x capacity' "$tmp/$p"; then
		grep -q '^ *[0-9]* *precondition  2 GiB        21\.47 s ' "$tmp/$p" ||
			fail "$p: preconditioning 2 GiB at 100 MB/s is not 21.47 s"
		grep -q 'speed assumed 100 MB/s' "$tmp/$p" || fail "$p: the assumed speed is not stated"
	fi
done
[ "$n" -ge 3 ] || fail "only $n profiles/snia-*.yaml found"
grep -q 'writes about 135\.37 GiB per round' "$tmp/snia-iops" ||
	fail "snia-iops: bytes per round: $(grep 'writes about' "$tmp/snia-iops")"
# snia-ecw by hand: 25 rounds of one 1-minute cell; 10 rounds of a 5-minute pre-write + 49 cells
# of 1 minute = 54 minutes each, 9h00m.
if [ -e "$tmp/snia-ecw" ]; then
	grep -q '^ *25 rounds of 1m00s each$' "$tmp/snia-ecw" &&
		grep -q '^ *10 rounds of 54m00s each$' "$tmp/snia-ecw" &&
		grep -Eq '^ *2 rounds +time-bound +9h00m ' "$tmp/snia-ecw" ||
		fail "snia-ecw: the rounds are not 25 x 1m and 10 x 54m: $(grep rounds "$tmp/snia-ecw")"
fi
grep -q 'writes about 14\.50 GiB per round' "$tmp/snia-latency" ||
	fail "snia-latency: bytes per round: $(grep 'writes about' "$tmp/snia-latency")"

"$SSDLAB" profiles >"$tmp/profiles" || fail "profiles failed"
head -1 "$tmp/profiles" | grep -q '1 TB drive' || fail "profiles: no \"1 TB drive\" column head"
grep -Eq '^  snia-iops +destructive +5h47m \.\. 1d00h ' "$tmp/profiles" ||
	fail "profiles: snia-iops: $(grep snia-iops "$tmp/profiles")"
grep -Eq '^  (snia-)?wsat +destructive +13h34m ' "$tmp/profiles" ||
	fail "profiles: WSAT: $(grep wsat "$tmp/profiles")"
"$SSDLAB" profiles --help >"$tmp/help" || fail "profiles --help failed"
grep -q '500 MB/s' "$tmp/help" && grep -q '20000 IOPS' "$tmp/help" ||
	fail "profiles --help does not state the assumed drive"

[ "$fails" -eq 0 ] || exit 1
echo "ok: plan and profiles of $n SNIA profiles agree with the hand-worked figures"
