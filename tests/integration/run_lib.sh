# SPDX-License-Identifier: MIT
# run_lib.sh: helpers shared by the runner's shell tests (run_sim_test.sh, run_loop_test.sh,
# resume_kill_test.sh), sourced, not run. They read results directories with python3's json
# module, independently of ssdlab's own reader, so that a bug there cannot hide itself.

: "${SSDLAB:?SSDLAB must point at the ssdlab binary (meson sets it)}"

fails=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# keys DIR: the record keys (phase repeat round cell kind), one per line in file order, without
# the resume records (they mark a resume, they are not measurements).
keys() {
	python3 - "$1/records.jsonl" <<'EOF'
import json, sys
with open(sys.argv[1]) as f:
    for line in f:
        r = json.loads(line)
        if r["kind"] != "resume":
            print(r["phase"], r["repeat"], r["round"], r["cell"] or "-", r["kind"])
EOF
}

# check_keys DIR REFDIR WHAT: the same set of keys as the reference run, none twice.
check_keys() {
	local dups
	if ! diff <(keys "$2" | sort) <(keys "$1" | sort) >"$1.keydiff"; then
		fail "$3: record keys differ from the uninterrupted run (see $1.keydiff):"
		head -20 "$1.keydiff" >&2
	fi
	dups=$(keys "$1" | sort | uniq -d)
	[ -z "$dups" ] || fail "$3: duplicate records: $dups"
	# Every line of records.jsonl must be complete JSON (the torn line was dropped).
	python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' \
		"$1/records.jsonl" || fail "$3: records.jsonl has a corrupt line"
}

# check_analyze DIR WHAT: `ssdlab analyze` reproduces summary.json byte for byte.
check_analyze() {
	cp "$1/summary.json" "$1/summary.run.json" || {
		fail "$2: no summary.json"
		return
	}
	"$SSDLAB" analyze "$1" >/dev/null || fail "$2: ssdlab analyze failed"
	cmp -s "$1/summary.json" "$1/summary.run.json" ||
		fail "$2: analyze does not reproduce summary.json byte for byte"
}

# require_sim PROFILE: the virtual SSD and its default model plan PROFILE, or the test fails
# with ssdlab's message. The sim is always built, so a failure here is a broken model or FTL,
# never a reason to skip (issue 10, point 8).
require_sim() {
	local out
	out=$("$SSDLAB" plan "$1" --target sim:client-tlc 2>&1 >/dev/null) && return 0
	echo "FAIL: the virtual SSD (always built) cannot plan $1 on sim:client-tlc: $out" >&2
	exit 1
}

# greedy_model FILE: a bare greedy FTL of 2 GiB at spare factor 0.10, without cache or idle GC:
# WA follows the greedy theory, and a 1 MiB write takes about 12 ms (io_ramp, io_noio).
greedy_model() {
	cat >"$1" <<'YAML'
name: greedy-2g
description: a bare greedy FTL without a cache or idle GC
user_capacity: 2g
spare_factor: 0.10
page_size: 16k
pages_per_block: 64
gc:
  policy: greedy
YAML
}

