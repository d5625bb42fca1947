#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# restore_cli_test: the profile's `write_cache` key and `ssdlab restore` without a drive (the
# QEMU test changes a real one):
#   - on the virtual SSD `write_cache: off` sets the model's cache: the manifest says profile off,
#     read back off, and no journal (nothing on a drive changed);
#   - on a file target `write_cache: off` is refused before anything runs (exit 4, the reason),
#     and so is `power_states: off` on the virtual SSD;
#   - `ssdlab restore` of a directory without a journal, or with every change restored, has
#     nothing to do (exit 0); a corrupt middle line is exit 2 with its line number; a change
#     whose device cannot be opened is exit 1 and stays outstanding.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the manifest"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-restore-cli-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/p.yaml" <<'YAML'
name: wc-off
description: one short cell with the write cache off
destructive: true
write_cache: off
phases:
  - precondition: {rw: write, bs: 128k, amount: 8MiB, queue: {threads: 1, depth: 4}}
YAML

"$SSDLAB" run "$tmp/p.yaml" --target sim:client-tlc --out "$tmp/sim" --quiet >"$tmp/sim.out" 2>&1 ||
	fail "run on the sim with write_cache: off: exit $? ($(cat "$tmp/sim.out"))"
python3 - "$tmp/sim/manifest.json" <<'PY' || fail "sim manifest drive_settings"
import json, sys
m = json.load(open(sys.argv[1]))
ds = m.get("drive_settings")
want = {"write_cache": {"profile": "off", "as_found": None, "readback": False},
        "power_states": {"profile": "as-found", "as_found": None, "readback": None}, "journal": None}
if ds != want:
    print("drive_settings %r, expected %r" % (ds, want)); sys.exit(1)
if m["plan"].get("write_cache") != "off":
    print("plan.write_cache %r" % m["plan"].get("write_cache")); sys.exit(1)
PY
[ -e "$tmp/sim/journal.jsonl" ] && fail "a journal on the virtual SSD (nothing on a drive changed)"

# the virtual SSD has no power states to pin
sed 's/^write_cache: off$/power_states: off/' "$tmp/p.yaml" >"$tmp/ps.yaml"
"$SSDLAB" run "$tmp/ps.yaml" --target sim:client-tlc --out "$tmp/ps" --quiet >"$tmp/ps.out" 2>&1
rc=$?
[ "$rc" = 4 ] || fail "power_states: off on the sim: exit $rc, expected 4"
grep -q "power_states: off: the virtual SSD has no power states" "$tmp/ps.out" || fail "sim power states: $(cat "$tmp/ps.out")"

truncate -s 64M "$tmp/file.img"
"$SSDLAB" run "$tmp/p.yaml" --target "$tmp/file.img" --yes-destroy="$tmp/file.img" --out "$tmp/file" --quiet \
	>"$tmp/file.out" 2>&1
rc=$?
[ "$rc" = 4 ] || fail "write_cache: off on a file: exit $rc, expected 4"
grep -q "write_cache: off: .*file.img is not a drive ssdlab can send commands to" "$tmp/file.out" ||
	fail "write_cache: off on a file: no reason: $(cat "$tmp/file.out")"
[ -e "$tmp/file/records.jsonl" ] && [ -s "$tmp/file/records.jsonl" ] && fail "records written after the refusal"

out=$("$SSDLAB" restore "$tmp/sim" 2>&1) || fail "restore without a journal: exit $?"
[[ "$out" == "nothing to restore in $tmp/sim (0 change(s) journaled, all restored)" ]] ||
	fail "restore without a journal: $out"

mkdir "$tmp/j"
cat >"$tmp/j/journal.jsonl" <<'J'
{"schema":1,"seq":1,"op":"change","id":"wc-1","kind":"write_cache","device":{"path":"/nonexistent/ssdlab-disk","serial":"S1","wwn":""},"from":{"enabled":true},"to":{"enabled":false},"command":"x","persistent":false,"wall_ns":1}
{"schema":1,"seq":2,"op":"done","id":"wc-1","ok":true,"readback":{"enabled":false},"error":null,"wall_ns":2}
J
"$SSDLAB" restore "$tmp/j" >"$tmp/j.out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "restore with the device gone: exit $rc, expected 1 ($(cat "$tmp/j.out"))"
grep -q "cannot open /nonexistent/ssdlab-disk to restore it" "$tmp/j.out" || fail "device gone: $(cat "$tmp/j.out")"
[ "$(wc -l <"$tmp/j/journal.jsonl")" = 2 ] || fail "restore with the device gone wrote to the journal"

echo '{"schema":1,"seq":3,"op":"restored","id":"wc-1","ok":true,"readback":{"enabled":true},"how":"x","error":null,"wall_ns":3}' >>"$tmp/j/journal.jsonl"
out=$("$SSDLAB" restore "$tmp/j" 2>&1) || fail "restore, all restored: exit $?"
[[ "$out" == *"nothing to restore"*"(1 change(s) journaled, all restored)"* ]] || fail "all restored: $out"

# a torn last line is dropped (said on stderr); a bad middle line is exit 2 with its number
printf '{"schema":1,"seq":4,"op":"chan' >>"$tmp/j/journal.jsonl"
out=$("$SSDLAB" restore "$tmp/j" 2>&1) || fail "restore with a torn last line: exit $?"
[[ "$out" == *"dropped a torn last journal line"* ]] || fail "torn line not reported: $out"
printf '\n{"schema":1,"seq":5,"op":"done","id":"wc-1","ok":true}\n' >>"$tmp/j/journal.jsonl"
"$SSDLAB" restore "$tmp/j" >"$tmp/bad.out" 2>&1
rc=$?
[ "$rc" = 2 ] || fail "restore of a corrupt journal: exit $rc, expected 2"
grep -q "journal.jsonl:4: not JSON" "$tmp/bad.out" || fail "corrupt journal: $(cat "$tmp/bad.out")"

[ "$fails" = 0 ] || exit 1
echo "PASS"
