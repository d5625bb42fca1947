#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make-guide-screenshots.sh [--out DIR] [--build BUILDDIR] [PROFILE...]
#
# The screenshots of the profile guides (docs/profiles/<name>.md, issue 18 point 4): for each
# stored results directory tests/data/reports/<name>.tar.gz (all of them, or the PROFILEs named)
# it extracts the directory to a temporary one, runs `ssdlab report` on it and saves the
# profile's main report section as DIR/<name>.png (default docs/profiles/img) with
# tests/integration/guide_shot.py (headless Chromium, fixed width, device scale 1).
# The input is the stored fixture, so a rerun gives the same pictures; rerun it when the
# fixtures or the report's look change, and commit the PNGs.
# Exit: 0 all written, 1 one failed, 2 usage, 77 no Chromium (guide_shot.py's).
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$src/docs/profiles/img"
build="$src/build"
profiles=()
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=${2:?--out needs a directory}; shift 2 ;;
	--build) build=${2:?--build needs a directory}; shift 2 ;;
	-h | --help) sed -n '4,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "unknown option $1" >&2; exit 2 ;;
	*) profiles+=("$1"); shift ;;
	esac
done
ssdlab=${SSDLAB:-$build/suite/ssdlab}
[ -x "$ssdlab" ] || { echo "no ssdlab at $ssdlab (ninja -C BUILDDIR first, or set SSDLAB)" >&2; exit 2; }
if [ ${#profiles[@]} = 0 ]; then
	for f in "$src"/tests/data/reports/*.tar.gz; do profiles+=("$(basename "$f" .tar.gz)"); done
fi
mkdir -p "$out" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-guide-shots-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
rc=0
for p in "${profiles[@]}"; do
	f="$src/tests/data/reports/$p.tar.gz"
	[ -f "$f" ] || { echo "$p: no stored results $f" >&2; rc=1; continue; }
	tar -xzf "$f" -C "$tmp" || { echo "$p: $f does not extract" >&2; rc=1; continue; }
	"$ssdlab" report -q "$tmp/$p" >/dev/null || { echo "$p: ssdlab report failed" >&2; rc=1; continue; }
	python3 "$src/tests/integration/guide_shot.py" "$out/$p.png" "$tmp/$p/report.html"
	r=$?
	[ "$r" = 77 ] && exit 77
	[ "$r" = 0 ] || rc=1
done
exit $rc
