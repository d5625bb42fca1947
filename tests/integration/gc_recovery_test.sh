#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# gc_recovery_test: the bundled gc-recovery profile end to end on the virtual SSD. With
# GC_MODEL=idle-gc-aggressive (the default; gc_recovery test) the reported GC recovery rate and
# Rmax are within 10% of what the simulator's counters show idle GC reclaimed (per second of idle,
# and at most); with GC_MODEL=idle-gc-off (gc_none test, gc_none_test.sh), the same model file with
# idle_gc.enabled false, the counters show nothing reclaimed and the rate is about zero (its 8 MiB
# write buffer, emptied while idle, is told apart as a cache refill). Why not
# the bundled no-idle-gc: its sweep takes 24 to 60 s of wall time on a shared machine (a slower
# drive to simulate), too near the minute an end-to-end test may take. gc_recovery_check.py holds the checks and the ground truth;
# here: the run, its headline line, and `ssdlab analyze` giving the same summary again.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the results"
python3 -c 'import yaml' 2>/dev/null || skip "python3's yaml module is needed to read the model file"

model=${GC_MODEL:-idle-gc-aggressive}
src=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-gc-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mode=gc
model_file=$src/profiles/models/$model.yaml
if [ "$model" = idle-gc-off ]; then
	mode=none
	model_file=$tmp/idle-gc-off.yaml
	sed -e 's/^name: idle-gc-aggressive/name: idle-gc-off/' \
	    -e '/^idle_gc:/,/^[a-z]/s/enabled: true/enabled: false/' \
	    "$src/profiles/models/idle-gc-aggressive.yaml" >"$model_file"
	grep -A1 "^idle_gc:" "$model_file" | grep -q "enabled: false" || fail "could not switch idle GC off"
fi

# GC_SET: one --set for the profile (gc_none_test.sh shortens the writes after the idles)
set_args=()
[ -n "${GC_SET:-}" ] && set_args=(--set "$GC_SET")
start=$(date +%s.%N)
if ! "$SSDLAB" run gc-recovery "${set_args[@]}" --target "sim:$([ "$mode" = none ] && echo "$model_file" || echo "$model")" --out "$tmp/r" >"$tmp/out" 2>&1; then
	cat "$tmp/out" >&2
	fail "ssdlab run gc-recovery on sim:$model failed"
fi
echo "run: $(echo "$(date +%s.%N) - $start" | bc) s wall"
grep "GC recovery rate" -A1 "$tmp/out"
if [ "$mode" = gc ]; then
	grep -q "^GC recovery rate: [0-9.]* +- [0-9.]* MB/s of idle (Rmax [0-9.]* GB" "$tmp/out" ||
		fail "the headline has no GC recovery rate line"
else
	grep -Eq "^GC recovery rate: none (detected|beyond a cache refill)" "$tmp/out" ||
		fail "the headline does not say that no recovery was detected"
fi
python3 "$here/gc_recovery_check.py" "$tmp/r" "$model_file" "$mode" ||
	fail "gc_recovery against the simulator's counters"
cp "$tmp/r/summary.json" "$tmp/summary.run"
"$SSDLAB" analyze "$tmp/r" >/dev/null 2>&1 || fail "ssdlab analyze failed"
cmp -s "$tmp/summary.run" "$tmp/r/summary.json" || fail "ssdlab analyze gives another summary"
[ "$fails" -eq 0 ] || exit 1
echo "ok"
