# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# compare/lib/command-line.sh: command_line ARG... sets args_line to the arguments as typed, for
# meta.env's command= (an argument holding white space in double quotes again); sourced by
# compare/run, compare/bare-metal and compare/two-host.
command_line() {
	local a
	args_line=''
	for a in "$@"; do
		[[ $a != *[[:space:]]* ]] || a="\"$a\""
		args_line+="${args_line:+ }$a"
	done
}
