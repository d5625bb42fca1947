#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# compare_test (issue 18, point 1): `ssdlab compare DIR...` on stored runs
# (tests/data/reports/*.tar.gz):
#   - snia-iops against snia-iops-client (the same test, two profiles), snia-iops against itself,
#     and snia-iops against snia-latency (different profiles), each checked by compare_check.py
#     (python3 over the runs' summary.json, none of ssdlab's code): every table has a column per
#     run with each run's figures, every plot one series per run with each run's figures, the
#     terminal rows the same numbers, and the figures not shared are listed;
#   - every stored run (each profile kind: SNIA tests, probes, surface, ...) against itself: every
#     curve its report draws is overlaid with a series for both runs, and the curves
#     compare_check.py recomputes from summary.json carry each run's data; three runs of which one
#     has another profile: each curve two runs share is overlaid, the third named "not in";
#   - a run against itself has every ratio 1 and nothing marked; different profiles list what
#     they do not share, in the terminal and the page;
#   - the same input gives the same bytes; compare.html opens offline in headless Chromium
#     (browser_check.py; skipped when no Chromium, as report_browser);
#   - exit codes: 2 for no directory or one without results files, 0 for --help.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to check the comparison"
: "${SSDLAB_SRCDIR:?SSDLAB_SRCDIR must point at the source tree (meson sets it)}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-compare-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t0=$EPOCHREALTIME
for p in snia-iops snia-iops-client snia-latency; do
	tar -xzf "$SSDLAB_SRCDIR/tests/data/reports/$p.tar.gz" -C "$tmp" || fail "$p.tar.gz: does not extract"
done

# cmp NAME DIR...: compare into $tmp/NAME/compare.html and check it
cmp_check() {
	local n=$1
	shift
	mkdir -p "$tmp/$n"
	(cd "$tmp" && "$SSDLAB" compare --out "$n/compare.html" "$@") >"$tmp/$n.txt" 2>"$tmp/$n.err" || {
		fail "$n: ssdlab compare failed"
		sed 's/^/  /' "$tmp/$n.err" >&2
		return
	}
	(cd "$tmp" && python3 "$here/compare_check.py" "$n/compare.html" "$n.txt" "$@") || fail "$n: compare_check.py"
}
cmp_check client snia-iops snia-iops-client
cmp_check self snia-iops snia-iops
cmp_check latency snia-iops snia-latency

