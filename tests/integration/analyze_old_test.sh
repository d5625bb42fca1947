#!/bin/bash
# SPDX-License-Identifier: MIT
#
# analyze_old_test: `ssdlab analyze --check` reproduces, byte for byte, the summary.json of
# results directories written by an older build (issue 10: the analysis moved into its own
# library and must still read what earlier runs left behind). The directories are in
# tests/data/old-results/ as .tar.gz (series/ left out: analyze does not read it); README.md there
# says how each was made. Also checks that a plain `analyze` (which rewrites summary.json) leaves
# the file unchanged. Since issue 11 the summary grows by added keys (docs/results-format.md:
# the format grows only by added keys): where the old file differs, every key and value it has
# must be in the new one, in the same order (old_keys_kept), and the new file must then be
# reproduced byte for byte.
set -u

: "${SSDLAB:?SSDLAB must point to the ssdlab binary}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
data=$here/../data/old-results
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-analyze-old-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; exit 1; }

# Every key of the old summary $1 is in the new one $2 with the same value (recursively; arrays
# of the same length), and the old keys keep their order; prints the first difference.
old_keys_kept() {
	python3 - "$1" "$2" <<'PY'
import json, sys
old, new = (json.load(open(p), object_pairs_hook=lambda kv: dict(kv)) for p in sys.argv[1:3])
def kept(o, n, at):
    if isinstance(o, dict):
        if not isinstance(n, dict):
            return at + ": no longer an object"
        keys = [k for k in n if k in o]
        if keys != list(o):
            return at + ": keys " + str([k for k in o if k not in n]) + " gone or reordered"
        for k in o:
            e = kept(o[k], n[k], at + "/" + k)
            if e:
                return e
        return None
    if isinstance(o, list):
        if not isinstance(n, list) or len(n) != len(o):
            return at + ": array length changed"
        for i, (a, b) in enumerate(zip(o, n)):
            e = kept(a, b, at + "/" + str(i))
            if e:
                return e
        return None
    return None if o == n and type(o) == type(n) else at + ": %r became %r" % (o, n)
e = kept(old, new, "")
if e:
    print("old key changed at " + e)
sys.exit(1 if e else 0)
PY
}

n=0
for tgz in "$data"/*.tar.gz; do
	name=$(basename "$tgz" .tar.gz)
	tar xzf "$tgz" -C "$tmp" || fail "$name: cannot unpack"
	dir=$tmp/$name
	[ -f "$dir/summary.json" ] || fail "$name: no summary.json in the archive"
	cp "$dir/summary.json" "$tmp/$name.want"
	if ! "$SSDLAB" analyze --check --quiet "$dir" >"$tmp/out" 2>&1; then
		"$SSDLAB" analyze --quiet "$dir" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "$name: analyze"; }
		old_keys_kept "$tmp/$name.want" "$dir/summary.json" || fail "$name: an old summary key changed"
		cp "$dir/summary.json" "$tmp/$name.want"
		"$SSDLAB" analyze --check --quiet "$dir" >"$tmp/out" 2>&1 ||
			{ cat "$tmp/out"; fail "$name: analyze --check"; }
	fi
	"$SSDLAB" analyze --quiet "$dir" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "$name: analyze"; }
	cmp -s "$dir/summary.json" "$tmp/$name.want" || fail "$name: analyze rewrote summary.json differently"
	echo "ok: $name"
	n=$((n + 1))
done
[ "$n" -ge 4 ] || fail "expected at least 4 old results directories, found $n"
