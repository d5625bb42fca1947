#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# purge_test: what a `purge` phase does and how the results say it (issue 9, point 11).
#   - On the virtual SSD, `purge: {method: auto}` is a real purge (the model's own reset):
#     recorded with pts_purge true and no settle, and the summary does not flag it.
#   - On the virtual SSD, `method: discard` is a full-range TRIM: flagged as not a PTS purge and
#     followed by its settle idle, in virtual time.
#   - On a real block device (a loop device over a sparse file, which the test attaches and
#     detaches), `auto` can only discard today: the whole device is discarded (the device's
#     discard counters in /sys/block/loopN/stat cover its capacity), the record says method
#     "discard", pts_purge false and the settle idle that followed (default 5 s x --time-scale;
#     a `settle` key overrides it) and lasted that long; summary.json flags it in
#     flags.purge_not_pts, `ssdlab run` prints the flag, `ssdlab plan` counts the settle, the
#     manifest's plan carries the setting, and `ssdlab analyze` reproduces the summary.
# The loop part needs root; without it the test skips after the virtual SSD part.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the records"

TAG=ssdlab-purge
BASE=/var/tmp
tmp=$(mktemp -d "$BASE/$TAG.XXXXXX") || skip "cannot create a temp dir in $BASE"
echo $$ >"$tmp/pid"

