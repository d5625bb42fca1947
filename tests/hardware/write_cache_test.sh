#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# write_cache_test (hardware suite): the drive settings a profile pins, on a user's spare SATA or
# NVMe drive. It CHANGES the drive's settings (never its data) and puts them back, so it runs
# only behind a second flag:
#   SSDLAB_TEST_DEV=/dev/sdX SSDLAB_TEST_DEV_CHANGE=1 meson test -C build --suite hardware
# Checks, with a non-writing profile (a 2 s idle), so no data is touched:
#   1. `write_cache` set to the opposite of what `ssdlab info` finds: the manifest reads it back
#      so, the journal has change/done/restored, and afterwards the cache is as found, read by
#      `ssdlab info` and, where installed, by a peer tool (hdparm -W for SATA, nvme get-feature
#      -f 6 for NVMe);
#   2. `power_states: off` where the drive has APST (NVMe) or its host ALPM (SATA): read back off
#      during the run, as found afterwards; a drive with neither is refused (exit 4).
set -uo pipefail

SSDLAB=${SSDLAB:-build/suite/ssdlab}

skip() {
	echo "SKIP: $*"
	exit 77
}

dev=${SSDLAB_TEST_DEV:-${SSDLAB_HW_DEV:-}}
[ -n "$dev" ] || skip "SSDLAB_TEST_DEV is not set: name a spare drive (SSDLAB_TEST_DEV=/dev/sdX) to run it"
[ "${SSDLAB_TEST_DEV_CHANGE:-}" = 1 ] ||
	skip "SSDLAB_TEST_DEV_CHANGE=1 is not set: this test changes $dev's write cache and power states (and restores them)"
[ -b "$dev" ] || { echo "FAIL: SSDLAB_TEST_DEV=$dev is not a block device"; exit 1; }
[ "$(id -u)" = 0 ] || skip "drive commands need root"
command -v python3 >/dev/null || skip "python3 is missing (used to read the JSON)"
[ -x "$SSDLAB" ] || skip "ssdlab binary not found at $SSDLAB"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# The write cache as `ssdlab info` reads it (NVMe Get Features 0x06, ATA IDENTIFY word 85).
cache_of() {
	"$SSDLAB" info "$dev" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
n = d.get("nvme_identify") or {}
a = d.get("ata") or {}
v = (n.get("volatile_write_cache") or {}).get("enabled") if n else (a.get("write_cache") or {}).get("enabled")
print({True: "on", False: "off"}.get(v, "unknown"))'
}

# A peer tool's reading, "" when none is installed.
peer_cache() {
	if [[ "$(basename "$dev")" == nvme* ]] && command -v nvme >/dev/null; then
		nvme get-feature "$dev" -f 6 2>/dev/null | grep -qi "value:0x0*1$" && echo on || echo off
	elif command -v hdparm >/dev/null; then
		hdparm -W "$dev" 2>/dev/null | grep -q "(on)" && echo on || echo off
	fi
}

found=$(cache_of)
[ "$found" = unknown ] && skip "$dev reports no volatile write cache state"
want=$([ "$found" = on ] && echo off || echo on)
echo "write cache as found: $found; the run sets it $want"
cat >"$tmp/wc.yaml" <<YAML
name: hw-wc
description: the write cache flipped for a 2 s idle
write_cache: $want
phases:
  - idle: {time: 2s}
YAML
"$SSDLAB" run "$tmp/wc.yaml" --target "$dev" --out "$tmp/wc" --quiet || fail "run with write_cache: $want: exit $?"
python3 - "$tmp/wc" "$found" "$want" <<'PY' || fail "manifest or journal"
import json, sys
d, found, want = sys.argv[1], sys.argv[2] == "on", sys.argv[3] == "on"
wc = json.load(open(d + "/manifest.json"))["drive_settings"]["write_cache"]
if (wc["as_found"], wc["readback"]) != (found, want):
    sys.exit("manifest write_cache %r" % wc)
ops = [(l["op"], l["id"], l.get("ok")) for l in map(json.loads, open(d + "/journal.jsonl"))]
if ops != [("change", "wc-1", None), ("done", "wc-1", True), ("restored", "wc-1", True)]:
    sys.exit("journal %r" % ops)
PY
after=$(cache_of)
[ "$after" = "$found" ] || fail "write cache after the run: $after, as found: $found"
peer=$(peer_cache)
[ -z "$peer" ] || [ "$peer" = "$found" ] || fail "a peer tool reads the write cache $peer, as found: $found"

cat >"$tmp/ps.yaml" <<'YAML'
name: hw-ps
description: power states off for a 2 s idle
power_states: off
phases:
  - idle: {time: 2s}
YAML
"$SSDLAB" run "$tmp/ps.yaml" --target "$dev" --out "$tmp/ps" --quiet 2>"$tmp/ps.err"
rc=$?
if [ "$rc" = 4 ]; then
	echo "power_states: refused (no APST or ALPM): $(cat "$tmp/ps.err")"
elif [ "$rc" != 0 ]; then
	fail "run with power_states: off: exit $rc: $(cat "$tmp/ps.err")"
else
	python3 - "$tmp/ps" <<'PY' || fail "power_states manifest or journal"
import json, sys
d = sys.argv[1]
ps = json.load(open(d + "/manifest.json"))["drive_settings"]["power_states"]
rb = ps["readback"]
if rb.get("apst") not in (None, False) or rb.get("alpm") not in (None, "max_performance"):
    sys.exit("power_states read back %r" % ps)
try:
    lines = list(map(json.loads, open(d + "/journal.jsonl")))
except FileNotFoundError:
    lines = []  # already off as found: nothing to change
if lines and lines[-1]["op"] != "restored":
    sys.exit("journal %r" % lines)
PY
fi
[ "$fails" = 0 ] || exit 1
echo "PASS"
