#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# sprandom_probe_test: the sprandom fill's `slc_cache: {from: DIR}` input end to end on the
# virtual SSD (issue 19, point 1; docs/sprandom.md):
#   - slc-cache runs on client-tlc shrunk to 1 GiB (run_lib.sh's shrink_model);
#   - on a file `plan` gives the reason the fill would be refused (spare unknown);
#   - a sprandom fill with slc_cache: {from: that dir}: `plan` names the directory and the inputs
#     it resolves (the manifest's, compared); the manifest's
#     sprandom inputs and every precondition record's sprandom object carry the slc_cache_bytes
#     that the probe's summary.json states at its lowest fill (rounded to a byte), from
#     "slc-cache probe DIR", and the fill's bytes are the sequence's writes x bs plus that size
#     rounded up to bs; the virtual SSD's host-write counter gained exactly those bytes;
#   - refusals, each before anything is written: DIR not an slc-cache run (the fill's own
#     directory: its summary has no slc_cache), a probe that found no knee (a copy of the
#     probe's directory with cache_detected false), a probe of another drive (the same model
#     under another name), no such directory;
#   - each run under 60 s (wall).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the results"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-spprobe-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
small_client_tlc "$here/../.." "$tmp/m.yaml"
sed -e 's/^name: .*/name: client-tlc-1g-other/' "$tmp/m.yaml" >"$tmp/other.yaml"

timed() { # timed NAME CMD...: runs CMD, fails the test when it takes 60 s or more
	local name=$1 t0 t1
	shift
	t0=$(date +%s.%N)
	"$@"
	local rc=$?
	t1=$(date +%s.%N)
	echo "$name: $(python3 -c "print('%.2f' % ($t1 - $t0))") s"
	python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 60 else 1)" || fail "$name: over 60 s"
	return $rc
}

timed probe "$SSDLAB" run slc-cache --target "sim:$tmp/m.yaml" --out "$tmp/slc" >"$tmp/slc.out" 2>&1 ||
	{ fail "ssdlab run slc-cache failed"; tail -20 "$tmp/slc.out" >&2; exit 1; }

fill_profile() { # fill_profile DIR OUT: a purge and the sprandom fill with the probe in DIR
	cat >"$2" <<YAML
name: spfill
description: the sprandom fill with the SLC cache size an slc-cache run measured
destructive: true
phases:
  - purge: {method: auto}
  - precondition: {method: sprandom, slc_cache: {from: "$1"}}
YAML
}

fill_profile "$tmp/slc" "$tmp/fill.yaml"
# on a file the spare is unknown: plan says why the run would refuse the fill, before any write
truncate -s 64M "$tmp/file.img"
printf 'name: spfile\ndescription: x\ndestructive: true\nphases:\n  - precondition: {method: sprandom}\n' >"$tmp/file.yaml"
"$SSDLAB" plan "$tmp/file.yaml" --target "$tmp/file.img" >"$tmp/plan-file.out" 2>&1 || fail "plan on a file failed"
grep -q "refused on this target, counted as one capacity: sprandom: spare: auto needs the raw NAND size" \
	"$tmp/plan-file.out" || fail "plan on a file does not say why the fill is refused: $(cat "$tmp/plan-file.out")"
"$SSDLAB" plan "$tmp/fill.yaml" --target "sim:$tmp/m.yaml" >"$tmp/plan.out" 2>&1 || fail "plan failed"
grep -q "SLC cache from the slc-cache probe in $tmp/slc)" "$tmp/plan.out" ||
	fail "plan does not name the probe's directory: $(cat "$tmp/plan.out")"
timed fill "$SSDLAB" run "$tmp/fill.yaml" --target "sim:$tmp/m.yaml" --out "$tmp/fill" >"$tmp/fill.out" 2>&1 ||
	{ fail "the sprandom fill failed"; tail -20 "$tmp/fill.out" >&2; exit 1; }

python3 - "$tmp/slc" "$tmp/fill" "$tmp/plan.out" <<'PY' || fail "figures (above)"
import glob, json, sys
probe, d, plan = sys.argv[1:4]
bad = 0
def check(ok, msg):
    global bad
    print(("ok   " if ok else "FAIL ") + msg)
    bad += not ok
