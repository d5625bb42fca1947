#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# early_verdict_test (issue 19, point 2): the early steady-state verdict on the virtual SSD
# (client-tlc), profile tests/data/early-iops.yaml with a 2x sequential fill (so that the guard,
# NAND capacity + SLC cache written since the purge, holds from round 1):
#   1. without --strict-pts the rounds stop at the predicted round, before the SNIA window is
#      complete; summary.json says so (early.verdict predicted, stopped_run, the SNIA verdict
#      not reached with reason "SNIA window not completed"), and so do the headline and the
#      report; early_check.py recomputes the guard and the rule from records.jsonl;
#   2. with --strict-pts the same run goes on to the SNIA verdict (reached), the early verdict it
#      reports is the same round, and the manifest records the option; `run --like` keeps it;
#   3. a run killed in the round it stops at and resumed records and decides the same;
#      `resume --strict-pts` of a run recorded without it is refused (exit 2), `plan` says the
#      rounds may end early, and a run where the guard does not hold (1x fill) is not predicted;
#   4. snia-iops's 4 KiB column with early on enterprise-28op stops at round 3 and its SNIA
#      headline line says "steady state predicted at round 3, SNIA window not completed".
# Measured 2026-12-02: 6-13 s wall (the latter with the machine loaded by other builds).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the records"
: "${SSDLAB_SRCDIR:?SSDLAB_SRCDIR must point at the source tree (meson sets it)}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-early-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prof="$SSDLAB_SRCDIR/tests/data/early-iops.yaml"
fill=(--set phases.1.precondition.amount=2x)
check="$here/early_check.py"

start=$(date +%s%N)
"$SSDLAB" run "$prof" --target sim:client-tlc "${fill[@]}" --out "$tmp/early" >"$tmp/early.out" 2>&1
rc=$?
[ $rc -eq 0 ] || { sed 's/^/  /' "$tmp/early.out" >&2; fail "early run: exit $rc"; }
python3 "$check" "$tmp/early" --expect predicted --stopped yes >"$tmp/early.chk" ||
	fail "early run: the checker disagrees (above)"
cat "$tmp/early.chk"
round=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["steady_state"][0]["early"]["round"])' "$tmp/early/summary.json")
grep -q "^phase 2: steady state predicted at round $round (confidence 0.95), SNIA window not completed" "$tmp/early.out" ||
	fail "early run: no note that the rounds stopped early"
grep -q "^early verdict  steady state predicted at round $round (confidence 0.95), SNIA window not completed$" "$tmp/early.out" ||
	fail "early run: headline line"
grep -q "^steady state   .* (NOT reached: SNIA window not completed; last window rounds 1-$round)$" "$tmp/early.out" ||
	fail "early run: the SNIA verdict beside the early one"
# headline_check.py: every headline line against summary.json, the early line recomputed from
# records.jsonl (ss_early_rule.py)
"$SSDLAB" analyze "$tmp/early" 2>/dev/null | grep -v '^summary: ' >"$tmp/early.block"
python3 "$here/headline_check.py" early-iops "$tmp/early" "$tmp/early.block" "$tmp/early.out" ||
	fail "early run: headline_check"
"$SSDLAB" report "$tmp/early" >/dev/null 2>&1 || fail "report: exit $?"
grep -q "steady state predicted at round $round (confidence 0.95), SNIA window not completed" "$tmp/early/report.html" ||
	fail "report.html: no early-verdict sentence"
grep -q "| predicted | $round | 0.95 | true |" "$tmp/early/summary.md" || fail "summary.md: early table"
# analyze recomputes the same from the records
cp "$tmp/early/summary.json" "$tmp/summary.before"
"$SSDLAB" analyze "$tmp/early" >/dev/null 2>&1 || fail "analyze: exit $?"
python3 - "$tmp/summary.before" "$tmp/early/summary.json" <<'PY' || fail "analyze changed the early block"
import json, sys
a, b = (json.load(open(p))["steady_state"][0]["early"] for p in sys.argv[1:3])
sys.exit(a != b)
PY

# a run killed during its early-stopped round's cell and resumed decides the same: same
# records, same summary (the decision uses only recorded values)
nrec=$(wc -l <"$tmp/early/records.jsonl")
SSDLAB_DEBUG_FAULT=cell:$((nrec - 1)) "$SSDLAB" run "$prof" --target sim:client-tlc "${fill[@]}" \
	--out "$tmp/killed" >"$tmp/killed.out" 2>&1
rc=$?
[ $rc -ne 0 ] || fail "the fault hook did not stop the run"
"$SSDLAB" resume "$tmp/killed" >"$tmp/resumed.out" 2>&1 || fail "resume: exit $?"
check_keys "$tmp/killed" "$tmp/early" "resumed early run"
python3 "$check" "$tmp/killed" --expect predicted --stopped yes >/dev/null || fail "resumed: checker"
python3 - "$tmp/early/summary.json" "$tmp/killed/summary.json" <<'PY' || fail "resume changed the early decision"
import json, sys
a, b = (json.load(open(p))["steady_state"][0] for p in sys.argv[1:3])
sys.exit(a["early"] != b["early"] or a["values"] != b["values"] or a.get("reason") != b.get("reason"))
PY

