#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# extends_resume_test: a run of a profile made with `extends:` resumes with the parent as the
# run read it, not as it is on disk now. The manifest keeps each parent's text
# (profile.extends: ref, path, text); `ssdlab resume` reads the parents from there. The test
# kills a child profile's run after its second record, then changes the parent on disk (other
# block sizes) and deletes it, and resumes: the records after the resume must have the cells of
# the parent as it was, and the record keys must equal those of an uninterrupted run.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/run_lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the records"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdlab-extres-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/p"

write_parent() { # bs1 bs2
	cat >"$tmp/p/base-rounds.yaml" <<EOF
name: base-rounds
description: a parent with 3 fixed rounds of 2 cells
destructive: true
defaults: {seed: 3}
phases:
  - precondition: {rw: write, bs: 128k, amount: 1x, queue: {threads: 1, depth: 8}}
  - rounds:
      rw: randwrite
      cells: {bs: [$1, $2]}
      cell_time: 200ms
      queue: {threads: 1, depth: 4}
      count: 3
EOF
}
write_parent 4k 16k
cat >"$tmp/p/child.yaml" <<'EOF'
name: child
description: the parent with deeper queues
extends: base-rounds
set: {phases.1.rounds.queue.depth: 8}
EOF

"$SSDLAB" run "$tmp/p/child.yaml" --target sim:client-tlc --time-scale 50 --yes-destroy=sim:client-tlc --out "$tmp/ref" >"$tmp/ref.log" 2>&1 ||
	{ fail "the uninterrupted run failed"; sed 's/^/  /' "$tmp/ref.log" >&2; exit 1; }
SSDLAB_DEBUG_FAULT=after-record:3 "$SSDLAB" run "$tmp/p/child.yaml" --target sim:client-tlc --time-scale 50 --yes-destroy=sim:client-tlc \
	--out "$tmp/cut" >"$tmp/cut.log" 2>&1
rc=$?
[ "$rc" -eq 137 ] || { fail "the killed run exited $rc, not 137 (SIGKILL)"; exit 1; }

python3 - "$tmp/cut/manifest.json" "$tmp/p/base-rounds.yaml" <<'EOF' || fail "manifest profile.extends"
import json, sys
m = json.load(open(sys.argv[1]))
ext = m["profile"].get("extends")
want = open(sys.argv[2]).read()
assert ext and len(ext) == 1, f"profile.extends: {ext!r}"
assert ext[0]["ref"] == "base-rounds", ext[0]["ref"]
assert ext[0]["path"].endswith("/base-rounds.yaml"), ext[0]["path"]
assert ext[0]["text"] == want, "the parent's text differs from the file"
EOF

# The parent changes on disk: other block sizes; a resume reading it would run other cells.
write_parent 8k 64k
"$SSDLAB" resume "$tmp/cut" >"$tmp/res.log" 2>&1 ||
	{ fail "resume with the parent changed on disk failed"; sed 's/^/  /' "$tmp/res.log" >&2; }
check_keys "$tmp/cut" "$tmp/ref" "resume with the parent changed on disk"
grep -q '"cell":"bs=8k"' "$tmp/cut/records.jsonl" && fail "a record has the changed parent's cell bs=8k"

# The parent gone from disk: the same, from the manifest alone (a run of the original parent).
write_parent 4k 16k
SSDLAB_DEBUG_FAULT=after-record:3 "$SSDLAB" run "$tmp/p/child.yaml" --target sim:client-tlc --time-scale 50 --yes-destroy=sim:client-tlc \
	--out "$tmp/cut2" >/dev/null 2>&1
rm "$tmp/p/base-rounds.yaml"
if "$SSDLAB" resume "$tmp/cut2" >"$tmp/res2.log" 2>&1; then
	check_keys "$tmp/cut2" "$tmp/ref" "resume with the parent deleted from disk"
else
	fail "resume with the parent deleted from disk failed"
	sed 's/^/  /' "$tmp/res2.log" >&2
fi
[ "$fails" -eq 0 ] && echo "extends_resume: all checks passed"
[ "$fails" -eq 0 ]
