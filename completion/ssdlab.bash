# SPDX-License-Identifier: MIT
# bash completion for ssdlab (installed as share/bash-completion/completions/ssdlab).
#
# Everything is asked from the program itself, so this file cannot drift from it: the
# subcommands from `ssdlab --help`, each one's long options from `ssdlab CMD --help`, the
# bundled profiles from `ssdlab profiles`, the virtual-SSD models from `ssdlab models`.
# It needs nothing from the bash-completion package (plain `complete -F`), and treats
# "sim:MODEL" as one word whatever COMP_WORDBREAKS says.

_ssdlab_cmds()
{
	"$1" --help 2>/dev/null | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'
}

_ssdlab_opts()
{
	"$1" "$2" --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u
}

# First column of a table whose first line is a header and which ends at a blank line (notes
# follow it in `ssdlab models`).
_ssdlab_names()
{
	"$1" "$2" 2>/dev/null | awk 'NR == 1 { next } /^[[:space:]]*$/ { exit } { print $1 }'
}

_ssdlab_files()
{
	local IFS=$'\n'
	COMPREPLY+=($(compgen -f -- "$1"))
}

_ssdlab()
{
	local prog=${COMP_WORDS[0]} cword=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]} cmd="" i w
	COMPREPLY=()

	# sim:MODEL split by COMP_WORDBREAKS into "sim" ":" "cur" (or "sim" ":" with cur ":")
	if [[ $cur == : && $prev == sim ]]; then
		COMPREPLY=($(compgen -W "$(_ssdlab_names "$prog" models)" -- ""))
		return
	fi
	if [[ $prev == : && ${COMP_WORDS[COMP_CWORD - 2]} == sim ]]; then
		COMPREPLY=($(compgen -W "$(_ssdlab_names "$prog" models)" -- "$cur"))
		return
	fi
	if [[ $cur == sim:* ]]; then
		# a COMP_WORDBREAKS without ':': complete the whole word
		COMPREPLY=($(compgen -P sim: -W "$(_ssdlab_names "$prog" models)" -- "${cur#sim:}"))
		return
	fi

	for ((i = 1; i < cword; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w != -* ]]; then
			cmd=$w
			break
		fi
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--help --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_ssdlab_cmds "$prog")" -- "$cur"))
		fi
		return
	fi

	case $prev in
	--target)
		COMPREPLY=($(compgen -P sim: -W "$(_ssdlab_names "$prog" models)" -- "$cur"))
		_ssdlab_files "$cur"
		return ;;
	--out|--journal|--like)
		local IFS=$'\n'
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--load|--save|--db)
		_ssdlab_files "$cur"
		return ;;
	--rw)
		COMPREPLY=($(compgen -W "read write randread randwrite randrw rw" -- "$cur"))
		return ;;
	--pattern)
		COMPREPLY=($(compgen -W "random zeros" -- "$cur"))
		return ;;
	--set|--seed|--time-scale|--chunk|--size|--tbw|--warning-c|--capacity|--bs|--qd|\
	--threads|--time|--amount|--ramp|--range|--rwmix-read|--random-distribution|\
	--compressibility|--write-time|--write-max|--yes-destroy)
		return ;;	# a value only the user knows
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_ssdlab_opts "$prog" "$cmd")" -- "$cur"))
		return
	fi
	case $cmd in
	run|check|plan|export-fio)
		COMPREPLY=($(compgen -W "$(_ssdlab_names "$prog" profiles)" -- "$cur"))
		_ssdlab_files "$cur" ;;
	models)
		COMPREPLY=($(compgen -W "$(_ssdlab_names "$prog" models)" -- "$cur"))
		_ssdlab_files "$cur" ;;
	analyze|report|resume|restore|compare)
		local IFS=$'\n'
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	io|quick)
		COMPREPLY=($(compgen -P sim: -W "$(_ssdlab_names "$prog" models)" -- "${cur#sim:}"))
		_ssdlab_files "$cur" ;;
	*)
		_ssdlab_files "$cur" ;;
	esac
}

complete -F _ssdlab ssdlab
