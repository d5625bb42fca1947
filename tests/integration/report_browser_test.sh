#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# report_browser_test (issue 17): the report of every stored results directory
# (tests/data/reports/<profile>.tar.gz) opened in headless Chromium by browser_check.py:
#   - `ssdlab report DIR` succeeds on each and writes DIR/report.html;
#   - each report.html loads offline with no console error, no uncaught exception and no request
#     leaving the file (the checker's own test, browser_test.sh, shows that it bites);
#   - a screenshot per profile is saved in the build directory, report-screenshots/<profile>.png,
#     for a person to look at (meson keeps the build directory; the test's temporary one is removed).
# Skips (77) without Chromium, except under CI=true (a failure there).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
: "${SSDLAB_SRCDIR:?SSDLAB_SRCDIR must point at the source tree (meson sets it)}"
command -v python3 >/dev/null || skip "python3 is needed to drive Chromium"
fixtures="$SSDLAB_SRCDIR/tests/data/reports"
# SSDLAB is <build>/suite/ssdlab: the screenshots go beside the build's other outputs.
shots=${SSDLAB_SCREENSHOTS:-$(cd "$(dirname "$SSDLAB")/.." && pwd)/report-screenshots}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-report-browser-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t0=$EPOCHREALTIME

reports=()
for f in "$fixtures"/*.tar.gz; do
	p=$(basename "$f" .tar.gz)
	tar -xzf "$f" -C "$tmp" || {
		fail "$p.tar.gz: does not extract"
		continue
	}
	"$SSDLAB" report "$tmp/$p" >"$tmp/$p.report.out" 2>&1 || {
		fail "$p: ssdlab report failed"
		sed 's/^/  /' "$tmp/$p.report.out" >&2
		continue
	}
	[ -s "$tmp/$p/report.html" ] || {
		fail "$p: ssdlab report wrote no report.html"
		continue
	}
	reports+=("$tmp/$p/report.html")
done
t1=$EPOCHREALTIME

if [ ${#reports[@]} -gt 0 ]; then
	rm -rf "$shots"
	python3 "$here/browser_check.py" --screenshots "$shots" --name-by-dir --settle 250 "${reports[@]}" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	cat "$tmp/out"
	[ "$rc" = 77 ] && skip "$(cat "$tmp/out" "$tmp/err" | head -1)"
	[ -s "$tmp/err" ] && sed 's/^/  checker: /' "$tmp/err" >&2
	[ "$rc" = 0 ] || fail "the checker found problems in the reports above (exit $rc)"
	for r in "${reports[@]}"; do
		p=$(basename "$(dirname "$r")")
		grep -qxF "PASS $r" "$tmp/out" || fail "$p: report.html not passed by the checker"
		[ -s "$shots/$p.png" ] || fail "$p: no screenshot $shots/$p.png"
	done
	echo "screenshots in $shots"
fi
t2=$EPOCHREALTIME
awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="${#reports[@]}" \
	'BEGIN { printf "%d reports written in %.1f s, checked in Chromium in %.1f s\n", n, b - a, c - b }'
[ "$fails" = 0 ] || exit 1
echo "ok: every stored results directory's report opens offline in Chromium without errors or requests"
