#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# report_test (issue 17, points 1-3): `ssdlab report` and the report `run` writes at its end.
#   - snia-iops, snia-throughput, snia-latency, snia-wsat and demo run on client-tlc shrunk to
#     1 GiB (run_lib.sh), snia-xsr, snia-hir, snia-dirth and snia-ecw shortened, slc-cache,
#     op-variants (greedy-ref) and surface-write; each run
#     leaves report.html, summary.md and report/<name>.csv (runflow.c);
#   - `ssdlab report DIR` rewrites them byte for byte (the same input gives the same bytes);
#   - `resume` of a killed run writes them too, its flags saying resumed;
#   - report_check.py (python3's html.parser, csv and json, none of ssdlab's code) checks each
#     report: it parses, names no external file, every plot has axes, units, tick labels and
#     data equal to its CSV and drawn where its axis mapping puts them, and the tables' and
#     plots' numbers equal summary.json's;
#   - foreign I/O written into two records shows in the flags, summed; a thermal block put into
#     a summary shows as the thermal table;
#   - the old results of tests/data/old-results/ (written before the report existed) report too;
#   - the check bites: a copy with a <script src> and one with a CSV value changed fail it;
#   - exit codes: 2 for no directory or one without results files, 0 for --help.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to check the report"
: "${SSDLAB_SRCDIR:?SSDLAB_SRCDIR must point at the source tree (meson sets it)}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-report-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s%N)
check="$here/report_check.py"

small_client_tlc "$SSDLAB_SRCDIR" "$tmp/small.yaml"

# same_report DIR WHAT: `ssdlab report` rewrites what the run wrote, byte for byte.
same_report() {
	rm -rf "$1.first" && mkdir "$1.first" &&
		cp -r "$1/report.html" "$1/summary.md" "$1/report" "$1.first/" || {
		fail "$2: the run left no report.html, summary.md or report/"
		return
	}
	"$SSDLAB" report -q "$1" || fail "$2: ssdlab report failed"
	diff -r "$1.first/report" "$1/report" >/dev/null &&
		cmp -s "$1.first/report.html" "$1/report.html" &&
		cmp -s "$1.first/summary.md" "$1/summary.md" ||
		fail "$2: ssdlab report does not give the same bytes as the run's report"
}

for p in snia-iops snia-throughput snia-latency snia-wsat demo; do
	s=$(date +%s%N)
	run_rescaled "$p" "$tmp/small.yaml" "$tmp/$p" || continue
	same_report "$tmp/$p" "$p"
	python3 "$check" "$tmp/$p" || fail "$p: report_check.py"
	echo "$p: run + report + check $((($(date +%s%N) - s) / 1000000)) ms wall"
done

# The other PTS tests, shortened as their own tests shorten them (snia_xsr_test.sh,
# snia_hir_test.sh, snia_dirth_test.sh): XSR and DIRTH on the 1 GiB model, HIR on the bundled
# idle-gc-aggressive, ECW on the 1 GiB model at the time scale the runner asks for.
hir_sets=(--set phases.1.rounds.cell_time=5min)
for p in 2 4 6 8 10; do
	hir_sets+=(--set "phases.$p.bursts.count=20" --set "phases.$((p + 1)).write_until.amount=300s")
done
# run_with NAME PROFILE TARGET ARGS...: one run into $tmp/NAME, then the same checks as above.
run_with() {
	local n=$1 p=$2 tg=$3 s
	shift 3
	s=$(date +%s%N)
	"$SSDLAB" run "$p" --target "$tg" --out "$tmp/$n" "$@" >"$tmp/$n.run" 2>"$tmp/$n.err" || {
		fail "$p: run failed"
		sed 's/^/  /' "$tmp/$n.err" >&2
		return 1
	}
	same_report "$tmp/$n" "$p"
	python3 "$check" "$tmp/$n" || fail "$p: report_check.py"
	echo "$p: run + report + check $((($(date +%s%N) - s) / 1000000)) ms wall"
}
run_with xsr snia-xsr "sim:$tmp/small.yaml" --set phases.1.write_until.amount=1h \
	--set phases.2.write_until.amount=30min --set phases.3.write_until.amount=1h
run_with hir snia-hir sim:idle-gc-aggressive "${hir_sets[@]}"
run_with dirth snia-dirth "sim:$tmp/small.yaml" --time-scale 2
# The probes with curves: the SLC-cache probes, the OP variants on the greedy reference model
# (op_variants_test.sh's), a surface write and read scan.
run_with slc slc-cache "sim:$tmp/small.yaml"
run_with opv op-variants "sim:$here/greedy-ref.yaml"
run_with surf surface-write "sim:$tmp/small.yaml"
if run_rescaled snia-ecw "$tmp/small.yaml" "$tmp/snia-ecw"; then
	same_report "$tmp/snia-ecw" snia-ecw
	python3 "$check" "$tmp/snia-ecw" || fail "snia-ecw: report_check.py"
fi

# resume writes the report too (the same runflow.c): a run killed after its 5th record, resumed;
# its flags table says resumed.
SSDLAB_DEBUG_FAULT=after-record:5 "$SSDLAB" run demo --target "sim:$tmp/small.yaml" \
	--out "$tmp/resumed" >/dev/null 2>&1
