#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# progress_sim_test: the progress output of a run whose stdout and stderr are not a terminal
# (issue 9, point 7), on the virtual SSD with the bundled demo:
#   - one line per phase (the phase's last state), plus at most one per 10 s of wall time;
#   - no "0 IOPS" line;
#   - a precondition's line says "chunk N/N" with N the chunks `ssdlab plan` announces;
#   - both clocks: target time done and left, and a wall-clock ETA;
#   - `ssdlab plan` gives a wall-clock estimate for the virtual SSD.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the output"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-progress-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
require_sim demo

"$SSDLAB" plan demo >"$tmp/plan.out" 2>&1 || fail "plan demo failed"
grep -q "^wall clock: about " "$tmp/plan.out" || fail "plan gives no wall-clock estimate on the sim"
t0=$(date +%s%N)
"$SSDLAB" run demo --out "$tmp/demo" </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
t1=$(date +%s%N)
[ "$rc" = 0 ] || {
	fail "run demo: exit $rc"
	sed 's/^/  /' "$tmp/err" >&2
	exit 1
}
python3 - "$tmp/err" "$tmp/plan.out" "$(((t1 - t0) / 1000000))" <<'EOF' || fail "progress output wrong (see above)"
import re, sys
err, plan, wall_ms = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = [l.rstrip("\n") for l in open(err) if re.match(r"(\(replay\) )?\[\d+/\d+\] ", l)]
ok = True
def bad(msg):
    global ok
    print("  " + msg, file=sys.stderr)
    ok = False
for l in lines:
    print("  " + l)
nphases = int(re.match(r"\[\d+/(\d+)\]", lines[0]).group(1)) if lines else 0
per = {}
for l in lines:
    per.setdefault(int(re.match(r"\[(\d+)/", l).group(1)), []).append(l)
if sorted(per) != list(range(1, nphases + 1)) or nphases == 0:
    bad("phases with a line: %s, expected 1..%d" % (sorted(per), nphases))
if len(lines) > nphases + wall_ms // 10000:
    bad("%d lines for %d phases in %d ms: more than one per phase and per 10 s" % (len(lines), nphases, wall_ms))
for l in lines:
    if re.search(r"\| 0 IOPS", l):
        bad("a 0 IOPS line: " + l)
    if not re.search(r"\| target \S+( \S+)? done, .* left \| wall ETA ", l):
        bad("not both clocks: " + l)
# The plan's chunk counts of the two preconditions (phases 1 and 2, lines [2/6] and [3/6]).
chunks = [int(m) for m in re.findall(r"recorded in (\d+) chunks", open(plan).read())]
for i, n in enumerate(chunks[:2]):
    want = "precondition chunk %d/%d |" % (n, n)
    got = per.get(i + 2, [""])[-1]
    if want not in got:
        bad("phase %d's last line does not say '%s': %s" % (i + 1, want, got))
sys.exit(0 if ok else 1)
EOF
[ "$fails" = 0 ] || exit 1
echo "progress_sim_test: ok"