# the probe's size, read here from its summary: the entry at the lowest fill
e = min(json.load(open(probe + "/summary.json"))["slc_cache"], key=lambda x: x["fill"])
want = int(round(e["cache_bytes"]))
check(e["cache_detected"] and want > 0, "probe: fill %g, cache %d B" % (e["fill"], want))
m = json.load(open(d + "/manifest.json"))
ins = m["sprandom"][0]["inputs"]
check(ins["slc_cache_bytes"] == want, "manifest slc_cache_bytes %d == probe %d" % (ins["slc_cache_bytes"], want))
check(ins["slc_cache_from"] == "slc-cache probe " + probe, "manifest source: " + ins["slc_cache_from"])
check(ins["slc_cache_probe"] == {"dir": probe, "phase": e["phase"], "fill": e["fill"]},
      "manifest slc_cache_probe %s" % ins["slc_cache_probe"])
# plan resolved the same inputs before the run (its own path: the phase's length hook)
note = "sprandom here: spare %.2f %% (model), clean validity %.4f, %d regions (assumed), SLC cache " % (
    ins["spare"] * 100, ins["alpha"], ins["regions"])
line = [l for l in open(plan) if " precondition " in l]
check(len(line) == 1 and note in line[0] and line[0].rstrip().endswith("(slc-cache probe %s)" % probe),
      "plan's note: " + (line[0].split("; ")[-1].strip() if line else "none"))
bs = ins["bs"]
fill = ins["sequence_writes"] * bs + (want + bs - 1) // bs * bs
check(ins["bytes"] == fill, "fill bytes %d == sequence %d x %d + cache rounded up" % (ins["bytes"], ins["sequence_writes"], bs))
recs = [json.loads(l) for l in open(d + "/records.jsonl")]
pre = [r for r in recs if r["kind"] == "precondition"]
check(len(pre) > 0 and all(r["sprandom"] == ins for r in pre),
      "%d precondition records carry the manifest's inputs" % len(pre))
snaps = {}
for f in glob.glob(d + "/snapshots/*.json"):
    j = json.load(open(f))
    snaps[j["label"]] = {k: v["value"] for k, v in j["counters"].items()}
ends = sorted(l for l in snaps if l.startswith("phase-1-") and l.endswith("-end"))
starts = sorted(l for l in snaps if l.startswith("phase-1-") and l.endswith("-start"))
if ends and starts:
    host = snaps[ends[-1]]["host_bytes_written"] - snaps[starts[0]]["host_bytes_written"]
    check(host == fill, "the virtual SSD's host writes over the fill %d == %d" % (host, fill))
else:
    check(False, "phase 1 snapshots: %s" % sorted(snaps))
sys.exit(1 if bad else 0)
PY

refused() { # refused NAME DIR MODEL PATTERN: the fill with DIR on MODEL is refused with PATTERN
	local name=$1 dir=$2 model=$3 pat=$4
	fill_profile "$dir" "$tmp/$name.yaml"
	if "$SSDLAB" run "$tmp/$name.yaml" --target "sim:$model" --out "$tmp/$name" >"$tmp/$name.out" 2>&1; then
		fail "$name: the fill ran"
		return
	fi
	grep -qF -- "$pat" "$tmp/$name.out" || { fail "$name: no '$pat' in:"; cat "$tmp/$name.out" >&2; }
	! grep -q '"kind": *"precondition"' "$tmp/$name/records.jsonl" 2>/dev/null ||
		fail "$name: a precondition record was written"
	echo "ok   refused: $name"
}
refused not-probe "$tmp/fill" "$tmp/m.yaml" "$tmp/fill/summary.json has no slc_cache entries: not an slc-cache probe run"
cp -r "$tmp/slc" "$tmp/noknee"
python3 - "$tmp/noknee/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
min(s["slc_cache"], key=lambda x: x["fill"])["cache_detected"] = False
json.dump(s, open(sys.argv[1], "w"))
PY
refused no-knee "$tmp/noknee" "$tmp/m.yaml" "cache_detected is false (the probe found no knee"
refused other-drive "$tmp/slc" "$tmp/other.yaml" \
	"that probe ran on another drive ($tmp/slc/manifest.json target: model 'client-tlc-1g' there, 'client-tlc-1g-other' here)"
refused no-dir "$tmp/nothere" "$tmp/m.yaml" "$tmp/nothere/summary.json: no such file"

[ "$fails" = 0 ] || exit 1