if [ -f "$tmp/resumed/report.html" ]; then
	fail "resume: the killed run left a report (the fault hook did not stop it)"
elif "$SSDLAB" resume "$tmp/resumed" >"$tmp/resumed.out" 2>&1; then
	same_report "$tmp/resumed" "resume"
	python3 "$check" "$tmp/resumed" || fail "resume: report_check.py"
	grep -q '<td>resumed</td><td>true</td>' "$tmp/resumed/report.html" ||
		fail "resume: the report's flags do not say resumed"
else
	fail "resume of the killed demo run failed"
	sed 's/^/  /' "$tmp/resumed.out" >&2
fi

# Foreign I/O (never on the virtual SSD): two of demo's records edited to say other processes
# read 8 + 16 and wrote 0 + 24 sectors; the flags table must sum them (report_check.py).
if [ -f "$tmp/demo/records.jsonl" ]; then
	cp -r "$tmp/demo" "$tmp/foreign" && python3 - "$tmp/foreign/records.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
for i, (r, w) in {2: (8, 0), 5: (16, 24)}.items():
    rec = json.loads(lines[i])
    rec["foreign_sectors_read"], rec["foreign_sectors_written"] = r, w
    lines[i] = json.dumps(rec)
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
	"$SSDLAB" report -q "$tmp/foreign" || fail "foreign: ssdlab report failed"
	python3 "$check" "$tmp/foreign" || fail "foreign: report_check.py"
	grep -q '^foreign_io.sectors_written,24$' "$tmp/foreign/report/flags.csv" ||
		fail "foreign: flags.csv does not hold the 24 sectors written"
fi

# Temperature (never on the virtual SSD): demo's summary.json given a thermal block as a drive's
# results have it (results-format.md); the report's thermal table must hold it.
if [ -f "$tmp/demo/summary.json" ]; then
	cp -r "$tmp/demo" "$tmp/thermal" && python3 - "$tmp/thermal/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["thermal"] = {"phases": [
    {"phase": 1, "repeat": 0, "throttled": False, "evidence": [], "max_c": 47.5, "warning_c": 70,
     "warning_source": "drive", "thermal_transitions": 0, "warning_temp_minutes": 0},
    {"phase": 3, "repeat": 0, "throttled": True, "evidence": ["thermal_transitions", "temperature"],
     "max_c": 71, "warning_c": 70, "warning_source": "drive", "thermal_transitions": 3,
     "warning_temp_minutes": None}], "cooldowns": []}
json.dump(s, open(sys.argv[1], "w"), indent=2)
PY
	"$SSDLAB" report -q "$tmp/thermal" || fail "thermal: ssdlab report failed"
	python3 "$check" "$tmp/thermal" || fail "thermal: report_check.py"
	grep -q '^3,0,true,"\[""thermal_transitions""' "$tmp/thermal/report/thermal.csv" ||
		fail "thermal: thermal.csv does not list phase 3 as throttled with its evidence"
fi

for t in "$SSDLAB_SRCDIR"/tests/data/old-results/*.tar.gz; do
	n=$(basename "$t" .tar.gz)
	mkdir -p "$tmp/old" && tar -C "$tmp/old" -xzf "$t" || {
		fail "$n: cannot extract $t"
		continue
	}
	"$SSDLAB" report -q "$tmp/old/$n" || fail "$n: ssdlab report failed on old results"
	python3 "$check" "$tmp/old/$n" || fail "$n: report_check.py on old results"
done

# The check bites: an external script, and a plotted value that is not its CSV's.
d="$tmp/snia-iops"
if [ -f "$d/report.html" ]; then
	cp -r "$d" "$tmp/bad1" && sed -i 's|</body>|<script src="http://example.com/x.js"></script></body>|' \
		"$tmp/bad1/report.html"
	python3 "$check" "$tmp/bad1" >/dev/null && fail "report_check.py accepts an external <script src>"
	cp -r "$d" "$tmp/bad2" && python3 - "$tmp/bad2" <<'PY'
import sys, glob
f = sorted(glob.glob(sys.argv[1] + "/report/snia-iops-bs-*.csv"))[0]
rows = open(f).read().splitlines()
s, x, y = rows[1].split(",")
rows[1] = ",".join([s, x, repr(float(y) * 1.001)])
open(f, "w").write("\n".join(rows) + "\n")
PY
	python3 "$check" "$tmp/bad2" >/dev/null && fail "report_check.py accepts a plot that differs from its CSV"
fi

# Exit codes.
"$SSDLAB" report >/dev/null 2>&1
[ $? -eq 2 ] || fail "report without a directory: exit code not 2"
"$SSDLAB" report "$tmp/nothing-here" >/dev/null 2>&1
[ $? -eq 2 ] || fail "report of a missing directory: exit code not 2"
"$SSDLAB" report --help | grep -q "report.html" || fail "report --help does not describe the report"

echo "report_test: $((($(date +%s%N) - t0) / 1000000)) ms wall"
[ "$fails" -eq 0 ] || exit 1
