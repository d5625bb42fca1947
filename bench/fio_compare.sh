#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# fio_compare: ssdlab io against fio (ioengine=io_uring, fixedbufs=1, registerfiles=1,
# direct=1; no sqpoll or hipri on either side) on the same prefilled RAM-backed block device
# (a zram device this script creates through /sys/class/zram-control/hot_add and removes at the
# end) and on a loop device over a file on the real disk. For each workload, PAIRS alternated
# pairs (fio first in odd pairs, ssdlab first in even ones); per pair the ratios ssdlab/fio of
# IOPS, mean latency, p99 latency and CPU time per I/O; the table gives the median ratio and
# its min-max, and the medians of the absolute figures.
#
# CPU time is measured the same way for both: user + system time of the whole process from
# wait4(), divided by the I/Os it completed. Latency is submission to completion on both sides
# (fio's lat_ns with lat_percentiles=1; ssdlab's lat_ns).
#
# Usage (root): bench/fio_compare.sh [BUILD_DIR]     env: RUNTIME=5 PAIRS=7 RAMP=1 SIZE_MB=1024
#               DEVICES="zram loop" OUT=results.md ONLY=REGEX (workload labels)
# Not a test: it takes PAIRS x 2 x 5 workloads x 2 devices x (RUNTIME + RAMP) seconds.
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
	"$SSDLAB" io "$1" --rw write --bs 1m --qd 8 --amount 1x --yes-destroy="$1" >/dev/null
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
	truncate -s "${SIZE_MB}M" "$work/loop.img"
	loopdev=$(losetup -f --show --direct-io=on "$work/loop.img")
	dev=$loopdev
	prefill "$dev"
}

# Raw per-run figures are kept next to OUT (or in the current directory).
results=${OUT:+$OUT.jsonl}
results=${results:-fio_compare-$(date -u +%Y%m%dT%H%M%SZ).jsonl}
: >"$results"
for kind in $DEVICES; do
	case $kind in
	zram) setup_zram || continue ;;
	loop) setup_loop ;;
	*) echo "unknown device kind $kind" >&2; exit 2 ;;
	esac
	for w in "${workloads[@]}"; do
		IFS='|' read -r label rw bs qd th <<<"$w"
		[[ $label =~ $ONLY ]] || continue
		for ((p = 1; p <= PAIRS; p++)); do
			if ((p % 2)); then order="fio ssdlab"; else order="ssdlab fio"; fi
			for tool in $order; do
				r=$("run_$tool" "$dev" "$rw" "$bs" "$qd" "$th")
				printf '{"device":"%s","workload":"%s","pair":%d,"tool":"%s","run":%s}\n' \
					"$kind" "$label" "$p" "$tool" "$r" >>"$results"
			done
			echo "$kind / $label: pair $p of $PAIRS done" >&2
		done
	done
	if [ -n "$zram_id" ]; then remove_zram; fi
	if [ -n "$loopdev" ]; then losetup -d "$loopdev"; loopdev=; fi
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
print(f"\n{len(rows)//2} pairs, {sys.argv[2]} s per run after a 1 s ramp; ratios are ssdlab / fio per pair.")
EOF
