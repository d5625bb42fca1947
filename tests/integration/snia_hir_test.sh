#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# snia_hir_test (issue 16 point 1): the SNIA host idle recovery profile on the virtual SSD.
# Each run is snia-hir shortened with --set (the test's own choice, to stay well under 60 s):
# 5-minute steady-state rounds instead of 30 (durations scaled with the model as always),
# COUNT bursts per wait state instead of 360 and RECOVER s of return to baseline instead of 1800.
#   - idle-gc-aggressive: the bursts after a 50 s wait reach at least 1.2x the IOPS of those after
#     5 s (the model reclaims space in every rest; the longer the rest, the more);
#   - no-idle-gc: every wait state's mean burst IOPS within 10% of the steady-state IOPS (no idle
#     work: nothing recovers);
#   - snia-hir-client on idle-gc-aggressive at --time-scale 0.05: the 5 s wait scales below twice
#     the model's idle-GC delay and is raised to it, the reason recorded (the others are not);
#     the Client settings (write cache on, TC2/QD16) are in force; killed after the 2nd burst of
#     the second wait state and resumed, the records are those of an uninterrupted run;
#   - `ssdlab plan` says a real drive takes 15.5 h of waits, bursts and returns after the steady
#     state (hand-worked below);
#   - each run: snia_hir_check.py recomputes every number of the hir block from records.jsonl,
#     checks the record order against the profile's written out by hand and each burst's wait
#     against the model file; headline_check.py the headline's HIR lines; the power states
#     recorded in the manifest (the virtual SSD has none: the note says so).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to recompute the block"
: "${SSDLAB_SRCDIR:?SSDLAB_SRCDIR must point at the source tree (meson sets it)}"
models="$SSDLAB_SRCDIR/profiles/models"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-hir-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s.%N)

# sets COUNT RECOVER: the --set arguments that shorten snia-hir (its phases 2..11)
sets() {
	local a=(--set phases.1.rounds.cell_time=5min)
	for p in 2 4 6 8 10; do
		a+=(--set "phases.$p.bursts.count=$1" --set "phases.$((p + 1)).write_until.amount=$2s")
	done
	echo "${a[@]}"
}

# hir NAME PROFILE MODEL MODE COUNT RECOVER [ARGS...]: run, check the block, check the headline.
hir() {
	local name=$1 prof=$2 model=$3 mode=$4 count=$5 rec=$6 s
	shift 6
	s=$(date +%s.%N)
	# shellcheck disable=SC2046
	if ! "$SSDLAB" run "$prof" --target "sim:$model" --out "$tmp/$name" $(sets "$count" "$rec") "$@" \
		>"$tmp/$name.run" 2>"$tmp/$name.err"; then
		fail "$name: run failed"
		sed 's/^/  /' "$tmp/$name.err" >&2
		return 1
	fi
	python3 "$here/snia_hir_check.py" "$tmp/$name" "$models/$model.yaml" "$mode" "$count" "$rec" ||
		fail "$name: the hir block does not hold"
	"$SSDLAB" analyze "$tmp/$name" >"$tmp/$name.hl" 2>&1 || fail "$name: analyze failed"
	grep -v '^summary: ' "$tmp/$name.hl" >"$tmp/$name.block"
	python3 "$here/headline_check.py" "$prof" "$tmp/$name" "$tmp/$name.block" "$tmp/$name.run" ||
		fail "$name: the headline does not hold"
	grep -q '^SNIA HIR waits mean burst IOPS: ' "$tmp/$name.block" || fail "$name: no HIR line"
	python3 - "$tmp/$name/manifest.json" <<'PY' || fail "$name: power states not recorded"
import json, sys
ps = json.load(open(sys.argv[1]))["drive_settings"]["power_states"]
assert ps["profile"] == "as-found" and "virtual SSD has no power states" in ps["note"], ps
PY
	echo "$name: $(python3 -c "print('%.1f' % ($(date +%s.%N) - $s))") s"
}