# every stored run against itself, and three runs of two profiles
nk=0
for f in "$SSDLAB_SRCDIR"/tests/data/reports/*.tar.gz; do
	p=$(basename "$f" .tar.gz)
	[ -d "$tmp/$p" ] || tar -xzf "$f" -C "$tmp" || { fail "$p.tar.gz: does not extract"; continue; }
	cmp_check "self-$p" "$p" "$p"
	grep -q 'curves overlaid' "$tmp/self-$p.txt" || fail "self-$p: no curves section in the terminal"
	nk=$((nk + 1))
done
cmp_check three gc-recovery gc-recovery snia-iops
grep -q 'not in: run 3' "$tmp/three.txt" || fail "three: run 3 not named under a curve it lacks"
grep -q '^  only in run 3: IOPS against block size' "$tmp/three.txt" ||
	fail "three: run 3's own curves not listed"

# a run against itself: every ratio 1.000, nothing marked, nothing unshared
grep -q '[0-9]\*$' "$tmp/self.txt" && fail "self: a difference is marked comparing a run with itself"
grep -q 'every figure is shared by every run' "$tmp/self.txt" || fail "self: unshared figures listed"
# different profiles: the terminal says what is not shared by whom
grep -q '^not shared by every run, run 1:' "$tmp/latency.txt" || fail "latency: run 1's unshared figures not listed"
grep -q '^not shared by every run, run 2:' "$tmp/latency.txt" || fail "latency: run 2's unshared figures not listed"
grep -q 'id="t-compare-unshared"' "$tmp/latency/compare.html" || fail "latency: no unshared table"
# snia-iops and snia-iops-client differ beyond 10 % (2.2x the write IOPS): marked
grep -q '^wa_run .*\*$' "$tmp/client.txt" || fail "client: wa_run's difference not marked"

# the check bites: one run's IOPS in the plot changed, and one table cell
mkdir -p "$tmp/bad"
sed '0,/data-series="run 2" data-style="line" data-x="1 2 3 4 5 6 7" data-y="[0-9]/s//&1/' \
	"$tmp/client/compare.html" >"$tmp/bad/plot.html"
cmp -s "$tmp/bad/plot.html" "$tmp/client/compare.html" && fail "bites: the plot edit did not apply"
sed '0,/data-v="2.043905972674211"/s//data-v="2.04"/' "$tmp/client/compare.html" >"$tmp/bad/table.html"
cmp -s "$tmp/bad/table.html" "$tmp/client/compare.html" && fail "bites: the table edit did not apply"
# an overlay's data changed, and a "not in" note dropped
sed '/id="compare-curve-1"/,/<\/svg>/s/data-series="run 2" data-style="line" data-x="[^"]*" data-y="[0-9]/&1/' \
	"$tmp/self-snia-wsat/compare.html" >"$tmp/bad/curve.html"
cmp -s "$tmp/bad/curve.html" "$tmp/self-snia-wsat/compare.html" && fail "bites: the curve edit did not apply"
(cd "$tmp" && python3 "$here/compare_check.py" bad/curve.html self-snia-wsat.txt snia-wsat snia-wsat) \
	>/dev/null && fail "bites: compare_check.py passed an edited curve"
sed '0,/<p class="not-in"/s//<p class="x"/' "$tmp/three/compare.html" >"$tmp/bad/notin.html"
cmp -s "$tmp/bad/notin.html" "$tmp/three/compare.html" && fail "bites: the note edit did not apply"
(cd "$tmp" && python3 "$here/compare_check.py" bad/notin.html three.txt gc-recovery gc-recovery snia-iops) \
	>/dev/null && fail "bites: compare_check.py passed a missing \"not in\" note"
for b in plot table; do
	(cd "$tmp" && python3 "$here/compare_check.py" "bad/$b.html" client.txt snia-iops snia-iops-client) \
		>/dev/null && fail "bites: compare_check.py passed an edited $b"
done

# the same bytes again; the CSVs beside the page
cp "$tmp/client/compare.html" "$tmp/first.html"
(cd "$tmp" && "$SSDLAB" compare -q --out client/compare.html snia-iops snia-iops-client) >/dev/null || fail "rerun failed"
cmp -s "$tmp/first.html" "$tmp/client/compare.html" || fail "compare.html differs for the same input"
[ -s "$tmp/client/report/compare-iops.csv" ] || fail "no report/compare-iops.csv beside the page"
# the default --out: ./compare.html
(cd "$tmp" && "$SSDLAB" compare -q snia-iops snia-latency) >/dev/null || fail "default --out failed"
[ -s "$tmp/compare.html" ] || fail "no ./compare.html by default"

# exit codes
"$SSDLAB" compare >/dev/null 2>&1
[ $? = 2 ] || fail "no directory: exit not 2"
"$SSDLAB" compare --out "$tmp/x.html" "$tmp/nonexistent" >/dev/null 2>&1
[ $? = 2 ] || fail "a directory without results: exit not 2"
"$SSDLAB" compare --help | grep -q 'usage: ssdlab compare' || fail "--help"
t1=$EPOCHREALTIME

python3 "$here/browser_check.py" --settle 250 "$tmp/client/compare.html" "$tmp/latency/compare.html" >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
cat "$tmp/b.out"
if [ "$rc" = 77 ]; then
	echo "SKIP (browser): $(head -1 "$tmp/b.out")"
elif [ "$rc" != 0 ]; then
	sed 's/^/  checker: /' "$tmp/b.err" >&2
	fail "browser_check.py on compare.html (exit $rc)"
fi
t2=$EPOCHREALTIME
awk -v a="$t0" -v b="$t1" -v c="$t2" \
	'BEGIN { printf "compares and checks in %.1f s, Chromium in %.1f s\n", b - a, c - b }'
echo "$nk stored runs compared with themselves"
[ "$fails" = 0 ] || exit 1
echo "ok: ssdlab compare shows every run in every table and plot, with summary.json's figures"