# loop_release_dir DIR: detach the loop devices whose backing file lies under DIR (ours only).
loop_release_dir() {
	local dev back
	while read -r dev back; do
		case "$back" in "$1"/*) losetup -d "$dev" 2>/dev/null ;; esac
	done < <(losetup -ln -O NAME,BACK-FILE 2>/dev/null)
}

# loop_sweep BASE TAG: the leftovers of a killed earlier run (dirs BASE/TAG.*); a dir whose test
# is still alive (another build dir running the suite at the same time) holds that test's pid and
# is left alone.
loop_sweep() {
	local old
	for old in "$1/$2".*; do
		[ -d "$old" ] || continue
		if [ -f "$old/pid" ] && kill -0 "$(cat "$old/pid")" 2>/dev/null; then
			continue
		fi
		loop_release_dir "$old"
		rm -rf "$old"
	done
}

# Loop devices and file systems a test makes for itself (quick_test.sh's pattern, shared):
# loop_attach and ext4_mount note what they made, loop_cleanup (from the test's EXIT trap)
# unmounts and detaches it all, whatever failed on the way.
loop_devs=()
loop_mnts=()

# loop_attach FILE VAR: attaches FILE with direct I/O (the page cache of the backing file stays
# out of the figures) and sets VAR to the device; no subshell, so the device is remembered.
loop_attach() {
	local d
	d=$(losetup --find --show --direct-io=on "$1") || return 1
	loop_devs+=("$d")
	printf -v "$2" '%s' "$d"
}

# loop_scratch TAG SIZE: after sweeping what a killed earlier run of TAG left, a fresh
# /var/tmp/TAG.XXXXXX ($tmp: released with its loop devices and removed at exit) holding a sparse
# SIZE file attached with direct I/O ($dev, its kernel name $name). Skips (77) where that cannot
# be done. Sets the EXIT trap: a test that needs more at exit sets its own after this.
loop_scratch() {
	local base=/var/tmp
	loop_sweep "$base" "$1"
	tmp=$(mktemp -d "$base/$1.XXXXXX") || skip "cannot create a temp dir in $base"
	echo $$ >"$tmp/pid"
	trap 'loop_release_dir "$tmp"; rm -rf "$tmp"' EXIT
	truncate -s "$2" "$tmp/disk.img"
	dev=$(losetup --find --show --direct-io=on "$tmp/disk.img") || skip "cannot attach a loop device"
	name=${dev#/dev/}
}

# ext4_mount DEV DIR: a fresh ext4 on DEV, mounted on DIR (made here).
ext4_mount() {
	mkfs.ext4 -q -F "$1" >/dev/null 2>&1 || return 1
	mkdir -p "$2" || return 1
	mount "$1" "$2" || return 1
	loop_mnts+=("$2")
}

loop_cleanup() {
	local m d
	for m in "${loop_mnts[@]}"; do umount "$m" 2>/dev/null; done
	for d in "${loop_devs[@]}"; do losetup -d "$d" 2>/dev/null; done
	loop_mnts=()
	loop_devs=()
}

# shrink_model SRC DST: the virtual SSD model SRC (client-tlc) shrunk to 1 GiB, with `represents`
# shrunk by the same factor so that profile durations keep their scale (a cell stays as long as
# on the bundled model, and so as long against its drain) while fills take a quarter of the time.
# Returns 1 when SRC has no user_capacity line to shrink.
shrink_model() {
	sed -e 's/^name: .*/name: client-tlc-1g/' \
		-e 's/^represents: .*/represents: 120000000000/' \
		-e 's/^user_capacity: .*/user_capacity: 1g/' \
		-e 's/^\(  size: \)[0-9][0-9]*m/\1117m/' "$1" >"$2"
	grep -q '^user_capacity: 1g$' "$2"
}

# small_client_tlc SRCDIR OUT: shrink_model on the bundled client-tlc; skips (77) when the model
# is not there or has no user_capacity line to shrink.
small_client_tlc() {
	local model="$1/profiles/models/client-tlc.yaml"
	[ -r "$model" ] || skip "no $model in the source tree"
	shrink_model "$model" "$2" || skip "client-tlc.yaml has no user_capacity line to shrink"
}

# shrunk_7op_28op SRCDIR DIR: client-7op shrunk to 1 GiB (DIR/c7.yaml) and enterprise-28op to 2 GiB
# (DIR/e28.yaml; its GC reserve and 32 open blocks do not fit 1 GiB), user capacity and `represents`
# by the same factor as shrink_model does; skips (77) when a model is not in the source tree.
shrunk_7op_28op() {
	local models="$1/profiles/models"
	[ -r "$models/client-7op.yaml" ] && [ -r "$models/enterprise-28op.yaml" ] ||
		skip "client-7op or enterprise-28op is not in the source tree"
	sed -e 's/^name: .*/name: client-7op-1g/' -e 's/^represents: .*/represents: 32000000000/' \
		-e 's/^user_capacity: .*/user_capacity: 1g/' "$models/client-7op.yaml" >"$2/c7.yaml"
	sed -e 's/^name: .*/name: enterprise-28op-2g/' -e 's/^represents: .*/represents: 1920000000000/' \
		-e 's/^user_capacity: .*/user_capacity: 2g/' "$models/enterprise-28op.yaml" >"$2/e28.yaml"
	grep -q '^user_capacity: 1g$' "$2/c7.yaml" && grep -q '^user_capacity: 2g$' "$2/e28.yaml" ||
		fail "the models did not shrink"
}

