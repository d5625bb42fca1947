#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# hpa_journal (issue 13 point 2): `ssdlab hpa DEV --set | --restore` journaled, and `ssdlab restore
# DIR` undoing it from another process, over ssdlab-hpa-scripted (the cli sources with a scripted
# SATA drive whose state is a file: tests/integration/hpa_file_drive.c), so that the drive keeps
# what one process set after that process is gone, killed -9 included. The expected CDBs are
# written out here from the layouts: ATA PASS-THROUGH(16) (SAT-4 12.2.2.3) byte 0 0x85, byte 1
# PROTOCOL<<1 | EXTEND (non-data 3: 0x07), byte 2 CK_COND (0x20), bytes 3-4 FEATURE 15:0, 5-6
# COUNT 15:0, bytes 7-12 LBA 31:24, 7:0, 39:32, 15:8, 47:40, 23:16, byte 13 DEVICE (0x40: LBA),
# byte 14 the command; SET MAX ADDRESS EXT 0x37 with COUNT bit 0 = Volatile Value (1: kept over a
# power cycle, ACS-2 7.51), SET ACCESSIBLE MAX ADDRESS EXT 0x78 FEATURE 0x0001 (ACS-3 7.62).
# The drive: native max LBA 999999 (1,000,000 sectors of 512 bytes).
#   80%: 800,000 sectors, max LBA 799999 = 0x0C34FF
#   50%: 500,000 sectors, max LBA 499999 = 0x07A11F
#   the native max 999999 = 0x0F423F
set -uo pipefail

S=${SSDLAB_HPA_SCRIPTED:-build/tests/integration/ssdlab-hpa-scripted}
SSDLAB=${SSDLAB:-build/suite/ssdlab}
[ -x "$S" ] || { echo "SKIP: $S not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 is missing (reads the journal)"; exit 77; }
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
bad=0
fail() {
	echo "FAIL: $*"
	bad=1
}

SET80_VOL="85 07 20 00 00 00 00 00 ff 00 34 00 0c 40 37 00"
SET80_NV="85 07 20 00 00 00 01 00 ff 00 34 00 0c 40 37 00"
SET50_VOL="85 07 20 00 00 00 00 00 1f 00 a1 00 07 40 37 00"
RESTORE_NV="85 07 20 00 00 00 01 00 3f 00 42 00 0f 40 37 00"
READ_NATIVE="85 07 20 00 00 00 00 00 00 00 00 00 00 40 27 00"
AMAC_SET50="85 07 20 00 01 00 00 00 1f 00 a1 00 07 40 78 00"
AMAC_RESTORE="85 07 20 00 01 00 00 00 3f 00 42 00 0f 40 78 00"

