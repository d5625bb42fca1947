#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# smart_wa_test (hardware suite): a user's spare SATA or NVMe drive tells ssdlab who it is and what
# its counters say, and a short profile gets a write-amplification entry. Run it with
#   SSDLAB_TEST_DEV=/dev/nvme1n1 meson test -C build --suite hardware --print-errorlogs
# (SSDLAB_HW_DEV is accepted as the older name). Parts 1 and 2 only read. Part 3 WRITES the drive
# and runs only when the user also names its serial, as --yes-destroy would want it:
#   SSDLAB_TEST_DEV=/dev/nvme1n1 SSDLAB_TEST_DESTROY=<serial> meson test -C build --suite hardware
# Checks:
#   1. `ssdlab info DEV --json`: the serial and capacity the kernel reports (sysfs, blockdev), and,
#      where smartctl is installed, the serial and model smartctl reads from the drive;
#   2. `ssdlab smart DEV --json`: a snapshot with source ata-smart or nvme-smart; where smartctl is
#      installed, its host-write counter (NVMe data units written; ATA attribute 241 raw) agrees
#      with ssdlab's within what an idle drive changes between two reads (one counter unit);
#   3. a 2-phase profile (256 MiB of 128 KiB sequential writes, a 5 s idle): every phase has a
#      snapshot, and each summary wa entry has either a WA with an interval or a reason, and a host
#      check whose counter delta matches the bytes written (or is flagged).
set -uo pipefail

SSDLAB=${SSDLAB:-build/suite/ssdlab}

skip() {
	echo "SKIP: $*"
	exit 77
}

dev=${SSDLAB_TEST_DEV:-${SSDLAB_HW_DEV:-}}
[ -n "$dev" ] || skip "SSDLAB_TEST_DEV is not set: name a spare drive (SSDLAB_TEST_DEV=/dev/sdX) to run it"
[ -b "$dev" ] || { echo "FAIL: SSDLAB_TEST_DEV=$dev is not a block device"; exit 1; }
[ "$(id -u)" = 0 ] || skip "SMART and admin commands need root"
command -v python3 >/dev/null || skip "python3 is missing (used to read the JSON)"
[ -x "$SSDLAB" ] || skip "ssdlab binary not found at $SSDLAB"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

name=$(basename "$(readlink -f "$dev")")
size=$( (command -v blockdev >/dev/null && blockdev --getsize64 "$dev") 2>/dev/null ||
	echo $(($(cat "/sys/class/block/$name/size") * 512)))
smartctl_json=
if command -v smartctl >/dev/null && smartctl -j -x "$dev" >"$tmp/smartctl.json" 2>/dev/null; then
	smartctl_json=$tmp/smartctl.json
else
	echo "note: smartctl is not installed or failed on $dev: no cross-check with a peer tool"
fi

# 1. identity
if "$SSDLAB" info "$dev" --json >"$tmp/info.json" 2>"$tmp/err"; then
	python3 - "$tmp/info.json" "$size" "$name" "${smartctl_json:-}" <<'PY' || fails=$((fails + 1))
import json, sys, os
d = json.load(open(sys.argv[1])); size = int(sys.argv[2]); name = sys.argv[3]
bad = []
if d.get("capacity") != size:
    bad.append("capacity %r, the kernel says %d" % (d.get("capacity"), size))
if sys.argv[4]:
    s = json.load(open(sys.argv[4]))
    if s.get("serial_number") and s["serial_number"].strip() != (d.get("serial") or "").strip():
        bad.append("serial %r, smartctl says %r" % (d.get("serial"), s["serial_number"]))
    mn = (s.get("model_name") or "").strip()
    if mn and mn != (d.get("model") or "").strip():
        bad.append("model %r, smartctl says %r" % (d.get("model"), mn))
for b in bad:
    print("FAIL: info:", b)
print("info: %s %s, %d bytes" % (d.get("model"), d.get("serial"), d.get("capacity") or 0))
sys.exit(1 if bad else 0)
PY
else
	fail "ssdlab info $dev --json: $(cat "$tmp/err")"
fi

# 2. counters
if "$SSDLAB" smart "$dev" --json >"$tmp/smart.json" 2>"$tmp/err"; then
	python3 - "$tmp/smart.json" "${smartctl_json:-}" <<'PY' || fails=$((fails + 1))