# run_rescaled PROFILE MODEL OUT: `ssdlab run PROFILE --target sim:MODEL --out OUT` (stdout in
# OUT.run, stderr in OUT.err); when the runner refuses a cell as shorter than its drain, reruns at
# the --time-scale it suggests. Fails the test (returns 1) when a run fails otherwise.
run_rescaled() {
	local p=$1 m=$2 out=$3 scale
	if "$SSDLAB" run "$p" --target "sim:$m" --out "$out" >"$out.run" 2>"$out.err"; then
		return 0
	fi
	scale=$(sed -n 's/.*refused: .*run with --time-scale \([0-9.e+]*\) or more.*/\1/p' "$out.err")
	if [ -z "$scale" ]; then
		fail "$p: run failed"
		sed 's/^/  /' "$out.err" >&2
		return 1
	fi
	echo "$p: rerun at the suggested --time-scale $scale"
	rm -rf "$out"
	"$SSDLAB" run "$p" --target "sim:$m" --out "$out" --time-scale "$scale" >"$out.run" 2>"$out.err" || {
		fail "$p: run failed at --time-scale $scale"
		sed 's/^/  /' "$out.err" >&2
		return 1
	}
}

# short_sets PROFILE: the --set arguments that shorten a bundled profile on the 1 GiB model
# (small_client_tlc) while keeping every phase and figure it has; used for the stored report fixtures
# (scripts/make-report-fixtures.sh) and by the headline test. Why each is there is said once here. A precondition's or
# write_until's `interval` is profile time, divided by the model's scale (about 112 on the 1 GiB
# model), so the default 1 s gives a series row every 9 ms of a fill: 30 s still leaves a few
# hundred rows per fill. Probes that fit their series (gc_pass) keep a finer 10 s.
pre30() { # pre30 N...: interval 30s on the precondition phases N...
	local n
	for n in "$@"; do printf -- '--set phases.%s.precondition.interval=30s\n' "$n"; done
}
short_sets() {
	case "$1" in
	demo | gc-passes) pre30 1 2 ;;
	esac
	case "$1" in
	gc-passes)
		echo "--set phases.4.write_until.interval=10s"
		echo "--set phases.5.repeat.phases.1.write_until.interval=10s"
		;;
	gc-recovery)
		pre30 1 2
		# 4 idles once each (not 8 twice): the fitted curve still has its points
		echo "--set phases.4.idle_sweep.count=4"
		echo "--set phases.4.idle_sweep.reps=1"
		;;
	op-variants)
		echo "--set phases.0.variants.phases.1.precondition.interval=30s"
		echo "--set phases.0.variants.phases.2.precondition.interval=30s"
		;;
	snia-ecw | snia-ecw-client)
		# 5 precondition rounds (not 25) and 2 rounds of the 49 points (not 10)
		echo "--set phases.1.rounds.count=5"
		echo "--set phases.2.rounds.count=2"
		;;
	snia-hir | snia-hir-client)
		# as snia_hir_test.sh: 20 bursts per wait state (not 360), 300 s of recovery writes (not 1800)
		echo "--set phases.1.rounds.cell_time=5min"
		for p in 2 4 6 8 10; do
			echo "--set phases.$p.bursts.count=20"
			echo "--set phases.$((p + 1)).write_until.amount=300s"
			echo "--set phases.$((p + 1)).write_until.interval=30s"
		done
		;;
	snia-iops | snia-iops-client | snia-latency | snia-latency-client) pre30 1 ;;
	snia-iops-fast | snia-latency-fast)
		# the sprandom fill, recorded in 9 chunks whatever the interval: nothing to shorten.
		# PTS-E's write cache off on client-tlc (a dynamic SLC cache without PLP) is the
		# two-state class, where the fill is refused (docs/fast-steady-state.md): run anyway,
		# recorded as forced, to show the profile's headline and report on the usual model
		echo "--set phases.1.precondition.force=true"
		;;
	snia-iops-client-fast | snia-latency-client-fast)
		# the sprandom fill, recorded in 9 chunks whatever the interval: nothing to shorten
		;;
	snia-throughput) pre30 1 4 ;;
	snia-throughput-client) pre30 1 ;;
	snia-wsat | snia-wsat-client)
		# 2x the capacity (not 4x), sampled every 30 s; the 1-minute records stay
		echo "--set phases.1.write_until.amount=2x"
		echo "--set phases.1.write_until.interval=30s"
		;;
	snia-xsr | snia-xsr-client)
		# as snia_xsr_test.sh: groups of 1 h, 30 min and 1 h (not 8 h, 6 h, 8 h)
		echo "--set phases.1.write_until.amount=1h"
		echo "--set phases.2.write_until.amount=30min"
		echo "--set phases.3.write_until.amount=1h"
		for p in 1 2 3; do echo "--set phases.$p.write_until.interval=30s"; done
		;;
	esac
}
