#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# gc_recovery_test: the bundled gc-recovery profile end to end on the virtual SSD. With
# GC_MODEL=idle-gc-aggressive (the default; gc_recovery test) the reported GC recovery rate and
# Rmax are within 10% of what the simulator's counters show idle GC reclaimed (per second of idle,
# and at most); with GC_MODEL=no-idle-gc (gc_none test, gc_none_test.sh) the counters show nothing
# reclaimed and the rate is about zero. gc_recovery_check.py holds the checks and the ground truth;
# here: the run, its headline line, and `ssdlab analyze` giving the same summary again.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the results"
python3 -c 'import yaml' 2>/dev/null || skip "python3's yaml module is needed to read the model file"

model=${GC_MODEL:-idle-gc-aggressive}
mode=gc
[ "$model" = no-idle-gc ] && mode=none
src=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-gc-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

start=$(date +%s.%N)
if ! "$SSDLAB" run gc-recovery --target "sim:$model" --out "$tmp/r" >"$tmp/out" 2>&1; then
	cat "$tmp/out" >&2
	fail "ssdlab run gc-recovery on sim:$model failed"
fi
echo "run: $(echo "$(date +%s.%N) - $start" | bc) s wall"
grep "GC recovery rate" -A1 "$tmp/out"
if [ "$mode" = gc ]; then
	grep -q "^GC recovery rate: [0-9.]* +- [0-9.]* MB/s of idle (Rmax [0-9.]* GB" "$tmp/out" ||
		fail "the headline has no GC recovery rate line"
else
	grep -q "^GC recovery rate: none detected" "$tmp/out" ||
		fail "the headline does not say that no recovery was detected"
fi
python3 "$here/gc_recovery_check.py" "$tmp/r" "$src/profiles/models/$model.yaml" "$mode" ||
	fail "gc_recovery against the simulator's counters"
cp "$tmp/r/summary.json" "$tmp/summary.run"
"$SSDLAB" analyze "$tmp/r" >/dev/null 2>&1 || fail "ssdlab analyze failed"
cmp -s "$tmp/summary.run" "$tmp/r/summary.json" || fail "ssdlab analyze gives another summary"
[ "$fails" -eq 0 ] || exit 1
echo "ok"
