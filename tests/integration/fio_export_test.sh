#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# fio_export_test: `ssdlab export-fio` of every bundled profile (docs/fio.md) is a job file fio
# itself accepts (`fio --parse-only`), and what parse-only does not check is checked here from
# the text: every bssplit and every zoned distribution sums to 100%, every job has stonewall,
# and a rounds phase to steady state is written as max_rounds rounds (snia-iops: 25 rounds of 56
# cells = 1400 jobs, plus the preconditioning job). fio is a peer tool, not a dependency: without
# it the test skips, and fails under CI=true (scripts/bootstrap.sh test installs it).
set -u
: "${SSDLAB:?SSDLAB must point at the ssdlab binary (meson sets it)}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
profiles=$here/../../profiles

if ! command -v fio >/dev/null; then
	if [ "${CI:-}" = true ]; then
		echo "FAIL: fio is not installed (CI=true; apt-get install fio)" >&2
		exit 1
	fi
	echo "SKIP: fio is not installed (apt-get install fio)"
	exit 77
fi
command -v python3 >/dev/null || { echo "SKIP: python3 is needed"; exit 77; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
n=0
for p in "$profiles"/*.yaml; do
	name=$(basename "$p" .yaml)
	n=$((n + 1))
	if ! "$SSDLAB" export-fio "$name" --out "$tmp" >"$tmp/$name.out" 2>&1; then
		echo "FAIL: export-fio $name: $(cat "$tmp/$name.out")" >&2
		fails=$((fails + 1))
		continue
	fi
	# the file of a virtual SSD names ${SSDLAB_FIO_TARGET}; parse-only opens nothing
	if ! SSDLAB_FIO_TARGET=$tmp/none.img fio --parse-only "$tmp/$name.fio" >"$tmp/$name.parse" 2>&1 ||
		grep -qi "error\|failed\|dropped" "$tmp/$name.parse"; then
		echo "FAIL: fio --parse-only $name.fio:" >&2
		head -5 "$tmp/$name.parse" >&2
		fails=$((fails + 1))
	fi
done
[ "$n" -ge 20 ] || { echo "FAIL: only $n bundled profiles found in $profiles" >&2; fails=$((fails + 1)); }

python3 - "$tmp" <<'PY' || fails=$((fails + 1))
import glob, os, re, sys
bad = 0
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.fio"))):
    jobs, cur = [], None
    for line in open(path):
        line = line.strip()
        m = re.match(r"^\[(.+)\]$", line)
        if m:
            cur = {"name": m.group(1)}
            jobs.append(cur)
        elif cur is not None and "=" in line and not line.startswith("#"):
            k, v = line.split("=", 1)
            cur[k] = v
        elif cur is not None and line and not line.startswith("#"):
            cur[line] = True
    for j in jobs[1:]:
        if "stonewall" not in j:
            print(f"FAIL: {path}: job {j['name']} has no stonewall"); bad += 1
        if "bssplit" in j:
            s = sum(int(x.split("/")[1]) for x in j["bssplit"].split(":"))
            if s != 100:
                print(f"FAIL: {path}: {j['name']} bssplit sums to {s}"); bad += 1
        if "random_distribution" in j:
            z = j["random_distribution"].split(":")[1:]
            io = sum(int(x.split("/")[0]) for x in z)
            rg = sum(int(x.split("/")[1]) for x in z)
            if io != 100 or rg != 100:
                print(f"FAIL: {path}: {j['name']} zones sum to {io}/{rg}"); bad += 1
    g = jobs[0] if jobs else {}
    for k in ("ioengine", "direct", "norandommap", "randrepeat"):
        if k not in g:
            print(f"FAIL: {path}: [global] has no {k}"); bad += 1
    if os.path.basename(path) == "snia-iops.fio":
        cells = [j for j in jobs if re.match(r"p\d+\.i0\.r\d+\.", j["name"]) and ".r0." not in j["name"]]
        rounds = {j["name"].split(".")[2] for j in cells}
        if len(cells) != 25 * 56 or len(rounds) != 25:
            print(f"FAIL: snia-iops: {len(cells)} cell jobs in {len(rounds)} rounds, expected 1400 in 25"); bad += 1
        if g.get("ioengine") != "io_uring" or g.get("randrepeat") != "0" or g.get("direct") != "1":
            print("FAIL: snia-iops: [global] is not io_uring, direct=1, randrepeat=0"); bad += 1
sys.exit(1 if bad else 0)
PY

[ "$fails" = 0 ] && echo "ok: $n profiles exported and parsed by $(fio --version)"
[ "$fails" = 0 ]
