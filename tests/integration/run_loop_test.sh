#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run_loop_test: `ssdlab run` end to end on a real block device: a loop device (direct I/O) over
# a sparse file in a temp dir on a real disk, confirmed with --yes-destroy=<path> (a loop device
# reports no serial). The bundled smoke profile (fill, 3 rounds of a 3x2 matrix, idle, trim)
# runs with --time-scale and a --set override; then:
#   - without --yes-destroy the same run is refused with exit 3 before anything is written;
#   - `ssdlab plan` writes nothing (the device's write counter does not move);
#   - the records hold one record per step in order (the fill in 4 chunks of 16 MiB, --chunk),
#     the --set round count is obeyed;
#   - the bytes the records say were written equal what /sys/block/loopN/stat saw;
#   - every phase boundary has a snapshot; `ssdlab analyze` reproduces summary.json byte for byte;
#   - a run killed with SIGKILL resumes on the device to the same records; a resume on another
#     device, or without the confirmation, is refused with exit 3.
# The loop device is detached on exit (trap), and leftovers of a killed earlier run are found by
# their backing file path and detached first. It never touches a device it did not attach.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"

TAG=ssdlab-run-loop
[ "$(id -u)" = 0 ] || skip "needs root to attach loop devices"
command -v losetup >/dev/null || skip "no losetup"
command -v python3 >/dev/null || skip "python3 is needed to read the records"

loop_scratch "$TAG" 64M
[ "$(cat "/sys/block/$name/loop/dio" 2>/dev/null)" = 1 ] ||
	skip "$dev fell back to buffered I/O (backing file system without O_DIRECT)"

sectors_written() { awk '{print $7}' "/sys/block/$name/stat"; }

# No confirmation: refused with exit 3, nothing written.
w0=$(sectors_written)
"$SSDLAB" run smoke --target "$dev" --out "$tmp/refused" --quiet </dev/null >"$tmp/refused.out" 2>&1
rc=$?
[ "$rc" = 3 ] || fail "run without --yes-destroy: exit $rc, expected 3"
[ "$(sectors_written)" = "$w0" ] || fail "run without --yes-destroy wrote to $dev"

# plan writes nothing, and its time-bound durations follow the scale and the --set: 2 rounds x
# 6 cells x 1 s x 0.25 = 3 s, plus each cell's drain at the stated 100 MB/s (8 in flight:
# 8 x 4 KiB = 327.68 us, 8 x 64 KiB = 5.24288 ms; 3 mixes x 2 rounds x their sum = 33.42 ms):
# 3.03 s; idle 2 s x 0.25 = 500 ms; the fill of 64 MiB at 100 MB/s = 671 ms.
"$SSDLAB" plan smoke --target "$dev" --time-scale 0.25 --set phases.1.rounds.count=2 \
	>"$tmp/plan.out" 2>&1 || fail "plan failed: $(cat "$tmp/plan.out")"
grep -q "conservative default" "$tmp/plan.out" || fail "plan does not state its speed assumption"
grep -Eq "^ *1 rounds +time-bound +3.03 s " "$tmp/plan.out" || fail "plan: rounds not 3.03 s"
grep -Eq "^ *2 idle +- +500.00 ms " "$tmp/plan.out" || fail "plan: idle not 500.00 ms"
grep -Eq "^ *0 precondition +64 MiB +671.09 ms " "$tmp/plan.out" || fail "plan: fill not 671.09 ms"
[ "$(sectors_written)" = "$w0" ] || fail "plan wrote to $dev"

# The run.
out=$tmp/run
"$SSDLAB" run smoke --target "$dev" --yes-destroy="$dev" --out "$out" --time-scale 0.25 \
	--set phases.1.rounds.count=2 --chunk 16m --quiet >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
if [ "$rc" != 0 ]; then
	fail "run on $dev: exit $rc"
	sed 's/^/  /' "$tmp/run.err" >&2
	exit 1
fi
w1=$(sectors_written)
# --quiet prints nothing but errors (issue 9): the results are where --out says.
[ -s "$tmp/run.out" ] && fail "run --quiet printed: $(head -c 300 "$tmp/run.out")"
[ -f "$out/summary.json" ] || fail "no summary.json in $out"

