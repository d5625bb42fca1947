#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# resume_kill_test: a run killed at any point continues with `ssdlab resume` to the same set of
# records as an uninterrupted run, none twice (issue 3, "Crash safety and resume").
#
# A small multi-phase profile with fixed round counts and a fixed seed runs once uninterrupted
# (the reference), then again killed with SIGKILL at named points through the runner's test
# hook SSDLAB_DEBUG_FAULT (runner.h): during a cell, after a measurement but before its record,
# right after a record, half-way through writing a record (a torn last line), at a phase
# boundary; twice in a row; at random delays with a real `kill -9`; and with SIGINT and SIGTERM
# sent from outside while the run stalls after a record (the hook's ":stall"), which must exit
# 130 and print the resume command, which is then run as printed; a resume while the run is
# still going is refused (the directory is locked). The precondition is recorded in 4 chunks
# (--chunk: a quarter of the target), so kills land in the middle of it too. After each resume the
# record keys (phase, repeat, round, cell, kind) must equal the reference's, with no duplicate,
# every line complete, the precondition's chunks must add up to its amount (1x the capacity: no
# chunk duplicated or missing), and `ssdlab analyze` must reproduce summary.json.
#
# Targets: a file in a temp dir (always) and the virtual SSD when the build has it; on the
# virtual SSD the replay is exact, so every record's figures must equal the reference's too.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the records"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-resume-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/p.yaml" <<'EOF'
name: resume-kill
description: precondition, 3 fixed rounds of 4 cells, idle, 2 x (trim, 2 rounds)
destructive: true
defaults: {seed: 7}
phases:
  - precondition: {rw: write, bs: 128k, amount: 1x, queue: {threads: 1, depth: 8}}
  - rounds:
      cells:
        rwmix_read: [100, 0]
        bs: [4k, 64k]
        order: [rwmix_read, bs]
      cell_time: 200ms
      queue: {threads: 1, depth: 8}
      count: 3
  - idle: {time: 100ms}
  - repeat:
      count: 2
      phases:
        - trim: {range: 0-50%}
        - rounds: {rw: randwrite, bs: 4k, cell_time: 100ms, queue: {threads: 1, depth: 4}, count: 2}
EOF

# run NAME TARGET [ENV...]: a fresh run into $tmp/NAME; prints the exit code.
run() {
	local name=$1 target=$2
	shift 2
	env "$@" "$SSDLAB" run "$tmp/p.yaml" --target "$target" --out "$tmp/$name" \
		--chunk "$chunk" --time-scale "$scale" --yes-destroy="$target" --quiet >"$tmp/$name.out" 2>"$tmp/$name.err"
	echo $?
}

resume() {
	local name=$1 target=$2
	shift 2
	env "$@" "$SSDLAB" resume "$tmp/$name" --yes-destroy="$target" --quiet \
		>>"$tmp/$name.out" 2>>"$tmp/$name.err"
	echo $?
}

# figures DIR: key and I/O figures of each record (the virtual SSD replays exactly).
figures() {
	python3 - "$1/records.jsonl" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["kind"] in ("cell", "precondition", "write_until"):
        print(r["phase"], r["repeat"], r["round"], r["cell"], r["total"]["ios"], r["elapsed_ns"])
EOF
}

