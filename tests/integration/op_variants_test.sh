#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# op_variants_test: the bundled op-variants profile (issue 14 point 1) end to end on virtual SSDs,
# checked against the model files, the greedy theory computed here (Desnoyers, SYSTOR 2012,
# Eq. 12, with our own Lambert W by Newton's method, not analysis/theory.c) and the simulator's
# counters, never against analysis/:
#   - greedy-ref (tests/integration/greedy-ref.yaml: greedy GC, no SLC cache): three variants at 100%, 87.5%, 75%; the user capacity
#     of each floor(C x f / 1 MiB) MiB, the spare added C minus that; WA measured from the
#     counters of the measured (rounds) phase's start and end snapshots equals summary.json's;
#     it falls as spare grows and is within 5% of the greedy model with alpha = (physical blocks
#     - GC reserve) x block / user capacity, physical blocks = ceil(user_capacity / (1 - spare) /
#     block) and reserve = dies + 2 (docs/virtual-ssd.md), all from the model file;
#   - enterprise-28op (32 dies, no SLC cache, at --time-scale 10): the same, except that the
#     measured WA is checked against the greedy model at the effective spare (physical blocks -
#     GC reserve - dies / 2: one open block per die, half written on average), within 5% on
#     greedy-ref too; summary.json's greedy_model and greedy_model_effective equal ours;
#   - idle-gc-aggressive (16 dies, no SLC cache; the other bundled model without one): the same
#     effective-spare check at time scale 1;
#   - the simulator's capacity is restored: the run-end snapshot's capacity is the model's;
#   - client-tlc (an SLC cache): WA still falls as spare grows and no greedy model is claimed;
#   - the headline prints one OP variant line per variant;
#   - each run takes under 60 s (wall).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the results"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-opv-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
models="$here/../../profiles/models"

for m in greedy-ref client-tlc enterprise-28op idle-gc-aggressive; do
	mf="$models/$m.yaml" spec="sim:$m" scale=()
	[ "$m" = greedy-ref ] && mf="$here/greedy-ref.yaml" spec="sim:$here/greedy-ref.yaml"
	# enterprise-28op's WA swings by about +-5 % with a period of about 0.17 capacity writes
	# (its 874 blocks are reclaimed in waves); at time scale 1 the measured phase writes 0.08x
	# and lands on one side of it: ten times longer averages it out (docs/op-variants.md)
	[ "$m" = enterprise-28op ] && scale=(--time-scale 10)
	t0=$(date +%s.%N)
	if ! "$SSDLAB" run op-variants --target "$spec" "${scale[@]}" --out "$tmp/$m" >"$tmp/$m.out" 2>&1; then
		fail "$m: ssdlab run op-variants failed:"
		tail -20 "$tmp/$m.out" >&2
		continue
	fi
	t1=$(date +%s.%N)
	echo "$m: run and analysis in $(python3 -c "print('%.2f' % ($t1 - $t0))") s"
	python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 60 else 1)" || fail "$m: over 60 s"
	n=$(grep -c '^OP variant' "$tmp/$m.out")
	[ "$n" = 3 ] || fail "$m: $n OP variant headline lines, want 3"
	python3 - "$tmp/$m" "$mf" "$m" <<'PY' || fail "$m: op_variants check"
import glob, json, math, re, sys

d, model_file, name = sys.argv[1:4]
ok = True


def bad(msg):
    global ok
    ok = False
    print("  FAIL:", msg)


