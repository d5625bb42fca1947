#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# guide_shot_test (issue 18 point 4): scripts/make-guide-screenshots.sh for one stored results
# directory (snia-latency) into a temporary directory makes a PNG of the report's SNIA section
# that is not blank: png_check.py decodes it with zlib and counts the distinct pixel values (a
# blank or one-colour capture has one). Skips without Chromium except under CI=true.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
: "${SSDLAB_SRCDIR:?SSDLAB_SRCDIR must point at the source tree (meson sets it)}"
command -v python3 >/dev/null || skip "python3 is needed to drive Chromium"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-guide-shot-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t0=$EPOCHREALTIME
SSDLAB="$SSDLAB" "$SSDLAB_SRCDIR/scripts/make-guide-screenshots.sh" --out "$tmp/img" snia-latency \
	>"$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
[ "$rc" = 77 ] && skip "$(head -1 "$tmp/out")"
[ "$rc" = 0 ] || fail "make-guide-screenshots.sh exited $rc"
grep -q 'snia-latency.png: section sec-snia-0$' "$tmp/out" || fail "not the SNIA block's section"
python3 "$here/png_check.py" "$tmp/img/snia-latency.png" || fail "the screenshot is not a sane, non-blank PNG"
awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "one screenshot in %.1f s\n", b - a }'
[ "$fails" = 0 ] || exit 1
echo "ok: the guide screenshot script makes a non-blank PNG of the report's section"