import json, sys
d = json.load(open(sys.argv[1])); bad = []
src = d.get("source")
if src not in ("ata-smart", "nvme-smart"):
    bad.append("source %r" % src)
raw = (d.get("raw") or {}).get("counters") or {}
if sys.argv[2]:
    s = json.load(open(sys.argv[2]))
    if src == "nvme-smart":
        peer = (s.get("nvme_smart_health_information_log") or {}).get("data_units_written")
        mine = raw.get("nvme:smart.data_units_written")
        if peer is not None and (mine is None or abs(mine - peer) > 1):
            bad.append("data units written %r, smartctl says %r" % (mine, peer))
    else:
        table = (s.get("ata_smart_attributes") or {}).get("table") or []
        peer = {a["id"]: a["raw"]["value"] for a in table}
        for k, v in raw.items():
            if k.startswith("ata:") and k[4:].isdigit() and int(k[4:]) in peer:
                if int(k[4:]) in (9, 12, 241, 242, 246, 247, 248, 249):
                    if abs(v - peer[int(k[4:])]) > 1:
                        bad.append("%s raw %r, smartctl says %r" % (k, v, peer[int(k[4:])]))
for b in bad:
    print("FAIL: smart:", b)
print("smart: source %s, %d raw counters" % (src, len(raw)))
sys.exit(1 if bad else 0)
PY
else
	rc=$?
	[ "$rc" = 4 ] && echo "note: $dev has no SMART ssdlab reads: $(cat "$tmp/err")" ||
		fail "ssdlab smart $dev --json exited $rc: $(cat "$tmp/err")"
fi

# 3. a short profile's WA, only with the drive's serial named as consent
serial=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("serial") or "")' "$tmp/info.json" 2>/dev/null)
if [ -z "${SSDLAB_TEST_DESTROY:-}" ]; then
	echo "note: part 3 (a short profile that WRITES $dev) skipped: set SSDLAB_TEST_DESTROY=$serial to run it"
elif [ "$SSDLAB_TEST_DESTROY" != "$serial" ]; then
	fail "SSDLAB_TEST_DESTROY=$SSDLAB_TEST_DESTROY is not the serial of $dev ($serial): nothing written"
else
	cat >"$tmp/short.yaml" <<'YAML'
name: hw-short
description: 256 MiB of sequential writes and a 5 s idle, for the WA entry of a real drive
destructive: true
phases:
  - precondition: {rw: write, bs: 128k, amount: 256MiB, queue: {threads: 1, depth: 8}}
  - idle: {time: 5s}
YAML
	if "$SSDLAB" run "$tmp/short.yaml" --target "$dev" --yes-destroy="$serial" --out "$tmp/res" \
		</dev/null >"$tmp/run.out" 2>&1; then
		python3 - "$tmp/res" <<'PY' || fails=$((fails + 1))
import json, sys, glob, os
runs = sorted(glob.glob(os.path.join(sys.argv[1], "*", "summary.json")))
if not runs:
    print("FAIL: run: no summary.json"); sys.exit(1)
s = json.load(open(runs[-1])); bad = []
wa = s.get("wa") or {}
for e in (wa.get("phases") or []) + ([wa["run"]] if wa.get("run") else []):
    if e.get("wa") is None and not e.get("wa_reason"):
        bad.append("a null wa without a reason: %r" % e)
    if e.get("wa") is not None and not e.get("interval"):
        bad.append("a wa without an interval: %r" % e)
    hc = e.get("host_check")
    if hc and not hc.get("match") and "host_write_mismatch" not in (s.get("flags") or {}):
        bad.append("host check mismatch not flagged: %r" % hc)
    print("wa entry phase %s: wa %r %r reason %r host check %r" % (e.get("phase"), e.get("wa"),
          e.get("interval"), e.get("wa_reason"), hc))
for b in bad:
    print("FAIL: wa:", b)
sys.exit(1 if bad else 0)
PY
	else
		fail "ssdlab run of the short profile on $dev: $(tail -5 "$tmp/run.out")"
	fi
fi
[ "$fails" -eq 0 ] || exit 1
echo "ok: $dev"
