#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# ns_journal (issue 13 point 3): `ssdlab namespace DEV --set` journaled, and `ssdlab restore DIR`
# undoing it from another process, over ssdlab-ns-scripted (the cli sources with a scripted NVMe
# controller whose state is a file: tests/integration/ns_file_drive.c), so that the controller
# keeps what one process did after that process is gone, killed -9 between the delete and the
# create included. The expected commands are written out here from NVMe Base Specification 2.0:
# each line of DEV.cmds is "OPCODE NSID CDW10" and, for 0x0D/0x15, the first 32 data bytes.
#   Namespace Attachment 0x15: CDW10 SEL (0 attach, 1 detach), data a controller list: count
#     (16 bits LE) then the ids: {1, 0x0041} = 01 00 41 00.
#   Namespace Management 0x0D: delete SEL 1 with the nsid; create SEL 0 with NSID 0, data the
#     Identify Namespace layout: NSZE bytes 0-7, NCAP 8-15 (LE), FLBAS byte 26.
# Drive 1: 256 MiB of 512-byte blocks = 524288 blocks; 75% = 393216 = 0x060000 blocks.
# Drive 2: 256 MiB of 4096-byte blocks (FLBAS 1) = 65536 = 0x010000 blocks; 50% = 32768 = 0x8000;
#   the create must keep FLBAS 1 (byte 26 = 01).
set -uo pipefail

S=${SSDLAB_NS_SCRIPTED:-build/tests/integration/ssdlab-ns-scripted}
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

z() { printf ' 00%.0s' $(seq "$1"); }
LIST="01 00 41 00$(z 28)"
DETACH="15 1 00000001 $LIST"
ATTACH="15 1 00000000 $LIST"
DELETE="0d 1 00000001"
CREATE75="0d 0 00000000 00 00 06 00 00 00 00 00 00 00 06 00 00 00 00 00$(z 16)"
CREATE256="0d 0 00000000 00 00 08 00 00 00 00 00 00 00 08 00 00 00 00 00$(z 16)"
CREATE50_4K="0d 0 00000000 00 80 00 00 00 00 00 00 00 80 00 00 00 00 00 00$(z 10) 01$(z 5)"
CREATE256_4K="0d 0 00000000 00 00 01 00 00 00 00 00 00 00 01 00 00 00 00 00$(z 10) 01$(z 5)"

