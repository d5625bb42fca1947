#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The command line as a user meets it: every subcommand answers --help with exit 0 and its usage,
# --version prints the version, unknown commands and options exit 2, and a bad profile is reported
# as file:line:col with exit 2. Needs no device.
set -u
ssdlab=${SSDLAB:?SSDLAB must point at the ssdlab binary}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

check() { # name expected-exit command...
	local name=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" -eq "$want" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $name: exit $rc, expected $want"
		sed 's/^/  | /' "$tmp/out" "$tmp/err" | head -20
	fi
}

contains() { # name file pattern
	if grep -q -- "$3" "$2"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $1: '$3' not in output"
		sed 's/^/  | /' "$2" | head -20
	fi
}

check "no arguments" 2 "$ssdlab"
check "--help" 0 "$ssdlab" --help
contains "--help lists commands" "$tmp/out" "commands:"
check "--version" 0 "$ssdlab" --version
contains "--version" "$tmp/out" "^ssdlab [0-9]"
check "unknown command" 2 "$ssdlab" frobnicate
contains "unknown command named" "$tmp/err" "frobnicate"

# Every command the top-level help lists answers --help on stdout with exit 0.
cmds=$("$ssdlab" --help | awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{on=0}')
[ -n "$cmds" ] || { echo "FAIL: no commands listed"; exit 1; }
for c in $cmds; do
	check "$c --help" 0 "$ssdlab" "$c" --help
	contains "$c --help shows usage" "$tmp/out" "usage: ssdlab $c"
	check "$c --no-such-option" 2 "$ssdlab" "$c" --no-such-option
done
for c in io run resume plan analyze report check profiles models drives; do
	echo "$cmds" | grep -qx "$c" || { fail=$((fail + 1)); echo "FAIL: '$c' missing from ssdlab --help"; }
done

# A profile error is file:line:col with what was expected, exit 2, for check, plan and run alike.
cat >"$tmp/bad.yaml" <<'YAML'
name: bad
destructive: true
phases:
  - rounds:
      rw: randwrite
      cell_tme: 60s
YAML
for c in check plan run; do
	check "$c bad profile" 2 "$ssdlab" "$c" "$tmp/bad.yaml"
	contains "$c bad profile position" "$tmp/err" "bad.yaml:6:7: "
	contains "$c bad profile suggestion" "$tmp/err" "cell_time"
done
check "run missing profile" 2 "$ssdlab" run "$tmp/nope.yaml"
check "io without target" 2 "$ssdlab" io
check "io bad block size" 2 "$ssdlab" io sim:client-tlc --bs 4q
check "io bad target model" 2 "$ssdlab" io sim:no-such-model --time 1s
check "analyze not a results dir" 2 "$ssdlab" analyze "$tmp"
check "report not a results dir" 2 "$ssdlab" report "$tmp"
check "report without a directory" 2 "$ssdlab" report

# The lists name what they list.
check "profiles" 0 "$ssdlab" profiles
contains "profiles lists demo" "$tmp/out" "^ *demo "
check "models" 0 "$ssdlab" models
contains "models lists client-tlc" "$tmp/out" "^client-tlc "
check "drives" 0 "$ssdlab" drives
contains "drives lists Micron" "$tmp/out" "^  ata   WA  *Crucial/Micron client"
check "drives MODEL" 0 "$ssdlab" drives "Samsung SSD 860 EVO 500GB"
contains "drives MODEL shows the entry" "$tmp/out" "^Samsung client"
contains "drives MODEL says WA null" "$tmp/out" "null: no NAND-write counter known"
contains "drives MODEL lists its examples" "$tmp/out" "^  examples    'Samsung SSD 840 PRO Series'$"
check "drives --nvme MODEL" 0 "$ssdlab" drives --nvme "QEMU NVMe Ctrl"
contains "drives --nvme MODEL reads OCP" "$tmp/out" "nvme:ocp_c0.physical_media_written in 1B"
printf 'drives:\n  - name: x\n    match: a\n    transport: sata\n' >"$tmp/baddb.yaml"
check "drives bad database" 2 "$ssdlab" drives --db "$tmp/baddb.yaml" x
contains "drives bad database position" "$tmp/err" "baddb.yaml:4:16: expected ata or nvme"
check "drives two models" 2 "$ssdlab" drives a b

# Issue 9, point 10: exit codes and messages.
lines() { # name file count
	local n
	n=$(wc -l <"$2")
	if [ "$n" -eq "$3" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $1: $n lines, expected $3"
		sed 's/^/  | /' "$2" | head -20
	fi
}
check "run unknown model" 2 "$ssdlab" run demo --target sim:nonexistent
contains "run unknown model named" "$tmp/err" "no such model"
check "run directory target" 2 "$ssdlab" run demo --target "$tmp"
contains "run directory target named" "$tmp/err" "is a directory: expected a block device"
check "io directory target, writing" 2 "$ssdlab" io "$tmp" --rw write
check "run new file without --size" 2 "$ssdlab" run smoke --target "$tmp/new.img"
contains "run new file names --size" "$tmp/err" "give --size SIZE"
# time scale 0.1: 100 ms cells; at 0.01 (10 ms) the ASan build on a loaded machine drained
# slower than a cell and the run refused the scale (exit 1), as it should
check "run --size creates the file" 0 "$ssdlab" run smoke --target "$tmp/new.img" --size 16m \
	--time-scale 0.1 --out "$tmp/r-size"
size=$(stat -c %s "$tmp/new.img" 2>/dev/null)
[ "$size" = 16777216 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: --size 16m made '$size' bytes"; }
check "run unknown option" 2 "$ssdlab" run demo --frobnicate
contains "run unknown option named" "$tmp/err" "unknown option '--frobnicate' (see ssdlab run --help)"
lines "run unknown option, one line" "$tmp/err" 1
check "run option without its value" 2 "$ssdlab" run demo --target
lines "run option without its value, one line" "$tmp/err" 1
check "resume unknown option" 2 "$ssdlab" resume --frobnicate "$tmp"
lines "resume unknown option, one line" "$tmp/err" 1
for c in check models plan profiles analyze report; do
	check "$c unknown option" 2 "$ssdlab" "$c" --frobnicate x
	contains "$c unknown option named" "$tmp/err" "unknown option '--frobnicate' (see ssdlab $c --help)"
	lines "$c unknown option, one line" "$tmp/err" 1
done
check "plan option without its value" 2 "$ssdlab" plan demo --time-scale
lines "plan option without its value, one line" "$tmp/err" 1
# --tbw: the profile's writes as a share of the rated endurance; a bad value is a usage error.
# smoke writes at least 4 GiB = 4.29 GB on sim:client-tlc: 4.29 GB / 10 TB = 0.043%.
check "plan --tbw" 0 "$ssdlab" plan smoke --tbw 10
contains "plan --tbw share" "$tmp/out" "endurance: this profile writes at least 4.29 GB = 0.043% of the rated 10 TBW (--tbw)"
check "plan --tbw 0" 2 "$ssdlab" plan smoke --tbw 0
check "run --tbw -1" 2 "$ssdlab" run smoke --tbw -1
check "run --warning-c 500" 2 "$ssdlab" run smoke --warning-c 500

# --quiet prints nothing (errors would still go to stderr), and resuming the finished run says
# so without replaying or appending anything.
check "run --quiet" 0 "$ssdlab" run demo --quiet --out "$tmp/quiet"
lines "run --quiet stdout" "$tmp/out" 0
lines "run --quiet stderr" "$tmp/err" 0
before=$(md5sum <"$tmp/quiet/records.jsonl"; ls "$tmp/quiet/snapshots" | md5sum)
check "resume of a finished run" 0 "$ssdlab" resume "$tmp/quiet"
contains "resume of a finished run says so" "$tmp/out" "nothing to resume, the run is complete"
lines "resume of a finished run, one line" "$tmp/out" 1
lines "resume of a finished run, no progress" "$tmp/err" 0
after=$(md5sum <"$tmp/quiet/records.jsonl"; ls "$tmp/quiet/snapshots" | md5sum)
[ "$before" = "$after" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: resume of a finished run changed it"; }
# Killed after its last record but before its summary: resume writes the summary, the same.
mv "$tmp/quiet/summary.json" "$tmp/quiet.summary.json"
check "resume of a finished run without summary" 0 "$ssdlab" resume "$tmp/quiet"
contains "resume writes the missing summary" "$tmp/out" "its summary was missing and is written now"
if cmp -s "$tmp/quiet/summary.json" "$tmp/quiet.summary.json"; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: the summary resume wrote differs from the run's"
fi

check "io --time 0" 2 "$ssdlab" io sim:client-tlc --time 0
contains "io --time 0 says why" "$tmp/err" "--time must be longer than 0"
# Weights are relative: 70+20 = 90 is kept, and the note says what it became (70/90, 20/90).
check "io weights not summing to 100" 0 "$ssdlab" io sim:client-tlc --bs 4k/70:64k/20 --time 10ms
contains "io weights note" "$tmp/err" "weights 70+20 = 90, normalised to 4 KiB 77.8%, 64 KiB 22.2%"
check "io weights summing to 100" 0 "$ssdlab" io sim:client-tlc --bs 4k/70:64k/30 --time 10ms
lines "io weights summing to 100, no note" "$tmp/err" 0
# ... and in a profile, check and plan say the same.
cat >"$tmp/weights.yaml" <<'YAML'
name: weights
destructive: true
phases:
  - rounds: {rw: randwrite, bs: 4k/70:64k/20, cell_time: 1s, count: 1}
YAML
for c in check plan; do
	check "$c weights not summing to 100" 0 "$ssdlab" "$c" "$tmp/weights.yaml"
	contains "$c weights note" "$tmp/out" "4k/70:64k/20 (weights 70+20 = 90, normalised to 4 KiB 77.8%, 64 KiB 22.2%)"
done
check "io --amount 1m" 2 "$ssdlab" io sim:client-tlc --amount 1m
contains "io --amount 1m says why" "$tmp/err" "'1m' would be ambiguous: say 1MiB or 1min"

# A file that is not a model: named, with what was expected, never its content.
printf 'secret-first-line:x:0:0:root:/root:/bin/bash\nmore\n' >"$tmp/notamodel"
check "io sim:FILE not a model" 2 "$ssdlab" io "sim:$tmp/notamodel"
contains "not a model named" "$tmp/err" "notamodel:1:1: not a model file: expected a YAML mapping"
if grep -q secret "$tmp/err"; then
	fail=$((fail + 1))
	echo "FAIL: the error echoes the file's content"
else
	pass=$((pass + 1))
fi

# hpa and namespace share one option parser (cli/devcmd_opts.c): the same answers to a missing
# DEV, a second argument and an option only the other command takes; --help exits 0.
check "hpa no DEV" 2 "$ssdlab" hpa --json
contains "hpa no DEV" "$tmp/err" "ssdlab hpa: missing DEV"
check "namespace two DEVs" 2 "$ssdlab" namespace /dev/null /dev/zero
contains "namespace two DEVs" "$tmp/err" "ssdlab namespace: unexpected argument '/dev/zero'"
check "namespace --restore" 2 "$ssdlab" namespace --restore /dev/null
contains "namespace --restore" "$tmp/err" "unknown option '--restore' (see ssdlab namespace --help)"
check "hpa --persistent alone" 2 "$ssdlab" hpa --persistent /dev/null
contains "hpa --persistent alone" "$tmp/err" "--persistent goes with --set"
check "namespace --help" 0 "$ssdlab" namespace --help
check "hpa --set value missing" 2 "$ssdlab" hpa /dev/null --set
contains "hpa --set value missing" "$tmp/err" "--set needs a value"

# Every model's sources are printed whole (as the YAML folds them) and cite no file outside the
# project (a path in them must exist in the source tree).
for m in $("$ssdlab" models | awk 'NR > 1 && /^[a-z0-9-]+ +[0-9]/ {print $1}'); do
	check "models $m" 0 "$ssdlab" models "$m"
	f=$(awk '/^  file: /{print $2}' "$tmp/out")
	if python3 - "$f" "$tmp/out" <<'EOF'; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
import os, re, sys, yaml
want = yaml.safe_load(open(sys.argv[1]))["sources"]
got = [l[len("  sources: "):].rstrip("\n") for l in open(sys.argv[2]) if l.startswith("  sources: ")]
if got != [want]:
    sys.exit(f"FAIL: {sys.argv[1]}: sources printed {len(got[0]) if got else 0} of {len(want)} characters")
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(sys.argv[1]))))
for p in re.findall(r"[\w.-]+/[\w./-]+\.(?:md|c|h|yaml|sh|py)\b", want):
    if not os.path.exists(os.path.join(root, p)):
        sys.exit(f"FAIL: {sys.argv[1]}: sources cite {p}, which is not in the project")
EOF
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
