#!/bin/bash
# SPDX-License-Identifier: MIT
#
# locale_test: machine output uses '.' as the decimal point under a comma-decimal locale
# (de_DE.UTF-8, generated here with localedef when it is missing; skips with a reason when that
# is impossible). Checks:
#   1. test_results (the library: records.jsonl and series CSV written while the process
#      locale is de_DE) passes with its comma-locale case run, not skipped;
#   2. `ssdlab analyze` under LC_ALL=de_DE.UTF-8 on a hand-written results directory writes a
#      summary.json whose fractional numbers use '.', prints the headline with '.', and
#      `analyze --check` then finds the file byte-for-byte reproducible.
set -u

: "${SSDLAB:?SSDLAB must point to the ssdlab binary}"
LOC=de_DE.UTF-8
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-locale-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

have_locale() { locale -a 2>/dev/null | tr 'A-Z' 'a-z' | grep -qx 'de_de.utf8'; }
if ! have_locale; then
	command -v localedef >/dev/null || skip "de_DE.UTF-8 is missing and localedef is not installed"
	localedef -i de_DE -f UTF-8 "$LOC" 2>"$tmp/localedef.err" ||
		skip "cannot generate $LOC: $(head -c 200 "$tmp/localedef.err")"
	have_locale || skip "localedef ran but $LOC is still not listed by locale -a"
fi
# The premise: this locale's decimal point really is a comma.
dp=$(LC_ALL=$LOC locale decimal_point 2>/dev/null)
[ "$dp" = "," ] || skip "$LOC has decimal point '$dp', not ','"

# 1. The library under the comma locale (the test sets it itself and checks the premise again).
tr=$(dirname "$(dirname "$SSDLAB")")/tests/test_results
if [ -x "$tr" ]; then
	out=$(cd "$tmp" && LC_ALL=$LOC "$tr" 2>&1) || { echo "$out"; fail "test_results failed under $LOC"; }
	grep -q 'SKIPPED.*test_comma_locale' <<<"$out" && { echo "$out"; fail "test_comma_locale skipped although $LOC exists"; }
	grep -q 'OK.*test_comma_locale' <<<"$out" || { echo "$out"; fail "test_comma_locale did not run"; }
else
	echo "note: $tr not built; checking the CLI only"
fi

# 2. A results directory written by hand: 5 rounds of one tracked cell, 3 s each, so the
# IOPS are fractional (1000 / 3 = 333.33...).
run=$tmp/run
mkdir -p "$run/series" "$run/snapshots"
cat >"$run/manifest.json" <<'EOF'
{
  "schema": 1,
  "profile": "locale-check",
  "steady_state": [ { "phase": 0, "repeat": 0, "cell": "bs=4k", "metric": "write_iops",
                      "params": { "window": 5, "max_data_excursion": 0.2,
                                  "max_slope_excursion": 0.1, "max_rounds": 25 } } ]
}
EOF
for round in 1 2 3 4 5; do
	ios=$((1000 + round))
	printf '{"schema":1,"kind":"cell","phase":0,"phase_kind":"rounds","repeat":0,"round":%d,"cell":"bs=4k","start_ns":0,"end_ns":3000000000,"flags":[],"elapsed_ns":3000000000,"cpu_user_s":0.25,"cpu_sys_s":0.5,"read":{"ios":0,"bytes":0,"hist":{"count":0,"min":0,"max":0,"sum":0,"sub_bits":7,"max_bits":37,"bins":[]}},"write":{"ios":%d,"bytes":%d,"hist":{"count":3,"min":100,"max":120,"sum":330,"sub_bits":7,"max_bits":37,"bins":[[100,1],[110,1],[120,1]]}}}\n' \
		"$round" "$ios" $((ios * 4096)) >>"$run/records.jsonl"
done

out=$(LC_ALL=$LOC LANG=$LOC "$SSDLAB" analyze --verbose "$run" 2>&1) || { echo "$out"; fail "analyze failed under $LOC"; }
echo "$out"
[ -f "$run/summary.json" ] || fail "no summary.json"
# Fractional numbers are there and use '.'; no digit,digit anywhere (arrays are spaced ", ").
grep -Eq '"average": 334\.[0-9]+' "$run/summary.json" || fail "average not written with '.'"
grep -Eq '"cpu_user_s": 1\.25' "$run/summary.json" || fail "cpu_user_s not written with '.'"
if grep -nE '[0-9],[0-9]' "$run/summary.json"; then fail "a comma decimal in summary.json"; fi
grep -Eq 'average 334\.[0-9]' <<<"$out" || fail "headline not printed with '.'"
if grep -nE '[0-9],[0-9]' <<<"$out"; then fail "a comma decimal in the headline"; fi
LC_ALL=$LOC "$SSDLAB" analyze --check --quiet "$run" || fail "summary.json not reproduced byte for byte"
echo "ok: '.' decimals under $LOC"
