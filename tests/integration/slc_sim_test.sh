#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# slc_sim_test: the bundled slc-cache profile end to end on two virtual SSDs, a dynamic SLC
# cache (client-tlc) and a static one (static-slc), checked against the simulator's own
# counters, never against analysis/:
#   - the truth of a probe: the host data that went into SLC during it, from the phase's start
#     and end snapshots: slc_cache_used_bytes (host data held in SLC blocks) gained plus
#     nand_bytes_written_fold gained (SLC data folded into TLC meanwhile; the probe writes
#     fresh LBAs, so no SLC data is overwritten);
#   - summary.json's slc_cache has one entry per fill level (0, 50, 85 %), each with a cache
#     detected and cache_bytes within 2 % of the truth;
#   - the static cache is within 2 % of the model file's slc_cache.size at each fill level,
#     and the counters show the same cache at each level; the dynamic one shrinks as the
#     drive fills (truth and estimate);
#   - the in-cache and post-cache speeds within 5 % of the mean rate of the series rows
#     well inside the cache (up to 90 % of the truth) and well after it (from the truth plus
#     2 % of the capacity on, over 10 % of the capacity);
#   - the stop rule (below 70 % of the peak for 0.1x capacity) ended each probe after the cache
#     had run out and at least 0.1x capacity more was written, but before 0.2x more (chunks
#     are 0.025x);
#   - each bootstrap interval (cache size, the two speeds, every level's speed) holds its own
#     estimate;
#   - the headline prints one "SLC cache" line per fill level, and no WSAT line for the probes;
#   - `ssdlab plan` shows each probe's bytes and time as upper bounds ("up to");
#   - slc-cache-rest (probe, rest, probe again) on both models: what came back during each rest
#     within 5 % of the SLC room the counters show freed during the idle (bytes and per second
#     of the idle), nothing where they show none, bounds holding the estimates, and the
#     saturated flag where the whole cache came back;
#   - each run takes under 60 s (wall).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the results"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-slc-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
models="$here/../../profiles/models"

# plan counts each probe to the end of its range, and says so: "up to" in its bytes and time
"$SSDLAB" plan slc-cache --target sim:client-tlc >"$tmp/plan.out" 2>&1 || fail "plan slc-cache failed"
n=$(grep -cE '^ +[0-9]+ write_until +up to [0-9.]+ [KMG]iB +up to .*stop rule usually ends it sooner' "$tmp/plan.out")
[ "$n" = 3 ] || fail "plan: $n probe lines with 'up to' bytes and time, want 3"
grep -q '^total: writes up to .*; duration up to .*stop rule counted to the end' "$tmp/plan.out" ||
	fail "plan: the total does not say it is an upper bound"

for m in client-tlc static-slc; do
	t0=$(date +%s.%N)
	if ! "$SSDLAB" run slc-cache --target "sim:$m" --out "$tmp/$m" >"$tmp/$m.out" 2>&1; then
		fail "$m: ssdlab run slc-cache failed:"
		tail -20 "$tmp/$m.out" >&2
		continue
	fi
	t1=$(date +%s.%N)
	echo "$m: run and analysis in $(python3 -c "print('%.2f' % ($t1 - $t0))") s"
	python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 60 else 1)" || fail "$m: over 60 s"
	n=$(grep -c '^SLC cache      fill' "$tmp/$m.out")
	[ "$n" = 3 ] || fail "$m: $n headline lines for the SLC cache, want 3"
	# the probes' result is their SLC line, not a WSAT line
	! grep -q '^WSAT' "$tmp/$m.out" || fail "$m: the headline prints WSAT lines for the probes"
	python3 - "$tmp/$m" "$models/$m.yaml" "$m" <<'PY' || fail "$m: figures (above)"
import glob, json, re, sys
d, model, name = sys.argv[1:4]
bad = 0
def check(ok, msg):
    global bad
    print(("ok   " if ok else "FAIL ") + msg)
    bad += not ok
snaps = {}
for f in sorted(glob.glob(d + "/snapshots/*.json")):
    j = json.load(open(f))
    snaps[j["label"]] = {k: v["value"] for k, v in j["counters"].items()}