hir aggressive snia-hir idle-gc-aggressive aggressive 20 300
hir noidle snia-hir no-idle-gc noidle 20 300
hir floor snia-hir-client idle-gc-aggressive floor 3 60 --time-scale 0.05 \
	--set phases.1.rounds.steady_state.max_rounds=5
python3 - "$tmp/floor/manifest.json" "$tmp/floor/records.jsonl" <<'PY' || fail "floor: the Client settings are not in force"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["pts"]["variant"] == "client" and m["pts"]["toio"] == {"threads": 2, "depth": 16}, m["pts"]
assert m["pts"]["write_cache"]["read_back"] is True, m["pts"]["write_cache"]
b = [json.loads(l) for l in open(sys.argv[2]) if '"burst"' in l]
assert b and all(r["effective_qd"] <= 32 for r in b), "a burst ran more than TC2 x QD16 deep"
PY

# Killed right after the 2nd burst record of the second wait state (record 12: the purge, 5
# rounds, 3 bursts, 1 chunk of 1 minute, 2 bursts), resumed: the same records as the floor run.
# shellcheck disable=SC2046
SSDLAB_DEBUG_FAULT=after-record:12 "$SSDLAB" run snia-hir-client --target sim:idle-gc-aggressive \
	--out "$tmp/cut" $(sets 3 60) --time-scale 0.05 --set phases.1.rounds.steady_state.max_rounds=5 \
	>"$tmp/cut.run" 2>&1
[ "$(keys "$tmp/cut" | wc -l)" = 12 ] || fail "the crash did not leave 12 records"
"$SSDLAB" resume "$tmp/cut" >"$tmp/res.log" 2>&1 ||
	{ fail "resume failed"; sed 's/^/  /' "$tmp/res.log" >&2; }
check_keys "$tmp/cut" "$tmp/floor" "resume inside a bursts phase"
! grep -q "differs from its record" "$tmp/res.log" ||
	fail "resume: the virtual SSD's replay of the bursts and their waits diverged"
python3 - "$tmp/cut/records.jsonl" "$tmp/floor/records.jsonl" <<'PY' || fail "resume: the bursts differ from the uninterrupted run"
import json, sys
def load(p):
    return [json.loads(l) for l in open(p) if '"kind":"resume"' not in l]
a, b = load(sys.argv[1]), load(sys.argv[2])
keys = ("kind", "phase", "round", "start_ns", "end_ns", "wait_ns", "bytes_written_total")
assert [[r.get(k) for k in keys] for r in a] == [[r.get(k) for k in keys] for r in b]
PY

# `ssdlab plan` on a 1 GiB file (nothing written; a real device's timing, no floor): per wait
# state w, 360 x (w + 5 s): 1h00m, 1h30m, 2h00m, 3h00m, 5h30m, each return 30m00s: 15h30m after
# the steady state; with 5 .. 25 rounds of 30 minutes and the purge's 5 s settle (a discard on
# a file) the total is 18h00m05s .. 1d04h00m05s, printed 18h00m .. 1d04h.
truncate -s 1G "$tmp/dev" || fail "cannot make a sparse file"
"$SSDLAB" plan snia-hir --target "$tmp/dev" >"$tmp/plan" 2>&1 || fail "plan on a file failed"
python3 - "$tmp/plan" <<'PY' || fail "plan: the waits and bursts do not add up to 15h30m"
import re, sys
t = open(sys.argv[1]).read()
b = re.findall(r"^ *\d+ bursts +time-bound +(\S+) ", t, re.M)
w = re.findall(r"^ *\d+ write_until +time-bound +(\S+) ", t, re.M)
assert b == ["1h00m", "1h30m", "2h00m", "3h00m", "5h30m"], b
assert w == ["30m00s"] * 5, w
assert re.search(r"^total: .*duration 18h00m \.\. 1d04h", t, re.M), t
PY

echo "wall time: $(python3 -c "print('%.1f' % ($(date +%s.%N) - $t0))") s"
[ "$fails" = 0 ] || exit 1
echo "ok: the hir block equals records.jsonl; 50 s waits recover on the aggressive model, none on no-idle-gc; the floor applied; resume inside bursts"
