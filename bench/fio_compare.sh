#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# fio_compare: ssdlab against fio on the same prefilled RAM-backed block device (a zram device
# this script creates through /sys/class/zram-control/hot_add and removes at the end) and on a
# loop device over a file on the real disk (detached at the end). Two modes:
#
# MODE=io (the default): `ssdlab io` against hand-written fio jobs (ioengine=io_uring,
# fixedbufs=1, registerfiles=1, direct=1; no sqpoll or hipri on either side). For each workload,
# PAIRS alternated pairs (fio first in odd pairs, ssdlab first in even ones); per pair the ratios
# ssdlab/fio of IOPS, mean latency, p99 latency and CPU time per I/O; the table gives the median
# ratio and its min-max, and the medians of the absolute figures.
# CPU time is measured the same way for both: user + system time of the whole process from
# wait4(), divided by the I/Os it completed. Latency is submission to completion on both sides
# (fio's lat_ns with lat_percentiles=1; ssdlab's lat_ns).
#
# MODE=export (issue 18): for each profile (default bench/fio_cmp_*.yaml), `ssdlab export-fio
# PROFILE --target DEV` once per device, then PAIRS alternated pairs (fio first in odd pairs) of
# `ssdlab run PROFILE --target DEV` and `fio --output-format=json` of the exported job file, so
# fio runs exactly what export-fio writes (its [global]: no fixedbufs or registerfiles). Per pair
# the ratios ssdlab/fio of IOPS and of bytes; the table gives the median ratio and its min-max,
# the medians of the absolutes, and the read share of the I/Os. IOPS is defined the same way on
# both sides: all I/Os (reads + writes) of the profile's measured jobs over their measured time
# (ramps excluded): ssdlab's records.jsonl, sum of total.ios / sum of elapsed_ns over its
# precondition and cell records; fio's JSON, sum of read.total_ios + write.total_ios / sum of
# job_runtime (ms, so 0.03% resolution on a 3 s job) over its jobs.
#
# Usage (root): bench/fio_compare.sh [BUILD_DIR]     env: MODE=io|export PAIRS=7 SIZE_MB=1024
#               DEVICES="zram loop" OUT=results.md
#   MODE=io:     RUNTIME=5 RAMP=1 ONLY=REGEX (workload labels)
#   MODE=export: PROFILES="bench/fio_cmp_randwrite.yaml ..." (their amounts and times are the
#                run's length; a profile's `range` must fit in SIZE_MB)
# Not a test: MODE=io takes PAIRS x 2 x 5 workloads x 2 devices x (RUNTIME + RAMP) seconds;
# MODE=export with the bundled profiles about PAIRS x 2 x 2 devices x 10 s.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$here/build}
SSDLAB=${SSDLAB:-$build/suite/ssdlab}
RUNTIME=${RUNTIME:-5}
PAIRS=${PAIRS:-7}
RAMP=${RAMP:-1}
SIZE_MB=${SIZE_MB:-1024}
DEVICES=${DEVICES:-"zram loop"}
OUT=${OUT:-}
ONLY=${ONLY:-.} # a regular expression on the workload labels, e.g. ONLY='QD32$'
MODE=${MODE:-io}
PROFILES=${PROFILES:-$(echo "$here"/bench/fio_cmp_*.yaml)}
case $MODE in io | export) ;; *) echo "MODE must be io or export, not $MODE" >&2; exit 2 ;; esac

