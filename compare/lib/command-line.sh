# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# compare/lib/command-line.sh: command_line ARG... sets args_line to the arguments as typed, for
# the command= line of a results folder (meta.env, ab.env) and its report: each argument as a
# shell reads it back, in single quotes unless it is only letters, digits and _./,:=+-; sourced
# by compare/run, compare/ab, compare/bare-metal and compare/two-host.
command_line() {
	local a
	args_line=''
	for a in "$@"; do
		[[ $a =~ ^[A-Za-z0-9_./,:=+-]+$ ]] || a="'${a//\'/\'\\\'\'}'"
		args_line+="${args_line:+ }$a"
	done
}
