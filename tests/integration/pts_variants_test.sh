#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# pts_variants_test (issue 15 point 2): each SNIA PTS Client profile (snia-*-client, made from
# its Enterprise profile by `extends:` + `set: {pts.variant: client}`) runs to completion beside
# its Enterprise one on a small virtual SSD, and pts_variants_check.py compares the two
# manifests: the Client plan is the Enterprise plan with exactly the PTS-C changes (write cache,
# TC x QD, ActiveRange, the throughput block sizes) applied by the checker's own hand-written
# rules, the manifests' "pts" objects hold the settings, the write cache as the virtual SSD's
# snapshots read it, and the sim's mapped bytes stay inside the ActiveRange. Then snia-wsat-client
# with an ActiveRange Amount: the mapped bytes stay inside the Amount. Last, on a file (no write
# cache to set) a pts profile runs with the cache as found and says why, while an explicit
# `write_cache: off` is refused.
#
# The model: client-tlc shrunk to 1 GiB, as headline_test.sh does; a run refused for cells
# shorter than their drain is rerun at the --time-scale the refusal suggests.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the manifests"
: "${SSDLAB_SRCDIR:?SSDLAB_SRCDIR must point at the source tree (meson sets it)}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-pts-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

small_client_tlc "$SSDLAB_SRCDIR" "$tmp/small.yaml"

# run NAME OUT [ARGS...]: runs profile NAME into $tmp/OUT, at the suggested scale if refused.
run() {
	local p=$1 out=$2 scale start
	shift 2
	start=$(date +%s.%N)
	if ! "$SSDLAB" run "$p" --target "sim:$tmp/small.yaml" --out "$tmp/$out" "$@" \
		>"$tmp/$out.run" 2>"$tmp/$out.err"; then
		scale=$(sed -n 's/.*refused: .*run with --time-scale \([0-9.e+]*\) or more.*/\1/p' "$tmp/$out.err")
		if [ -z "$scale" ]; then
			fail "$p: run failed"
			sed 's/^/  /' "$tmp/$out.err" >&2
			return 1
		fi
		rm -rf "${tmp:?}/$out"
		if ! "$SSDLAB" run "$p" --target "sim:$tmp/small.yaml" --out "$tmp/$out" \
			--time-scale "$scale" "$@" >"$tmp/$out.run" 2>"$tmp/$out.err"; then
			fail "$p: run failed at the suggested --time-scale $scale"
			sed 's/^/  /' "$tmp/$out.err" >&2
			return 1
		fi
	fi
	echo "$p${*:+ $*}: ran in $(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo '?') s${scale:+ (rerun at --time-scale $scale)}"
}

# `ssdlab profiles` and `ssdlab check` show the Client variants.
for t in iops throughput latency wsat; do
	"$SSDLAB" profiles | grep -q "^ *snia-$t-client " || fail "ssdlab profiles does not list snia-$t-client"
	"$SSDLAB" check "snia-$t-client" >"$tmp/check-$t" 2>&1 || {
		fail "ssdlab check snia-$t-client failed"
		cat "$tmp/check-$t" >&2
	}
	grep -q "over 0%-75%" "$tmp/check-$t" || fail "check snia-$t-client: no 75% ActiveRange in its summary"
done

for t in iops throughput latency wsat; do
	run "snia-$t" "e-$t" && run "snia-$t-client" "c-$t" &&
		{ python3 "$here/pts_variants_check.py" "$t" "$tmp/e-$t" "$tmp/c-$t" ||
			fail "snia-$t-client against snia-$t (see above)"; }
done

# ActiveRange Amount end to end: WSAT has no preconditioning, so every byte the sim maps was
# written at a random offset inside the 64 segments of 1 MiB (64 MiB of the 1 GiB drive).
run snia-wsat-client amount --set pts.active_range_amount=64m --set pts.segments=64 &&
	{ python3 "$here/pts_variants_check.py" amount "$tmp/amount" ||
		fail "snia-wsat-client with an ActiveRange Amount (see above)"; }

# A file cannot have its write cache set: the variant's request is left as found, with the reason
# in the manifest (SNIA: "where the target allows it"), while an explicit write_cache: refuses.
printf 'name: soft\npts: {test: latency, spec: x}\nphases: [{idle: {time: 100ms}}]\n' >"$tmp/soft.yaml"
printf 'name: hard\nwrite_cache: off\nphases: [{idle: {time: 100ms}}]\n' >"$tmp/hard.yaml"
truncate -s 64M "$tmp/f.img"
if "$SSDLAB" run "$tmp/soft.yaml" --target "$tmp/f.img" --out "$tmp/soft" >/dev/null 2>"$tmp/soft.err"; then
	python3 - "$tmp/soft/manifest.json" <<'PY' || fail "soft: the manifest's pts.write_cache"
import json, sys
wc = json.load(open(sys.argv[1]))["pts"]["write_cache"]
ok = wc["requested"] == "off" and wc["read_back"] is None and "cannot set" in (wc["note"] or "")
print("file target: pts.write_cache", wc)
sys.exit(0 if ok else 1)
PY
else
	fail "a pts profile on a file did not run"
	cat "$tmp/soft.err" >&2
fi
"$SSDLAB" run "$tmp/hard.yaml" --target "$tmp/f.img" --out "$tmp/hard" >/dev/null 2>&1 &&
	fail "write_cache: off on a file ran"

[ "$fails" = 0 ] || exit 1
echo "ok: the Client variants differ from the Enterprise profiles exactly in the PTS-C settings"