# check_chunks DIR WHAT: the precondition's chunks, in round order 1..4, write the capacity
# (its amount, 1x) together, each a quarter, each going on at the offset where the last ended.
check_chunks() {
	python3 - "$1" <<'EOF' || fail "$2: precondition chunks wrong"
import json, sys
d = sys.argv[1]
cap = json.load(open(d + "/manifest.json"))["target"]["capacity"]
pre = [json.loads(l) for l in open(d + "/records.jsonl")]
pre = [r for r in pre if r["kind"] == "precondition"]
rounds = [r["round"] for r in pre]
total = sum(r["bytes_written_total"] for r in pre)
ok = rounds == [1, 2, 3, 4] and total == cap
ok = ok and all(r["bytes_written_total"] == cap // 4 for r in pre)
ok = ok and all(r["seq_next"] % cap == (i + 1) * cap // 4 % cap for i, r in enumerate(pre))
if not ok:
    print("rounds %s, %d bytes of %d" % (rounds, total, cap), file=sys.stderr)
sys.exit(0 if ok else 1)
EOF
}

# check_series DIR REF WHAT: the precondition has one series file, its chunks (last column) in
# order 1..4 with no row twice, t_ns rising, ending at the capacity written; on the virtual SSD
# (exact replay) the same rows as the uninterrupted run.
check_series() {
	python3 - "$1" "$2" "$virt" <<'EOF' || fail "$3: precondition series wrong"
import json, os, sys
d, ref, virt = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
cap = json.load(open(d + "/manifest.json"))["target"]["capacity"]
files = sorted(f for f in os.listdir(d + "/series") if "precondition" in f)
if files != ["phase-00-rep-00-precondition.csv"]:
    sys.exit("series files %r, expected one" % files)
rows = [l.split(",") for l in open(d + "/series/" + files[0]).read().split("\n")[1:] if l]
rounds = [int(r[-1]) for r in rows]
t = [int(r[0]) for r in rows]
if sorted(set(rounds)) != [1, 2, 3, 4] or rounds != sorted(rounds):
    sys.exit("chunks in the series: %r" % sorted(set(rounds)))
if any(b <= a for a, b in zip(t, t[1:])):
    sys.exit("t_ns does not rise: a chunk's rows are there twice")
if int(rows[-1][-2]) != cap:
    sys.exit("the series ends at %s bytes written, not %d" % (rows[-1][-2], cap))
if virt and open(d + "/series/" + files[0]).read() != open(ref + "/series/" + files[0]).read():
    sys.exit("the series differs from the uninterrupted run's")
EOF
}

finish() { # finish NAME TARGET WHAT REF: resume until done, then compare with the reference
	local name=$1 target=$2 what=$3 ref=$4 rc complete=0
	# A kill after the last record (while the summary was written) leaves nothing to resume:
	# resume then only analyzes and writes no resume record.
	if [ -f "$tmp/$name/records.jsonl" ] &&
		[ "$(grep -c '' "$tmp/$name/records.jsonl")" -ge "$(grep -c '' "$tmp/$ref/records.jsonl")" ]; then
		complete=1
	fi
	rc=$(resume "$name" "$target")
	if [ "$rc" != 0 ]; then
		fail "$what: resume exit $rc"
		sed 's/^/  /' "$tmp/$name.err" >&2
		return
	fi
	[ "$complete" = 1 ] || grep -q "resume-1" "$tmp/$name/records.jsonl" ||
		fail "$what: no resume record"
	check_keys "$tmp/$name" "$tmp/$ref" "$what"
	check_chunks "$tmp/$name" "$what"
	check_series "$tmp/$name" "$tmp/$ref" "$what"
	check_analyze "$tmp/$name" "$what"
	[ "$complete" = 1 ] || grep -q '"resumed"' "$tmp/$name/summary.json" ||
		fail "$what: the summary does not flag the resume"
	if [ "$virt" = 1 ] && ! diff <(figures "$tmp/$ref" | sort) <(figures "$tmp/$name" | sort) >/dev/null; then
		fail "$what: the virtual SSD's figures after resume differ from the uninterrupted run"
	fi
}

# Usage errors of run and resume: exit 2 (bad usage), 1 (a target that is not there), and
# nothing created where nothing should be.
expect_exit() { # expect_exit CODE WHAT COMMAND...
	local want=$1 what=$2 rc
	shift 2
	"$@" >"$tmp/usage.out" 2>&1 </dev/null
	rc=$?
	[ "$rc" = "$want" ] || fail "$what: exit $rc, expected $want ($(head -c 300 "$tmp/usage.out"))"
}
mkdir "$tmp/notaresult" && touch "$tmp/notaresult/x"
expect_exit 2 "resume without a directory" "$SSDLAB" resume
expect_exit 2 "resume of a directory without manifest" "$SSDLAB" resume "$tmp/notaresult"
expect_exit 2 "run without a profile" "$SSDLAB" run
expect_exit 2 "run with --set without =" "$SSDLAB" run "$tmp/p.yaml" --set nonsense
expect_exit 2 "run with a --set path that does not exist" "$SSDLAB" run "$tmp/p.yaml" \
	--set phases.9.idle.time=1s --target sim:client-tlc
expect_exit 2 "run with --time-scale 0" "$SSDLAB" run "$tmp/p.yaml" --time-scale 0
expect_exit 2 "run into a non-empty directory" "$SSDLAB" run "$tmp/p.yaml" \
	--target sim:client-tlc --out "$tmp/notaresult"
expect_exit 2 "run on a file that does not exist" "$SSDLAB" run "$tmp/p.yaml" \
	--target "$tmp/missing.img" --yes-destroy="$tmp/missing.img" --out "$tmp/missing-run"
[ -e "$tmp/missing-run" ] && fail "a refused run created its results directory"
expect_exit 0 "run --help" "$SSDLAB" run --help
expect_exit 0 "resume --help" "$SSDLAB" resume --help
expect_exit 0 "plan --help" "$SSDLAB" plan --help

targets=("$tmp/t.img" "sim:client-tlc")
truncate -s 16M "$tmp/t.img"
require_sim "$tmp/p.yaml"

for target in "${targets[@]}"; do
	# The virtual SSD shrinks durations by its time scale: x10 keeps its cells longer than
	# the drain of their queue (a 64 KiB random-write cell is refused below it).
	case $target in sim:*) virt=1 tag=sim chunk=1g scale=10 ;; *) virt=0 tag=file chunk=4m scale=1 ;; esac
	ref=$tag-ref
	t0=$(date +%s%N)
	rc=$(run "$ref" "$target")
	ref_ms=$((($(date +%s%N) - t0) / 1000000))
	if [ "$rc" != 0 ]; then
		fail "$tag: the uninterrupted run failed with exit $rc"
		sed 's/^/  /' "$tmp/$ref.err" >&2
		continue
	fi
	n=$(keys "$tmp/$ref" | wc -l)
	[ "$n" = 23 ] || fail "$tag: the reference run has $n records, expected 4 + 12 + 1 + 2 x 3 = 23"
	check_chunks "$tmp/$ref" "$tag reference"
	check_series "$tmp/$ref" "$tmp/$ref" "$tag reference"

	# Named kill points, spread over the phases (records 1-4 are the precondition's chunks,
	# 5-16 the rounds, 17 the idle, 18-23 the repeat; snapshot 4 is the start of the rounds
	# phase). cell:1 and cell:3 die in the middle of a precondition chunk, after-record:2
	# between two chunks.
	for point in cell:1 cell:3 after-record:2 cell:10 before-record:8 after-record:8 \
		after-record:17 torn:13 boundary:4 cell:20; do
		name=$tag-${point/:/-}
		rc=$(run "$name" "$target" SSDLAB_DEBUG_FAULT="$point")
		[ "$rc" = 137 ] || fail "$tag $point: expected death by SIGKILL (137), got $rc"
		if [ "${point%%:*}" = torn ]; then
			[ -n "$(tail -c1 "$tmp/$name/records.jsonl")" ] ||
				fail "$tag $point: the last line is not torn"
			finish "$name" "$target" "$tag $point" "$ref"
			grep -q "dropped a torn last record line" "$tmp/$name.err" ||
				fail "$tag $point: resume did not report the torn line"
			continue
		fi
		finish "$name" "$target" "$tag $point" "$ref"
	done

	# Killed twice: once in the run, once more in the first resume.
	name=$tag-twice
	rc=$(run "$name" "$target" SSDLAB_DEBUG_FAULT=cell:3)
	[ "$rc" = 137 ] || fail "$tag twice: run exit $rc"
	rc=$(resume "$name" "$target" SSDLAB_DEBUG_FAULT=after-record:4)
	[ "$rc" = 137 ] || fail "$tag twice: first resume exit $rc"
	finish "$name" "$target" "$tag twice" "$ref"
	grep -q "resume-2" "$tmp/$name/records.jsonl" || fail "$tag twice: no second resume record"

	# A real kill -9 at random moments within the reference run's wall time (a fixed seed for
	# the delays: a failure reproduces).
	RANDOM=42
	for i in 1 2 3; do
		name=$tag-kill9-$i
		delay_ms=$((RANDOM % (ref_ms > 1 ? ref_ms : 1)))
		"$SSDLAB" run "$tmp/p.yaml" --target "$target" --out "$tmp/$name" --chunk "$chunk" --time-scale "$scale" \
			--yes-destroy="$target" --quiet >"$tmp/$name.out" 2>"$tmp/$name.err" &
		pid=$!
		sleep "$((delay_ms / 1000)).$(printf %03d $((delay_ms % 1000)))"
		kill -9 "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		if [ $? = 0 ]; then
			echo "note: $tag kill9-$i: the run ended before the kill at ${delay_ms} ms"
			continue
		fi
		[ -f "$tmp/$name/manifest.json" ] || {
			echo "note: $tag kill9-$i killed before the manifest existed; nothing to resume"
			continue
		}
		finish "$name" "$target" "$tag kill -9 #$i at ${delay_ms} ms" "$ref"
	done

	# A resume while the run is still going is refused (the results directory is locked). The
	# run stalls after its first record (the fault hook) so that it is certainly still going;
	# a SIGINT then stops it, and a resume completes it with its records intact.
	name=$tag-locked
	SSDLAB_DEBUG_FAULT=after-record:1:stall "$SSDLAB" run "$tmp/p.yaml" --target "$target" \
		--out "$tmp/$name" --chunk "$chunk" --time-scale "$scale" \
		--yes-destroy="$target" --quiet >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	for _ in $(seq 600); do
		[ -f "$tmp/$name/records.jsonl" ] && [ -s "$tmp/$name/records.jsonl" ] && break
		sleep 0.05
	done
	rc=$(resume "$name" "$target")
	[ "$rc" = 1 ] || fail "$tag: resume of a running run: exit $rc, expected 1"
	grep -q "another ssdlab is running" "$tmp/$name.err" ||
		fail "$tag: resume of a running run does not say why it refused"
	kill -INT "$pid" || fail "$tag locked: the run was gone before the signal"
	wait "$pid"
	rc=$?
	[ "$rc" = 130 ] || fail "$tag locked: exit $rc after SIGINT, expected 130"
	rc=$(resume "$name" "$target")
	[ "$rc" = 0 ] || fail "$tag locked: the resume after the refused one failed (exit $rc)"
	check_keys "$tmp/$name" "$tmp/$ref" "$tag locked"

	# SIGINT and SIGTERM: a safe stop, exit 130, and a resume command that works as printed.
	for sig in INT TERM; do
		name=$tag-sig$sig
		# The run waits after its 3rd record until the signal comes (the fault hook's stall),
		# so the signal lands in a running run however fast the machine.
		SSDLAB_DEBUG_FAULT=after-record:3:stall "$SSDLAB" run "$tmp/p.yaml" --target "$target" \
			--out "$tmp/$name" --chunk "$chunk" --time-scale "$scale" \
			--yes-destroy="$target" --quiet >"$tmp/$name.out" 2>"$tmp/$name.err" &
		pid=$!
		for _ in $(seq 600); do
			[ -f "$tmp/$name/records.jsonl" ] &&
				[ "$(wc -l <"$tmp/$name/records.jsonl")" -ge 3 ] && break
			sleep 0.05
		done
		kill -"$sig" "$pid" || fail "$tag SIG$sig: the run was gone before the signal"
		wait "$pid"
		rc=$?
		[ "$rc" = 130 ] || fail "$tag SIG$sig: exit $rc, expected 130"
		grep -q "interrupted by SIG$sig" "$tmp/$name.err" ||
			fail "$tag SIG$sig: no 'interrupted by SIG$sig' message"
		cmd=$(sed -n 's/^resume with: //p' "$tmp/$name.err")
		case $cmd in
		"ssdlab resume $tmp/$name --yes-destroy=$target" | "ssdlab resume $tmp/$name '--yes-destroy=$target'") ;;
		*) fail "$tag SIG$sig: unexpected resume command '$cmd'" ;;
		esac
		if [ -n "$cmd" ]; then
			eval "\"\$SSDLAB\" ${cmd#ssdlab }" --quiet >>"$tmp/$name.out" 2>>"$tmp/$name.err" ||
				fail "$tag SIG$sig: the printed resume command failed"
			check_keys "$tmp/$name" "$tmp/$ref" "$tag SIG$sig"
		fi
	done
done

[ "$fails" = 0 ] || {
	echo "$fails failure(s)" >&2
	exit 1
}
echo "ok: resume after kills at named points, twice, at random moments, after SIGINT and SIGTERM"
