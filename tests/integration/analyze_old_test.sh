#!/bin/bash
# SPDX-License-Identifier: MIT
#
# analyze_old_test: `ssdlab analyze --check` reproduces, byte for byte, the summary.json of
# results directories written by an older build (issue 10: the analysis moved into its own
# library and must still read what earlier runs left behind). The directories are in
# tests/data/old-results/ as .tar.gz (series/ left out: analyze does not read it); README.md there
# says how each was made. Also checks that a plain `analyze` (which rewrites summary.json) leaves
# the file unchanged.
set -u

: "${SSDLAB:?SSDLAB must point to the ssdlab binary}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
data=$here/../data/old-results
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-analyze-old-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; exit 1; }

n=0
for tgz in "$data"/*.tar.gz; do
	name=$(basename "$tgz" .tar.gz)
	tar xzf "$tgz" -C "$tmp" || fail "$name: cannot unpack"
	dir=$tmp/$name
	[ -f "$dir/summary.json" ] || fail "$name: no summary.json in the archive"
	cp "$dir/summary.json" "$tmp/$name.want"
	"$SSDLAB" analyze --check --quiet "$dir" >"$tmp/out" 2>&1 ||
		{ cat "$tmp/out"; fail "$name: analyze --check"; }
	"$SSDLAB" analyze --quiet "$dir" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "$name: analyze"; }
	cmp -s "$dir/summary.json" "$tmp/$name.want" || fail "$name: analyze rewrote summary.json differently"
	echo "ok: $name"
	n=$((n + 1))
done
[ "$n" -ge 4 ] || fail "expected at least 4 old results directories, found $n"
