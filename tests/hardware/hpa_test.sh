#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# hpa_test (hardware suite): `ssdlab hpa` on a real SATA drive the user names, reading only. Run
#   SSDLAB_HW_DEV=/dev/sdX meson test -C build --suite hardware --print-errorlogs
# Checks, against independent sources: the current and native max from `hdparm -N` ("max sectors
# = CURRENT/NATIVE", hdparm's own READ NATIVE MAX / GET NATIVE MAX) equal ssdlab's
# current_max_lba + 1 and native_max_lba + 1; the current max x the logical sector size equals the
# kernel's size (blockdev --getsize64) unless an HPA was set after the kernel sized the disk;
# hidden_bytes = (native - current) x sector. `--set 50% --dry-run` exits 0 (and prints a SET MAX
# / SET ACCESSIBLE MAX CDB) or refuses with exit 3 or 4, and the state read afterwards is the
# same. A drive that is not SATA skips. The capacity is changed only with SSDLAB_TEST_DEV_CHANGE=1
# as well (a spare drive whose data may be hidden for a moment, never written): a volatile
# `--set 90% --journal DIR`, the max read back by hdparm -N (else ssdlab --json) equal to
# floor(native sectors x 0.9) - 1, then `ssdlab restore DIR` and the max back where it was, the
# journal's entry restored.
set -uo pipefail

SSDLAB=${SSDLAB:-build/suite/ssdlab}

skip() {
	echo "SKIP: $*"
	exit 77
}

dev=${SSDLAB_HW_DEV:-}
[ -n "$dev" ] || skip "SSDLAB_HW_DEV is not set: name a spare SATA drive (SSDLAB_HW_DEV=/dev/sdX) to run it"
[ -b "$dev" ] || { echo "FAIL: SSDLAB_HW_DEV=$dev is not a block device"; exit 1; }
[ -r "$dev" ] || skip "no read permission on $dev (run as root)"
command -v python3 >/dev/null || skip "python3 is missing (used to read the JSON)"
[ -x "$SSDLAB" ] || skip "ssdlab binary not found at $SSDLAB"
tmp=$(mktemp -d)
trap '[ -e "$tmp/keep" ] || rm -rf "$tmp"' EXIT

"$SSDLAB" hpa "$dev" --json >"$tmp/before.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 4 ] && skip "$(cat "$tmp/err") (not a SATA drive with a native max)"
[ $rc -eq 0 ] || { echo "FAIL: ssdlab hpa $dev exited $rc: $(cat "$tmp/err")"; exit 1; }
size=$(blockdev --getsize64 "$dev" 2>/dev/null || echo 0)
hd=""
command -v hdparm >/dev/null && hd=$(hdparm -N "$dev" 2>/dev/null | sed -n 's/.*max sectors *= *\([0-9]*\)\/\([0-9]*\).*/\1 \2/p')
"$SSDLAB" hpa "$dev" --set 50% --dry-run >"$tmp/dry.txt" 2>"$tmp/dry.err"
dry=$?
"$SSDLAB" hpa "$dev" --json >"$tmp/after.json" 2>>"$tmp/err" || { echo "FAIL: second read"; exit 1; }
python3 - "$tmp" "$size" "$hd" "$dry" <<'PY'
import json, sys
tmp, size, hd, dry = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), int(sys.argv[4])
st = json.load(open(tmp + "/before.json"))
bad = 0
sec, cur, nat = st["logical_sector"], st["current_max_lba"], st["native_max_lba"]
print("ssdlab: method %s current %d native %d hidden %d dco %r security %r" %
      (st["method"], cur, nat, st["hidden_bytes"], st["dco"], st["security"]))
if st["hidden_bytes"] != (nat - cur) * sec or nat < cur:
    print("FAIL: hidden_bytes %d, (native - current) x %d = %d" % (st["hidden_bytes"], sec, (nat - cur) * sec)); bad += 1
if size and (cur + 1) * sec != size:
    print("note: the kernel's size %d differs from the drive's %d (an HPA set after boot?)" % (size, (cur + 1) * sec))
if len(hd) == 2:
    print("hdparm -N: %s/%s" % tuple(hd))
    if (int(hd[0]), int(hd[1])) != (cur + 1, nat + 1):
        print("FAIL: hdparm says %s/%s sectors, ssdlab %d/%d" % (hd[0], hd[1], cur + 1, nat + 1)); bad += 1
else:
    print("hdparm -N not available: current/native not checked against it")
dry_out = open(tmp + "/dry.txt").read()
if dry == 0:
    if "CDB 85 07 20" not in dry_out or ("command 0x37" not in dry_out and "command 0x78" not in dry_out):
        print("FAIL: --set --dry-run printed %r" % dry_out); bad += 1
elif dry not in (3, 4):
    print("FAIL: --set --dry-run exited %d: %s" % (dry, open(tmp + "/dry.err").read())); bad += 1
else:
    print("--set refused: %s" % open(tmp + "/dry.err").read().strip())
if json.load(open(tmp + "/after.json")) != st:
    print("FAIL: the state changed across a dry run"); bad += 1
sys.exit(1 if bad else 0)
PY
rc=$?
[ $rc -eq 0 ] || exit $rc
if [ "${SSDLAB_TEST_DEV_CHANGE:-}" != 1 ]; then
	echo "capacity not changed: SSDLAB_TEST_DEV_CHANGE=1 is not set (the set/restore checks need it)"
	exit 0
fi
[ $dry -eq 0 ] || { echo "capacity not changed: ssdlab refuses to change it on $dev (above)"; exit 0; }
# the max LBA as an independent reader says it: hdparm -N's current sectors - 1, else ssdlab's
cur_max() {
	local h
	if command -v hdparm >/dev/null; then
		h=$(hdparm -N "$dev" 2>/dev/null | sed -n 's/.*max sectors *= *\([0-9]*\)\/.*/\1/p')
		[ -n "$h" ] && { echo $((h - 1)); return; }
	fi
	"$SSDLAB" hpa "$dev" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["current_max_lba"])'
}
read -r cur0 nat <<<"$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(s["current_max_lba"], s["native_max_lba"])' "$tmp/before.json")"
want=$(( (nat + 1) * 9 / 10 - 1 ))
"$SSDLAB" hpa "$dev" --set 90% --journal "$tmp/j" >"$tmp/set.txt" 2>&1
set_rc=$?
cat "$tmp/set.txt"
got=$(cur_max)
"$SSDLAB" restore "$tmp/j" >"$tmp/restore.txt" 2>&1
restore_rc=$?
cat "$tmp/restore.txt"
back=$(cur_max)
bad=0
[ $set_rc -eq 0 ] || { echo "FAIL: --set 90% exited $set_rc"; bad=1; }
[ "$got" = "$want" ] || { echo "FAIL: after --set 90% the max LBA is $got, want floor($((nat + 1)) x 0.9) - 1 = $want"; bad=1; }
[ $restore_rc -eq 0 ] || { echo "FAIL: restore exited $restore_rc (the drive may still carry the HPA: ssdlab restore $tmp/j, kept)"; touch "$tmp/keep"; bad=1; }
[ "$back" = "$cur0" ] || { echo "FAIL: after restore the max LBA is $back, it was $cur0"; bad=1; }
grep -q '"op":"restored","id":"hpa-1","ok":true' "$tmp/j/journal.jsonl" || { echo "FAIL: the journal has no restored hpa-1"; bad=1; }
[ $bad -eq 0 ] && echo "set 90% (max LBA $got) and restored (max LBA $back)"
exit $bad