# drive NAME [key value ...]: a fresh scripted drive without an HPA
drive() {
	local f=$1
	shift
	rm -f "$f" "$f.cdbs" "$f.stalled"
	printf 'hpa-drive 1\nnative_max_lba 999999\ncurrent_max_lba 999999\n' >"$f"
	while [ $# -gt 1 ]; do
		printf '%s %s\n' "$1" "$2" >>"$f"
		shift 2
	done
}
field() { sed -n "s/^$2 //p" "$1"; }
# the CDBs of one command (by opcode byte 14) the drive received, in order
cdbs() { awk -v op="$2" '$15 == op' "$1.cdbs" 2>/dev/null; }
# jq-less journal query: py DIR EXPR, EXPR over e (the list of lines)
jq_() {
	python3 -c 'import json,sys; e=[json.loads(l) for l in open(sys.argv[1]+"/journal.jsonl")]; print(eval(sys.argv[2]))' "$1" "$2"
}

# 1. volatile --set 80% in one process, which exits without restoring; restore in another
drive d1
"$S" hpa d1 --set 80% --journal j1 >out1 2>&1 || fail "--set 80% exited $?: $(cat out1)"
[ "$(field d1 current_max_lba)" = 799999 ] || fail "after --set 80% the drive's max is $(field d1 current_max_lba), want 799999"
[ "$(field d1 last_volatile)" = 1 ] || fail "--set without --persistent was not volatile"
[ "$(cdbs d1 37)" = "$SET80_VOL" ] || fail "SET MAX CDB: '$(cdbs d1 37)', want '$SET80_VOL'"
# ACS-2: the set comes right after READ NATIVE MAX ADDRESS EXT
prev=$(grep -B1 " 37 00$" d1.cdbs | head -1)
[ "$prev" = "$READ_NATIVE" ] || fail "the command before SET MAX was '$prev', want READ NATIVE MAX '$READ_NATIVE'"
[ "$(jq_ j1 '[x["op"] for x in e]')" = "['change', 'done']" ] || fail "journal after --set: $(jq_ j1 '[x["op"] for x in e]')"
[ "$(jq_ j1 'e[0]["from"]["max_lba"], e[0]["to"]["max_lba"], e[0]["to"]["volatile"], e[0]["kind"], e[0]["persistent"]')" = "(999999, 799999, True, 'hpa', False)" ] ||
	fail "journal change line: $(head -1 j1/journal.jsonl)"
jq_ j1 'e[0]["command"]' | grep -q "CDB $SET80_VOL" || fail "the journal's command does not name the CDB: $(jq_ j1 'e[0]["command"]')"
[ "$(jq_ j1 'e[1]["ok"], e[1]["readback"]["max_lba"]')" = "(True, 799999)" ] || fail "journal done line: $(sed -n 2p j1/journal.jsonl)"
: >d1.cdbs
"$S" restore j1 >rout1 2>&1 || fail "restore j1 exited $?: $(cat rout1)"
[ "$(field d1 current_max_lba)" = 999999 ] || fail "after restore the max is $(field d1 current_max_lba), want 999999"
[ "$(cdbs d1 37)" = "$RESTORE_NV" ] || fail "restore's SET MAX CDB: '$(cdbs d1 37)', want '$RESTORE_NV'"
[ "$(jq_ j1 'e[2]["op"], e[2]["ok"], e[2]["readback"]["max_lba"]')" = "('restored', True, 999999)" ] || fail "journal restored line: $(sed -n 3p j1/journal.jsonl)"
"$S" restore j1 >rout1b 2>&1 || fail "a second restore exited $?"
grep -q "nothing to restore" rout1b || fail "a second restore: $(cat rout1b)"

# 2. kill -9 after the drive carried out SET MAX and before the journal's "done" line
drive d2 stall_op 0x37
"$S" hpa d2 --set 50% --journal j2 >out2 2>&1 &
pid=$!
for _ in $(seq 100); do
	[ -e d2.stalled ] && break
	sleep 0.1
done
[ -e d2.stalled ] || fail "the --set process never reached SET MAX: $(cat out2)"
kill -9 "$pid"
wait "$pid" 2>/dev/null
pid=""
[ "$(field d2 current_max_lba)" = 499999 ] || fail "after kill -9 the max is $(field d2 current_max_lba), want 499999 (set)"
[ "$(cdbs d2 37)" = "$SET50_VOL" ] || fail "SET MAX 50% CDB: '$(cdbs d2 37)', want '$SET50_VOL'"
[ "$(jq_ j2 '[x["op"] for x in e]')" = "['change']" ] || fail "journal after kill -9: $(jq_ j2 '[x["op"] for x in e]')"
sed -i 's/^stall_op .*/stall_op 0/' d2
: >d2.cdbs
"$S" restore j2 >rout2 2>&1 || fail "restore after kill -9 exited $?: $(cat rout2)"
[ "$(field d2 current_max_lba)" = 999999 ] || fail "restore after kill -9 left max $(field d2 current_max_lba)"
[ "$(cdbs d2 37)" = "$RESTORE_NV" ] || fail "restore after kill -9 sent '$(cdbs d2 37)', want '$RESTORE_NV'"
[ "$(jq_ j2 'e[-1]["op"], e[-1]["ok"]')" = "('restored', True)" ] || fail "journal after the restore: $(tail -1 j2/journal.jsonl)"

# 3. --persistent, then a restore in the same power cycle: the drive aborts a second
#    non-volatile SET MAX (hdparm.8); the restore fails and says so, the entry stays
#    outstanding; after a power cycle the restore succeeds
drive d3
"$S" hpa d3 --set 80% --persistent --journal j3 >out3 2>&1 || fail "--set --persistent exited $?: $(cat out3)"
[ "$(cdbs d3 37)" = "$SET80_NV" ] || fail "persistent SET MAX CDB: '$(cdbs d3 37)', want '$SET80_NV'"
grep -q "power cycle" out3 || fail "--persistent does not mention the power cycle: $(cat out3)"
[ "$(jq_ j3 'e[0]["persistent"]')" = True ] || fail "journal: persistent not true"
"$S" restore j3 >rout3 2>&1
rc=$?
[ $rc -eq 1 ] || fail "restore in the same power cycle exited $rc, want 1: $(cat rout3)"
grep -q "NOT restored" rout3 || fail "the failed restore does not say so: $(cat rout3)"
[ "$(field d3 current_max_lba)" = 799999 ] || fail "a failed restore changed the max"
[ "$(jq_ j3 'e[-1]["op"], e[-1]["ok"]')" = "('restored', False)" ] || fail "the failed restore is not journaled: $(tail -1 j3/journal.jsonl)"
sed -i 's/^nv_set_this_cycle .*/nv_set_this_cycle 0/; s/^last_op .*/last_op 0/' d3 # a power cycle
"$S" restore j3 >rout3b 2>&1 || fail "restore after the power cycle exited $?: $(cat rout3b)"
[ "$(field d3 current_max_lba)" = 999999 ] || fail "restore after the power cycle left max $(field d3 current_max_lba)"

# 4. refusals: each before anything is journaled or sent
refused() { # name want_rc drive-args... -- hpa-args...
	local name=$1 want=$2
	shift 2
	local dargs=()
	while [ "$1" != -- ]; do
		dargs+=("$1")
		shift
	done
	shift
	drive "$name" "${dargs[@]}"
	"$S" hpa "$name" "$@" --journal "j-$name" >"out-$name" 2>&1
	local rc=$?
	[ $rc -eq "$want" ] || fail "$name: exited $rc, want $want: $(cat "out-$name")"
	[ -e "j-$name/journal.jsonl" ] && fail "$name: a journal was written for a refused change"
	[ -z "$(cdbs "$name" 37; cdbs "$name" 78 | grep -v '^85 07 20 00 00')" ] || fail "$name: a SET command was sent"
	grep -q "no change made" "out-$name" || fail "$name: no 'no change made': $(cat "out-$name")"
}
refused frozen 3 frozen 1 -- --set 80%
refused locked 3 locked 1 -- --set 80%
refused dco 3 dco 1 dco_max_lba 1999999 -- --set 80%
refused preexisting 3 current_max_lba 899999 -- --set 80%
refused usb 3 transport usb -- --set 80%
refused amac_vol 4 amac 1 -- --set 50%
grep -q "DCO\|Configuration Overlay" out-dco || fail "dco: the message does not name the DCO: $(cat out-dco)"
grep -qi "frozen" out-frozen || fail "frozen: $(cat out-frozen)"

# 5. AMAC: persistent only; set and restore through SET ACCESSIBLE MAX ADDRESS EXT
drive d5 amac 1
"$S" hpa d5 --set 50% --persistent --journal j5 >out5 2>&1 || fail "AMAC --set exited $?: $(cat out5)"
[ "$(cdbs d5 78 | grep '^85 07 20 00 01')" = "$AMAC_SET50" ] || fail "AMAC set CDB: '$(cdbs d5 78)', want '$AMAC_SET50'"
[ "$(field d5 current_max_lba)" = 499999 ] || fail "AMAC set: max $(field d5 current_max_lba)"
: >d5.cdbs
"$S" restore j5 >rout5 2>&1 || fail "AMAC restore exited $?: $(cat rout5)"
[ "$(cdbs d5 78 | grep '^85 07 20 00 01')" = "$AMAC_RESTORE" ] || fail "AMAC restore CDB: '$(cdbs d5 78)', want '$AMAC_RESTORE'"
[ "$(field d5 current_max_lba)" = 999999 ] || fail "AMAC restore: max $(field d5 current_max_lba)"

# 6. hpa --restore is a change too: journaled, and undone by restore DIR (the HPA back)
drive d6 current_max_lba 799999
"$S" hpa d6 --restore --journal j6 >out6 2>&1 || fail "hpa --restore exited $?: $(cat out6)"
[ "$(field d6 current_max_lba)" = 999999 ] || fail "hpa --restore left max $(field d6 current_max_lba)"
[ "$(jq_ j6 'e[0]["from"]["max_lba"], e[0]["to"]["max_lba"]')" = "(799999, 999999)" ] || fail "hpa --restore journal: $(head -1 j6/journal.jsonl)"

# 7. the shipped program never takes a state file for a drive
drive d7
"$SSDLAB" hpa d7 --set 80% >out7 2>&1
rc=$?
[ $rc -eq 4 ] || fail "the shipped ssdlab on a state file exited $rc, want 4: $(cat out7)"
[ "$(field d7 current_max_lba)" = 999999 ] || fail "the shipped ssdlab changed a state file"

[ $bad -eq 0 ] && echo "hpa_journal: all checks passed"
exit $bad
