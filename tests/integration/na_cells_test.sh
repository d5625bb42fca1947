#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# na_cells_test (issue 15, point 1): a rounds cell the target cannot run. snia-iops has a 0.5 KiB
# column; on a 4Kn device (client-tlc with logical_block_size 4096, made here with sed) those 7
# cells are recorded as not applicable and the run goes on:
#   - `ssdlab plan` says so up front: the 7 cells, with the reason, and no time for them;
#   - records.jsonl: each round holds every one of the 56 cells in the matrix order, the 7 of
#     0.5 KiB with flags ["not_applicable"], the reason written out below, zero I/O and no time;
#     every other cell did I/O;
#   - summary.json: the 7 cells' entries carry the same "not_applicable", no other entry does,
#     flags.no_io stays empty and the tracked 4 KiB write series has one value per round;
#   - exit 0, and `ssdlab analyze` reproduces summary.json byte for byte.
# Two rounds (window 2) at --time-scale 100 (the drain check's need on this 1 GiB model): about
# 1.3 s measured (2026-12-02).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the records"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-na-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

model="$SSDLAB_SRCDIR/profiles/models/client-tlc.yaml"
[ -r "$model" ] || skip "no $model in the source tree"
sed -e 's/^name: .*/name: client-tlc-4kn/' \
	-e 's/^logical_block_size: .*/logical_block_size: 4096/' \
	-e 's/^user_capacity: .*/user_capacity: 1g/' "$model" >"$tmp/4kn.yaml"
grep -q '^logical_block_size: 4096$' "$tmp/4kn.yaml" || fail "client-tlc.yaml has no logical_block_size line"

reason="block size 512 B is below the device's logical block size of 4096 B"
sets=(--set phases.2.rounds.steady_state.window=2 --set phases.2.rounds.steady_state.max_rounds=2)

# plan: one line naming the reason and exactly the 7 cells of 0.5 KiB
"$SSDLAB" plan snia-iops --target "sim:$tmp/4kn.yaml" "${sets[@]}" >"$tmp/plan" 2>&1 ||
	fail "plan failed: $(cat "$tmp/plan")"
want="not applicable on this target, recorded without I/O and taking no time ($reason):"
for m in 100 95 65 50 35 5 0; do want="$want rwmix_read=$m,bs=512"; done
grep -qF -- "$want" "$tmp/plan" || {
	fail "plan does not list the 7 cells of 0.5 KiB as not applicable"
	sed 's/^/  /' "$tmp/plan" >&2
}

start=$(date +%s%N)
"$SSDLAB" run snia-iops --target "sim:$tmp/4kn.yaml" --time-scale 100 "${sets[@]}" \
	--out "$tmp/r" >"$tmp/run.out" 2>&1
rc=$?
echo "snia-iops on a 4Kn model, 2 rounds: $((($(date +%s%N) - start) / 1000000)) ms wall"
[ $rc -eq 0 ] || {
	fail "run exited $rc"
	sed 's/^/  /' "$tmp/run.out" >&2
}

python3 - "$tmp/r" "$reason" <<'PY' || fail "records or summary (above)"
import json, sys
d, reason = sys.argv[1], sys.argv[2]
recs = [json.loads(l) for l in open(d + "/records.jsonl")]
bad = []
# The matrix written out from the spec's loops: mix outer, block size inner.
order = ["rwmix_read=%d,bs=%s" % (m, b) for m in (100, 95, 65, 50, 35, 5, 0)
         for b in ("1m", "128k", "64k", "32k", "16k", "8k", "4k", "512")]
for rnd in (1, 2):
    cells = [r for r in recs if r["kind"] == "cell" and r["round"] == rnd]
    if [r["cell"] for r in cells] != order:
        bad.append("round %d: cells %s" % (rnd, [r["cell"] for r in cells]))
        continue
    for r in cells:
        na = r["cell"].endswith(",bs=512")
        if na:
            if (r["flags"] != ["not_applicable"] or r.get("not_applicable") != reason
                    or r["total"]["ios"] != 0 or r["elapsed_ns"] != 0
                    or r["start_ns"] != r["end_ns"] or r["read"]["ios"] or r["write"]["ios"]):
                bad.append("round %d %s: %s" % (rnd, r["cell"], json.dumps(r)[:300]))
        elif "not_applicable" in r or r["total"]["ios"] <= 0 or "not_applicable" in r["flags"]:
            bad.append("round %d %s: ran? %s" % (rnd, r["cell"], r["total"]))
s = json.load(open(d + "/summary.json"))
for c in s["cells"]:
    if c.get("kind") != "cell":
        continue
    want = reason if c["cell"].endswith(",bs=512") else None
    if c.get("not_applicable") != want:
        bad.append("summary cell %s: not_applicable %r" % (c["cell"], c.get("not_applicable")))
if len([c for c in s["cells"] if c.get("not_applicable")]) != 7:
    bad.append("summary: not 7 cells not applicable")
if s["flags"]["no_io"]:
    bad.append("summary flags.no_io: %s" % s["flags"]["no_io"])
ss = [e for e in s["steady_state"] if e["cell"] == "rwmix_read=0,bs=4k"]
if len(ss) != 1 or len(ss[0].get("values", [])) != 2:
    bad.append("steady_state: %s" % ss)
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
check_analyze "$tmp/r" "4Kn snia-iops"

[ "$fails" -eq 0 ] || exit 1
echo "ok: 7 cells of 0.5 KiB not applicable on a 4Kn model, each round in the spec's order"