cap = json.load(open(d + "/manifest.json"))["target"]["capacity"]
size = re.search(r"^\s+size:\s*(\d+)m", open(model).read(), re.M)
static = "dynamic: false" in open(model).read()
s = json.load(open(d + "/summary.json"))
e = s.get("slc_cache", [])
check([x["fill"] for x in e] == [0, 0.5, 0.85], "%s: probes at fills %s" % (name, [x["fill"] for x in e]))
truths = []
for x in e:
    p = x["phase"]
    a, b = snaps["phase-%d-write_until-start" % p], snaps["phase-%d-write_until-end" % p]
    truth = (b["slc_cache_used_bytes"] - a["slc_cache_used_bytes"]
             + b["nand_bytes_written_fold"] - a["nand_bytes_written_fold"])
    truths.append(truth)
    got = x["cache_bytes"]
    check(x["cache_detected"] and got is not None, "%s fill %g: cache detected" % (name, x["fill"]))
    if got is None:
        continue
    err = (got - truth) / truth
    check(abs(err) <= 0.02, "%s fill %g: cache %.0f B, counters %.0f B (%+.2f%%)" % (name, x["fill"], got, truth, 100 * err))
    if static:
        want = int(size.group(1)) * 2**20
        err = (got - want) / want
        check(abs(err) <= 0.02, "%s fill %g: cache %.0f B, model file %d B (%+.2f%%)" % (name, x["fill"], got, want, 100 * err))
    # each bootstrap interval holds its own estimate (slc.c, boot_model)
    for k in ("cache_bytes", "in_cache_mbps", "post_cache_mbps"):
        lo, hi = x[k + "_lo"], x[k + "_hi"]
        check(lo is not None and hi is not None and lo <= x[k] <= hi,
              "%s fill %g: %s %.6g in [%s, %s]" % (name, x["fill"], k, x[k], lo, hi))
    for j, lv in enumerate(x["levels"]):
        check(lv["mbps_lo"] <= lv["mbps"] <= lv["mbps_hi"],
              "%s fill %g: level %d %.2f MB/s in [%.2f, %.2f]" % (name, x["fill"], j, lv["mbps"], lv["mbps_lo"], lv["mbps_hi"]))
    # speeds from the series rows, independently of the fit
    rows = list(csv_rows for csv_rows in open(glob.glob(d + "/series/phase-%02d-rep-00-write_until.csv" % p)[0]))
    hdr = rows[0].strip().split(",")
    it, ib = hdr.index("t_ns"), hdr.index("total_bytes_written")
    pts = [(0, 0)] + [(int(r.split(",")[it]), int(r.split(",")[ib])) for r in rows[1:]]
    def rate(lo, hi):
        sel = [q for q in pts if lo <= q[1] <= hi]
        return (sel[-1][1] - sel[0][1]) / (sel[-1][0] - sel[0][0]) * 1e3  # MB/s
    written = pts[-1][1]
    rng = json.load(open(d + "/manifest.json"))["plan"]["phases"][p]["settings"]["workload"]["range"]
    span = (rng["hi_fraction"] - rng["lo_fraction"]) * cap
    check(truth + 0.1 * cap <= written <= min(truth + 0.2 * cap, span),
          "%s fill %g: the probe stopped after %.0f B (cache %.0f B, range %.0f B)" % (name, x["fill"], written, truth, span))
    rin = rate(0, 0.9 * truth)
    rpost = rate(truth + 0.02 * cap, truth + 0.12 * cap)
    check(abs(x["in_cache_mbps"] / rin - 1) <= 0.05, "%s fill %g: in-cache %.1f MB/s, series %.1f" % (name, x["fill"], x["in_cache_mbps"], rin))
    check(abs(x["post_cache_mbps"] / rpost - 1) <= 0.05, "%s fill %g: post-cache %.1f MB/s, series %.1f" % (name, x["fill"], x["post_cache_mbps"], rpost))
if len(truths) == 3:
    if static:
        check(max(truths) == min(truths), "%s: the counters show one cache size at every fill %s" % (name, truths))
    else:
        check(truths[0] > truths[1] > truths[2], "%s: the dynamic cache shrinks as the drive fills %s" % (name, truths))
        check(e[0]["cache_bytes"] > e[1]["cache_bytes"] > e[2]["cache_bytes"], "%s: and so does the estimate" % name)