expected="0 0 1 - precondition
0 0 2 - precondition
0 0 3 - precondition
0 0 4 - precondition
1 0 1 rwmix_read=100,bs=4k cell
1 0 1 rwmix_read=100,bs=64k cell
1 0 1 rwmix_read=50,bs=4k cell
1 0 1 rwmix_read=50,bs=64k cell
1 0 1 rwmix_read=0,bs=4k cell
1 0 1 rwmix_read=0,bs=64k cell
1 0 2 rwmix_read=100,bs=4k cell
1 0 2 rwmix_read=100,bs=64k cell
1 0 2 rwmix_read=50,bs=4k cell
1 0 2 rwmix_read=50,bs=64k cell
1 0 2 rwmix_read=0,bs=4k cell
1 0 2 rwmix_read=0,bs=64k cell
2 0 0 - idle
3 0 0 - trim"
[ "$(keys "$out")" = "$expected" ] || {
	fail "records differ from the expected walk:"
	diff <(echo "$expected") <(keys "$out") >&2
}

# What the records say was written is what the device saw.
recorded=$(python3 - "$out/records.jsonl" <<'EOF'
import json, sys
print(sum(json.loads(l).get("bytes_written_total", 0) for l in open(sys.argv[1])))
EOF
)
[ "$recorded" = $(((w1 - w0) * 512)) ] ||
	fail "records say $recorded bytes written, $dev saw $(((w1 - w0) * 512))"

# Idle lasted its scaled time in the device's clock (2 s x 0.25), within scheduling slack.
python3 - "$out/records.jsonl" <<'EOF' || fail "the idle record does not span 0.5 s of target time"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
idle = [x for x in r if x["kind"] == "idle"][0]
d = idle["end_ns"] - idle["start_ns"]
sys.exit(0 if 0.5e9 <= d < 1.5e9 else 1)
EOF

# Snapshots: run start and end plus start and end of each of the 4 phases.
n=$(ls "$out/snapshots" | wc -l)
[ "$n" = 10 ] || fail "expected 10 snapshots, found $n"
grep -q '"effective": 0.25' "$out/manifest.json" || fail "the manifest lacks the effective time scale"
grep -q "phases.1.rounds.count=2" "$out/manifest.json" || fail "the manifest lacks the --set value"

check_analyze "$out" "loop"

# Resume on the device: killed in the middle of round 2 (the 12th recorded step: 4 chunks of the
# fill, 6 cells of round 1, then round 2), resumed with the confirmation again.
# The record keys end up those of the run above. Resuming on another device (a second loop
# device of another size, named with --target) is refused with exit 3 before anything is done.
out2=$tmp/killed
rc=$(SSDLAB_DEBUG_FAULT=cell:12 "$SSDLAB" run smoke --target "$dev" --yes-destroy="$dev" \
	--out "$out2" --time-scale 0.25 --set phases.1.rounds.count=2 --chunk 16m --quiet >/dev/null \
	2>"$tmp/killed.err"
echo $?)
[ "$rc" = 137 ] || fail "the killed run: exit $rc, expected 137"
truncate -s 32M "$tmp/other.img"
other=$(losetup --find --show --direct-io=on "$tmp/other.img") || fail "cannot attach a second loop device"
if [ -n "$other" ]; then
	wo=$(awk '{print $7}' "/sys/block/${other#/dev/}/stat")
	"$SSDLAB" resume "$out2" --target "$other" --yes-destroy="$other" --quiet \
		>/dev/null 2>"$tmp/other.err"
	rc=$?
	[ "$rc" = 3 ] || fail "resume on another device: exit $rc, expected 3"
	grep -q "not the device of this run\|capacity" "$tmp/other.err" ||
		fail "resume on another device does not say why: $(cat "$tmp/other.err")"
	[ "$(awk '{print $7}' "/sys/block/${other#/dev/}/stat")" = "$wo" ] ||
		fail "the refused resume wrote to $other"
fi
"$SSDLAB" resume "$out2" </dev/null >/dev/null 2>"$tmp/noconfirm.err"
rc=$?
[ "$rc" = 3 ] || fail "resume without --yes-destroy: exit $rc, expected 3"
"$SSDLAB" resume "$out2" --yes-destroy="$dev" --quiet >/dev/null 2>"$tmp/resume.err" ||
	fail "resume on $dev failed: $(cat "$tmp/resume.err")"
[ "$(keys "$out" | sort)" = "$(keys "$out2" | sort)" ] ||
	fail "the resumed run's records differ from the uninterrupted run's"
grep -q '"resume-1"' "$out2/records.jsonl" || fail "no resume record after the resume on $dev"

[ "$fails" = 0 ] || exit 1
echo "ok: smoke profile on $dev, $recorded bytes written and accounted for"
