#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run_sim_test: a multi-phase profile end to end on the virtual SSD (sim:client-tlc): purge,
# precondition, 4 KiB random-write rounds to steady state, idle, a write_until sampled in rounds
# (WSAT style), a trim and a repeat. Checks:
#   - one record per step, every phase kind present, the rounds stop as the steady-state rule
#     says (reached before max_rounds, or max_rounds reached and flagged);
#   - `ssdlab analyze` reproduces summary.json byte for byte;
#   - the same seed gives the same figures bit for bit (virtual time is deterministic), another
#     seed does not;
#   - the manifest records the model's time scale and the effective one (x --time-scale);
#   - snapshots carry the virtual SSD's counters, and host bytes written grow over the run;
#   - the series interval is scaled like the other durations;
#   - `ssdlab plan` estimates amounts with a probe on the virtual SSD;
#   - the demo prints the headline block (steady state, WA, recovery after idle, results).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the records"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-run-sim-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/p.yaml" <<'EOF'
name: run-sim
description: every phase kind on the virtual SSD
destructive: true
phases:
  - purge: {method: auto}
  - precondition: {rw: write, bs: 128k, amount: 1x, queue: {threads: 1, depth: 32}}
  - rounds:
      rw: randwrite
      bs: 4k
      cell_time: 60s
      queue: {threads: 1, depth: 32}
      steady_state: {track: {metric: iops}, window: 5, max_rounds: 12}
  - idle: {time: 5m}
  - write_until: {rw: randwrite, bs: 4k, amount: 0.5x, round_time: 60s, queue: {threads: 1, depth: 32}}
  - trim: {range: 50%-100%}
  - repeat:
      count: 2
      phases:
        - idle: {time: 30s}
        - rounds: {rw: randwrite, bs: 4k, cell_time: 30s, queue: {threads: 1, depth: 32}, count: 2}
EOF
require_sim "$tmp/p.yaml"

run() { # run NAME SEED
	"$SSDLAB" run "$tmp/p.yaml" --target sim:client-tlc --out "$tmp/$1" --seed "$2" \
		--time-scale 0.5 >"$tmp/$1.out" 2>"$tmp/$1.err"
	local rc=$?
	[ "$rc" = 0 ] || {
		fail "run $1: exit $rc"
		sed 's/^/  /' "$tmp/$1.err" >&2
		exit 1
	}
}

# figures DIR: what the virtual SSD measured, per record, in target time.
figures() {
	python3 - "$1/records.jsonl" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    t = r.get("total", {})
    print(r["phase"], r["repeat"], r["round"], r["cell"], r["kind"], r["start_ns"], r["end_ns"],
          t.get("ios"), t.get("bytes"), r.get("write", {}).get("lat_ns"))
EOF
}

run a 11
run b 11
run c 12
grep -q "^results: $tmp/a" "$tmp/a.out" || fail "run does not say where the results are"

python3 - "$tmp/a" <<'EOF' || fail "the walk of run a is wrong (see above)"
import json, sys
d = sys.argv[1]
recs = [json.loads(l) for l in open(d + "/records.jsonl")]
kinds = [r["kind"] for r in recs]
ok = True
def bad(msg):
    global ok
    print("  " + msg, file=sys.stderr)
    ok = False
for k in ("purge", "precondition", "cell", "idle", "write_until", "trim"):
    if k not in kinds:
        bad("no %s record" % k)
# Phase numbers depth first: purge 0, precondition 1, rounds 2, idle 3, write_until 4, trim 5,
# repeat 6 with idle 7 and rounds 8, twice.
seq = [(r["phase"], r["repeat"], r["round"], r["kind"]) for r in recs]
ss_rounds = [r for r in recs if r["phase"] == 2]
n = len(ss_rounds)
if [r["round"] for r in ss_rounds] != list(range(1, n + 1)):
    bad("rounds of phase 2 not numbered 1..%d" % n)
if not 5 <= n <= 12:
    bad("phase 2 ran %d rounds, outside window 5 .. max_rounds 12" % n)
s = json.load(open(d + "/summary.json"))
txt = json.dumps(s)
if n < 12 and '"reached": true' not in txt:
    bad("rounds stopped at %d < 12 but the summary does not say steady state was reached" % n)
wu = [r for r in recs if r["kind"] == "write_until"]
if len(wu) < 2 or sum(r["bytes_written_total"] for r in wu) < 1:
    bad("write_until was not sampled in rounds")
tail = [(p, rep, rnd, k) for (p, rep, rnd, k) in seq if p >= 6]
want = [(7, 0, 0, "idle"), (8, 0, 1, "cell"), (8, 0, 2, "cell"),
        (7, 1, 0, "idle"), (8, 1, 1, "cell"), (8, 1, 2, "cell")]
if tail != want:
    bad("repeat walk %r != %r" % (tail, want))
m = json.load(open(d + "/manifest.json"))
ts = m["time_scale"]
if not (0 < ts["target"] <= 1 and abs(ts["effective"] - 0.5 * ts["target"]) < 1e-12):
    bad("time scales %r: expected target in (0,1] and effective = 0.5 x target" % ts)
