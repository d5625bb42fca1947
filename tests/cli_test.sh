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
for c in io run resume plan analyze check profiles models; do
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

# The lists name what they list.
check "profiles" 0 "$ssdlab" profiles
contains "profiles lists demo" "$tmp/out" "^ *demo "
check "models" 0 "$ssdlab" models
contains "models lists client-tlc" "$tmp/out" "^client-tlc "

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
