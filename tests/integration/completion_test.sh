#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# completion_test (issue 18 point 4): completion/ssdlab.bash passes `bash -n`; sourced in a fresh
# bash with the default COMP_WORDBREAKS, it completes (COMP_WORDS/COMP_CWORD as readline sets them)
#   ssdlab r<TAB>                 -> the subcommands starting with r in suite/cli/cmd_table.h
#   ssdlab run <TAB>              -> every profile file in profiles/ (by name)
#   ssdlab run x --target sim:<TAB> -> every model file in profiles/models/
#   ssdlab run --t<TAB>           -> --target, --tbw, --time-scale (run's --help)
# The expected lists come from the source tree's files, not from the program.
set -u
src=$SSDLAB_SRCDIR
comp=$src/completion/ssdlab.bash
fail=0
bash -n "$comp" || { echo "FAIL: bash -n $comp"; exit 1; }
# The program as `ssdlab` on PATH, as an installed one would be.
bindir=$(mktemp -d); trap 'rm -rf "$bindir"' EXIT
ln -s "$SSDLAB" "$bindir/ssdlab"
# An empty working directory: PROFILE also completes as a file name, and the test wants names only.
mkdir "$bindir/empty" && cd "$bindir/empty" || exit 1

# complete WORDS...: prints COMPREPLY sorted, one a line, for the line "WORDS" with the cursor at
# its end (the last word is the one completed; split at ':' as readline does with the default
# COMP_WORDBREAKS).
complete_line() {
	PATH="$bindir:$PATH" bash --norc --noprofile -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_ssdlab
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$comp" "$@"
}

expect() {	# expect NAME EXPECTED ACTUAL
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1"; echo "  expected: $(echo $2)"; echo "  got:      $(echo $3)"; fail=1
	else
		echo "ok: $1 -> $(echo $3)"
	fi
}

want=$(sed -n 's/^{"\(r[a-z-]*\)",.*/\1/p' "$src/suite/cli/cmd_table.h" | sort)
[ -n "$want" ] || { echo "FAIL: no r* command in cmd_table.h"; exit 1; }
expect "ssdlab r<TAB>" "$want" "$(complete_line ssdlab r)"

want=$(cd "$src/profiles" && ls *.yaml | sed 's/\.yaml$//' | sort)
got=$(complete_line ssdlab run "")
expect "ssdlab run <TAB>" "$want" "$got"

want=$(cd "$src/profiles/models" && ls *.yaml | sed 's/\.yaml$//' | sort)
expect "ssdlab run smoke --target sim:<TAB>" "$want" \
	"$(complete_line ssdlab run smoke --target sim :)"
want=$(cd "$src/profiles/models" && ls client*.yaml | sed 's/\.yaml$//' | sort)
expect "ssdlab run smoke --target sim:cl<TAB>" "$want" \
	"$(complete_line ssdlab run smoke --target sim : cl)"

want=$(printf '%s\n' --target --tbw --time-scale | sort)
expect "ssdlab run --t<TAB>" "$want" "$(complete_line ssdlab run --t)"
exit $fail
