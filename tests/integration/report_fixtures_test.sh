#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# report_fixtures_test (issue 17): the stored results directories in tests/data/reports/ (one
# <profile>.tar.gz per bundled profile, made by scripts/make-report-fixtures.sh) are ones this
# build still reads as it wrote them:
#   - every profile `ssdlab profiles` lists has its tarball, and no tarball is left of a profile
#     that is gone (a new profile means rerunning the script);
#   - each tarball extracts to one directory named after its profile, holding manifest.json,
#     records.jsonl and summary.json, and `ssdlab analyze` on it reproduces summary.json byte for
#     byte (run_lib.sh's check_analyze). When an analysis change alters summary.json on purpose,
#     this test says which fixtures to regenerate;
#   - `ssdlab report` on each (issue 17's tests: reports from stored results directories of every
#     bundled profile, not re-run in every test): report_check.py (python3's html.parser, csv and
#     json) finds the page parsing with no external reference, every plot with axes, units and
#     data equal to its CSV, and the tables equal to summary.json; a second `ssdlab report` gives
#     the same bytes (report.html, summary.md and every CSV).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
: "${SSDLAB_SRCDIR:?SSDLAB_SRCDIR must point at the source tree (meson sets it)}"
fixtures="$SSDLAB_SRCDIR/tests/data/reports"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-fixtures-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t0=$EPOCHREALTIME

profiles=$("$SSDLAB" profiles | awk 'NR > 1 {print $1}') # line 1: the column heads
[ -n "$profiles" ] || {
	fail "ssdlab profiles lists nothing"
	exit 1
}
for p in $profiles; do
	[ -f "$fixtures/$p.tar.gz" ] ||
		fail "$p: no $p.tar.gz in tests/data/reports (run scripts/make-report-fixtures.sh)"
done
for f in "$fixtures"/*.tar.gz; do
	p=$(basename "$f" .tar.gz)
	grep -qx -- "$p" <<<"$profiles" || fail "$p.tar.gz: no bundled profile $p (remove it or rerun the script)"
	top=$(tar -tzf "$f" | cut -d/ -f1 | sort -u)
	[ "$top" = "$p" ] || {
		fail "$p.tar.gz: holds ${top//$'\n'/ }, not the one directory $p"
		continue
	}
	tar -xzf "$f" -C "$tmp" || {
		fail "$p.tar.gz: does not extract"
		continue
	}
	for n in manifest.json records.jsonl summary.json; do
		[ -s "$tmp/$p/$n" ] || fail "$p: no $n"
	done
	check_analyze "$tmp/$p" "$p"
	if "$SSDLAB" report -q "$tmp/$p" >"$tmp/$p.rep" 2>&1; then
		python3 "$here/report_check.py" "$tmp/$p" || fail "$p: report_check.py"
		cp -r "$tmp/$p" "$tmp/$p.first"
		"$SSDLAB" report -q "$tmp/$p" >/dev/null 2>&1 || fail "$p: the second ssdlab report failed"
		diff -r "$tmp/$p.first" "$tmp/$p" >/dev/null ||
			fail "$p: a second ssdlab report wrote other bytes"
		rm -rf "$tmp/$p.first"
	else
		fail "$p: ssdlab report failed"
		sed 's/^/  /' "$tmp/$p.rep" >&2
	fi
done

n=$(find "$fixtures" -maxdepth 1 -name '*.tar.gz' | wc -l)
printf '%d fixtures, %d bytes in all, checked in %.1f s\n' "$n" "$(cat "$fixtures"/*.tar.gz | wc -c)" \
	"$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')"
[ "$fails" = 0 ] || exit 1
echo "ok: every bundled profile has a stored results directory that analyze reproduces byte for byte, and its report holds"