def size(s):
    m = re.fullmatch(r"([0-9.]+)([kmg]?)", s.strip().lower())
    return int(float(m.group(1)) * {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[m.group(2)])


model = {}
for line in open(model_file):
    m = re.match(r"^([a-z_]+):\s*([^#]*?)\s*(#.*)?$", line)
    if m and m.group(2):
        model[m.group(1)] = m.group(2)
user = size(model["user_capacity"])


def w0(x):  # principal branch of Lambert W by Newton's method
    w = -0.5 if x < -0.2 else x
    for _ in range(200):
        ew = math.exp(w)
        w -= (w * ew - x) / (ew * (w + 1))
    return w


def greedy(alpha, np_):  # Desnoyers, SYSTOR 2012, Eq. 12
    k = 1 + 1 / (2 * np_)
    ka = k * alpha
    return ka / (ka + w0(-ka * math.exp(-ka))) / k


summary = json.load(open(d + "/summary.json"))
ov = summary.get("op_variants") or []
if len(ov) != 3:
    bad("%d op_variants entries, want 3" % len(ov))
snaps = {}
end = None
for f in sorted(glob.glob(d + "/snapshots/*.json")):
    s = json.load(open(f))
    if s["label"] == "run-end":
        end = s
    if "phase" in s and "repeat" in s:
        snaps[(s["phase"], s["repeat"], s["label"].rsplit("-", 1)[-1])] = s
c = lambda s, k: s["counters"][k]["value"]
was = []
for i, (v, f) in enumerate(zip(ov, (1.0, 0.875, 0.75))):
    u = user if f == 1 else int(user * f) // (1 << 20) * (1 << 20)
    if v["user_capacity"] != u or v["spare_added_bytes"] != user - u:
        bad("variant %d: user %s spare %s, want %d and %d" % (i + 1, v["user_capacity"], v["spare_added_bytes"], u, user - u))
    a, b = snaps.get((v["phase"], i, "start")), snaps.get((v["phase"], i, "end"))
    if not a or not b:
        bad("variant %d: no start/end snapshots of phase %s" % (i + 1, v["phase"]))
        continue
    wa = (c(b, "nand_bytes_written") - c(a, "nand_bytes_written")) / (c(b, "host_bytes_written") - c(a, "host_bytes_written"))
    was.append(wa)
    if v["wa"] is None or abs(v["wa"] / wa - 1) > 1e-6:
        bad("variant %d: summary WA %s, counters %.4f" % (i + 1, v["wa"], wa))
    if "slc_cache" in open(model_file).read():
        if v["greedy_model"] is not None:
            bad("variant %d: a greedy model claimed on a model with an SLC cache" % (i + 1))
        print("  variant %d: %.4g%% user %d, WA %.4f (SLC cache: no model)" % (i + 1, 100 * f, u, wa))
        continue
    # spare_factor, or op (spare over user): sf = op / (1 + op), as the model loader has it
    sf = float(model["spare_factor"]) if "spare_factor" in model else \
        float(model["op"].rstrip("%")) / 100 / (1 + float(model["op"].rstrip("%")) / 100)
    block = size(model["page_size"]) * int(model["pages_per_block"])
    phys = math.ceil(user / (1 - sf) / block - 1e-9)
    dies = int(model["channels"]) * int(model["dies_per_channel"])
    reserve = dies + 2
    mu = size(model.get("mapping_unit", "4k"))  # the simulator's default mapping unit
    alpha = (phys - reserve) * block / u
    want = greedy(alpha, block // mu)
    # effective spare: one open block per die, half written on average, holds neither data nor
    # spare greedy GC can use
    eff = greedy((phys - reserve - dies / 2) * block / u, block // mu)
    print("  variant %d: %.4g%% user %d, WA %.4f, greedy model %.4f (%+.2f%%), effective spare %.4f (%+.2f%%)"
          % (i + 1, 100 * f, u, wa, want, 100 * (wa / want - 1), eff, 100 * (wa / eff - 1)))
    # the nominal model holds within 5 % only where the open blocks are few (one die)
    if dies == 1 and abs(wa / want - 1) > 0.05:
        bad("variant %d: WA %.4f not within 5%% of the greedy model's %.4f" % (i + 1, wa, want))
    if abs(wa / eff - 1) > 0.05:
        bad("variant %d: WA %.4f not within 5%% of the effective-spare model's %.4f" % (i + 1, wa, eff))
    g = v["greedy_model"]
    if not g or abs(g["wa"] / want - 1) > 1e-6:
        bad("variant %d: summary's greedy model %s, want %.6f" % (i + 1, g, want))
    g = v.get("greedy_model_effective")
    if not g or abs(g["wa"] / eff - 1) > 1e-6 or g["unwritten_open_blocks"] != dies / 2:
        bad("variant %d: summary's effective-spare model %s, want %.6f" % (i + 1, g, eff))
if len(was) == 3 and not (was[0] > was[1] > was[2]):
    bad("WA does not fall as spare grows: %s" % was)
if not end or end["raw"]["capacity"] != user:
    bad("the simulator's capacity is not restored: %s, model %d" % (end and end["raw"].get("capacity"), user))
sys.exit(0 if ok else 1)
PY
done
[ "$fails" = 0 ] || exit 1
echo "op_variants: all checks passed"
