#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# like_test (issue 18 point 3): `ssdlab run --like DIR` repeats a recorded virtual-SSD run. The run
# repeated is of a child profile (`extends:` a parent in the same directory, its own `set:`), with
# a --set override, --seed, --time-scale and --chunk; afterwards the parent on disk is changed
# and the child deleted, so the repeat can only come from what the manifest recorded. Checked:
#   - records.jsonl of the repeat equals the original's record for record, key for key, except
#     the wall-clock fields WALL below (docs/results-format.md lists the same), and every series
#     CSV is byte-identical;
#   - the new manifest's profile text, extends parents, sets, seed, time_scale, chunks and plan
#     equal the original's, and "like" names it (dir, path, profile, target, seed, time_scale,
#     started_utc);
#   - --like with a PROFILE or --seed is bad usage (2), as is a DIR without manifest.json;
#   - --like DIR --target sim:OTHER runs there and records both targets.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
WALL="wall_ns cpu_user_s cpu_sys_s"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-like-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s.%N)
mkdir "$tmp/p"
write_parent() { # bs1 bs2
	cat >"$tmp/p/base-like.yaml" <<EOF
name: base-like
description: a parent with a fill and 3 fixed rounds of 2 cells
destructive: true
defaults: {seed: 3}
phases:
  - precondition: {rw: write, bs: 128k, amount: 1x, queue: {threads: 1, depth: 8}}
  - rounds:
      rw: randwrite
      cells: {bs: [$1, $2]}
      cell_time: 200ms
      queue: {threads: 1, depth: 4}
      count: 3
  - idle: {time: 2s}
EOF
}
write_parent 4k 16k
cat >"$tmp/p/child.yaml" <<'EOF'
name: child
description: the parent with deeper queues
extends: base-like
set: {phases.1.rounds.queue.depth: 8}
EOF
require_sim "$tmp/p/child.yaml"

"$SSDLAB" run "$tmp/p/child.yaml" --target sim:client-tlc --set phases.1.rounds.count=2 --seed 11 \
	--time-scale 50 --chunk 1g --out "$tmp/a" -q >"$tmp/a.log" 2>&1 ||
	{ fail "the original run failed"; sed 's/^/  /' "$tmp/a.log" >&2; exit 1; }
# What is on disk now must not matter.
write_parent 8k 64k
rm "$tmp/p/child.yaml"
"$SSDLAB" run --like "$tmp/a" --out "$tmp/b" -q >"$tmp/b.log" 2>&1 ||
	{ fail "run --like failed"; sed 's/^/  /' "$tmp/b.log" >&2; exit 1; }

python3 - "$tmp/a" "$tmp/b" "$WALL" <<'PY' || fail "records or manifest of the repeat"
import json, os, sys
a, b, wall = sys.argv[1], sys.argv[2], set(sys.argv[3].split())
bad = []
ra = [json.loads(l) for l in open(f"{a}/records.jsonl")]
rb = [json.loads(l) for l in open(f"{b}/records.jsonl")]
if len(ra) != len(rb) or len(ra) < 5:
    bad.append(f"{len(ra)} records, then {len(rb)}")
seen_wall = set()
for i, (x, y) in enumerate(zip(ra, rb)):
    if set(x) != set(y):
        bad.append(f"record {i}: keys {sorted(set(x) ^ set(y))}")
    seen_wall |= wall & set(x)
    for k in x:
        if k not in wall and x[k] != y.get(k):
            bad.append(f"record {i} ({x.get('kind')}): {k} {x[k]!r} != {y.get(k)!r}")
if seen_wall != wall:
    bad.append(f"wall-clock fields {sorted(wall - seen_wall)} never recorded (list out of date)")
if sum(1 for r in ra if r.get("kind") == "precondition") < 4:
    bad.append("the fill was not recorded in 1 GiB chunks (--chunk 1g on a 4 GiB model)")
sa, sb = sorted(os.listdir(f"{a}/series")), sorted(os.listdir(f"{b}/series"))
if sa != sb or not sa:
    bad.append(f"series files {sa} != {sb}")
for f in sa:
    if open(f"{a}/series/{f}", "rb").read() != open(f"{b}/series/{f}", "rb").read():
        bad.append(f"series/{f} differs")
