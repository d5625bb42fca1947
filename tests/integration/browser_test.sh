#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# browser_test (issue 17): the headless-Chromium checker (browser_check.py) against the fixture
# pages in tests/data/browser/, so that the check is known to bite before it is trusted with
# report.html (report_browser_test.sh):
#   - clean.html (inline style, SVG, script and a data: image) passes, and its screenshot is a
#     PNG of the browser window's width;
#   - each other fixture fails, for its own reason: an external <script src="https://...">, a
#     console.error, an uncaught exception, a protocol-relative stylesheet (//host, another
#     file:// URL from a file), an image beside the page (another file:// path) and a script's
#     fetch() over http whose failure the script swallows (only the request check sees it);
#   - with --no-js, the scripts do not run and the requests are still checked.
# Without Chromium it skips (77), except in CI (CI=true), where the checker fails instead.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${SSDLAB_SRCDIR:?SSDLAB_SRCDIR must point at the source tree (meson sets it)}"
command -v python3 >/dev/null || {
	echo "SKIP: python3 is needed to drive Chromium"
	exit 77
}
fixtures="$SSDLAB_SRCDIR/tests/data/browser"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-browser-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# fixture name, then the text its FAIL line must hold (empty: it must pass)
expect=(
	"clean|"
	"external_script|request leaves the file: https://cdn.example.com/plot.min.js"
	"console_error|console.error: fixture: plot data missing"
	"exception|uncaught exception: ReferenceError: undefinedPlotFunction"
	"protocol_relative|request leaves the file: file://fonts.example.com/"
	"sibling_file|request leaves the file: file://$fixtures/clean.html"
	"fetch_http|request leaves the file: http://192.0.2.1/data.json"
)
files=()
for e in "${expect[@]}"; do files+=("$fixtures/${e%%|*}.html"); done

start=$EPOCHREALTIME
python3 "$here/browser_check.py" --screenshots "$tmp/shots" "${files[@]}" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out"
[ "$rc" = 77 ] && exit 77
[ -s "$tmp/err" ] && sed 's/^/  checker: /' "$tmp/err" >&2
if ! grep -q '^PASS \|^FAIL ' "$tmp/out"; then
	# No verdict at all: no Chromium under CI=true, or the browser broke; the reason is above.
	echo "FAIL: the checker judged no page (exit $rc)" >&2
	exit 1
fi
[ "$rc" = 1 ] || fail "the checker exited $rc (1 expected: some fixtures must fail)"

for e in "${expect[@]}"; do
	name=${e%%|*} want=${e#*|} f="$fixtures/${e%%|*}.html"
	line=$(grep -F -e "PASS $f" -e "FAIL $f:" "$tmp/out")
	if [ -z "$want" ]; then
		[ "$line" = "PASS $f" ] || fail "$name: should pass, got: ${line:-nothing}"
	else
		case "$line" in
		"FAIL $f:"*"$want"*) ;;
		*) fail "$name: should fail with \"$want\", got: ${line:-nothing}" ;;
		esac
	fi
	# Every page gets its screenshot, failing or not: a PNG whose IHDR gives the page's size.
	python3 - "$tmp/shots/$name.png" <<'PY' || fail "$name: no valid screenshot"
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert w == 1280 and h > 0, "screenshot is %dx%d, not 1280 wide" % (w, h)
PY
done

# --no-js: the scripts of exception.html and console_error.html do not run (so they pass: the
# switch really turns JavaScript off), and protocol_relative.html's stylesheet still fails.
python3 "$here/browser_check.py" --no-js "$fixtures/exception.html" "$fixtures/console_error.html" \
	"$fixtures/protocol_relative.html" >"$tmp/nojs" 2>&1
echo "--- with --no-js"
cat "$tmp/nojs"
grep -qxF "PASS $fixtures/exception.html" "$tmp/nojs" || fail "--no-js: exception.html's script ran"
grep -qxF "PASS $fixtures/console_error.html" "$tmp/nojs" || fail "--no-js: console_error.html's script ran"
grep -qF "FAIL $fixtures/protocol_relative.html: request leaves the file" "$tmp/nojs" ||
	fail "--no-js: protocol_relative.html's request was not caught"
end=$EPOCHREALTIME

printf 'wall time of the checker over %d fixtures, then 3 without JavaScript: %.1f s\n' "${#files[@]}" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
[ "$fails" = 0 ] || exit 1
echo "ok: the checker passes the clean page and fails each broken one for its reason"
