#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# gc_passes_test: the bundled gc-passes profile (full-range sequential passes with 2-minute
# rests, the fast region per pass) end to end on the virtual SSD (idle-gc-aggressive), checked
# against the simulator's counters (gc_passes_check.py: a twin run of the same profile with each
# pass cut into 2 MiB pieces, whose snapshots show where GC takes over in each pass). Also: the
# headline has a line per pass, and `ssdlab analyze` gives the same summary again. About 6 s
# per run on the test machine; each must stay under 60 s.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the results"
python3 -c 'import yaml' 2>/dev/null || skip "python3's yaml module is needed to read the model file"

src=$(cd "$here/../.." && pwd)
model=idle-gc-aggressive
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-gcp-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
piece=$((2 * 1048576))

# the twin: the profile up to its first pass, then each of the 4 passes as 2 MiB pieces over its
# first 160 MiB (the fast regions are 60 to 150 MB) and one piece for the rest
python3 - "$src/profiles/gc-passes.yaml" "$piece" >"$tmp/twin.yaml" <<'PY' || fail "could not write the twin profile"
import sys
prof, piece = open(sys.argv[1]).read(), int(sys.argv[2])
upto, cap, q = 160 * 2**20, 4 * 2**30, "queue: {threads: 1, depth: 32}"
head = prof.split("  - write_until:")[0].replace("name: gc-passes", "name: gc-passes-twin")
out = [head.rstrip("\n")]
for k in range(4):
    if k:
        out.append("  - idle: {time: 2m}")
    for a in range(0, upto, piece):
        out.append(f"  - write_until: {{rw: write, bs: 128k, range: {a}-{a + piece}, amount: {piece}, interval: 250ms, {q}}}")
    out.append(f"  - write_until: {{rw: write, bs: 128k, range: {upto}-{cap}, amount: {cap - upto}, interval: 250ms, {q}}}")
print("\n".join(out))
PY
grep -q "^  - idle: {time: 2m}" "$tmp/twin.yaml" || fail "the twin has no rests"

for r in run twin; do
	prof=gc-passes
	[ "$r" = twin ] && prof=$tmp/twin.yaml
	t0=$(date +%s.%N)
	if ! "$SSDLAB" run "$prof" --target "sim:$model" --out "$tmp/$r" >"$tmp/$r.out" 2>&1; then
		tail -20 "$tmp/$r.out" >&2
		fail "ssdlab run $prof on sim:$model failed"
		exit 1
	fi
	t1=$(date +%s.%N)
	echo "$r: $(python3 -c "print('%.2f' % ($t1 - $t0))") s wall"
	python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 60 else 1)" || fail "$r: over 60 s"
done
grep "^GC pass" "$tmp/run.out"
n=$(grep -c "^GC pass [0-9]" "$tmp/run.out")
[ "$n" = 4 ] || fail "$n headline lines for the passes, want 4"
# each line's figures are summary.json's, in MB to 0.1 (or "no drop")
python3 - "$tmp/run/summary.json" "$tmp/run.out" <<'PY' || fail "the headline's figures are not summary.json's"
import json, re, sys
ps = json.load(open(sys.argv[1]))["gc_passes"]["passes"]
lines = [l for l in open(sys.argv[2]) if re.match(r"GC pass \d", l)]
bad = 0
for p, l in zip(ps, lines):
    if p["drop"]:
        want = "fast region %.1f MB [%.1f, %.1f]" % (p["fast_bytes"] / 1e6, p["fast_bytes_lo"] / 1e6, p["fast_bytes_hi"] / 1e6)
    else:
        want = "no drop, %.1f MB/s throughout" % p["mbps"]
    if want not in l:
        print("headline %r lacks %r" % (l.strip(), want))
        bad = 1
sys.exit(bad)
PY
python3 "$here/gc_passes_check.py" "$tmp/run" "$tmp/twin" "$src/profiles/models/$model.yaml" "$piece" ||
	fail "gc_passes against the simulator's counters"
cp "$tmp/run/summary.json" "$tmp/summary.run"
"$SSDLAB" analyze "$tmp/run" >/dev/null 2>&1 || fail "ssdlab analyze failed"
cmp -s "$tmp/summary.run" "$tmp/run/summary.json" || fail "ssdlab analyze gives another summary"
[ "$fails" -eq 0 ] || exit 1
echo "ok"