ma, mb = json.load(open(f"{a}/manifest.json")), json.load(open(f"{b}/manifest.json"))
for k in ("profile", "sets", "seed", "time_scale", "chunks", "plan"):
    if ma.get(k) != mb.get(k):
        bad.append(f"manifest {k}: {ma.get(k)!r} != {mb.get(k)!r}")
if ma["sets"] != ["phases.1.rounds.count=2"] or ma["seed"] != 11 or not ma["profile"].get("extends"):
    bad.append(f"the original run is not what the test asked for: {ma['sets']} {ma['seed']}")
want = {"dir": a, "path": os.path.realpath(a), "profile": "child", "target": "sim:client-tlc",
        "seed": 11, "time_scale": 50, "started_utc": ma["started_utc"]}
if mb.get("like") != want:
    bad.append(f"like: {mb.get('like')!r}, expected {want!r}")
if "like" in ma:
    bad.append("the original names a run it repeats")
for m in bad:
    print("  " + m, file=sys.stderr)
print(f"{len(ra)} records equal but {sorted(wall)}; {len(sa)} series files identical")
sys.exit(1 if bad else 0)
PY

# The report of the repeat: report_check.py as for any report, and its "like" section: the run it
# repeats named, and report/like.csv holding both headlines, each value read here from the two
# summary.json files (json), compared as the numbers they are.
"$SSDLAB" report "$tmp/b" -q || fail "report of the repeat"
python3 "$here/report_check.py" "$tmp/b" || fail "report_check.py on the repeat"
python3 - "$tmp/a" "$tmp/b" <<'PY' || fail "the report's like section"
import csv, json, sys
a, b = sys.argv[1], sys.argv[2]
bad = []
page = open(f"{b}/report.html").read()
if "Repeat of an earlier run" not in page or a not in page:
    bad.append("report.html does not name the run it repeats")
ha = json.load(open(f"{a}/summary.json"))["headline"]
hb = json.load(open(f"{b}/summary.json"))["headline"]
rows = list(csv.reader(open(f"{b}/report/like.csv")))
if rows[0] != ["figure", "this run", "the run it repeats"]:
    bad.append(f"like.csv heading {rows[0]}")
want = [("wa_run", hb.get("wa_run"), ha.get("wa_run"))]
for i, (eb, ea) in enumerate(zip(hb.get("results", []), ha.get("results", []))):
    for f in ("iops", "bw_bps", "lat_mean_ns", "lat_p99_ns", "lat_max_ns"):
        want.append((f"results[{i}] {eb.get('cell') or eb.get('workload')} {f}", eb.get(f), ea.get(f)))
if len(rows) - 1 != len(want) or len(want) < 6:
    bad.append(f"like.csv has {len(rows) - 1} rows, summary.json gives {len(want)}")
num = lambda s: None if s == "" else float(s)
for r, (k, vb, va) in zip(rows[1:], want):
    if r[0] != k or num(r[1]) != vb or num(r[2]) != va:
        bad.append(f"like.csv {r} != {(k, vb, va)}")
for m in bad:
    print("  " + m, file=sys.stderr)
print(f"report: like section with {len(want)} figures of both runs")
sys.exit(1 if bad else 0)
PY

for args in "child --like $tmp/a" "--like $tmp/a --seed 3" "--like $tmp/nothing"; do
	"$SSDLAB" run $args --out "$tmp/x" -q >/dev/null 2>&1
	rc=$?
	[ "$rc" = 2 ] || fail "run $args: exit $rc, not 2"
	[ -e "$tmp/x" ] && fail "run $args wrote $tmp/x"
done

"$SSDLAB" run --like "$tmp/a" --target sim:no-idle-gc --out "$tmp/c" -q >"$tmp/c.log" 2>&1 ||
	{ fail "run --like on another target failed"; sed 's/^/  /' "$tmp/c.log" >&2; }
python3 - "$tmp/c/manifest.json" <<'PY' || fail "--like on another target: manifest"
import json, sys
m = json.load(open(sys.argv[1]))
ok = m["target"]["spec"] == "sim:no-idle-gc" and m["like"]["target"] == "sim:client-tlc" and m["seed"] == 11
print("another target:", m["target"]["spec"], "repeating a run on", m["like"]["target"])
sys.exit(0 if ok else 1)
PY
echo "like_test: $(echo "$(date +%s.%N) - $t0" | bc) s"
[ "$fails" -eq 0 ] && echo "like: all checks passed"
[ "$fails" -eq 0 ]
