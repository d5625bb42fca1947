#!/bin/bash
# SPDX-License-Identifier: MIT
#
# analyze_cli_test: `ssdlab analyze` as users call it, on a results directory written by hand:
# --help, usage errors (exit 2), the headline, summary.json written and reproduced byte for byte
# (--check), --check noticing an edited summary (exit 1), --stdout writing nothing, a torn last
# record line reported but left in place, a corrupt middle line refused (exit 1) with its number,
# and so is a record of an unknown kind or without its key fields.
set -u

: "${SSDLAB:?SSDLAB must point to the ssdlab binary}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-analyze-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; exit 1; }
expect_rc() { # expected-rc description command...
	local want=$1 what=$2 rc
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "$want" ] || { cat "$tmp/out" "$tmp/err"; fail "$what: exit $rc, expected $want"; }
}

expect_rc 0 "--help" "$SSDLAB" analyze --help
grep -q 'usage: ssdlab analyze' "$tmp/out" || fail "--help text"
expect_rc 2 "no directory" "$SSDLAB" analyze
expect_rc 2 "two directories" "$SSDLAB" analyze "$tmp" "$tmp"
expect_rc 2 "unknown option" "$SSDLAB" analyze --frobnicate "$tmp"
expect_rc 2 "not a results directory" "$SSDLAB" analyze "$tmp"
grep -q 'manifest.json' "$tmp/err" || fail "the error names the missing manifest"

# Two rounds-phase cells over 6 rounds; the tracked one reaches steady state at round 5
# (100, 100, 100, 100, 100 writes per second after a slow first round: rounds 2..6).
run=$tmp/run
mkdir -p "$run/series" "$run/snapshots"
cat >"$run/manifest.json" <<'EOF'
{ "schema": 1, "profile": { "name": "cli-check" },
  "steady_state": [ { "phase": 1, "repeat": 0, "cell": "bs=4k", "metric": "write_iops",
                      "params": { "window": 5, "max_data_excursion": 0.2,
                                  "max_slope_excursion": 0.1, "max_rounds": 25 } } ] }
EOF
rec() { # round cell ios
	printf '{"schema":1,"kind":"cell","phase":1,"phase_kind":"rounds","repeat":0,"round":%d,"cell":"%s","start_ns":0,"end_ns":1000000000,"flags":[],"elapsed_ns":1000000000,"cpu_user_s":0.1,"cpu_sys_s":0.1,"read":{"ios":0,"bytes":0,"hist":{"count":0,"min":0,"max":0,"sum":0,"sub_bits":7,"max_bits":37,"bins":[]}},"write":{"ios":%d,"bytes":%d,"hist":{"count":2,"min":50,"max":60,"sum":110,"sub_bits":7,"max_bits":37,"bins":[[50,1],[60,1]]}}}\n' \
		"$1" "$2" "$3" $(($3 * 4096))
}
for r in 1 2 3 4 5 6; do
	ios=100
	[ $r = 1 ] && ios=20
	rec $r bs=4k $ios >>"$run/records.jsonl"
	rec $r bs=64k 30 >>"$run/records.jsonl"
done
for s in 0 1; do
	printf '{"schema":1,"source":"sim","label":"phase-1-%s","target_ns":%d,"counters":{"host_bytes_written":{"value":%d,"unit":"bytes"},"nand_bytes_written":{"value":%d,"unit":"bytes"}},"phase":1,"repeat":0,"seq":%d}\n' \
		"$([ $s = 0 ] && echo start || echo end)" $s $((s * 4000)) $((s * 6000)) $s >"$run/snapshots/000$s-x.json"
done

expect_rc 0 "analyze" "$SSDLAB" analyze --verbose "$run"
grep -q 'steady state, phase 1 bs=4k write_iops: reached, rounds 2-6, average 100.0' "$tmp/out" ||
	{ cat "$tmp/out"; fail "headline: steady state"; }
grep -q 'write amplification, phase 1: 1.500' "$tmp/out" || { cat "$tmp/out"; fail "headline: WA"; }
[ -f "$run/summary.json" ] || fail "no summary.json"
cp "$run/summary.json" "$tmp/first.json"
expect_rc 0 "analyze again" "$SSDLAB" analyze -q "$run"
cmp -s "$run/summary.json" "$tmp/first.json" || fail "summary.json differs between two analyses"
expect_rc 0 "--check" "$SSDLAB" analyze --check "$run"

# --stdout: the same JSON on stdout, nothing written.
rm "$run/summary.json"
expect_rc 0 "--stdout" "$SSDLAB" analyze --stdout "$run"
[ -e "$run/summary.json" ] && fail "--stdout wrote summary.json"
cmp -s "$tmp/out" "$tmp/first.json" || fail "--stdout output differs from summary.json"

# --check notices an edited summary.
cp "$tmp/first.json" "$run/summary.json"
sed -i 's/"reached": true/"reached": false/' "$run/summary.json"
expect_rc 1 "--check after an edit" "$SSDLAB" analyze --check "$run"

# A torn last line: reported, and left in place (only resume cuts it off).
printf '{"schema":1,"kind":"cell","pha' >>"$run/records.jsonl"
size=$(stat -c %s "$run/records.jsonl")
expect_rc 0 "torn last line" "$SSDLAB" analyze "$run"
grep -q 'torn last record line was dropped' "$tmp/out" || fail "torn line not reported"
[ "$(stat -c %s "$run/records.jsonl")" = "$size" ] || fail "analyze changed records.jsonl"

# ... and a line after it makes it a corrupt middle line.
printf '\n' >>"$run/records.jsonl"
rec 7 bs=4k 100 >>"$run/records.jsonl"
expect_rc 1 "corrupt middle line" "$SSDLAB" analyze "$run"
grep -q 'line 13 is corrupt' "$tmp/err" || { cat "$tmp/err"; fail "the error names line 13"; }

# A record of a kind the analysis does not know is refused with its line, not skipped (a
# skipped record would silently change the figures); so is one without its key fields.
head -n 12 "$run/records.jsonl" >"$tmp/rec12"
cp "$tmp/rec12" "$run/records.jsonl"
rec 7 bs=4k 100 | sed 's/"kind":"cell"/"kind":"cel"/' >>"$run/records.jsonl"
rec 8 bs=4k 100 >>"$run/records.jsonl"
expect_rc 1 "unknown record kind" "$SSDLAB" analyze "$run"
grep -q "line 13 has an unknown kind 'cel'" "$tmp/err" || { cat "$tmp/err"; fail "the error names line 13 and its kind"; }
cp "$tmp/rec12" "$run/records.jsonl"
rec 7 bs=4k 100 | sed 's/"round":7,//' >>"$run/records.jsonl"
expect_rc 1 "record without a key field" "$SSDLAB" analyze "$run"
grep -q "line 13 lacks a key field" "$tmp/err" || { cat "$tmp/err"; fail "the error names line 13"; }
echo "ok"
