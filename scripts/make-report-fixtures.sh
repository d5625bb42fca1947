#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make-report-fixtures.sh [BUILDDIR [PROFILE...]]: regenerate tests/data/reports/<profile>.tar.gz,
# one stored results directory per bundled profile (as `ssdlab profiles` lists them), for the
# report tests of issue 17 (the reports are built from these, not from a run in every test).
# With PROFILEs only those are made (a new profile's fixture without touching the others'), and
# their lines in commands.txt replaced, under a line naming the commit that made them.
#
# Every profile runs on the virtual SSD model the integration tests use (run_lib.sh's
# small_client_tlc: client-tlc shrunk to 1 GiB, durations kept at the bundled model's scale),
# shortened with --set where its results would be large (series sampled more coarsely, fewer
# idles, bursts and groups), and at the --time-scale the runner suggests when it refuses a cell as
# shorter than its drain. The commands and the commit are written to tests/data/reports/commands.txt.
# The tarballs are deterministic in layout (sorted names, mtime 0, root owner, gzip -n) so that a
# regeneration that changes nothing in the results changes nothing in git... except the records'
# wall-clock fields, which a run always stamps.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
builddir=${1:-$here/build}
[ $# -gt 0 ] && shift
only=("$@")
SSDLAB=${SSDLAB:-$builddir/suite/ssdlab}
export SSDLAB
[ -x "$SSDLAB" ] || {
	echo "no ssdlab binary at $SSDLAB: build first (ninja -C build) or pass BUILDDIR" >&2
	exit 2
}
dest=$here/tests/data/reports
. "$here/tests/integration/run_lib.sh"


tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-fixtures-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
small_client_tlc "$here" "$tmp/client-tlc-1g.yaml"
mkdir -p "$dest"
commit=$(git -C "$here" rev-parse HEAD 2>/dev/null || echo unknown)
git -C "$here" diff --quiet HEAD -- suite analysis profiles 2>/dev/null || commit="$commit (with uncommitted changes)"
{
	echo "# Written by scripts/make-report-fixtures.sh: the commands that made each <profile>.tar.gz."
	echo "commit: $commit"
	echo "ssdlab: $("$SSDLAB" --version 2>/dev/null || echo unknown)"
	echo "model: run_lib.sh small_client_tlc (profiles/models/client-tlc.yaml shrunk to 1 GiB)"
} >"$tmp/commands.txt"

profiles=$("$SSDLAB" profiles | awk 'NR > 1 {print $1}')
if [ ${#only[@]} -gt 0 ]; then
	# only the named ones: the other fixtures and their commands stay
	profiles="${only[*]}"
	pat=$(printf '|%s' "${only[@]}")
	grep -Ev "^ssdlab run (${pat:1}) " "$dest/commands.txt" >"$tmp/commands.txt" || true
	echo "commit for ${only[*]}: $commit" >>"$tmp/commands.txt"
else
	rm -f "$dest"/*.tar.gz
fi
for p in $profiles; do
	mapfile -t sets < <(short_sets "$p" | tr ' ' '\n')
	args=(run "$p" --target "sim:client-tlc-1g.yaml" --out "$p" "${sets[@]}")
	if ! (cd "$tmp" && "$SSDLAB" "${args[@]}" >"$p.run" 2>"$p.err"); then
		scale=$(sed -n 's/.*refused: .*run with --time-scale \([0-9.e+]*\) or more.*/\1/p' "$tmp/$p.err")
		[ -n "$scale" ] || {
			echo "$p: run failed:" >&2
			cat "$tmp/$p.err" >&2
			exit 1
		}
		rm -rf "${tmp:?}/$p"
		args+=(--time-scale "$scale")
		(cd "$tmp" && "$SSDLAB" "${args[@]}" >"$p.run" 2>"$p.err") || {
			echo "$p: run failed at the suggested --time-scale $scale:" >&2
			cat "$tmp/$p.err" >&2
			exit 1
		}
	fi
	echo "ssdlab ${args[*]}" >>"$tmp/commands.txt"
	# The report's own outputs (report.html, summary.md) are made from the directory by the tests,
	# not stored with it.
	tar -C "$tmp" --exclude="$p/report.html" --exclude="$p/summary.md" --exclude="$p/report" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - "$p" |
		gzip -9n >"$dest/$p.tar.gz"
	printf '%-24s %8d bytes\n' "$p.tar.gz" "$(stat -c %s "$dest/$p.tar.gz")"
done
cp "$tmp/commands.txt" "$dest/commands.txt"
printf 'total: %d bytes\n' "$(cat "$dest"/*.tar.gz | wc -c)"
