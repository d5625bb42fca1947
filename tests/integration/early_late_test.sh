#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# early_late_test (issue 19, point 2's third test): on a model whose behaviour changes late,
# tests/data/big-slc-slow.yaml (client-tlc with a dynamic SLC cache of 1.9 GB on 4 GiB that never
# folds on idle and writes through SLC after it is full), the early verdict does not fire before
# the round where the full SNIA rule's accepted window begins. The run is one --strict-pts run
# of tests/data/early-iops.yaml (1x sequential fill, 10 min cells: a round writes about a tenth
# of the drive), so the full rule runs on the same series the early rule saw:
#   - the model does change late: a round from round 3 on is below half of round 1's IOPS (if a
#     model change removes that, the test fails rather than passing on a flat series);
#   - the SNIA rule reaches steady state, its window beginning at round F;
#   - the early verdict is "not predicted" or its round is >= F; early_check.py recomputes it
#     from records.jsonl, also without the guard, and prints both.
# Measured 2026-12-02: 2.0-2.6 s wall.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the records"
: "${SSDLAB_SRCDIR:?SSDLAB_SRCDIR must point at the source tree (meson sets it)}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-early-late-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
model="$SSDLAB_SRCDIR/tests/data/big-slc-slow.yaml"

start=$(date +%s%N)
"$SSDLAB" run "$SSDLAB_SRCDIR/tests/data/early-iops.yaml" --target "sim:$model" --strict-pts \
	--set phases.2.rounds.cell_time=10m --out "$tmp/late" >"$tmp/late.out" 2>&1
rc=$?
[ $rc -eq 0 ] || { sed 's/^/  /' "$tmp/late.out" >&2; fail "run on big-slc-slow: exit $rc"; }
python3 "$here/early_check.py" "$tmp/late" || fail "the checker disagrees (above)"
python3 - "$tmp/late/summary.json" <<'PY' || fail "big-slc-slow: see above"
import json, sys
s = json.load(open(sys.argv[1]))["steady_state"][0]
y, e = s["values"], s["early"]
bad = []
print("big-slc-slow IOPS by round: " + " ".join("%.0f" % v for v in y))
if not any(v < 0.5 * y[0] for v in y[2:]):
    bad.append("the model did not change late (no round from 3 on below half of round 1)")
if s["verdict"] != "reached":
    bad.append("the SNIA rule did not reach steady state: %s" % s["verdict"])
elif e["verdict"] == "predicted" and e["round"] < s["first_round"]:
    bad.append("early verdict at round %d, before the SNIA window's first round %d" % (
        e["round"], s["first_round"]))
print("SNIA window %d-%d; early verdict %s%s" % (s["first_round"], s["last_round"], e["verdict"],
      " at round %d" % e["round"] if e["round"] else ""))
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
echo "early_late_test: $((($(date +%s%N) - start) / 1000000)) ms wall"
[ $fails -eq 0 ]