sys.exit(1 if bad else 0)
PY
done
# slc-cache-rest: probe, rest, probe again. The truth of a rest: the SLC room that came back
# during the idle, from the idle's start and end snapshots: room = slc_cache_limit_bytes -
# slc_cache_used_bytes (negative when a dynamic cache shrank under the data it holds), and
# what came back max(0, room at the end) - max(0, room at the start); the static cache starts
# each rest full (room 0), and its room comes back as the drive folds (nand_bytes_written_fold
# gained during the idle, checked equal). The seconds are the snapshots' target_ns.
for m in static-slc client-tlc; do
	t0=$(date +%s.%N)
	if ! "$SSDLAB" run slc-cache-rest --target "sim:$m" --out "$tmp/rest-$m" >"$tmp/rest-$m.out" 2>&1; then
		fail "$m: ssdlab run slc-cache-rest failed:"
		tail -20 "$tmp/rest-$m.out" >&2
		continue
	fi
	t1=$(date +%s.%N)
	echo "$m: slc-cache-rest run and analysis in $(python3 -c "print('%.2f' % ($t1 - $t0))") s"
	python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 60 else 1)" || fail "$m: over 60 s"
	n=$(grep -c '^SLC recovery   phase' "$tmp/rest-$m.out")
	[ "$n" = 2 ] || fail "$m: $n headline lines for the rests, want 2"
	python3 - "$tmp/rest-$m" "$m" <<'PY' || fail "$m: rest figures (above)"
import glob, json, sys
d, name = sys.argv[1:3]
bad = 0
def check(ok, msg):
    global bad
    print(("ok   " if ok else "FAIL ") + msg)
    bad += not ok
snaps = {}
for f in sorted(glob.glob(d + "/snapshots/*.json")):
    j = json.load(open(f))
    snaps[j["label"]] = (j["target_ns"], {k: v["value"] for k, v in j["counters"].items()})
s = json.load(open(d + "/summary.json"))
rests = [x for x in s.get("slc_cache", []) if x.get("rest")]
check([x["phase"] for x in rests] == [4, 6], "%s: rests before phases %s" % (name, [x["phase"] for x in rests]))
for x in rests:
    r = x["rest"]
    (ta, a), (tb, b) = snaps["phase-%d-idle-start" % r["idle_phase"]], snaps["phase-%d-idle-end" % r["idle_phase"]]
    room = lambda c: c["slc_cache_limit_bytes"] - c["slc_cache_used_bytes"]
    truth = max(0, room(b)) - max(0, room(a))
    secs = (tb - ta) * 1e-9
    fold = b["nand_bytes_written_fold"] - a["nand_bytes_written_fold"]
    got = r["recovered_bytes"]
    if name == "static-slc":
        check(room(a) >= 0 and truth == fold,
              "%s phase %d: room %d -> %d, folded %d during the idle" % (name, x["phase"], room(a), room(b), fold))
    if truth == 0:
        check(got == 0 and r["recovered_per_s"] == 0,
              "%s phase %d: nothing came back (room %d -> %d), reported %r" % (name, x["phase"], room(a), room(b), got))
        continue
    err = (got - truth) / truth
    check(abs(err) <= 0.05, "%s phase %d: %.0f B came back, counters %.0f B (%+.2f%%)" % (name, x["phase"], got, truth, 100 * err))
    err = (r["recovered_per_s"] - truth / secs) / (truth / secs)
    check(abs(err) <= 0.05, "%s phase %d: %.0f B/s of idle, counters %.0f B in %.3f s (%+.2f%%)" %
          (name, x["phase"], r["recovered_per_s"], truth, secs, 100 * err))
    check(r["recovered_bytes_lo"] <= got <= r["recovered_bytes_hi"] and
          r["recovered_per_s_lo"] <= r["recovered_per_s"] <= r["recovered_per_s_hi"],
          "%s phase %d: bounds hold the estimates" % (name, x["phase"]))
    # saturated: the rest gave back the whole cache (the counters' SLC limit, static here)
    if name == "static-slc":
        check(r["saturated"] == (truth >= 0.95 * b["slc_cache_limit_bytes"]),
              "%s phase %d: saturated %s (%.0f B back of a %.0f B cache)" % (name, x["phase"], r["saturated"], truth, b["slc_cache_limit_bytes"]))
sys.exit(1 if bad else 0)
PY
done

[ "$fails" = 0 ] || exit 1
echo "slc_sim: all checks passed"
