#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# fio_loop_test: a small profile run by ssdlab on a loop device (direct I/O, a sparse file in a
# temp dir) and its `export-fio` run by fio on the same device give the same I/O (docs/fio.md):
#   - 4 KiB random writes of 4 MiB: exactly 1024 writes and 4 MiB in both;
#   - random writes of 4k/70:64k/30 with an amount of 16 MiB: the bytes within one 64 KiB I/O
#     of 16 MiB in both, and the 4 KiB share of the I/Os within sampling error of 70% in both;
#   - 5 rounds of one randrw cell (70% reads, 4k/70:64k/30, 500 ms): fio's jobs are named after
#     the rounds, and the read share of the I/Os is within sampling error of 70% in both;
#   - `ssdlab analyze --fio` on fio's json+ output: percentiles equal to fio's own,
#     the steady state of the 5 rounds as computed by hand (fio_analyze_check.py).
# The counts come from fio's JSON and ssdlab's records.jsonl, read by python3 (fio_loop_check.py).
# Skips without root, losetup or fio (a failure under CI=true for fio); the loop device is
# detached on exit.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"

TAG=ssdlab-fio-loop
if ! command -v fio >/dev/null; then
	[ "${CI:-}" = true ] && { echo "FAIL: fio is not installed (CI=true)" >&2; exit 1; }
	skip "fio is not installed (apt-get install fio)"
fi
[ "$(id -u)" = 0 ] || skip "needs root to attach loop devices"
command -v losetup >/dev/null || skip "no losetup"
command -v python3 >/dev/null || skip "python3 is needed to read the results"

loop_scratch "$TAG" 64M
[ "$(cat "/sys/block/$name/loop/dio" 2>/dev/null)" = 1 ] ||
	skip "$dev fell back to buffered I/O (backing file system without O_DIRECT)"

cat >"$tmp/fio-x.yaml" <<'Y'
name: fio-x
description: export-fio cross-check (fio_loop_test.sh)
destructive: true
phases:
  - precondition: {rw: randwrite, bs: 4k, amount: 4MiB, queue: {threads: 1, depth: 4}}
  - precondition: {rw: randwrite, bs: 4k/70:64k/30, amount: 16MiB, queue: {threads: 1, depth: 4}}
  - rounds: {rw: randrw, rwmix_read: 70, bs: 4k/70:64k/30, cell_time: 500ms, count: 5, qd: 4}
Y
SECONDS=0
"$SSDLAB" run "$tmp/fio-x.yaml" --target "$dev" --yes-destroy="$dev" --out "$tmp/run" --quiet \
	>"$tmp/run.out" 2>&1 || { fail "ssdlab run: $(tail -5 "$tmp/run.out")"; exit 1; }
"$SSDLAB" export-fio "$tmp/fio-x.yaml" --target "$dev" --out "$tmp/fio" >"$tmp/export.out" 2>&1 ||
	{ fail "export-fio: $(cat "$tmp/export.out")"; exit 1; }
fio --output-format=json+ --output="$tmp/fio.json" "$tmp/fio/fio-x.fio" >"$tmp/fio.out" 2>&1 ||
	{ fail "fio: $(tail -5 "$tmp/fio.out")"; exit 1; }
python3 "$here/fio_loop_check.py" "$tmp/run/records.jsonl" "$tmp/fio.json" || fail "fio_loop_check"
"$SSDLAB" analyze --fio "$tmp/fio.json" --out "$tmp/afio" >"$tmp/afio.out" 2>&1 ||
	fail "analyze --fio: $(cat "$tmp/afio.out")"
python3 "$here/fio_analyze_check.py" "$tmp/fio.json" "$tmp/afio/summary.json" || fail "fio_analyze_check"
echo "ssdlab run + export + fio: ${SECONDS} s"
[ "$fails" = 0 ] && echo "ok"
[ "$fails" = 0 ]