# Detach the loop devices whose backing file lies under dir $1 (ours only).
release_dir() {
	local dev back
	while read -r dev back; do
		case "$back" in "$1"/*) losetup -d "$dev" 2>/dev/null ;; esac
	done < <(losetup -ln -O NAME,BACK-FILE 2>/dev/null)
}
trap 'release_dir "$tmp"; rm -rf "$tmp"' EXIT

profile() { # profile FILE PURGE-SETTINGS
	cat >"$1" <<EOF
name: purge-settle
description: a purge, then a short fill
destructive: true
phases:
  - purge: $2
  - precondition: {rw: write, bs: 1m, amount: 8MiB, queue: {threads: 1, depth: 4}}
EOF
}
profile "$tmp/auto.yaml" "{method: auto}"
profile "$tmp/discard.yaml" "{method: discard}"
profile "$tmp/settle.yaml" "{method: auto, settle: 1s}"

# purge_check DIR METHOD PTS SETTLE_NS WHAT: the purge record, the summary flag, the manifest.
# SETTLE_NS is the profile's; the run's is that times the manifest's effective time scale (the
# virtual SSD's capacity ratio included), rounded down as the runner does in double precision.
purge_check() {
	python3 - "$1" "$2" "$3" "$4" <<'EOF' || fail "$5: the purge is not recorded as expected"
import json, sys
d, method, pts, settle = sys.argv[1], sys.argv[2], sys.argv[3] == "true", int(sys.argv[4])
m = json.load(open(d + "/manifest.json"))
settle = int(settle * m["time_scale"]["effective"])
recs = [json.loads(l) for l in open(d + "/records.jsonl")]
p = [r for r in recs if r["kind"] == "purge"]
bad = []
if len(p) != 1:
    sys.exit("expected one purge record, found %d" % len(p))
p = p[0]
if p.get("method") != method:
    bad.append("method %r, expected %r" % (p.get("method"), method))
if p.get("pts_purge") is not pts:
    bad.append("pts_purge %r, expected %r" % (p.get("pts_purge"), pts))
if p.get("settle_ns", 0) != settle:
    bad.append("settle_ns %r, expected %d" % (p.get("settle_ns"), settle))
if p["end_ns"] - p["start_ns"] < settle:
    bad.append("the purge step lasted %d ns, less than its settle" % (p["end_ns"] - p["start_ns"]))
s = json.load(open(d + "/summary.json"))
flag = s["flags"].get("purge_not_pts")
want = [] if pts else [{"phase": 0, "repeat": 0, "method": method, "settle_ns": settle}]
if flag != want:
    bad.append("flags.purge_not_pts %r, expected %r" % (flag, want))
ph = m["plan"]["phases"][0]
if "settle_ns" not in json.dumps(ph):
    bad.append("the manifest's plan does not carry the purge's settle: %s" % json.dumps(ph))
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
}

# ---- the virtual SSD -------------------------------------------------------------------------
require_sim "$tmp/auto.yaml"
"$SSDLAB" run "$tmp/auto.yaml" --target sim:client-tlc --out "$tmp/sim" >"$tmp/sim.out" 2>&1 ||
	fail "run on sim: $(cat "$tmp/sim.out")"
purge_check "$tmp/sim" sim-reset true 0 "sim auto"
grep -q "PTS purge" "$tmp/sim.out" && fail "sim auto: a real purge is flagged: $(cat "$tmp/sim.out")"
check_analyze "$tmp/sim" "sim auto"

# A discard on the virtual SSD settles 5 s of the drive it stands for, in virtual time.
"$SSDLAB" run "$tmp/discard.yaml" --target sim:client-tlc --time-scale 0.5 --out "$tmp/simd" \
	>"$tmp/simd.out" 2>&1 || fail "discard run on sim: $(cat "$tmp/simd.out")"
purge_check "$tmp/simd" discard false 5000000000 "sim discard"
grep -q "^FLAG: .*not a SNIA PTS purge" "$tmp/simd.out" ||
	fail "sim discard: no flag printed: $(cat "$tmp/simd.out")"

# ---- a loop device ---------------------------------------------------------------------------
[ "$(id -u)" = 0 ] || skip "needs root to attach loop devices (virtual SSD part: $fails failures)"
command -v losetup >/dev/null || skip "no losetup"
truncate -s 64M "$tmp/disk.img"
dev=$(losetup --find --show --direct-io=on "$tmp/disk.img") || skip "cannot attach a loop device"
name=${dev#/dev/}
[ "$(cat "/sys/block/$name/queue/discard_max_bytes")" != 0 ] || skip "$dev does not discard"
discarded() { awk '{print $14}' "/sys/block/$name/stat"; } # sectors, 512 bytes each

# plan counts the settle (5 s x 0.1) on a target whose purge is a discard.
"$SSDLAB" plan "$tmp/auto.yaml" --target "$dev" --time-scale 0.1 >"$tmp/plan.out" 2>&1 ||
	fail "plan failed: $(cat "$tmp/plan.out")"
grep -Eq "^ *0 purge +- +500.00 ms .*a discard on this target" "$tmp/plan.out" ||
	fail "plan does not count the settle of a discard purge: $(cat "$tmp/plan.out")"

d0=$(discarded)
"$SSDLAB" run "$tmp/auto.yaml" --target "$dev" --yes-destroy="$dev" --time-scale 0.1 \
	--out "$tmp/loop" >"$tmp/loop.out" 2>&1 || fail "run on $dev: $(cat "$tmp/loop.out")"
d1=$(discarded)
[ $(((d1 - d0) * 512)) -ge $((64 << 20)) ] ||
	fail "the purge discarded $(((d1 - d0) * 512)) bytes of $dev, not its 64 MiB"
purge_check "$tmp/loop" discard false 5000000000 "loop auto"
grep -q "^FLAG: .*not a SNIA PTS purge" "$tmp/loop.out" ||
	fail "loop auto: no flag printed: $(cat "$tmp/loop.out")"
check_analyze "$tmp/loop" "loop auto"

# The settle is a setting: 1 s, x 0.2.
"$SSDLAB" run "$tmp/settle.yaml" --target "$dev" --yes-destroy="$dev" --time-scale 0.2 \
	--out "$tmp/loop2" >"$tmp/loop2.out" 2>&1 || fail "run on $dev: $(cat "$tmp/loop2.out")"
purge_check "$tmp/loop2" discard false 1000000000 "loop settle 1s"

[ "$fails" = 0 ] || exit 1
echo "purge: all checks passed"