# drive NAME NSZE FLBAS [key value ...]: a fresh scripted controller of 512 MiB, one namespace
drive() {
	local f=$1
	rm -f "$f" "$f.cmds" "$f.stalled"
	printf 'ns-drive 1\nexists 1\nattached 1\nnsze %s\nncap %s\nflbas %s\ndps 0\nnmic 0\n' "$2" "$2" "$3" >"$f"
	printf 'tnvmcap 536870912\noacs 10\neffects 1\n' >>"$f"
	shift 3
	while [ $# -gt 1 ]; do
		printf '%s %s\n' "$1" "$2" >>"$f"
		shift 2
	done
}
field() { sed -n "s/^$2 //p" "$1"; }
# the commands that change the namespace (0x0D, 0x15), in order
changes() { grep -E '^(0d|15) ' "$1.cmds" 2>/dev/null; }
jq_() {
	python3 -c 'import json,sys; e=[json.loads(l) for l in open(sys.argv[1]+"/journal.jsonl")]; print(eval(sys.argv[2]))' "$1" "$2"
}

# 1. the layout as the controller reports it
drive d1 524288 0
"$S" namespace d1 --json >show1 2>&1 || fail "namespace d1 --json exited $?: $(cat show1)"
python3 - show1 <<'PY' || fail "namespace d1 --json: $(cat show1)"
import json, sys
s = json.load(open(sys.argv[1]))
# 512 MiB controller, 256 MiB allocated to the namespace: 268435456 bytes unallocated
want = {"nsid": 1, "nsze": 524288, "ncap": 524288, "lbaf": 0, "block_bytes": 512, "endgid": 1,
        "tnvmcap": 536870912, "unvmcap": 268435456, "ns_management": True}
bad = [(k, s.get(k), v) for k, v in want.items() if s.get(k) != v]
print(bad or "ok")
sys.exit(1 if bad else 0)
PY
# --dry-run lists the commands and changes nothing
"$S" namespace d1 --set 75% --dry-run >dry1 2>&1 || fail "--dry-run exited $?: $(cat dry1)"
[ "$(grep -c '^would send' dry1)" = 5 ] || fail "--dry-run listed: $(cat dry1)"
[ -z "$(changes d1)" ] || fail "--dry-run sent: $(changes d1)"

# 2. --set 75% in one process, restore in another
"$S" namespace d1 --set 75% --journal j1 >out1 2>&1 || fail "--set 75% exited $?: $(cat out1)"
[ "$(field d1 nsze) $(field d1 ncap) $(field d1 attached)" = "393216 393216 1" ] ||
	fail "after --set 75%: nsze $(field d1 nsze) ncap $(field d1 ncap) attached $(field d1 attached)"
want=$(printf '%s\n' "$DETACH" "$DELETE" "$CREATE75" "$ATTACH")
[ "$(changes d1)" = "$want" ] || fail "--set sent:
$(changes d1)
want:
$want"
[ "$(jq_ j1 '[x["op"] for x in e]')" = "['change', 'done']" ] || fail "journal after --set: $(jq_ j1 '[x["op"] for x in e]')"
[ "$(jq_ j1 'e[0]["kind"], e[0]["from"]["nsze"], e[0]["to"]["nsze"], e[0]["persistent"]')" = "('nvme_namespace', 524288, 393216, True)" ] ||
	fail "journal change line: $(head -1 j1/journal.jsonl)"
: >d1.cmds
"$S" restore j1 >rout1 2>&1 || fail "restore j1 exited $?: $(cat rout1)"
[ "$(field d1 nsze) $(field d1 ncap) $(field d1 attached)" = "524288 524288 1" ] ||
	fail "after restore: nsze $(field d1 nsze) attached $(field d1 attached)"
want=$(printf '%s\n' "$DETACH" "$DELETE" "$CREATE256" "$ATTACH")
[ "$(changes d1)" = "$want" ] || fail "restore sent:
$(changes d1)
want:
$want"
"$S" restore j1 >rout1b 2>&1 || fail "a second restore exited $?"
grep -q "nothing to restore" rout1b || fail "a second restore: $(cat rout1b)"

# 3. kill -9 after the controller deleted the namespace, before the create: the namespace is gone;
#    restore creates it with its old layout (4Kn kept) and attaches it, sending no delete
drive d2 65536 1 stall_op 0x0d
"$S" namespace d2 --set 50% --journal j2 >out2 2>&1 &
pid=$!
for _ in $(seq 100); do
	[ -e d2.stalled ] && break
	sleep 0.1
done
[ -e d2.stalled ] || fail "the --set process never reached the delete: $(cat out2)"
kill -9 "$pid"
wait "$pid" 2>/dev/null
pid=""
[ "$(field d2 exists)" = 0 ] || fail "after kill -9 the namespace exists (exists $(field d2 exists))"
[ "$(jq_ j2 '[x["op"] for x in e]')" = "['change']" ] || fail "journal after kill -9: $(jq_ j2 '[x["op"] for x in e]')"
[ "$(jq_ j2 'e[0]["to"]["nsze"], e[0]["to"]["flbas"]')" = "(32768, 1)" ] || fail "journal change line: $(head -1 j2/journal.jsonl)"
sed -i 's/^stall_op .*/stall_op 0/' d2
: >d2.cmds
"$S" restore j2 >rout2 2>&1 || fail "restore after kill -9 exited $?: $(cat rout2)"
[ "$(field d2 exists) $(field d2 attached) $(field d2 nsze) $(field d2 ncap) $(field d2 flbas)" = "1 1 65536 65536 1" ] ||
	fail "restore after kill -9 left: $(cat d2)"
want=$(printf '%s\n' "$CREATE256_4K" "$ATTACH")
[ "$(changes d2)" = "$want" ] || fail "restore after kill -9 sent:
$(changes d2)
want:
$want"
[ "$(jq_ j2 'e[-1]["op"], e[-1]["ok"], e[-1]["readback"]["nsze"]')" = "('restored', True, 65536)" ] ||
	fail "journal restored line: $(tail -1 j2/journal.jsonl)"

# 4. a controller like QEMU 7.2 (log 0x05 without 0x0D): refused before anything is sent or journaled
drive d3 524288 0 effects 2
"$S" namespace d3 --set 50% --journal j3 >out3 2>&1
rc=$?
[ $rc = 4 ] || fail "--set on a controller without namespace management: exit $rc, want 4: $(cat out3)"
grep -q "no change made" out3 || fail "the refusal: $(cat out3)"
[ -z "$(changes d3)" ] || fail "the refused --set sent: $(changes d3)"
[ ! -s j3/journal.jsonl ] || fail "the refused --set journaled: $(cat j3/journal.jsonl)"
# bigger than the namespace: a usage error, nothing sent
drive d4 524288 0
"$S" namespace d4 --set 300m >out4 2>&1
rc=$?
[ $rc = 2 ] || fail "--set 300m on a 256 MiB namespace: exit $rc, want 2: $(cat out4)"
[ -z "$(changes d4)" ] || fail "the refused --set 300m sent: $(changes d4)"

[ $bad = 0 ] && echo "PASS"
exit $bad