# Snapshots: virtual SSD counters, host bytes written never decreasing.
import glob
hw = []
for f in sorted(glob.glob(d + "/snapshots/*.json")):
    sn = json.load(open(f))
    c = {k: v["value"] for k, v in sn.get("counters", {}).items()}
    if "host_bytes_written" not in c:
        bad("snapshot %s has no host_bytes_written" % f)
        break
    hw.append(c["host_bytes_written"])
if hw != sorted(hw) or hw[-1] <= 0:
    bad("host_bytes_written does not grow over the run: %r" % hw)
# The precondition is recorded in chunks (runner.h) that add up to its amount, 1x.
pre = [r for r in recs if r["kind"] == "precondition"]
if [r["round"] for r in pre] != list(range(1, len(pre) + 1)) or len(pre) < 2:
    bad("precondition chunks numbered %r" % [r["round"] for r in pre])
if sum(r["bytes_written_total"] for r in pre) != m["target"]["capacity"]:
    bad("precondition chunks write %d bytes, not the capacity" %
        sum(r["bytes_written_total"] for r in pre))
# The series interval is scaled like every duration: the precondition's series has one row
# per (1 s x effective scale) of target time, as many as the real drive would give; its chunks
# are one file, in round order, following on from each other (t_ns and total_bytes_written
# continue; the last column is the chunk).
import os
files = sorted(os.listdir(d + "/series"))
if [f for f in files if "precondition" in f] != ["phase-01-rep-00-precondition.csv"]:
    bad("the precondition's series files are %r, expected one" % files)
rows, last_t, last_b = 0, 0, 0
lines = open(d + "/series/phase-01-rep-00-precondition.csv").read().split()[1:]
for i in range(1, len(pre) + 1):
    chunk = [l.split(",") for l in lines if l.split(",")[-1] == str(i)]
    rows += len(chunk)
    if chunk:
        if int(chunk[0][0]) <= last_t:
            bad("chunk %d's series starts at t_ns %s, not after %d" % (i, chunk[0][0], last_t))
        last_t, last_b = int(chunk[-1][0]), int(chunk[-1][-2])
if rows != len(lines):
    bad("the precondition's series has %d rows of no chunk" % (len(lines) - rows))
if last_b != m["target"]["capacity"]:
    bad("the precondition's series ends at %d bytes written, not the capacity" % last_b)
want = sum(r["elapsed_ns"] for r in pre) / (1e9 * ts["effective"])
if not (want - 2 * len(pre) <= rows <= want + 2 * len(pre)):
    bad("precondition series have %d rows, expected about %.1f" % (rows, want))
sys.exit(0 if ok else 1)
EOF

diff <(figures "$tmp/a") <(figures "$tmp/b") >/dev/null ||
	fail "the same seed gave different figures on the virtual SSD"
diff <(figures "$tmp/a") <(figures "$tmp/c") >/dev/null &&
	fail "another seed gave the very same figures"

check_analyze "$tmp/a" "sim"

"$SSDLAB" plan "$tmp/p.yaml" --target sim:client-tlc >"$tmp/plan.out" 2>&1 || fail "plan failed"
grep -q "probed on a fresh virtual SSD" "$tmp/plan.out" || fail "plan did not probe the virtual SSD"
# plan states the chunks the precondition is recorded in: as many as run a recorded.
nchunks=$(grep -c '"kind":"precondition"' "$tmp/a/records.jsonl")
grep -Eq "^ *1 precondition .*; recorded in $nchunks chunks of " "$tmp/plan.out" ||
	fail "plan does not say the precondition is recorded in the $nchunks chunks run a made"

# The demo (issue 4, point 8) prints the headline block: steady state, WA, recovery after the
# idle, and where the results are; the figures are summary.json's headline.
if "$SSDLAB" run demo --out "$tmp/demo" >"$tmp/demo.out" 2>"$tmp/demo.err"; then
	for pat in '^steady state   4k randwrite IOPS [0-9]+ \(reached in rounds [0-9]+-[0-9]+\)$' \
		'^WA             [0-9]+\.[0-9]{2} in steady state, [0-9]+\.[0-9]{2} whole run$' \
		'^after 5m00s idle IOPS [0-9]+ \(\+[0-9]+%\), (back to steady state after .* of writing|not back to steady state within the measured rounds) \(rule: 3 rounds in a row within 10%\)$' \
		"^results: $tmp/demo\$"; do
		grep -Eq "$pat" "$tmp/demo.out" || fail "demo: no line matching '$pat'"
	done
	python3 - "$tmp/demo" "$tmp/demo.out" <<'EOF' || fail "demo: the printed headline does not match summary.json"
import json, re, sys
h = json.load(open(sys.argv[1] + "/summary.json"))["headline"]
out = open(sys.argv[2]).read()
ss, rec = h["steady_state"][0], h["recovery"][0]
ok = "IOPS %d (reached" % round(ss["average"]) in out
ok = ok and "%.2f in steady state, %.2f whole run" % (ss["wa"], h["wa_run"]) in out
ok = ok and "IOPS %d (+%d%%)" % (round(rec["first"]), round(100 * rec["first_change"])) in out
ok = ok and rec["idle_profile_ns"] == 300e9 and rec["first"] > ss["average"]
sys.exit(0 if ok else 1)
EOF
else
	fail "demo run failed"
	sed 's/^/  /' "$tmp/demo.err" >&2
fi

[ "$fails" = 0 ] || exit 1
echo "ok: every phase kind on sim:client-tlc, deterministic, analyze reproduces the summary"