[ "$(id -u)" -eq 0 ] || { echo "needs root (zram and loop devices)" >&2; exit 2; }
command -v fio >/dev/null || { echo "fio is missing: apt-get install fio" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is missing" >&2; exit 2; }
[ -x "$SSDLAB" ] || { echo "no ssdlab binary at $SSDLAB (build first)" >&2; exit 2; }

work=$(mktemp -d /var/tmp/ssdlab-fiocmp-XXXXXX)
zram_id=
loopdev=
cleanup() {
	if [ -n "$loopdev" ]; then losetup -d "$loopdev" 2>/dev/null || true; fi
	if [ -n "$zram_id" ]; then remove_zram; fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

nproc=$(nproc)
threads2=2
[ "$nproc" -ge 2 ] || threads2=1 # threads no more than cores

# name | rw | bs | qd | threads
workloads=(
	"4k randread QD1|randread|4k|1|1"
	"4k randread QD32|randread|4k|32|1"
	"4k randwrite QD32|randwrite|4k|32|1"
	"128k write QD8|write|128k|8|1"
	"4k randread QD32 x$threads2 threads|randread|4k|32|$threads2"
)

# run.py: runs one command, prints {"cpu_s": user+sys of the child, "json": its stdout parsed}.
cat >"$work/run.py" <<'EOF'
import json, os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
out, err = p.communicate()
# communicate() reaped the child; its rusage is in RUSAGE_CHILDREN, accumulated per run.
import resource
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
if p.returncode != 0:
    sys.stderr.write(err.decode(errors="replace"))
    sys.exit(p.returncode)
text = out.decode()
start = text.find("{")  # fio may print notes before its JSON
print(json.dumps({"cpu_s": ru.ru_utime + ru.ru_stime, "json": json.loads(text[start:])}))
EOF

run_fio() { # dev rw bs qd threads
	python3 "$work/run.py" fio --name=cmp --filename="$1" --ioengine=io_uring --fixedbufs=1 \
		--registerfiles=1 --direct=1 --rw="$2" --bs="$3" --iodepth="$4" --numjobs="$5" \
		--thread --group_reporting --norandommap --randrepeat=0 --time_based \
		--runtime="$RUNTIME" --ramp_time="$RAMP" --lat_percentiles=1 --output-format=json
}

run_ssdlab() { # dev rw bs qd threads
	python3 "$work/run.py" "$SSDLAB" io "$1" --rw "$2" --bs "$3" --qd "$4" --threads "$5" \
		--time "${RUNTIME}s" --ramp "${RAMP}s" --yes-destroy="$1" --json
}

prefill() { # dev
	echo "prefilling $1" >&2
	"$SSDLAB" io "$1" --rw write --bs 1m --qd 8 --amount 1x --yes-destroy="$1" >/dev/null ||
		{ echo "prefill of $1 failed" >&2; return 1; }
}

# The setup functions set the globals dev, zram_id and loopdev (not in a subshell: the EXIT trap
# must see them to remove the devices).
setup_zram() {
	[ -e /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null || true
	[ -e /sys/class/zram-control/hot_add ] || { echo "no zram-control; skipping zram" >&2; return 1; }
	zram_id=$(cat /sys/class/zram-control/hot_add)
	echo "${SIZE_MB}M" >"/sys/block/zram$zram_id/disksize"
	dev=/dev/zram$zram_id
	prefill "$dev"
}

# A process's io_uring keeps the device open for a moment after it exits (fio's rings are torn
# down asynchronously), so reset and removal are retried for up to 5 s.
remove_zram() {
	local i
	for ((i = 0; i < 50; i++)); do
		echo 1 2>/dev/null >"/sys/block/zram$zram_id/reset" && break
		sleep 0.1
	done
	for ((i = 0; i < 50; i++)); do
		echo "$zram_id" 2>/dev/null >/sys/class/zram-control/hot_remove && break
		sleep 0.1
	done
	zram_id=
}

setup_loop() {
	truncate -s "${SIZE_MB}M" "$work/loop.img" || return 1
	loopdev=$(losetup -f --show --direct-io=on "$work/loop.img") || return 1
	dev=$loopdev
	prefill "$dev"
}

# setup_device KIND: the device of that kind (sets dev). A zram device that cannot be made here is
# skipped (returns 1, said why); a loop device that cannot ends the script, as any other failure.
# (Called in an `||` list, where set -e does not reach into the function: hence the explicit checks.)
setup_device() {
	case $1 in
	zram) setup_zram ;;
	loop) setup_loop || { echo "cannot set up the loop device" >&2; exit 1; } ;;
	*) echo "unknown device kind $1" >&2; exit 2 ;;
	esac
}

teardown_device() {
	if [ -n "$zram_id" ]; then remove_zram; fi
	if [ -n "$loopdev" ]; then losetup -d "$loopdev"; loopdev=; fi
}

# pairs KIND FIELD LABEL RUNNER ARGS...: PAIRS alternated pairs (fio first in odd pairs, ssdlab
# first in even ones), each side run as RUNNER_fio / RUNNER_ssdlab ARGS..., one JSON line per run
# in $results ({"device": KIND, FIELD: LABEL, "pair", "tool", "run"}).
pairs() {
	local kind=$1 field=$2 label=$3 runner=$4 p order tool r
	shift 4
	for ((p = 1; p <= PAIRS; p++)); do
		if ((p % 2)); then order="fio ssdlab"; else order="ssdlab fio"; fi
		for tool in $order; do
			r=$("${runner}_$tool" "$@")
			printf '{"device":"%s","%s":"%s","pair":%d,"tool":"%s","run":%s}\n' \
				"$kind" "$field" "$label" "$p" "$tool" "$r" >>"$results"
		done
		echo "$kind / $label: pair $p of $PAIRS done" >&2
	done
}

