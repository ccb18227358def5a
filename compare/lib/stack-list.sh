# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# compare/lib/stack-list.sh: stack_list OPTION LIST ALL prints LIST (comma-separated names, or
# all) checked against ALL (the stacks compare/ledger-guest --list-stacks names) as a comma list;
# a name not in ALL, or no name, is the caller's die (exit 2) naming OPTION. Sourced by
# compare/ab, compare/run and compare/ledger-guest, which take a list of stacks.
stack_list() {
	local s names=''
	[ "$2" != all ] || { echo "${3// /,}"; return 0; }
	for s in ${2//,/ }; do
		[[ " $3 " == *" $s "* ]] || die "$1: bad stack '$s' (allowed: a comma list of $3, or all)"
		names+="${names:+,}$s"
	done
	[ -n "$names" ] || die "$1: no stack named (allowed: a comma list of $3, or all)"
	echo "$names"
}