"$SSDLAB" run "$prof" --target sim:client-tlc "${fill[@]}" --strict-pts --out "$tmp/strict" >"$tmp/strict.out" 2>&1
rc=$?
[ $rc -eq 0 ] || { sed 's/^/  /' "$tmp/strict.out" >&2; fail "strict run: exit $rc"; }
python3 "$check" "$tmp/strict" --expect predicted --stopped no >"$tmp/strict.chk" ||
	fail "strict run: the checker disagrees (above)"
cat "$tmp/strict.chk"
python3 - "$tmp/early/summary.json" "$tmp/strict/summary.json" "$tmp/strict/manifest.json" <<'PY' || fail "strict run: see above"
import json, sys
e = json.load(open(sys.argv[1]))["steady_state"][0]
s = json.load(open(sys.argv[2]))["steady_state"][0]
m = json.load(open(sys.argv[3]))
bad = []
if m["options"]["strict_pts"] is not True:
    bad.append("manifest options.strict_pts %r" % m["options"])
if s["verdict"] != "reached" or "reason" in s:
    bad.append("strict: SNIA verdict %s reason %r" % (s["verdict"], s.get("reason")))
if s["early"]["round"] != e["early"]["round"] or s["early"]["stopped_run"]:
    bad.append("strict: early round %s (stopped %s) vs %s" % (
        s["early"]["round"], s["early"]["stopped_run"], e["early"]["round"]))
if s["last_round"] <= e["early"]["round"]:
    bad.append("strict: rounds ended at %d, not after the early round" % s["last_round"])
# the same rounds up to the early one: the runs differ only in where they stop
if s["values"][:len(e["values"])] != e["values"]:
    bad.append("strict: its first rounds differ from the early run's")
diff = (e["early"]["observed_average"] - s["average"]) / s["average"]
print("early window avg %.1f (rounds %d-%d seen), SNIA window avg %.1f (rounds %d-%d): %+.2f%%" % (
    e["early"]["observed_average"], e["early"]["window_first_round"], e["early"]["round"],
    s["average"], s["first_round"], s["last_round"], 100 * diff))
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
grep -q "^early verdict  steady state predicted at round $round (confidence 0.95); --strict-pts: SNIA window run$" "$tmp/strict.out" ||
	fail "strict run: headline line"
grep -q "^steady state   .* (reached in rounds " "$tmp/strict.out" || fail "strict run: SNIA headline"
"$SSDLAB" analyze "$tmp/strict" 2>/dev/null | grep -v '^summary: ' >"$tmp/strict.block"
python3 "$here/headline_check.py" early-iops "$tmp/strict" "$tmp/strict.block" "$tmp/strict.out" ||
	fail "strict run: headline_check"

"$SSDLAB" run --like "$tmp/strict" --out "$tmp/like" >"$tmp/like.out" 2>&1 || fail "run --like: exit $?"
python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["options"]["strict_pts"] is not True)' \
	"$tmp/like/manifest.json" || fail "run --like did not keep --strict-pts"
"$SSDLAB" run --like "$tmp/strict" --strict-pts --out "$tmp/like2" >/dev/null 2>&1
[ $? -eq 2 ] || fail "run --like with --strict-pts: not refused with exit 2"

# a finished run is never resumed; the refusal of --strict-pts comes first for a run without it
"$SSDLAB" resume "$tmp/early" --strict-pts >"$tmp/resume.out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "resume --strict-pts of a run without it: exit $rc, not 2"
grep -q "recorded without --strict-pts" "$tmp/resume.out" || fail "resume --strict-pts: message"

"$SSDLAB" plan "$prof" --target sim:client-tlc 2>&1 | grep -q "may end early when the window is predicted to pass (confidence 0.95, from round 3; not with --strict-pts)" ||
	fail "plan does not say the rounds may end early"

# 1x fill: the guard (NAND + SLC, 5.4 GB on client-tlc) is not reached within the rounds
"$SSDLAB" run "$prof" --target sim:client-tlc --out "$tmp/guard" >"$tmp/guard.out" 2>&1 || fail "guard run: exit $?"
python3 "$check" "$tmp/guard" --expect "not predicted" --stopped no || fail "guard run: checker"
grep -q "^early verdict  not predicted (confidence 0.95)$" "$tmp/guard.out" || fail "guard run: headline"

# 4. snia-iops (its 4 KiB column) with an early verdict on enterprise-28op, flat from round 1:
# the SNIA headline line says it beside the SNIA verdict, headline_check.py checks every line
"$SSDLAB" run snia-iops --target sim:enterprise-28op --set 'phases.2.rounds.cells.bs=[4k]' \
	--set 'phases.2.rounds.steady_state.early={confidence: 0.95}' --out "$tmp/snia" >"$tmp/snia.out" 2>&1 ||
	fail "snia-iops with early: exit $?"
python3 "$check" "$tmp/snia" --expect predicted --stopped yes || fail "snia-iops: checker"
grep -q "^SNIA IOPS      rwmix_read=0,bs=4k [0-9]* IOPS (too_few, steady state predicted at round 3, SNIA window not completed, rounds 1-3, 4 threads x QD32)$" "$tmp/snia.out" ||
	fail "snia-iops: the SNIA headline line"
"$SSDLAB" analyze "$tmp/snia" 2>/dev/null | grep -v '^summary: ' >"$tmp/snia.block"
python3 "$here/headline_check.py" snia-iops "$tmp/snia" "$tmp/snia.block" "$tmp/snia.out" ||
	fail "snia-iops: headline_check"

echo "early_verdict_test: $((($(date +%s%N) - start) / 1000000)) ms wall"
[ $fails -eq 0 ]
