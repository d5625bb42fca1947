#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# io_noio_test (issue 9, point 3): a measurement in which no I/O completed is never reported as
# a figure. On a greedy virtual SSD without cache, a 1 MiB write takes about 12 ms, so a job
# with a 1 ms ramp and a 1 ms window has its only ramp I/O complete after the window:
#   - `io` prints no figure (no "0 IOPS"), says why on stderr and exits 1, in text and JSON,
#     while the same job with a window longer than the I/O prints figures and exits 0;
#   - `run` with such a rounds cell fails (exit 1) naming the cell and the reason; the cell's
#     record is kept with the flag no_io, a no_io_reason and null rates and latencies; `analyze`
#     lists it under flags.no_io and prints a FLAG line.
# (That the engine's clock starts after the queues are set up is checked in test_engine_file.)
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the records"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-io-noio-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

greedy_model "$tmp/greedy.yaml"
target="sim:$tmp/greedy.yaml"
job=(--rw write --bs 1m --qd 1 --ramp 1ms)

for fmt in text json; do
	extra=()
	[ "$fmt" = json ] && extra=(--json)
	"$SSDLAB" io "$target" "${job[@]}" --time 1ms "${extra[@]}" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] || fail "io ($fmt) with no I/O in its window: exit $rc, expected 1"
	[ ! -s "$tmp/out" ] || fail "io ($fmt) with no I/O printed figures: $(head -3 "$tmp/out")"
	grep -q "no I/O completed in the measured window" "$tmp/err" ||
		fail "io ($fmt) with no I/O: no reason on stderr: $(cat "$tmp/err")"
done
# The same job with a window longer than one I/O has figures.
"$SSDLAB" io "$target" "${job[@]}" --time 50ms --json >"$tmp/ok.json" 2>"$tmp/err" ||
	fail "io with a 50 ms window failed: $(cat "$tmp/err")"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["write"]["ios"] > 0' \
	"$tmp/ok.json" || fail "io with a 50 ms window: no I/O"
# io --json speaks the results files' vocabulary (issue 10): bw_bps, p99_9; not bw_bytes_per_s, p99.9.
python3 - "$tmp/ok.json" <<'EOF' || fail "io --json: not the records' names (see above)"
import json, sys
text = open(sys.argv[1]).read()
j = json.loads(text)
for k in ("bw_bytes_per_s", "p99.9", "p99.99"):
    assert '"%s"' % k not in text, k
assert j["bw_bps"] > 0 and j["write"]["bw_bps"] > 0
assert set(j["write"]["lat_ns"]) >= {"mean", "min", "p50", "p99", "p99_9", "p99_99", "max"}
assert "bw_bps" in j["series"][0]["write"]
EOF

cat >"$tmp/p.yaml" <<'EOF'
name: no-io
description: a rounds cell whose ramp outlasts its window
destructive: true
phases:
  - purge: {method: auto}
  - rounds:
      rw: write
      bs: 1m
      ramp: 1ms
      cell_time: 1ms
      count: 2
      queue: {threads: 1, depth: 1}
EOF
"$SSDLAB" run "$tmp/p.yaml" --target "$target" --out "$tmp/run" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] || fail "run with a no-I/O cell: exit $rc, expected 1"
grep -q "round=1,cell=all,kind=cell: no I/O completed in the measured window" "$tmp/err" ||
	fail "run: the message does not name the cell and the reason: $(cat "$tmp/err")"
python3 - "$tmp/run/records.jsonl" <<'EOF' || fail "run: the no-I/O record (see above)"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
cells = [r for r in recs if r["kind"] == "cell"]
if len(cells) != 1:
    sys.exit(f"expected the one failed cell recorded, got {len(cells)}")
r = cells[0]
problems = []
if "no_io" not in r["flags"]:
    problems.append(f"flags {r['flags']} lack no_io")
if "no I/O completed" not in r.get("no_io_reason", ""):
    problems.append(f"no_io_reason: {r.get('no_io_reason')!r}")
for k in ("iops", "bw_bps"):
    if r["total"][k] is not None or r["write"][k] is not None:
        problems.append(f"{k} is a figure: {r['total'][k]} / {r['write'][k]}")
if r["write"]["lat_ns"] is not None or r["total"]["ios"] != 0:
    problems.append("latency or I/O count recorded")
if problems:
    sys.exit("; ".join(problems))
EOF
"$SSDLAB" analyze "$tmp/run" >"$tmp/an.out" 2>&1 || fail "analyze of the failed run: $(cat "$tmp/an.out")"
grep -q "FLAG: 1 measurements have no figures" "$tmp/an.out" ||
	fail "analyze prints no FLAG for the no-I/O cell: $(cat "$tmp/an.out")"
python3 - "$tmp/run/summary.json" <<'EOF' || fail "summary: flags.no_io (see above)"
import json, sys
f = json.load(open(sys.argv[1]))["flags"]["no_io"]
if len(f) != 1 or f[0]["round"] != 1 or f[0]["cell"] != "all" or "no I/O" not in f[0]["reason"]:
    sys.exit(f"flags.no_io: {f}")
EOF

[ "$fails" -eq 0 ] || exit 1
echo "io_noio: all checks passed"
