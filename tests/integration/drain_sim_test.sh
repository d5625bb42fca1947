#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# drain_sim_test: cells shorter than their own drain (issue 9, point 2) on the virtual SSD.
#   - a --time-scale that makes a 1 MiB write cell shorter than draining its 16 in-flight I/Os
#     is refused after round 1, naming the --time-scale that works (and offering no resume);
#   - a rerun with that scale runs to the end: every cell of round 1 is at least one drain long
#     (drain recomputed here as outstanding x elapsed / I/Os), and the warning below 10 drains
#     appears exactly when some cell is below 10 drains;
#   - every cell record carries planned_ns (= cell_time x the manifest's effective scale) and
#     overrun_ns (= elapsed - planned), recomputed here from records.jsonl;
#   - `ssdlab plan` counts the drain: its rounds figure is within 25% of the rounds' actual
#     target time, where cell_time x cells x rounds alone is not.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the records"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-drain-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/p.yaml" <<'EOF'
name: drain
description: big and small random-write cells at QD 2 x 8
destructive: true
phases:
  - purge: {method: auto}
  - precondition: {rw: write, bs: 128k, amount: 1x, queue: {threads: 1, depth: 32}}
  - rounds:
      cells: {bs: [1m, 4k], order: [bs]}
      rw: randwrite
      cell_time: 60s
      queue: {threads: 2, depth: 8}
      count: 2
EOF
require_sim "$tmp/p.yaml"

# 1. Refused, with the scale that works.
"$SSDLAB" run "$tmp/p.yaml" --out "$tmp/short" --time-scale 0.01 >"$tmp/short.out" 2>"$tmp/short.err"
rc=$?
[ "$rc" != 0 ] || fail "a cell shorter than its drain was not refused (exit 0)"
grep -q "refused: phase 2, cell bs=1m" "$tmp/short.err" ||
	fail "the refusal does not name the cell: $(grep -v '^\[' "$tmp/short.err" | head -3)"
grep -q "resume with" "$tmp/short.err" && fail "a refusal offers a resume (it would be refused again)"
scale=$(sed -n 's/.*run with --time-scale \([0-9.e+-]*\) or more.*/\1/p' "$tmp/short.err" | head -1)
[ -n "$scale" ] || {
	fail "the refusal names no --time-scale"
	exit 1
}
echo "refused at 0.01; suggested --time-scale $scale"
grep "refused" "$tmp/short.err" | sed 's/^/  /'

# 2. The suggested scale works.
"$SSDLAB" run "$tmp/p.yaml" --out "$tmp/ok" --time-scale "$scale" >"$tmp/ok.out" 2>"$tmp/ok.err"
rc=$?
[ "$rc" = 0 ] || {
	fail "the suggested --time-scale $scale does not work: exit $rc"
	sed 's/^/  /' "$tmp/ok.err" >&2
	exit 1
}
"$SSDLAB" plan "$tmp/p.yaml" --time-scale "$scale" >"$tmp/plan.out" 2>&1 || fail "plan failed"

python3 - "$tmp/ok" "$tmp/ok.err" "$tmp/plan.out" <<'EOF' || fail "records or plan wrong (see above)"
import json, re, sys
d, errf, planf = sys.argv[1:4]
ok = True
def bad(msg):
    global ok
    print("  " + msg, file=sys.stderr)
    ok = False
m = json.load(open(d + "/manifest.json"))
planned = round(60e9 * m["time_scale"]["effective"])
recs = [json.loads(l) for l in open(d + "/records.jsonl")]
cells = [r for r in recs if r["kind"] == "cell"]
if len(cells) != 4:
    bad("%d cell records, expected 2 rounds x 2 cells" % len(cells))
below10 = False
for r in cells:
    where = "round %d %s" % (r["round"], r["cell"])
    if abs(r.get("planned_ns", -1) - planned) > 2:
        bad("%s: planned_ns %s, cell_time x effective scale = %d" % (where, r.get("planned_ns"), planned))
    over = max(0, r["elapsed_ns"] - r.get("planned_ns", 0))
    if r.get("overrun_ns") != over:
        bad("%s: overrun_ns %s, elapsed - planned = %d" % (where, r.get("overrun_ns"), over))
    drain = 16 * r["elapsed_ns"] / r["total"]["ios"]
    if abs(r.get("drain_ns", -1) - drain) > 1:
        bad("%s: drain_ns %s, 16 x elapsed / ios = %.0f" % (where, r.get("drain_ns"), drain))
    if r["round"] == 1:
        if drain > planned:
            bad("%s: still shorter than its drain (%.0f > %d) at the suggested scale" % (where, drain, planned))
        below10 = below10 or 10 * drain > planned
    print("  %s: planned %.2f ms, elapsed %.2f ms, overrun %.2f ms, drain %.2f ms"
          % (where, planned / 1e6, r["elapsed_ns"] / 1e6, over / 1e6, drain / 1e6))
warned = "less than 10 drains" in open(errf).read()
if warned != below10:
    bad("warning printed: %s, but a round-1 cell below 10 drains: %s" % (warned, below10))
# plan vs the run: the rounds phase's target time.
def ns(t):
    t = t.strip()
    for unit, f in (("ns", 1), ("us", 1e3), ("ms", 1e6), ("s", 1e9)):
        if t.endswith(" " + unit):
            return float(t[:-len(unit) - 1]) * f
    mm = re.fullmatch(r"(\d+)m(\d+)s", t)
    if mm:
        return (int(mm.group(1)) * 60 + int(mm.group(2))) * 1e9
    mm = re.fullmatch(r"(\d+)h(\d+)m", t)
    return (int(mm.group(1)) * 3600 + int(mm.group(2)) * 60) * 1e9
line = [l for l in open(planf) if re.match(r"\s*2 rounds ", l)][0]
est = ns(re.search(r"time-bound\s+(.*?)\s{2,}", line).group(1))
actual = sum(r["end_ns"] - r["start_ns"] for r in cells)
naive = 4 * planned
print("  rounds phase: plan %.3f s, actual %.3f s (cell_time alone: %.3f s)" % (est / 1e9, actual / 1e9, naive / 1e9))
if abs(est - actual) > 0.25 * actual:
    bad("plan's rounds figure %.3f s is not within 25%% of the actual %.3f s" % (est / 1e9, actual / 1e9))
sys.exit(0 if ok else 1)
EOF

[ "$fails" = 0 ] || exit 1
echo "drain_sim_test: ok"