# Raw per-run figures are kept next to OUT (or in the current directory).
results=${OUT:+$OUT.jsonl}
results=${results:-fio_compare-$(date -u +%Y%m%dT%H%M%SZ).jsonl}
: >"$results"

# MODE=export. figures.py: one run's I/O from ssdlab's records.jsonl or fio's JSON, read here on
# each side by its own keys (the same definition of IOPS: all measured I/Os over the measured time).
cat >"$work/figures.py" <<'EOF'
import json, sys
tool, path = sys.argv[1], sys.argv[2]
f = {"reads": 0, "writes": 0, "bytes": 0, "time_ns": 0, "jobs": 0}
if tool == "ssdlab":
    for line in open(path):
        r = json.loads(line)
        if r.get("kind") not in ("precondition", "cell") or r.get("elapsed_ns", 0) == 0:
            continue
        f["reads"] += r["read"]["ios"]
        f["writes"] += r["write"]["ios"]
        f["bytes"] += r["total"]["bytes"]
        f["time_ns"] += r["elapsed_ns"]
        f["jobs"] += 1
else:
    text = open(path).read()
    for j in json.loads(text[text.find("{"):])["jobs"]:  # fio may print notes before its JSON
        f["reads"] += j["read"]["total_ios"]
        f["writes"] += j["write"]["total_ios"]
        f["bytes"] += j["read"]["io_bytes"] + j["write"]["io_bytes"]
        f["time_ns"] += j["job_runtime"] * 1000000
        f["jobs"] += 1
print(json.dumps(f))
EOF

run_export_fio() { # dev profile jobfile (the job file names the device itself)
	fio --output-format=json --output="$work/fio.json" "$3" >"$work/fio.out" 2>&1 ||
		{ cat "$work/fio.out" >&2; return 1; }
	python3 "$work/figures.py" fio "$work/fio.json"
}

run_export_ssdlab() { # dev profile jobfile (ssdlab runs the profile)
	rm -rf "$work/run"
	"$SSDLAB" run "$2" --target "$1" --yes-destroy="$1" --out "$work/run" --quiet >"$work/run.out" 2>&1 ||
		{ cat "$work/run.out" >&2; return 1; }
	python3 "$work/figures.py" ssdlab "$work/run/records.jsonl"
}

export_compare() {
	local kind prof pname
	for kind in $DEVICES; do
		setup_device "$kind" || continue
		mkdir -p "$work/fio-$kind"
		for prof in $PROFILES; do
			pname=$(sed -n 's/^name: *//p' "$prof")
			"$SSDLAB" export-fio "$prof" --target "$dev" --out "$work/fio-$kind" >/dev/null
			fio --parse-only "$work/fio-$kind/$pname.fio" >/dev/null
			pairs "$kind" profile "$pname" run_export "$dev" "$prof" "$work/fio-$kind/$pname.fio"
		done
		teardown_device
	done

	python3 - "$results" <<'EOF' | tee ${OUT:+"$OUT"}
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
groups = {}
for r in rows:
    groups.setdefault((r["device"], r["profile"]), {}).setdefault(r["pair"], {})[r["tool"]] = r["run"]
iops = lambda f: (f["reads"] + f["writes"]) * 1e9 / f["time_ns"]
share = lambda f: f["reads"] / (f["reads"] + f["writes"])
med = statistics.median
print("| device | profile | fio IOPS | ssdlab IOPS | IOPS ratio (min-max) | fio MiB | ssdlab MiB | bytes ratio (min-max) | read share fio / ssdlab |")
print("|---|---|---|---|---|---|---|---|---|")
npairs = 0
for (dev, prof), pairs in groups.items():
    ab = {t: {"iops": [], "mib": [], "share": []} for t in ("fio", "ssdlab")}
    rat = {"iops": [], "bytes": []}
    for p, runs in sorted(pairs.items()):
        if "fio" not in runs or "ssdlab" not in runs:
            continue
        npairs += 1
        for t in ("fio", "ssdlab"):
            ab[t]["iops"].append(iops(runs[t]))
            ab[t]["mib"].append(runs[t]["bytes"] / 2**20)
            ab[t]["share"].append(share(runs[t]))
        rat["iops"].append(iops(runs["ssdlab"]) / iops(runs["fio"]))
        rat["bytes"].append(runs["ssdlab"]["bytes"] / runs["fio"]["bytes"])
    rr = lambda k: f"{med(rat[k]):.3f} ({min(rat[k]):.3f}-{max(rat[k]):.3f})"
    print(f"| {dev} | {prof} | {med(ab['fio']['iops']):.0f} | {med(ab['ssdlab']['iops']):.0f} | {rr('iops')} "
          f"| {med(ab['fio']['mib']):.1f} | {med(ab['ssdlab']['mib']):.1f} | {rr('bytes')} "
          f"| {med(ab['fio']['share']):.3f} / {med(ab['ssdlab']['share']):.3f} |")
print(f"\n{npairs} pairs; ratios are ssdlab / fio per pair; IOPS = all measured I/Os / measured time "
      "(ssdlab: records' elapsed_ns; fio: jobs' job_runtime).")
EOF
}
if [ "$MODE" = export ]; then
	export_compare
	exit 0
