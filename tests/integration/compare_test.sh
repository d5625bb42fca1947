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
#   - `compare --fast FULL FAST` (issue 19): FULL the stored snia-iops, FAST a fast-like run made
#     here (the same profile, model and options with a 1x instead of 2x precondition); and a copy
#     of it given the keys of the fast path's contract that this build's runs do not write yet
#     (`early` on its steady-state result: predicted at round 3; `precondition.method: sprandom` on
#     its precondition record), so that the code reading them is tested. compare_check.py --fast
#     recomputes the drive time and bytes to the verdict from records.jsonl, the ratios, the
#     verdicts and every figure's difference against 5 %;
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

# --fast: a fast-like run of snia-iops on the fixtures' model (commands.txt), and the contract copy
small_client_tlc "$SSDLAB_SRCDIR" "$tmp/client-tlc-1g.yaml"
tf0=$EPOCHREALTIME
"$SSDLAB" run snia-iops --target "sim:$tmp/client-tlc-1g.yaml" --out "$tmp/fast" --time-scale 26 \
	--set phases.1.precondition.interval=30s --set phases.1.precondition.amount=1x \
	>"$tmp/fast.run" 2>&1 || { fail "the fast-like run failed"; tail -5 "$tmp/fast.run" >&2; }
tf1=$EPOCHREALTIME
cp -r "$tmp/fast" "$tmp/fastc"
# fasto: the same run as one from before issue 19 would read, without the early keys
cp -r "$tmp/fast" "$tmp/fasto"
python3 - "$tmp/fasto" <<'PY' || fail "could not write the old-style copy"
import json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
for e in s["steady_state"]:
    e.pop("early", None)
json.dump(s, open(d + "/summary.json", "w"))
PY
python3 - "$tmp/fastc" <<'PY' || fail "could not write the contract copy"
import json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
s["steady_state"][0]["early"] = {"verdict": "predicted", "round": 3, "confidence": 0.95,
                                 "method": "test: contract keys", "stopped_run": False}
json.dump(s, open(d + "/summary.json", "w"))
recs = [json.loads(line) for line in open(d + "/records.jsonl")]
for r in recs:
    if r["kind"] == "precondition":
        r["precondition"] = {"method": "sprandom"}
open(d + "/records.jsonl", "w").write("".join(json.dumps(r) + "\n" for r in recs))
PY
for f in fast fastc fasto; do
	mkdir -p "$tmp/f-$f"
	(cd "$tmp" && "$SSDLAB" compare --fast --out "f-$f/compare.html" snia-iops "$f") >"$tmp/f-$f.txt" 2>"$tmp/f-$f.err" ||
		{ fail "compare --fast snia-iops $f failed"; cat "$tmp/f-$f.err" >&2; continue; }
	(cd "$tmp" && python3 "$here/compare_check.py" --fast "f-$f/compare.html" "f-$f.txt" snia-iops "$f") ||
		fail "compare --fast snia-iops $f: compare_check.py"
	[ -s "$tmp/f-$f/report/compare-fast.csv" ] || fail "f-$f: no report/compare-fast.csv"
done
grep -q '^  early verdict .*off' "$tmp/f-fast.txt" || fail "fast: a profile without an early rule not said"
grep -q '^  early verdict .*absent (no early key)' "$tmp/f-fasto.txt" || fail "fasto: a missing early key not said"
grep -q '^  early verdict .*predicted, round 3' "$tmp/f-fastc.txt" || fail "fastc: the early verdict not shown"
grep -q '^  precondition method .*sprandom' "$tmp/f-fastc.txt" || fail "fastc: the sprandom method not shown"
grep -q '^  verdict round .*round 3 (early verdict)' "$tmp/f-fastc.txt" || fail "fastc: not summed to the early round"
# the check bites: the time ratio changed in the page
sed '0,/class="num" data-v="0\./s//&1/' "$tmp/f-fastc/compare.html" >"$tmp/bad-fast.html"
cmp -s "$tmp/bad-fast.html" "$tmp/f-fastc/compare.html" && fail "bites: the fast edit did not apply"
(cd "$tmp" && python3 "$here/compare_check.py" --fast bad-fast.html f-fastc.txt snia-iops fastc) >/dev/null &&
	fail "bites: compare_check.py passed an edited fast ratio"
"$SSDLAB" compare --fast "$tmp/fast" >/dev/null 2>&1
[ $? = 2 ] || fail "--fast with one directory: exit not 2"

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
echo "$nk stored runs compared with themselves; the fast-like run took $(awk -v a="$tf0" -v b="$tf1" 'BEGIN { printf "%.1f", b - a }') s"
[ "$fails" = 0 ] || exit 1
echo "ok: ssdlab compare shows every run in every table and plot, with summary.json's figures"