fi

for kind in $DEVICES; do
	setup_device "$kind" || continue
	for w in "${workloads[@]}"; do
		IFS='|' read -r label rw bs qd th <<<"$w"
		[[ $label =~ $ONLY ]] || continue
		pairs "$kind" workload "$label" run "$dev" "$rw" "$bs" "$qd" "$th"
	done
	teardown_device
done

python3 - "$results" "$RUNTIME" "$PAIRS" "$RAMP" <<'EOF' | tee ${OUT:+"$OUT"}
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]

def figures(tool, run):
    j = run["json"]
    if tool == "fio":
        job = j["jobs"][0]
        d = job["write"] if job["write"]["total_ios"] > job["read"]["total_ios"] else job["read"]
        ios = job["read"]["total_ios"] + job["write"]["total_ios"]
        lat = d["lat_ns"]
        return {"iops": d["iops"], "mean": lat["mean"], "p99": lat["percentile"]["99.000000"],
                "ios": ios}
    ios = j.get("read", {}).get("ios", 0) + j.get("write", {}).get("ios", 0)
    return {"iops": j["iops"], "mean": j["lat_ns"]["mean"], "p99": j["lat_ns"]["p99"], "ios": ios}

# Each process's CPU covers its ramp too; count the ramp's I/Os in by scaling with the time ratio.
def cpu_per_io(run, f, runtime, ramp):
    total_ios = f["iops"] * (runtime + ramp)
    return run["cpu_s"] * 1e6 / total_ios if total_ios else float("nan")

groups = {}
for r in rows:
    groups.setdefault((r["device"], r["workload"]), {}).setdefault(r["pair"], {})[r["tool"]] = r["run"]

runtime = float(sys.argv[2])
ramp = float(sys.argv[4])
print(f"| device | workload | fio IOPS | ssdlab IOPS | IOPS ratio (min-max) | mean lat fio / ssdlab (us) | mean ratio (min-max) | p99 fio / ssdlab (us) | p99 ratio (min-max) | CPU us/IO fio / ssdlab | CPU ratio (min-max) |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for (dev, wl), pairs in groups.items():
    rat = {"iops": [], "mean": [], "p99": [], "cpu": []}
    absf = {t: {"iops": [], "mean": [], "p99": [], "cpu": []} for t in ("fio", "ssdlab")}
    for p, runs in sorted(pairs.items()):
        if "fio" not in runs or "ssdlab" not in runs:
            continue
        f = {t: figures(t, runs[t]) for t in ("fio", "ssdlab")}
        c = {t: cpu_per_io(runs[t], f[t], runtime, ramp) for t in ("fio", "ssdlab")}
        for k in ("iops", "mean", "p99"):
            rat[k].append(f["ssdlab"][k] / f["fio"][k])
            for t in ("fio", "ssdlab"):
                absf[t][k].append(f[t][k])
        rat["cpu"].append(c["ssdlab"] / c["fio"])
        for t in ("fio", "ssdlab"):
            absf[t]["cpu"].append(c[t])
    med = lambda v: statistics.median(v)
    rr = lambda k: f"{med(rat[k]):.3f} ({min(rat[k]):.3f}-{max(rat[k]):.3f})"
    print(f"| {dev} | {wl} | {med(absf['fio']['iops']):.0f} | {med(absf['ssdlab']['iops']):.0f} | {rr('iops')} "
          f"| {med(absf['fio']['mean'])/1e3:.1f} / {med(absf['ssdlab']['mean'])/1e3:.1f} | {rr('mean')} "
          f"| {med(absf['fio']['p99'])/1e3:.1f} / {med(absf['ssdlab']['p99'])/1e3:.1f} | {rr('p99')} "
          f"| {med(absf['fio']['cpu']):.2f} / {med(absf['ssdlab']['cpu']):.2f} | {rr('cpu')} |")
print(f"\n{len(rows)//2} pairs, {sys.argv[2]} s per run after a {sys.argv[4]} s ramp; ratios are ssdlab / fio per pair.")
EOF
